"""Analysis tests of the CUDA rules (rules/private/cuda.bzl): the nvcc actions that
cuda_library declares, what it links, the architectures flag, and requires_cuda()'s
two branches. They run with a stand-in toolkit, so they need no CUDA on the machine."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc:defs.bzl", "CcInfo")

# Flags named as labels of this module (a plain "//config:cuda" would be read in
# bazel_skylib's repository, where analysistest applies the settings).
_FLAG = str(Label("//config:cuda"))
_ARCHS = str(Label("//config:cuda_archs"))
_TOOLKIT = str(Label("//config:cuda_toolkit"))

_CUDA = {
    "//command_line_option:compilation_mode": "opt",
    _FLAG: True,
    _TOOLKIT: str(Label("//tests/cuda:stand_in_toolkit")),
}

def _compile_actions(env):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == "CudaCompile"]

def _compiles_each_source_with_nvcc_impl(ctx):
    env = analysistest.begin(ctx)
    actions = _compile_actions(env)
    asserts.equals(env, ["one.cu", "two.cu"], sorted([
        [f.basename for f in a.inputs.to_list() if f.extension == "cu"][0]
        for a in actions
    ]))
    for a in actions:
        argv = a.argv
        asserts.equals(env, "/stand-in/bin/nvcc", argv[0])
        for flag in [
            "-c",
            "-std=c++17",
            "-O3",
            "-gencode=arch=compute_90,code=sm_90",
            "-gencode=arch=compute_90,code=compute_90",
            "-DSTAND_IN_RUNTIME",
            "--extra-flag",
            # The build's C++ dialect reaches the host compiler; its -O and -flto do not.
            "-Xcompiler=-fno-exceptions",
            "-Xcompiler=-fno-rtti",
            "-Xcompiler=-DFROM_COPT",
        ]:
            asserts.true(env, flag in argv, "%s not in %s" % (flag, argv))
        asserts.false(env, "-Xcompiler=-flto" in argv, "-flto reached nvcc")
        asserts.true(
            env,
            "stand_in.h" in [f.basename for f in a.inputs.to_list()],
            "a dependency's headers are the action's inputs",
        )
    target = analysistest.target_under_test(env)
    linked = [
        lib.pic_static_library or lib.static_library
        for li in target[CcInfo].linking_context.linker_inputs.to_list()
        for lib in li.libraries
    ]
    asserts.true(env, len(linked) >= 1, "the objects are linked as a static library")
    return analysistest.end(env)

compiles_each_source_with_nvcc_test = analysistest.make(
    _compiles_each_source_with_nvcc_impl,
    config_settings = _CUDA | {
        "//command_line_option:copt": ["-fno-exceptions", "-flto", "-DFROM_COPT"],
        "//command_line_option:cxxopt": ["-fno-rtti"],
    },
)

def _archs_flag_impl(ctx):
    env = analysistest.begin(ctx)
    for a in _compile_actions(env):
        gencode = [arg for arg in a.argv if arg.startswith("-gencode")]
        asserts.equals(env, ["-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_89,code=sm_89"], gencode)
    return analysistest.end(env)

archs_flag_test = analysistest.make(
    _archs_flag_impl,
    config_settings = _CUDA | {_ARCHS: ["sm_80", "sm_89"]},
)

def _rejects_a_bad_arch_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "--//config:cuda_archs has 'volta'; expected sm_NN")
    return analysistest.end(env)

rejects_a_bad_arch_test = analysistest.make(
    _rejects_a_bad_arch_impl,
    expect_failure = True,
    config_settings = _CUDA | {_ARCHS: ["volta"]},
)

def _names_a_missing_toolkit_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "needs a CUDA toolkit, and none was found: nothing at /nowhere")
    return analysistest.end(env)

names_a_missing_toolkit_test = analysistest.make(
    _names_a_missing_toolkit_impl,
    expect_failure = True,
    config_settings = _CUDA | {_TOOLKIT: str(Label("//tests/cuda:missing_toolkit"))},
)

# requires_cuda(), read through a probe whose label_list attribute holds it.
CompatibilityInfo = provider(doc = "What a probe's requires_cuda() resolved to.", fields = {"labels": "list of Label"})

def _probe_impl(ctx):
    return [CompatibilityInfo(labels = [t.label for t in ctx.attr.constraints])]

requires_cuda_probe = rule(
    implementation = _probe_impl,
    attrs = {"constraints": attr.label_list()},
)

def _incompatible_without_cuda_impl(ctx):
    env = analysistest.begin(ctx)
    labels = analysistest.target_under_test(env)[CompatibilityInfo].labels
    asserts.equals(env, ["@@platforms//:incompatible"], [str(label) for label in labels])
    return analysistest.end(env)

incompatible_without_cuda_test = analysistest.make(
    _incompatible_without_cuda_impl,
    config_settings = {_FLAG: False},
)

def _compatible_with_cuda_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, [], analysistest.target_under_test(env)[CompatibilityInfo].labels)
    return analysistest.end(env)

compatible_with_cuda_test = analysistest.make(
    _compatible_with_cuda_impl,
    config_settings = {_FLAG: True},
)
