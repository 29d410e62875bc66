"""Public API of structured_ops: load rules from here, never from rules/private.

- structured_ops_library: an operator library from a native_functions.yaml, its meta
  functions and kernels; `selected_ops` prunes it to a selection (a selective build).
- operator_set / OperatorSetInfo: a set of operators, from a list, PyTorch's
  selected_operators.yaml, lite model files and other sets.
- selective_ops_aspect / SelectedOperatorsInfo: the aspect that `selected_ops`
  attributes apply, unioning every operator_set along `deps` and `data`.
- lite_runtime_binary: the lite interpreter's command line over a library's operators,
  pruned to a selection.
- StructuredOpsSourcesInfo: what a library's generator run wrote, and how.
- cuda_library / requires_cuda / CudaToolkitInfo: CUDA sources compiled by the
  machine's nvcc into objects C++ targets link; skipped unless --config=cuda.

Each rule, macro and provider documents its arguments or fields where it is defined;
docs/rules.md gathers them into one page (tools/docs/rules_doc.py writes it, and
//tests/tools:rules_doc_test fails when it is stale or an argument has no doc).
"""

load("//rules/private:codegen.bzl", _StructuredOpsSourcesInfo = "StructuredOpsSourcesInfo")
load(
    "//rules/private:cuda.bzl",
    _CudaToolkitInfo = "CudaToolkitInfo",
    _cuda_library = "cuda_library",
    _requires_cuda = "requires_cuda",
)
load("//rules/private:library.bzl", _structured_ops_library = "structured_ops_library")
load("//rules/private:lite_runtime.bzl", _lite_runtime_binary = "lite_runtime_binary")
load(
    "//rules/private:operator_set.bzl",
    _OperatorSetInfo = "OperatorSetInfo",
    _SelectedOperatorsInfo = "SelectedOperatorsInfo",
    _operator_set = "operator_set",
    _selective_ops_aspect = "selective_ops_aspect",
)

structured_ops_library = _structured_ops_library
lite_runtime_binary = _lite_runtime_binary
operator_set = _operator_set
OperatorSetInfo = _OperatorSetInfo
SelectedOperatorsInfo = _SelectedOperatorsInfo
selective_ops_aspect = _selective_ops_aspect
StructuredOpsSourcesInfo = _StructuredOpsSourcesInfo
cuda_library = _cuda_library
requires_cuda = _requires_cuda
CudaToolkitInfo = _CudaToolkitInfo
