"""no_exceptions_binary: a C++ binary built as --config=mobile builds it, for tests.

--config=mobile compiles the lite runtime without exceptions, unwind tables or RTTI
(.bazelrc). Errors then end the process where they are raised (runtime/error.h) instead
of unwinding to a catch block. Tests run this copy of a binary beside the default one
to show that a user sees the same messages and exit statuses either way.
"""

# The flags .bazelrc's `build:mobile` lines add for this; keep the two lists alike.
NO_EXCEPTIONS_COPTS = ["-fno-exceptions", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables"]
NO_RTTI_CXXOPTS = ["-fno-rtti"]

def _no_exceptions_transition_impl(settings, _attr):
    return {
        "//command_line_option:copt": settings["//command_line_option:copt"] + NO_EXCEPTIONS_COPTS,
        "//command_line_option:cxxopt": settings["//command_line_option:cxxopt"] + NO_RTTI_CXXOPTS,
    }

_no_exceptions_transition = transition(
    implementation = _no_exceptions_transition_impl,
    inputs = ["//command_line_option:copt", "//command_line_option:cxxopt"],
    outputs = ["//command_line_option:copt", "//command_line_option:cxxopt"],
)

def _no_exceptions_binary_impl(ctx):
    binary = ctx.attr.binary[0]
    executable = binary[DefaultInfo].files_to_run.executable
    link = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = link, target_file = executable, is_executable = True)
    return [DefaultInfo(
        executable = link,
        runfiles = ctx.runfiles(files = [link]).merge(binary[DefaultInfo].default_runfiles),
    )]

no_exceptions_binary = rule(
    implementation = _no_exceptions_binary_impl,
    doc = "`binary` built with -fno-exceptions, no unwind tables and -fno-rtti.",
    executable = True,
    attrs = {
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = _no_exceptions_transition,
            doc = "A cc_binary (or lite_runtime_binary).",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
