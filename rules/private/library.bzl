"""structured_ops_library: generated operator sources compiled into a cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//codegen:dispatch_keys.bzl", "DISPATCH_KEYS")
load(":codegen.bzl", "structured_ops_codegen", "structured_ops_selected_sources")
load(":symbols.bzl", "structured_ops_kernel_symbols")

# The backends whose kernels from `backend_deps` are built only under a build setting
# (CUDA: --config=cuda), from the dispatch keys' table.
_BUILD_SETTINGS = {k["name"]: k["build_setting"] for k in DISPATCH_KEYS if k["build_setting"]}

def _under_setting(key, value, otherwise):
    """`value` where `key`'s build setting holds, else `otherwise` (a select)."""
    return select({Label(_BUILD_SETTINGS[key]): value, "//conditions:default": otherwise})

def structured_ops_library(
        name,
        yaml,
        backends = ["CPU"],
        srcs = [],
        backend_deps = {},
        cpp_namespace = None,
        tags_yaml = None,
        autogen_kernels = None,
        shards = 1,
        operator_headers = False,
        static_dispatch = False,
        selected_ops = None,
        check_kernels = True,
        deps = [],
        visibility = None,
        **kwargs):
    """Declares the operators of `yaml` as a C++ library.

    Generates the operator sources from `yaml` (one generator action) and compiles them
    into targets by concept:

    - `<name>_headers`: the generated headers and the runtime, included as
      `#include "<name>/Functions.h"` (the dispatcher API), `"<name>/CPUFunctions.h"`
      (static entry points), `"<name>/NativeFunctions.h"` (what kernel authors implement),
      `"<name>/UnboxingFunctions.h"` (the boxed kernels, registered by
      `<cpp_namespace>::register_<name>_kernels()`), wherever the package is. A backend's
      kernels in a library of their own depend on this target.
    - `<name>_kernels`: `srcs` (meta functions, composites, kernels) compiled against the
      headers, with `deps` and every backend's `backend_deps`. It registers nothing, so a
      binary links only the kernels something calls.
    - `<name>_<backend>` for each backend (`<name>_cpu`, `<name>_cuda`): that backend's
      generated wrappers, static entry points (`<ns>::cpu::`) and registrations, over its
      kernels.
    - `name`: the registration library: the backends' targets and the rest of the
      generated code (the dispatcher API, Meta, Common and composite registrations, the
      boxed kernels). Depend on this to call or register the operators.

    The CUDA backend is built by nvcc: when its kernels come from `backend_deps["CUDA"]`
    (cuda_library targets and the C++ over them), the library has a CUDA backend only
    under `--config=cuda`; elsewhere the library is CPU-only and its CUDA targets are
    skipped (requires_cuda()).

    Building `name` fails, at the yaml line of each, when a kernel or meta function the
    yaml declares is defined by no object of `srcs`, `deps` and `backend_deps` (a
    validation action, in `<name>_kernel_symbols`; `check_kernels = False` turns it off),
    instead of an undefined reference when something links it.

    Also made: `<name>_codegen` (the generator's run), `<name>_kernel_symbols` (`nm` of the
    kernels, read by selective builds, and the check) and, with
    `selected_ops`, `<name>_selected` (the generated sources of the selection; its output
    group `report` says why each operator is kept).

    Args:
      name: name of the registration library; also the include prefix of the headers.
      yaml: label of the native_functions.yaml.
      backends: backend dispatch keys whose kernels are registered (CPU, CUDA).
      srcs: meta functions and kernels (C++ sources that include the generated headers).
      backend_deps: dict from a backend key of `backends` to the labels of the cc_library
        targets holding its kernels (libraries that depend on `<name>_headers`), e.g.
        `{"CPU": ["//backends/cpu"], "CUDA": ["//backends/cuda:kernels"]}`.
      cpp_namespace: C++ namespace of the generated code; defaults to `name`.
      tags_yaml: label of the tags.yaml that `tags:` entries must come from.
      autogen_kernels: label of a yaml of the backends' own kernels for variants that
        `autogen:` makes (`CPU:` / `  relu.out: relu_out`; codegen/model/backend_kernels.py):
        registered for their keys instead of autogen's kernel, which copies.
      shards: registration files per family of dispatch keys.
      operator_headers: give each operator (by root name: `add` for add.Tensor, add_
        and add.out) headers of its own: `<name>/ops/<root>.h` (its dispatcher API),
        `<name>/ops/<root>_native.h` (its kernels) and `<name>/ops/<root>_meta.h` (its meta
        struct), which the aggregate headers include. The generated sources include
        only their operators' headers; a kernel that does the same is not recompiled
        when another operator is added.
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
        definition in `srcs`, `deps` or `backend_deps` (read off their objects with `nm`).
        Turn it off only for a library whose kernels come from elsewhere when a program is
        linked, or one that is compiled and never linked.
      deps: more cc_library dependencies of the kernels.
      visibility: visibility of the targets.
      **kwargs: passed to the cc_library targets (copts, tags, target_compatible_with, ...).
    """

    # What the library's own targets share of the cc_library's arguments: skipped, tagged
    # and restricted like it (e.g. CUDA-only ones), test-only like it.
    common = {k: kwargs[k] for k in ("tags", "target_compatible_with", "testonly") if k in kwargs}

    # Kernels from their own targets that need a build setting (CUDA's, nvcc-built, exist
    # only under --config=cuda) make their backend conditional.
    conditional = [key for key in backends if key in _BUILD_SETTINGS and key in backend_deps]
    for key in backend_deps:
        if key not in backends:
            fail("%s: backend_deps has '%s', which is not one of backends %s" % (name, key, backends))
    codegen = name + "_codegen"
    codegen_backends = [key for key in backends if key not in conditional]
    for key in conditional:
        codegen_backends = codegen_backends + _under_setting(key, [key], [])
    structured_ops_codegen(
        name = codegen,
        yaml = yaml,
        tags_yaml = tags_yaml,
        autogen_kernels = autogen_kernels,
        library = name,
        backends = codegen_backends,
        shards = shards,
        operator_headers = operator_headers,
        static_dispatch = static_dispatch,
        cpp_namespace = cpp_namespace or name,
        visibility = visibility,
        **common
    )
    groups = ["shared_sources"] + ["backend_" + key for key in backends]
    for group in groups:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [codegen],
            output_group = group,
            visibility = ["//visibility:private"],
            **common
        )
    headers = name + "_headers"
    cc_library(
        name = headers,
        # The generated headers come with the generator's target, `<name>/Functions.h`
        # from any package: its output folder's parent is on the quote include path.
        deps = [Label("//runtime"), Label("//runtime:registry"), ":" + codegen],
        visibility = visibility,
        **common
    )

    def backend_kernels(key):
        labels = backend_deps.get(key, [])
        if key in conditional:
            return _under_setting(key, labels, [])
        return labels

    kernels = name + "_kernels"
    all_backend_kernels = []
    for key in backends:
        all_backend_kernels += backend_kernels(key)
    cc_library(
        name = kernels,
        srcs = srcs,
        deps = [":" + headers] + deps + all_backend_kernels,
        visibility = visibility,
        **kwargs
    )

    # Read once, by every selective build of the library, and checked in the same action.
    structured_ops_kernel_symbols(
        name = name + "_kernel_symbols",
        kernels = kernels,
        library_codegen = codegen if check_kernels else None,
        static_dispatch = static_dispatch,
        visibility = visibility,
        **common
    )
    checks = [":%s_kernel_symbols" % name] if check_kernels else []

    # One target per backend: its generated wrappers, static entry points and
    # registrations (static initializers: every object kept unless statically dispatched).
    backend_targets, conditional_targets = [], []
    for key in backends:
        target = "%s_%s" % (name, key.lower())
        backend_kwargs = dict(kwargs)
        if key in conditional:
            backend_kwargs["target_compatible_with"] = _under_setting(
                key,
                [],
                [Label("@platforms//:incompatible")],
            )
            conditional_targets.append((key, ":" + target))
        else:
            backend_targets.append(":" + target)
        cc_library(
            name = target,
            srcs = [":%s_backend_%s" % (name, key)],
            alwayslink = not static_dispatch,
            linkstatic = True,  # linked into programs whole: no shared library of its own
            deps = [":" + kernels],
            visibility = visibility,
            **backend_kwargs
        )

    for key, target in conditional_targets:
        backend_targets = backend_targets + _under_setting(key, [target], [])
    if selected_ops == None:
        sources = [":%s_shared_sources" % name]
    else:
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
        backend_targets = []  # the selection's sources hold its backends' registrations
    cc_library(
        name = name,
        srcs = sources,
        # Kernels register themselves from static initializers: keep every object. With
        # static dispatch nothing registers, and what is called is linked as it is used.
        # Static only: a program links it, no shared library of it is made.
        alwayslink = not static_dispatch,
        linkstatic = True,
        deps = [":" + kernels] + backend_targets + checks,
        visibility = visibility,
        **kwargs
    )
