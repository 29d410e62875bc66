"""The symbols of a library's kernels, read once with the C++ toolchain's `nm -A -C`: the
kernel check and every selective build of the library read the same file."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")

def _kernel_symbols_impl(ctx):
    # The objects of everything the kernels link (their deps included: kernels may live
    # there), read directly so that no archive is made for this (adding a kernel then
    # re-archives nothing); the static archives of libraries that come without their
    # objects (precompiled ones), and the shared libraries that come without either.
    archives, shared = [], []
    for linker_input in ctx.attr.kernels[CcInfo].linking_context.linker_inputs.to_list():
        for lib in linker_input.libraries:
            objects = lib.pic_objects or lib.objects
            archive = lib.static_library or lib.pic_static_library
            if objects:
                archives.extend(objects)
            elif archive:
                archives.append(archive)
            elif lib.dynamic_library:
                shared.append(lib.dynamic_library)
    output = ctx.actions.declare_file(ctx.label.name + ".txt")
    cc_toolchain = find_cpp_toolchain(ctx)
    args = ctx.actions.args()
    args.add(cc_toolchain.nm_executable)
    args.add(output)
    args.add_all(archives)
    args.add_all(shared, before_each = "-D")
    ctx.actions.run_shell(
        command = 'nm="$1" out="$2"; shift 2; : > "$out"; while [ $# -gt 0 ]; do ' +
                  'if [ "$1" = -D ]; then "$nm" -A -C -D "$2" >> "$out"; shift 2; ' +
                  'else "$nm" -A -C "$1" >> "$out"; shift; fi; done',
        arguments = [args],
        inputs = depset(archives + shared, transitive = [cc_toolchain.all_files]),
        outputs = [output],
        mnemonic = "StructuredOpsKernelSymbols",
        progress_message = "Reading the symbols of the kernels of %{label}",
    )
    return [DefaultInfo(files = depset([output]))]

structured_ops_kernel_symbols = rule(
    implementation = _kernel_symbols_impl,
    doc = "`nm -A -C` of a library's kernels and of everything they link, in one file.",
    attrs = {
        "kernels": attr.label(
            mandatory = True,
            providers = [CcInfo],
            doc = "The cc_library of the library's kernels and meta functions.",
        ),
    },
    toolchains = use_cpp_toolchain(),
)
