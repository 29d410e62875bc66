"""Analysis tests of operator_set, the selective_ops aspect and the selected sources."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:defs.bzl", "OperatorSetInfo")

def _names(files):
    return sorted([f.basename for f in files])

def _operator_set_provider_impl(ctx):
    env = analysistest.begin(ctx)
    info = analysistest.target_under_test(env)[OperatorSetInfo]
    labels = sorted([label.name for label in info.labels.to_list()])
    asserts.equals(env, ["from_model", "listed", "union"], labels)
    asserts.equals(
        env,
        ["from_model.operators.json", "listed.operators.json", "union.operators.json"],
        _names(info.files.to_list()),
    )

    # The set's own action reads nothing but its own sources: here, none but the rule's.
    actions = [a for a in analysistest.target_actions(env) if a.mnemonic == "OperatorSet"]
    asserts.equals(env, 1, len(actions))
    asserts.equals(env, "0", actions[0].env.get("PYTHONHASHSEED"))
    return analysistest.end(env)

operator_set_provider_test = analysistest.make(_operator_set_provider_impl)

def _generator_action(env):
    gen = [a for a in analysistest.target_actions(env) if a.mnemonic == "StructuredOpsGen"]
    asserts.equals(env, 1, len(gen))
    return gen[0]

def _aspect_unions_deps_impl(ctx):
    env = analysistest.begin(ctx)
    gen = _generator_action(env)

    # app -> app_base -> listed, and app -> traced_mlp: both sets reach the generator.
    sets = [f.basename for f in gen.inputs.to_list() if f.basename.endswith(".operators.json")]
    asserts.equals(env, ["listed.operators.json", "traced_mlp.operators.json"], sorted(sets))
    return analysistest.end(env)

aspect_unions_deps_test = analysistest.make(_aspect_unions_deps_impl)

def _selected_sources_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    gen = _generator_action(env)
    outputs = _names(gen.outputs.to_list())

    # Sources only (the headers stay the full library's), and the selection report.
    asserts.false(env, [n for n in outputs if n.endswith(".h")])
    asserts.true(env, "traced_mlp_runtime_selected.selection.txt" in outputs)
    asserts.true(env, "RegisterCodegenUnboxedKernels_0.cpp" in outputs)
    inputs = _names(gen.inputs.to_list())
    asserts.true(env, "aten_kernel_symbols.txt" in inputs)  # the library's, read once
    asserts.true(env, "traced_mlp.operators.json" in inputs)
    asserts.true(env, "report" in dir(target[OutputGroupInfo]))
    return analysistest.end(env)

selected_sources_test = analysistest.make(_selected_sources_impl)

def _kernel_symbols_impl(ctx):
    env = analysistest.begin(ctx)

    # The kernels' symbols come from their objects (no archive is made for it), through
    # the toolchain's nm.
    nm = [a for a in analysistest.target_actions(env) if a.mnemonic == "StructuredOpsKernelSymbols"]
    asserts.equals(env, 1, len(nm))
    inputs = nm[0].inputs.to_list()
    objects = [f for f in inputs if "/_objs/aten_kernels/" in f.path and f.extension == "o"]
    asserts.true(env, len(objects) >= 1, "the nm action reads aten's kernel objects")
    archives = [f.basename for f in inputs if f.basename.startswith("libaten_kernels")]
    asserts.equals(env, [], archives, "the nm action reads no archive of aten's kernels")
    return analysistest.end(env)

kernel_symbols_test = analysistest.make(_kernel_symbols_impl)

def _rejects_no_operator_set_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "no operator_set was found in")
    return analysistest.end(env)

rejects_no_operator_set_test = analysistest.make(_rejects_no_operator_set_impl, expect_failure = True)
