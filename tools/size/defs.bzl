"""lite_runtime_size_report: stripped sizes of a full and a pruned lite runtime, and what
each operator costs (tools/size/size_report.py)."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")

# The full runtime is measured with nothing selected: every operator and every dtype
# (--//config:dtypes empty), under the build's other flags.
def _every_dtype_impl(_settings, _attr):
    return {"//config:dtypes": []}

_every_dtype = transition(
    implementation = _every_dtype_impl,
    inputs = [],
    outputs = ["//config:dtypes"],
)

# The release build a user gets without --config=mobile (`tools/bazel build -c opt
# //ops:lite_runtime`): -O2, none of the mobile config's compiler and linker flags, no
# operator or dtype selection. What --config=mobile saves, flags and pruning together.
def _release_build_impl(_settings, _attr):
    return {
        "//command_line_option:compilation_mode": "opt",
        "//command_line_option:copt": [],
        "//command_line_option:cxxopt": [],
        "//command_line_option:linkopt": [],
        "//config:mobile": False,
        "//config:dtypes": [],
    }

_release_build = transition(
    implementation = _release_build_impl,
    inputs = [],
    outputs = [
        "//command_line_option:compilation_mode",
        "//command_line_option:copt",
        "//command_line_option:cxxopt",
        "//command_line_option:linkopt",
        "//config:mobile",
        "//config:dtypes",
    ],
)

def _size_report_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    full = ctx.attr.full[0][DefaultInfo].files_to_run.executable
    release = ctx.attr.release[0][DefaultInfo].files_to_run.executable
    every_operator = ctx.attr.every_operator[DefaultInfo].files_to_run.executable
    mobile = ctx.attr.mobile[DefaultInfo].files_to_run.executable
    groups = ctx.attr.selection[OutputGroupInfo]
    selection = groups.report.to_list() if "report" in dir(groups) else []
    report = ctx.actions.declare_file(ctx.label.name + ".txt")
    args = ctx.actions.args()
    args.add("--full", full)
    args.add("--every-operator", every_operator)
    args.add("--mobile", mobile)
    args.add("--release", release)
    if selection:
        args.add("--selection", selection[0])
    args.add("--nm", cc_toolchain.nm_executable)
    args.add("--objdump", cc_toolchain.objdump_executable)
    args.add("--strip", cc_toolchain.strip_executable)
    args.add("--output", report)
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [args],
        inputs = depset([full, every_operator, mobile, release] + selection, transitive = [cc_toolchain.all_files]),
        outputs = [report],
        mnemonic = "LiteRuntimeSizeReport",
        progress_message = "Measuring %{label}",
    )
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "#!/bin/sh\nexec cat \"$0.runfiles/_main/%s\"\n" % report.short_path, is_executable = True)
    return [DefaultInfo(
        files = depset([report]),
        executable = script,
        runfiles = ctx.runfiles(files = [report]),
    )]

_lite_runtime_size_report = rule(
    implementation = _size_report_impl,
    doc = "`tools/bazel run --config=mobile //ops:size_report` prints the report; `build` writes it.",
    attrs = {
        "full": attr.label(
            mandatory = True,
            cfg = _every_dtype,
            doc = "A lite_runtime_binary of every operator; measured at every dtype.",
        ),
        "every_operator": attr.label(
            mandatory = True,
            doc = "`full` again, at the build's dtypes (no transition).",
        ),
        "mobile": attr.label(mandatory = True, doc = "The pruned lite_runtime_binary."),
        "release": attr.label(
            mandatory = True,
            cfg = _release_build,
            doc = "`mobile` as the build without --config=mobile makes it (-c opt; every operator and dtype).",
        ),
        "selection": attr.label(mandatory = True, doc = "The pruned binary's `<name>_selected` target."),
        "_tool": attr.label(default = Label("//tools/size:size_report"), executable = True, cfg = "exec"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    executable = True,
    toolchains = use_cpp_toolchain(),
)

def lite_runtime_size_report(name, full, mobile, selection, **kwargs):
    """The size report of `mobile` against `full` (see _size_report_impl).

    Args:
      name: the target's name.
      full: a lite_runtime_binary of every operator; measured at every dtype, and at
        the build's dtypes.
      mobile: the pruned lite_runtime_binary.
      selection: the pruned binary's `<name>_selected` target.
      **kwargs: passed to the rule (visibility, tags).
    """
    _lite_runtime_size_report(
        name = name,
        full = full,
        every_operator = full,
        mobile = mobile,
        release = mobile,
        selection = selection,
        **kwargs
    )
