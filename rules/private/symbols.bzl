"""The symbols of a library's kernels, read once with the C++ toolchain's `nm -A -C`: the
kernel check and every selective build of the library read the same file.

The same action checks them (`opgen check-kernels`, codegen/kernel_check.py): it fails,
at the yaml line of each, when no object defines a kernel or meta function that the
library's generated code calls, instead of a binary failing to link later with no file
or line. The library depends on this target, so that building it runs the check (the
_validation output group)."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")
load(":codegen.bzl", "GENERATOR_ATTRS", "PYTHON_TOOLCHAIN", "StructuredOpsSourcesInfo", "generator_args", "generator_command")

def _kernel_symbols_impl(ctx):
    # The objects of everything the kernels link (their deps included: kernels may live
    # there), read directly so that no archive is made for this (adding a kernel then
    # re-archives nothing); the static archives of libraries that come without their
    # objects (precompiled ones), and the shared libraries that come without either.
    readable, shared = [], []  # objects and archives; shared libraries
    for linker_input in ctx.attr.kernels[CcInfo].linking_context.linker_inputs.to_list():
        for lib in linker_input.libraries:
            objects = lib.pic_objects or lib.objects
            archive = lib.static_library or lib.pic_static_library
            if objects:
                readable.extend(objects)
            elif archive:
                readable.append(archive)
            elif lib.dynamic_library:
                shared.append(lib.dynamic_library)
    output = ctx.actions.declare_file(ctx.label.name + ".txt")
    cc_toolchain = find_cpp_toolchain(ctx)
    args = ctx.actions.args()
    args.add(cc_toolchain.nm_executable)
    args.add(output)
    args.add_all(readable)
    args.add_all(shared, before_each = "-D")
    arguments = [args]
    inputs = readable + shared
    transitive = [cc_toolchain.all_files]
    tools = []
    message = "Reading the symbols of the kernels of %{label}"
    if ctx.attr.library_codegen:
        # Then the check, in the same action: `-- PYTHON LAUNCHER ARGS` after the files.
        info = ctx.attr.library_codegen[StructuredOpsSourcesInfo]
        check, check_inputs = generator_args(ctx, info, None, ctx.attr.static_dispatch, command = "check-kernels")
        check.add("--no-warnings")  # the generator's own run has shown them
        check.add("--kernel-symbols", output)
        command = generator_command(ctx)
        separator = ctx.actions.args()
        separator.add_all(["--", command.executable])
        arguments += [separator, command.launcher, check]
        inputs += check_inputs
        transitive += command.files
        tools = command.tools
        message = "Reading the symbols of the kernels of %{label} and checking that they define every declared kernel"
    ctx.actions.run_shell(
        command = 'nm="$1" out="$2"; shift 2; : > "$out"; while [ $# -gt 0 ]; do ' +
                  'case "$1" in -D) "$nm" -A -C -D "$2" >> "$out"; shift 2 ;; ' +
                  '--) shift; exec "$@" ;; *) "$nm" -A -C "$1" >> "$out"; shift ;; esac; done',
        arguments = arguments,
        inputs = depset(inputs, transitive = transitive),
        tools = tools,
        outputs = [output],
        mnemonic = "StructuredOpsKernelSymbols",
        progress_message = message,
        env = {"PYTHONHASHSEED": "0"},
    )
    validation = [output] if ctx.attr.library_codegen else []
    return [
        DefaultInfo(files = depset([output])),
        # CcInfo: the library's cc_library depends on this target to run the check.
        CcInfo(),
        OutputGroupInfo(_validation = depset(validation)),
    ]

structured_ops_kernel_symbols = rule(
    implementation = _kernel_symbols_impl,
    doc = "`nm -A -C` of a library's kernels and of everything they link, in one file; with " +
          "`library_codegen`, also the check that they define every declared kernel.",
    attrs = GENERATOR_ATTRS | {
        "kernels": attr.label(
            mandatory = True,
            providers = [CcInfo],
            doc = "The cc_library of the library's kernels and meta functions.",
        ),
        "library_codegen": attr.label(
            providers = [StructuredOpsSourcesInfo],
            doc = "The library's generator target (structured_ops_codegen): check the kernels " +
                  "against it. None: only read the symbols.",
        ),
        "static_dispatch": attr.bool(default = False),
    },
    toolchains = use_cpp_toolchain() + [PYTHON_TOOLCHAIN],
)
