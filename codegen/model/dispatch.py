"""Dispatch keys and the kernels an entry's `dispatch:` table names.

`SUPPORTED_KEYS` are the keys a `dispatch:` table may use (the same set torchgen
accepts); `KNOWN_KEYS` adds the runtime keys that exist but cannot be listed there,
so a message can tell "misspelled" from "not allowed here".
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_KERNEL_NAMESPACE = "at::native"

COMPOSITE_IMPLICIT = "CompositeImplicitAutograd"
COMPOSITE_IMPLICIT_NESTED = "CompositeImplicitAutogradNestedTensor"
COMPOSITE_EXPLICIT = "CompositeExplicitAutograd"
COMPOSITE_EXPLICIT_NON_FUNCTIONAL = "CompositeExplicitAutogradNonFunctional"
COMPOSITE_KEYS = (
    COMPOSITE_IMPLICIT,
    COMPOSITE_IMPLICIT_NESTED,
    COMPOSITE_EXPLICIT,
    COMPOSITE_EXPLICIT_NON_FUNCTIONAL,
)

SUPPORTED_KEYS = (
    "CPU",
    "SparseCPU",
    "SparseCsrCPU",
    "MkldnnCPU",
    "CUDA",
    "SparseCUDA",
    "SparseCsrCUDA",
    "MPS",
    "SparseMPS",
    "SparseCsrMPS",
    "XPU",
    "SparseXPU",
    "SparseCsrXPU",
    "QuantizedCPU",
    "QuantizedCUDA",
    "NestedTensorCPU",
    "NestedTensorCUDA",
    "NestedTensorXPU",
    "NestedTensorHPU",
    "Meta",
    "SparseMeta",
    "SparseCsrMeta",
    "QuantizedMeta",
    "NestedTensorMeta",
    "ZeroTensor",
    "MTIA",
) + COMPOSITE_KEYS
SUPPORTED_KEY_SET = frozenset(SUPPORTED_KEYS)

_BACKENDS = (
    "CPU",
    "CUDA",
    "HIP",
    "XLA",
    "MTIA",
    "MPS",
    "IPU",
    "XPU",
    "HPU",
    "VE",
    "Lazy",
    "Meta",
    "PrivateUse1",
    "PrivateUse2",
    "PrivateUse3",
)
_FUNCTIONALITIES = ("", "Quantized", "Sparse", "SparseCsr", "NestedTensor", "Autograd")
KNOWN_KEYS = frozenset(
    [f + b for f in _FUNCTIONALITIES for b in _BACKENDS]
    + [
        "FPGA",
        "MAIA",
        "Vulkan",
        "Metal",
        "MKLDNN",
        "OpenGL",
        "OpenCL",
        "IDEEP",
        "MkldnnCPU",
        "Sparse",
        "SparseCsr",
        "NestedTensor",
        "Dense",
        "Python",
        "ZeroTensor",
        "Conjugate",
        "Negative",
        "BackendSelect",
        "Named",
        "AutogradOther",
        "AutogradFunctionality",
        "AutogradNestedTensor",
        "Tracer",
        "Autocast",
        "AutocastCPU",
        "AutocastCUDA",
        "AutocastXPU",
        "Batched",
        "VmapMode",
        "Functionalize",
        "ADInplaceOrView",
        "Autograd",
        "FuncTorchBatched",
        "FuncTorchBatchedDecomposition",
        "CatchAll",
        "Undefined",
    ]
    + list(COMPOSITE_KEYS)
)

# Keys whose kernels of a `structured: True` function are structured (meta + impl).
STRUCTURED_KEYS = frozenset(("CPU", "CUDA", "MPS", "XPU", "MTIA"))
# Keys whose kernels `ufunc_inner_loop` generates.
UFUNC_KEYS = ("CPU", "CUDA")


@dataclass(frozen=True, slots=True)
class BackendMetadata:
    """The kernel one dispatch key runs for one function."""

    kernel: str  # the C++ function name, without namespace
    structured: bool  # a structured kernel (meta + impl) rather than a plain function
    cpp_namespace: str = DEFAULT_KERNEL_NAMESPACE

    def supports_symint(self) -> bool:
        return "_symint" in self.kernel


def split_kernel_name(value: str) -> tuple[str, str]:
    """`ns::sub::kernel` -> (`ns::sub::native`, `kernel`); a bare name lives in at::native."""
    parts = value.split("::")
    if len(parts) == 1:
        return DEFAULT_KERNEL_NAMESPACE, value
    return "::".join(parts[:-1]) + "::native", parts[-1]
