"""The check that a library's sources define every kernel and meta function its yaml
declares: a validation action, so that building the library fails at the yaml line of a
missing kernel instead of a binary failing to link later with no file or line."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "use_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")
load(":codegen.bzl", "GENERATOR_ATTRS", "PYTHON_TOOLCHAIN", "StructuredOpsSourcesInfo", "generator_args", "run_generator")
load(":symbols.bzl", "NM_ATTRS", "kernel_libraries", "read_symbols")

def _kernel_check_impl(ctx):
    info = ctx.attr.library_codegen[StructuredOpsSourcesInfo]
    archives, shared = kernel_libraries(ctx.attr.kernels, transitive = True)
    symbols = ctx.actions.declare_file(ctx.label.name + ".symbols.txt")
    read_symbols(ctx, archives, shared, symbols, "Reading what the kernels of %{label} define")
    stamp = ctx.actions.declare_file(ctx.label.name + ".ok")
    args, inputs = generator_args(ctx, info, None, ctx.attr.static_dispatch, command = "check-kernels")
    args.add("--no-warnings")  # the generator's own run has shown them
    args.add("--kernel-symbols", symbols)
    args.add("--stamp", stamp)
    run_generator(
        ctx,
        args,
        inputs + [symbols],
        [stamp],
        "Checking that the sources of %{label} define every declared kernel",
        mnemonic = "StructuredOpsKernelCheck",
    )

    # CcInfo: the library's cc_library depends on this target, so that building the
    # library runs the check (the _validation output group of everything it depends on).
    return [CcInfo(), OutputGroupInfo(_validation = depset([stamp]))]

structured_ops_kernel_check = rule(
    implementation = _kernel_check_impl,
    doc = "Fails the build, at each yaml line, when no object of `kernels` (or of what it " +
          "links) defines a kernel or meta function that the library's generated code calls.",
    attrs = GENERATOR_ATTRS | NM_ATTRS | {
        "kernels": attr.label(
            mandatory = True,
            providers = [CcInfo],
            doc = "The cc_library of the library's kernels and meta functions, with its deps.",
        ),
        "library_codegen": attr.label(
            mandatory = True,
            providers = [StructuredOpsSourcesInfo],
            doc = "The library's generator target (structured_ops_codegen).",
        ),
        "static_dispatch": attr.bool(default = False),
    },
    toolchains = use_cpp_toolchain() + [PYTHON_TOOLCHAIN],
)
