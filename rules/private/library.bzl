"""structured_ops_library: generated operator sources compiled into a cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":codegen.bzl", "structured_ops_codegen", "structured_ops_selected_sources")
load(":kernel_check.bzl", "structured_ops_kernel_check")
load(":symbols.bzl", "structured_ops_kernel_symbols")

def structured_ops_library(
        name,
        yaml,
        backends = ["CPU"],
        srcs = [],
        cpp_namespace = None,
        tags_yaml = None,
        shards = 1,
        static_dispatch = False,
        selected_ops = None,
        check_kernels = True,
        deps = [],
        visibility = None,
        **kwargs):
    """Declares the operators of `yaml` as a C++ library.

    Generates the operator sources from `yaml` (one generator action), then compiles
    them, with the kernels in `srcs`, into `cc_library(name)`. The generated headers
    are included as `#include "<name>/Functions.h"` (the dispatcher API),
    `"<name>/CPUFunctions.h"` (static entry points), `"<name>/NativeFunctions.h"`
    (what kernel authors implement), `"<name>/UnboxingFunctions.h"` (the boxed kernels,
    registered by `<cpp_namespace>::register_<name>_kernels()`), wherever the package is.

    Building `name` fails, at the yaml line of each, when a kernel or meta function the
    yaml declares is defined by no object of `srcs` and `deps` (a validation action,
    `<name>_kernel_check`; `check_kernels = False` turns it off), instead of an undefined
    reference when something links it.

    Targets made besides `name`: `<name>_codegen` (the generator's run),
    `<name>_kernels` (the cc_library of `srcs` with the generated headers; it registers
    nothing, so a binary links only the kernels something calls), `<name>_kernel_symbols`
    (`nm` of the kernels, read by the check and by selective builds), `<name>_kernel_check`
    and, with `selected_ops`, `<name>_selected` (the generated sources of the selection;
    its output group `report` says why each operator is kept).

    Args:
      name: name of the cc_library; also the include prefix of the generated headers.
      yaml: label of the native_functions.yaml.
      backends: backend dispatch keys whose kernels are registered (CPU, CUDA).
      srcs: the meta functions and kernels (C++ sources that include the generated headers).
      cpp_namespace: C++ namespace of the generated code; defaults to `name`.
      tags_yaml: label of the tags.yaml that `tags:` entries must come from.
      shards: registration files per family of dispatch keys.
      static_dispatch: register nothing with the dispatcher. `<name>/Functions.h`'s
        functions then pick the backend of their arguments as the dispatcher would (the
        device of the tensors, else of TensorOptions/Device arguments, else CPU; tensors
        on two devices are an error) and call that backend's static entry point
        (`<ns>::cpu::`, `<ns>::cuda::`, `<ns>::meta::`), or else the Common,
        CompositeExplicitAutograd or CompositeImplicitAutograd one (`<ns>::common::`,
        `<ns>::compositeexplicitautograd::`, `<ns>::compositeimplicitautograd::`), directly:
        no dispatcher is linked, and objects of unused operators can be left out of a
        binary. Kernels of other libraries are not reached; autogen kernels copy with this
        library's own `copy_`.
      selected_ops: None (every operator), or labels of operator_sets (or of targets with
        operator_sets along their `deps` and `data`, found by the selective_ops aspect).
        The library then generates only what the union of those sets needs: boxed kernels
        and registrations of the selected operators, and wrappers, static entry points and
        dispatcher-API definitions of those and of every operator their kernels call (read
        off the kernels' objects). Headers still declare every operator. A selected
        operator the yaml does not declare fails the build, listing every such operator.
        An empty list selects every operator.
      check_kernels: fail the build when a declared kernel or meta function has no
        definition in `srcs` or `deps` (read off their objects with `nm`). Turn it off only
        for a library whose kernels come from elsewhere when a program is linked, or one
        that is compiled and never linked.
      deps: more cc_library dependencies of the kernels.
      visibility: visibility of the cc_library.
      **kwargs: passed to the cc_library (copts, tags, target_compatible_with, ...).
    """
    # What the library's own targets share of the cc_library's arguments: skipped, tagged
    # and restricted like it (e.g. CUDA-only ones), test-only like it.
    common = {k: kwargs[k] for k in ("tags", "target_compatible_with", "testonly") if k in kwargs}
    codegen = name + "_codegen"
    structured_ops_codegen(
        name = codegen,
        yaml = yaml,
        tags_yaml = tags_yaml,
        library = name,
        backends = backends,
        shards = shards,
        static_dispatch = static_dispatch,
        cpp_namespace = cpp_namespace or name,
        visibility = visibility,
        **common
    )
    for group in ["headers", "sources"]:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [codegen],
            output_group = group,
            visibility = ["//visibility:private"],
            **common
        )
    kernels = name + "_kernels"
    cc_library(
        name = kernels,
        hdrs = [":%s_headers" % name],
        srcs = srcs,
        # `<name>/Functions.h` from any package (Bazel adds a virtual include dir).
        strip_include_prefix = name,
        include_prefix = name,
        deps = [Label("//runtime"), Label("//runtime:registry")] + deps,
        visibility = visibility,
        **kwargs
    )
    # Read once, by the kernel check and by every selective build of the library.
    structured_ops_kernel_symbols(
        name = name + "_kernel_symbols",
        kernels = kernels,
        visibility = visibility,
        **common
    )
    checks = []
    if check_kernels:
        structured_ops_kernel_check(
            name = name + "_kernel_check",
            kernel_symbols = name + "_kernel_symbols",
            library_codegen = codegen,
            static_dispatch = static_dispatch,
            visibility = ["//visibility:private"],
            **common
        )
        checks.append(":%s_kernel_check" % name)
    sources = [":%s_sources" % name]
    if selected_ops != None:
        structured_ops_selected_sources(
            name = name + "_selected",
            library_codegen = codegen,
            kernel_symbols = name + "_kernel_symbols",
            selected_ops = selected_ops,
            static_dispatch = static_dispatch,
            visibility = visibility,
            **common
        )
        sources = [":%s_selected" % name]
    cc_library(
        name = name,
        srcs = sources,
        # Kernels register themselves from static initializers: keep every object. With
        # static dispatch nothing registers, and what is called is linked as it is used.
        alwayslink = not static_dispatch,
        deps = [":" + kernels] + checks,
        visibility = visibility,
        **kwargs
    )
