"""Analysis tests of structured_ops_codegen: what it declares, and what it refuses."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules/private:codegen.bzl", "StructuredOpsSourcesInfo")  # buildifier: disable=bzl-visibility (a test of a private rule)

def _declares_every_output_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[StructuredOpsSourcesInfo]
    headers = sorted([f.basename for f in info.headers.to_list()])
    sources = sorted([f.basename for f in info.sources.to_list()])
    asserts.equals(env, sorted([
        "CPUFunctions.h",
        "CUDAFunctions.h",
        "Functions.h",
        "MetaFunctions.h",
        "NativeFunctions.h",
        "NativeMetaFunctions.h",
        "Operators.h",
        "Types.h",
        "UnboxingFunctions.h",
    ]), headers)

    # 2 fixed sources (Operators.cpp, UnboxingFunctions.cpp) + 3 shards x (CPU, CUDA,
    # Meta, Common, Composite, unboxed kernels, operators: schemas and dispatcher API).
    asserts.equals(env, 2 + 3 * 7, len(sources))
    asserts.true(env, "Operators_2.cpp" in sources)
    asserts.true(env, "RegisterCUDA_2.cpp" in sources)
    asserts.true(env, "RegisterCodegenUnboxedKernels_2.cpp" in sources)
    asserts.true(env, "RegisterComposite_0.cpp" in sources)

    actions = analysistest.target_actions(env)
    gen = [a for a in actions if a.mnemonic == "StructuredOpsGen"]
    asserts.equals(env, 1, len(gen))  # one generator run for the whole library
    asserts.equals(env, len(headers) + len(sources), len(gen[0].outputs.to_list()))
    asserts.equals(env, "0", gen[0].env.get("PYTHONHASHSEED"))
    inputs = [f.basename for f in gen[0].inputs.to_list()]
    asserts.true(env, "demo_ops.yaml" in inputs)
    return analysistest.end(env)

declares_every_output_test = analysistest.make(_declares_every_output_impl)

def _rejects_zero_shards_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "shards must be at least 1, got 0")
    return analysistest.end(env)

rejects_zero_shards_test = analysistest.make(_rejects_zero_shards_impl, expect_failure = True)
