"""The generator action: one run of //codegen:generate per library, every output declared."""

# The files one generator run writes, in the library's own directory. They are fixed,
# so they are declared at analysis time from the attributes alone.
GENERATED_HEADERS = ["Operators.h"]
GENERATED_SOURCES = ["Operators.cpp"]

StructuredOpsSourcesInfo = provider(
    doc = "The C++ sources that the generator wrote for one operator library.",
    fields = {
        "headers": "depset of File: the generated headers.",
        "sources": "depset of File: the generated .cpp files.",
        "yaml": "File: the native_functions.yaml they came from.",
    },
)

def _structured_ops_codegen_impl(ctx):
    def declare(names):
        return [ctx.actions.declare_file("%s/%s" % (ctx.attr.library, n)) for n in names]

    headers = declare(GENERATED_HEADERS)
    sources = declare(GENERATED_SOURCES)
    outputs = headers + sources

    args = ctx.actions.args()
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    args.add("--yaml", ctx.file.yaml)
    args.add("--yaml-label", ctx.file.yaml.short_path)
    args.add("--namespace", ctx.attr.cpp_namespace)
    args.add_all(outputs)

    ctx.actions.run(
        executable = ctx.executable._generator,
        arguments = [args],
        inputs = [ctx.file.yaml],
        outputs = outputs,
        mnemonic = "StructuredOpsGen",
        progress_message = "Generating operators of %{label} from " + ctx.file.yaml.short_path,
        env = {"PYTHONHASHSEED": "0"},
    )
    return [
        DefaultInfo(files = depset(outputs)),
        OutputGroupInfo(
            headers = depset(headers),
            sources = depset(sources),
        ),
        StructuredOpsSourcesInfo(
            headers = depset(headers),
            sources = depset(sources),
            yaml = ctx.file.yaml,
        ),
    ]

structured_ops_codegen = rule(
    implementation = _structured_ops_codegen_impl,
    doc = "Runs the structured_ops generator over one native_functions.yaml.",
    attrs = {
        "cpp_namespace": attr.string(
            mandatory = True,
            doc = "C++ namespace of the generated code, e.g. `my_ops` or `acme::ops`.",
        ),
        "library": attr.string(
            mandatory = True,
            doc = "Directory (under this package's output) that receives the files.",
        ),
        "yaml": attr.label(
            mandatory = True,
            allow_single_file = [".yaml", ".yml"],
            doc = "The native_functions.yaml that declares the operators.",
        ),
        "_generator": attr.label(
            default = Label("//codegen:generate"),
            executable = True,
            cfg = "exec",
        ),
    },
)
