"""Public API of structured_ops: load rules from here, never from rules/private."""

load("//rules/private:codegen.bzl", _StructuredOpsSourcesInfo = "StructuredOpsSourcesInfo")
load("//rules/private:library.bzl", _structured_ops_library = "structured_ops_library")

structured_ops_library = _structured_ops_library
StructuredOpsSourcesInfo = _StructuredOpsSourcesInfo
