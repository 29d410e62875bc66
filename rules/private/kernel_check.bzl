"""The check that a library's sources define every kernel and meta function its yaml
declares: a validation action, so that building the library fails at the yaml line of a
missing kernel instead of a binary failing to link later with no file or line."""

load("@rules_cc//cc:defs.bzl", "CcInfo")
load(":codegen.bzl", "GENERATOR_ATTRS", "PYTHON_TOOLCHAIN", "StructuredOpsSourcesInfo", "generator_args", "run_generator")

def _kernel_check_impl(ctx):
    info = ctx.attr.library_codegen[StructuredOpsSourcesInfo]
    symbols = ctx.file.kernel_symbols
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
    doc = "Fails the build, at each yaml line, when no object of the kernels (or of what " +
          "they link) defines a kernel or meta function that the library's generated code calls.",
    attrs = GENERATOR_ATTRS | {
        "kernel_symbols": attr.label(
            mandatory = True,
            allow_single_file = True,
            doc = "The kernels' symbols (structured_ops_kernel_symbols).",
        ),
        "library_codegen": attr.label(
            mandatory = True,
            providers = [StructuredOpsSourcesInfo],
            doc = "The library's generator target (structured_ops_codegen).",
        ),
        "static_dispatch": attr.bool(default = False),
    },
    toolchains = [PYTHON_TOOLCHAIN],
)
