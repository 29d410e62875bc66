"""By their symbols: binaries of statically dispatched libraries link no dispatcher.

`nm -C` lists every symbol of the linked test binaries (//tests/static_dispatch's
cc_tests, linkstatic): none of the dispatcher's classes and registrars may be there,
while the dispatcher API, the static entry points it calls and their wrappers are.
"""

import os
import pathlib
import subprocess

import pytest

BINARIES = {
    "aten_static_test": os.environ["ATEN_STATIC_TEST"],
    "two_backends_test": os.environ["TWO_BACKENDS_TEST"],
    # An interpreter's build: the boxed registry over statically dispatched operators.
    "golden_runner_static_test": os.environ["GOLDEN_RUNNER_STATIC_TEST"],
}
FORBIDDEN = (
    "sops::Dispatcher",
    "sops::RegisterKernel",
    "sops::RegisterOperator",
    "sops::RegisterFallthrough",
    "sops::TypedOperatorHandle",
    "sops::OperatorHandle",
)
# Present in every build: the dispatcher API, the static entry points it switches to
# (backend, Meta and composite ones), the backend key rule.
EXPECTED = {
    "aten_static_test": (
        "sops::aten::add(",
        "sops::aten::cpu::add(",
        "sops::aten::meta::add(",
        "sops::aten::linear(",
        "sops::aten::compositeimplicitautograd::linear(",
        "sops::aten::compositeexplicitautograd::relu_out(",
        "sops::throw_no_kernel(",
    ),
    "two_backends_test": (
        "two::ops::add(",
        "two::ops::cpu::add(",
        "two::ops::cuda::add(",
        "two::ops::compositeexplicitautograd::scale(",
        "two::ops::common::mul(",
    ),
    "golden_runner_static_test": (
        "sops::OperatorRegistry::register_kernels(",
        "sops::aten::register_aten_kernels(",
        "sops::aten::unboxing::add_Tensor(",
        "sops::aten::add(",
        "sops::aten::cpu::add(",
    ),
}
# The wrappers themselves (file-local functions: an optimized build may inline them).
WRAPPERS = {
    "aten_static_test": (
        "wrapper_CPU_add_Tensor(",
        "wrapper_Meta_add_Tensor(",
        "wrapper_CompositeImplicitAutograd_linear(",
    ),
    "two_backends_test": (
        "wrapper_CPU_add_Tensor(",
        "wrapper_CUDA_add_Tensor(",
        "wrapper_Common_mul_Tensor(",
    ),
    "golden_runner_static_test": ("wrapper_CPU_add_Tensor(",),
}


def symbols(name):
    path = pathlib.Path(BINARIES[name])
    assert path.is_file(), path
    result = subprocess.run(["nm", "-C", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("name", sorted(BINARIES))
def test_no_dispatcher_symbol_is_linked(name):
    lines = symbols(name)
    found = [line for line in lines if any(f in line for f in FORBIDDEN)]
    assert not found, f"{name} links the dispatcher:\n" + "\n".join(found[:20])


@pytest.mark.parametrize("name", sorted(BINARIES))
def test_the_statically_dispatched_functions_are_linked(name):
    text = "\n".join(symbols(name))
    missing = [s for s in EXPECTED[name] if s not in text]
    assert not missing, (
        f"{name} lacks {missing}: the control finds nothing, so the check above proves nothing"
    )
    if os.environ.get("COMPILATION_MODE") != "opt":
        missing = [s for s in WRAPPERS[name] if s not in text]
        assert not missing, f"{name} lacks the wrappers {missing}"


def test_the_check_finds_the_dispatcher_where_it_is_linked():
    """The control: //ops:aten (registered with the dispatcher), linked the same way."""
    path = os.environ["DISPATCHER_CONTROL"]
    lines = subprocess.run(
        ["nm", "-C", path], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    for symbol in ("sops::Dispatcher", "sops::RegisterKernel", "sops::RegisterOperator"):
        assert any(symbol in line for line in lines), f"{symbol} not found in {path}"
