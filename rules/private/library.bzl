"""structured_ops_library: generated operator sources compiled into a cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":codegen.bzl", "structured_ops_codegen")

def structured_ops_library(
        name,
        yaml,
        cpp_namespace = None,
        deps = [],
        visibility = None,
        **kwargs):
    """Declares the operators of `yaml` as a C++ library.

    Generates the operator sources from `yaml` (one generator action), then compiles
    them into `cc_library(name)`. The generated headers are included as
    `#include "<name>/Operators.h"`, wherever the package is.

    Args:
      name: name of the cc_library; the generated files go to `<package>/<name>/`.
      yaml: label of the native_functions.yaml.
      cpp_namespace: C++ namespace of the generated code; defaults to `name`.
      deps: more cc_library dependencies of the generated code.
      visibility: visibility of the cc_library.
      **kwargs: passed to the cc_library (copts, tags, target_compatible_with, ...).
    """
    codegen = name + "_codegen"
    structured_ops_codegen(
        name = codegen,
        yaml = yaml,
        library = name,
        cpp_namespace = cpp_namespace or name,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags"),
    )
    for group in ["headers", "sources"]:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [codegen],
            output_group = group,
            visibility = ["//visibility:private"],
        )
    cc_library(
        name = name,
        hdrs = [":%s_headers" % name],
        srcs = [":%s_sources" % name],
        # `<name>/Operators.h` from any package (Bazel adds a virtual include dir).
        strip_include_prefix = name,
        include_prefix = name,
        deps = deps,
        visibility = visibility,
        **kwargs
    )
