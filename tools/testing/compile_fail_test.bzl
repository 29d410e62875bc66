"""compile_fail_test: a C++ source must NOT compile, and the compiler must say why.

The compile runs as a build action (with the C++ toolchain of the build and the
headers of `deps`); it records the compiler's output and whether it compiled. The
test passes when the source failed to compile and every string of `expected`
appears in the compiler's output.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")

def _compile_fail_test_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    compilation = cc_common.merge_cc_infos(
        cc_infos = [dep[CcInfo] for dep in ctx.attr.deps],
    ).compilation_context

    log = ctx.actions.declare_file(ctx.label.name + ".compiler_output")
    args = ctx.actions.args()
    args.add(cc_toolchain.compiler_executable)
    args.add(log)
    args.add_all(["-x", "c++", "-std=c++17", "-fsyntax-only"])
    args.add_all(compilation.defines, before_each = "-D")
    args.add_all(compilation.includes, before_each = "-I")
    args.add_all(compilation.quote_includes, before_each = "-iquote")
    args.add_all(compilation.system_includes, before_each = "-isystem")
    args.add(ctx.file.src)
    ctx.actions.run_shell(
        inputs = depset([ctx.file.src], transitive = [compilation.headers, cc_toolchain.all_files]),
        outputs = [log],
        arguments = [args],
        # Record, never fail: `$1` the compiler, `$2` the log, then its arguments.
        command = 'cc="$1"; log="$2"; shift 2; if "$cc" "$@" >"$log" 2>&1; then echo "COMPILED: the source compiled" >>"$log"; fi',
        mnemonic = "CompileFail",
        progress_message = "Compiling %{label} (it must fail)",
    )

    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    checks = "\n".join([
        'grep -qF -- %s "$log" || { echo "missing from the compiler output: %s"; failed=1; }' % (
            _shell_quote(text),
            text.replace('"', "'"),
        )
        for text in ctx.attr.expected
    ])
    ctx.actions.write(script, is_executable = True, content = """#!/bin/bash
log="%s"
failed=0
if grep -q '^COMPILED: ' "$log"; then echo "%s compiled, but must not"; failed=1; fi
%s
if [ "$failed" != 0 ]; then echo "--- compiler output ---"; cat "$log"; fi
exit "$failed"
""" % (log.short_path, ctx.file.src.short_path, checks))
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = [log]))]

def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

compile_fail_test = rule(
    implementation = _compile_fail_test_impl,
    doc = "Passes when `src` fails to compile and the compiler's output holds every `expected` string.",
    test = True,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo], doc = "Libraries whose headers `src` includes."),
        "expected": attr.string_list(mandatory = True, doc = "Strings the compiler's output must hold."),
        "src": attr.label(allow_single_file = [".cc", ".cpp"], mandatory = True),
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
    },
    toolchains = use_cpp_toolchain(),
    fragments = ["cpp"],
)
