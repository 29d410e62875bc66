"""The generator action: one run of `//codegen:opgen generate` per library, every output declared."""

load("//codegen:outputs.bzl", "EXTRA_FAMILIES", "GENERATED_FILES")

def generated_files(backends, shards):
    """(name, is_header) of every generated file, as codegen/outputs.bzl lists them."""
    result = []
    for row in GENERATED_FILES:
        if "{key}" in row["name"]:
            names = [row["name"].format(key = k) for k in backends + ["Meta"]]
        elif "{family}" in row["name"]:
            names = [
                row["name"].format(family = family, shard = shard)
                for family in backends + EXTRA_FAMILIES
                for shard in range(shards)
            ]
        elif "{shard}" in row["name"]:
            names = [row["name"].format(shard = shard) for shard in range(shards)]
        else:
            names = [row["name"]]
        result += [(n, row["header"]) for n in names]
    return result

def generated_headers(backends):
    return [n for n, header in generated_files(backends, 1) if header]

def generated_sources(backends, shards):
    return [n for n, header in generated_files(backends, shards) if not header]

StructuredOpsSourcesInfo = provider(
    doc = "The C++ sources that the generator wrote for one operator library.",
    fields = {
        "headers": "depset of File: the generated headers.",
        "sources": "depset of File: the generated .cpp files.",
        "yaml": "File: the native_functions.yaml they came from.",
    },
)

def _structured_ops_codegen_impl(ctx):
    if ctx.attr.shards < 1:
        fail("shards must be at least 1, got %d" % ctx.attr.shards)

    def declare(names):
        return [ctx.actions.declare_file("%s/%s" % (ctx.attr.library, n)) for n in names]

    headers = declare(generated_headers(ctx.attr.backends))
    sources = declare(generated_sources(ctx.attr.backends, ctx.attr.shards))
    outputs = headers + sources

    args = ctx.actions.args()
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    args.add("generate")
    args.add(ctx.file.yaml)
    args.add("--source-label", ctx.file.yaml.short_path)
    inputs = [ctx.file.yaml]
    if ctx.file.tags_yaml:
        args.add("--tags", ctx.file.tags_yaml)
        inputs.append(ctx.file.tags_yaml)
    args.add("--namespace", ctx.attr.cpp_namespace)
    args.add("--include-prefix", ctx.attr.library)
    args.add_joined("--backends", ctx.attr.backends, join_with = ",")
    args.add("--shards", str(ctx.attr.shards))
    args.add("--output-dir", headers[0].dirname)
    if ctx.attr.static_dispatch:
        args.add("--static-dispatch")

    ctx.actions.run(
        executable = ctx.executable._generator,
        arguments = [args],
        inputs = inputs,
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
        "backends": attr.string_list(
            default = ["CPU"],
            doc = "Backend dispatch keys whose kernels the library registers (e.g. CPU, CUDA).",
        ),
        "cpp_namespace": attr.string(
            mandatory = True,
            doc = "C++ namespace of the generated code, e.g. `my_ops` or `acme::ops`.",
        ),
        "library": attr.string(
            mandatory = True,
            doc = "Directory (under this package's output) that receives the files; also the include prefix.",
        ),
        "shards": attr.int(
            default = 1,
            doc = "Registration files per family of dispatch keys (operators are spread by a stable hash).",
        ),
        "static_dispatch": attr.bool(
            default = False,
            doc = "Register nothing with the dispatcher: the dispatcher API (Functions.h) " +
                  "switches on the backend of its arguments and calls the kernels' static " +
                  "entry points directly (falling back to Common and the composite kernels " +
                  "as the dispatcher would), so no dispatcher is linked.",
        ),
        "tags_yaml": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "The tags.yaml that the yaml's `tags:` must come from (optional).",
        ),
        "yaml": attr.label(
            mandatory = True,
            allow_single_file = [".yaml", ".yml"],
            doc = "The native_functions.yaml that declares the operators.",
        ),
        "_generator": attr.label(
            default = Label("//codegen:opgen"),
            executable = True,
            cfg = "exec",
        ),
    },
)
