"""The generator action: one run of `//codegen:opgen generate` per library, every output declared."""

load("@rules_cc//cc:defs.bzl", "CcInfo", "cc_common")
load("//codegen:outputs.bzl", "EXTRA_FAMILIES", "GENERATED_FILES", "OPERATOR_HEADER_SHARDS")
load(":operator_set.bzl", "SelectedOperatorsInfo", "selective_ops_aspect")

def generated_files(backends, shards):
    """Every generated file of a library, as codegen/outputs.bzl lists them.

    The per-operator headers aside: they go into folders that the rule declares.

    Args:
      backends: the library's backends (dispatch keys), e.g. ["CPU", "CUDA"].
      shards: how many shards each sharded family of sources has.

    Returns:
      A list of (file name, whether it is a header).
    """
    result = []
    for row in GENERATED_FILES:
        if "{op}" in row["name"]:
            continue
        elif "{key}" in row["name"]:
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

# The generator, for the rules that run it (with `toolchains = [PYTHON_TOOLCHAIN]`): its
# sources and the pinned wheels it imports (MODULE.bazel).
GENERATOR_ATTRS = {
    "_generator": attr.label(
        default = Label("//codegen:action_main.py"),
        allow_single_file = True,
    ),
    "_generator_srcs": attr.label(default = Label("//codegen")),
    "_wheels": attr.label_list(default = [
        Label("@pypi_jinja2//:files"),
        Label("@pypi_markupsafe//:files"),
        Label("@pypi_pyyaml//:files"),
    ]),
}

PYTHON_TOOLCHAIN = "@bazel_tools//tools/python:toolchain_type"

StructuredOpsSourcesInfo = provider(
    doc = "The C++ sources that the generator wrote for one operator library, and how.",
    fields = {
        "headers": "depset of File: the generated headers.",
        "sources": "depset of File: the generated .cpp files.",
        "yaml": "File: the native_functions.yaml they came from.",
        "tags_yaml": "File or None: the tags.yaml the yaml's tags were checked against.",
        "autogen_kernels": "File or None: a backend's kernels for variants `autogen:` makes.",
        "library": "string: the library's name, the include prefix of its headers.",
        "cpp_namespace": "string: the C++ namespace of the generated code.",
        "backends": "list of string: the backend keys whose kernels are registered.",
        "shards": "int: registration files per family of dispatch keys.",
        "operator_headers": "bool: whether each operator has headers of its own (`<library>/ops/<root>.h`).",
    },
)

def generator_args(ctx, info, output_dir, static_dispatch, command = "generate"):
    """The arguments of one `opgen <command>` for a library, and the inputs they name.

    Args:
      ctx: the rule context making the action.
      info: a struct with StructuredOpsSourcesInfo's yaml, tags_yaml, autogen_kernels, library,
        cpp_namespace, backends, shards and operator_headers.
      output_dir: where generate writes (None for check-kernels, which writes nothing).
      static_dispatch: whether the library is statically dispatched.
      command: `generate` or `check-kernels`.

    Returns:
      (the action's Args, the list of input Files they name).
    """
    args = ctx.actions.args()
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    args.add(command)
    args.add(info.yaml)
    args.add("--source-label", info.yaml.short_path)
    inputs = [info.yaml]
    if info.tags_yaml:
        args.add("--tags", info.tags_yaml)
        inputs.append(info.tags_yaml)
    if info.autogen_kernels:
        args.add("--autogen-kernels", info.autogen_kernels)
        inputs.append(info.autogen_kernels)
    args.add("--namespace", info.cpp_namespace)
    args.add("--include-prefix", info.library)
    args.add_joined("--backends", info.backends, join_with = ",")
    args.add("--shards", str(info.shards))
    if info.operator_headers and command == "generate":
        # Where they go (the rule declares the folders); a --sources-only run writes none
        # but includes them.
        args.add("--op-headers", "%s/%s_ops" % (output_dir.rpartition("/")[0], info.library))
        args.add("--op-header-shards", str(OPERATOR_HEADER_SHARDS))
    if output_dir:
        args.add("--output-dir", output_dir)
    if static_dispatch:
        args.add("--static-dispatch")
    return args, inputs

def generator_command(ctx):
    """How an action runs the generator.

    The module's Python toolchain runs without site-packages (`-S -E`), importing only
    the generator's sources and the pinned wheels.

    Args:
      ctx: the rule context (with GENERATOR_ATTRS and the Python toolchain).

    Returns:
      A struct: `executable` (a path), `launcher` (the Args before the generator's own),
      `files` (depsets of the Files it reads) and `tools`.
    """
    runtime = ctx.toolchains[PYTHON_TOOLCHAIN].py3_runtime
    main = ctx.file._generator
    roots = [main.dirname.rpartition("/")[0] or "."]  # the directory holding codegen/
    roots += [w.label.workspace_root for w in ctx.attr._wheels]
    launcher = ctx.actions.args()
    launcher.add_all(["-S", "-E", "-B", main])
    launcher.add_all(roots)
    launcher.add("--")
    files = [ctx.attr._generator_srcs[DefaultInfo].default_runfiles.files]
    files += [w[DefaultInfo].files for w in ctx.attr._wheels]
    if runtime.files:
        files.append(runtime.files)
    return struct(
        executable = runtime.interpreter.path if runtime.interpreter else runtime.interpreter_path,
        launcher = launcher,
        files = files,
        tools = [runtime.interpreter] if runtime.interpreter else [],
    )

def run_generator(ctx, args, inputs, outputs, progress_message, mnemonic = "StructuredOpsGen", transitive = []):
    """Runs the generator hermetically, as one action.

    The module's Python toolchain runs without site-packages (`-S -E`), importing only the
    generator's sources and the pinned wheels.

    Args:
      ctx: the rule context making the action.
      args: the generator's Args (generator_args).
      inputs: the Files the action reads.
      outputs: the Files it writes.
      progress_message: the action's progress message.
      mnemonic: the action's mnemonic.
      transitive: depsets of further Files the action reads.
    """
    command = generator_command(ctx)
    ctx.actions.run(
        executable = command.executable,
        arguments = [command.launcher, args],
        inputs = depset(inputs, transitive = command.files + transitive),
        tools = command.tools,
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = progress_message,
        env = {"PYTHONHASHSEED": "0"},
    )

def _structured_ops_codegen_impl(ctx):
    if ctx.attr.shards < 1:
        fail("shards must be at least 1, got %d" % ctx.attr.shards)

    def declare(names):
        return [ctx.actions.declare_file("%s/%s" % (ctx.attr.library, n)) for n in names]

    headers = declare(generated_headers(ctx.attr.backends))
    op_dirs = []
    if ctx.attr.operator_headers:
        # Folders, not files (codegen/outputs.bzl says why): `#include "<library>/ops/<root>.h"`
        # finds the header in its shard's folder, each on the quote include path.
        op_dirs = [
            ctx.actions.declare_directory("%s_ops/%d" % (ctx.attr.library, i))
            for i in range(OPERATOR_HEADER_SHARDS)
        ]
    sources = declare(generated_sources(ctx.attr.backends, ctx.attr.shards))
    outputs = headers + sources

    info = struct(
        yaml = ctx.file.yaml,
        tags_yaml = ctx.file.tags_yaml,
        autogen_kernels = ctx.file.autogen_kernels,
        library = ctx.attr.library,
        cpp_namespace = ctx.attr.cpp_namespace,
        backends = ctx.attr.backends,
        shards = ctx.attr.shards,
        operator_headers = ctx.attr.operator_headers,
    )
    args, inputs = generator_args(ctx, info, headers[0].dirname, ctx.attr.static_dispatch)  # Types.h

    run_generator(ctx, args, inputs, outputs + op_dirs, "Generating operators of %{label} from " + ctx.file.yaml.short_path)

    # The sources of each backend (its wrappers, static entry points and registrations:
    # `backend_<KEY>`) apart from the rest (`shared_sources`), for a target per backend.
    by_backend = {
        key: [f for f in sources if f.basename.startswith("Register%s_" % key)]
        for key in ctx.attr.backends
    }
    backend_files = [f for files in by_backend.values() for f in files]
    groups = {"backend_" + key: depset(files) for key, files in by_backend.items()}
    return [
        DefaultInfo(files = depset(outputs + op_dirs)),
        OutputGroupInfo(
            headers = depset(headers),
            sources = depset(sources),
            shared_sources = depset([f for f in sources if f not in backend_files]),
            **groups
        ),
        StructuredOpsSourcesInfo(
            headers = depset(headers),
            sources = depset(sources),
            yaml = info.yaml,
            tags_yaml = info.tags_yaml,
            autogen_kernels = info.autogen_kernels,
            library = info.library,
            cpp_namespace = info.cpp_namespace,
            backends = info.backends,
            shards = info.shards,
            operator_headers = info.operator_headers,
        ),
        # The headers, for the library's headers target to depend on: included as
        # `<library>/Functions.h` from the folder above the output folder (no symlinks
        # into a virtual include folder, which a changed header would re-make), and the
        # per-operator headers from their folders.
        CcInfo(compilation_context = cc_common.create_compilation_context(
            headers = depset(headers + op_dirs),
            quote_includes = depset([headers[0].dirname[:-len(ctx.attr.library) - 1]] + [d.path for d in op_dirs]),
        )),
    ]

structured_ops_codegen = rule(
    implementation = _structured_ops_codegen_impl,
    doc = "Runs the structured_ops generator over one native_functions.yaml.",
    attrs = GENERATOR_ATTRS | {
        "autogen_kernels": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "A backend's kernels for variants `autogen:` makes, by dispatch key " +
                  "(codegen/model/backend_kernels.py): registered for that key instead of " +
                  "autogen's kernel, which copies (optional).",
        ),
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
        "operator_headers": attr.bool(
            default = False,
            doc = "Give each operator headers of its own (`<library>/ops/<root>.h`, " +
                  "`_native.h`, `_meta.h`), which the generated sources include alone.",
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
    },
    toolchains = [PYTHON_TOOLCHAIN],
)

def _selected_sources_impl(ctx):
    info = ctx.attr.library_codegen[StructuredOpsSourcesInfo]
    sources = [
        ctx.actions.declare_file("%s/%s" % (ctx.label.name, n))
        for n in generated_sources(info.backends, info.shards)
    ]
    args, inputs = generator_args(ctx, info, sources[0].dirname, ctx.attr.static_dispatch)
    args.add("--sources-only")
    if not ctx.attr.selected_ops:  # every operator
        run_generator(ctx, args, inputs, sources, "Generating the operators of %{label}")
        return [DefaultInfo(files = depset(sources)), _library_info(info)]
    sets = depset(transitive = [t[SelectedOperatorsInfo].files for t in ctx.attr.selected_ops])
    if not sets.to_list():
        fail("selected_ops of %s: no operator_set was found in %s, nor along their deps and data" %
             (ctx.label, ", ".join([str(t.label) for t in ctx.attr.selected_ops])))
    report = ctx.actions.declare_file(ctx.label.name + ".selection.txt")
    args.add("--selection-report", report)
    args.add_all("--selected-ops", sets)

    # Which operators the kernels' code calls: the linker's view of their objects.
    symbols = ctx.file.kernel_symbols
    args.add("--kernel-symbols", symbols)

    run_generator(
        ctx,
        args,
        inputs + [symbols],
        sources + [report],
        "Generating the selected operators of %{label}",
        transitive = [sets],
    )
    return [
        DefaultInfo(files = depset(sources)),
        OutputGroupInfo(report = depset([report])),
        _library_info(info),
    ]

SelectedLibraryInfo = provider(
    doc = "How a selective build's sources call into their library (for a generated main).",
    fields = {
        "library": "string: the library's include prefix (`aten`).",
        "register_function": "string: the qualified name of the call that registers its boxed kernels.",
    },
)

def _library_info(info):
    identifier = "".join([c if c.isalnum() else "_" for c in info.library.elems()])
    return SelectedLibraryInfo(
        library = info.library,
        register_function = "::%s::register_%s_kernels" % (info.cpp_namespace, identifier),
    )

structured_ops_selected_sources = rule(
    implementation = _selected_sources_impl,
    doc = "The sources of an operator library, generated for a selection of its operators " +
          "(codegen/selective/selector.py); its headers stay the full library's.",
    attrs = GENERATOR_ATTRS | {
        "kernel_symbols": attr.label(
            mandatory = True,
            allow_single_file = True,
            doc = "The symbols of the library's kernels (structured_ops_kernel_symbols): " +
                  "which operators their code calls.",
        ),
        "library_codegen": attr.label(
            mandatory = True,
            providers = [StructuredOpsSourcesInfo],
            doc = "The library's full generator target (structured_ops_codegen).",
        ),
        "selected_ops": attr.label_list(
            aspects = [selective_ops_aspect],
            doc = "operator_sets, or targets with operator_sets along their deps and data; " +
                  "empty: every operator.",
        ),
        "static_dispatch": attr.bool(default = True),
    },
    toolchains = [PYTHON_TOOLCHAIN],
)
