"""The symbols of a library's kernels, read with the C++ toolchain's `nm -A -C`."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")

# The C++ toolchain, for the rules that read symbols (with `toolchains = use_cpp_toolchain()`).
NM_ATTRS = {
    "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
}

def kernel_libraries(target, transitive = False):
    """The static archives that `target` (a cc_library) builds itself, or with `transitive`
    those of everything it links, and (transitive only) the shared libraries that come
    without an archive. Returns (archives, shared)."""
    archives, shared = [], []
    for linker_input in target[CcInfo].linking_context.linker_inputs.to_list():
        if not transitive and linker_input.owner != target.label:
            continue
        for lib in linker_input.libraries:
            archive = lib.static_library or lib.pic_static_library
            if archive:
                archives.append(archive)
            elif transitive and lib.dynamic_library:
                shared.append(lib.dynamic_library)
    return archives, shared

def read_symbols(ctx, archives, shared, output, progress_message):
    """One action: `nm -A -C` of each archive and `nm -A -C -D` of each shared library,
    into `output` (empty when there is nothing to read)."""
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
        progress_message = progress_message,
    )
