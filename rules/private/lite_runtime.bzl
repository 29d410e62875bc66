"""lite_runtime_binary: the lite interpreter's command line over a selection of operators."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")
load(":codegen.bzl", "SelectedLibraryInfo", "structured_ops_selected_sources")

def _main_impl(ctx):
    info = ctx.attr.sources[SelectedLibraryInfo]
    ctx.actions.expand_template(
        template = ctx.file._template,
        output = ctx.outputs.out,
        substitutions = {"{LIBRARY}": info.library, "{REGISTER}": info.register_function},
    )

_lite_runtime_main = rule(
    implementation = _main_impl,
    doc = "Writes the main() of a lite runtime: register the library's boxed kernels, run the CLI.",
    attrs = {
        "out": attr.output(mandatory = True),
        "sources": attr.label(mandatory = True, providers = [SelectedLibraryInfo]),
        "_template": attr.label(default = Label("//lite:lite_runtime_main.cc.tpl"), allow_single_file = True),
    },
)

def lite_runtime_binary(
        name,
        selected_ops = [],
        library = Label("//ops:aten"),
        static_dispatch = True,
        visibility = None,
        **kwargs):
    """The `lite_runtime` command line over a library's operators, pruned to a selection.

    The command line is lite/cli.h's: run, ops, trace, shapes. The library's kernels (`<library>_kernels`) are linked as they are; its sources are
    generated again for the selection (`<name>_selected`, whose output group `report` says
    why each operator is kept), statically dispatched by default, so that the binary
    holds only the selected operators' boxed kernels and what they call. Build it with
    `--config=mobile` for the size flags (-Oz, --gc-sections). A model that calls an
    operator outside the selection fails to load, listing every missing operator.

    Args:
      name: the cc_binary.
      selected_ops: labels of operator_sets, or of targets with operator_sets along their
        `deps` and `data` (may be a select()); empty: every operator of the library.
      library: a structured_ops_library target (default `//ops:aten`).
      static_dispatch: call kernels directly (no dispatcher linked); False registers the
        selected operators with the dispatcher instead.
      visibility: visibility of the binary.
      **kwargs: passed to the cc_binary (copts, linkopts, tags, ...).
    """
    library = native.package_relative_label(library)
    tags = kwargs.get("tags")
    kernels = library.same_package_label(library.name + "_kernels")
    structured_ops_selected_sources(
        name = name + "_selected",
        library_codegen = library.same_package_label(library.name + "_codegen"),
        kernel_symbols = library.same_package_label(library.name + "_kernel_symbols"),
        selected_ops = selected_ops,
        static_dispatch = static_dispatch,
        tags = tags,
        visibility = ["//visibility:private"],
    )
    cc_library(
        name = name + "_ops",
        srcs = [":" + name + "_selected"],
        alwayslink = not static_dispatch,
        deps = [kernels],
        tags = tags,
        visibility = ["//visibility:private"],
    )
    _lite_runtime_main(
        name = name + "_main",
        out = name + "_main.cc",
        sources = ":" + name + "_selected",
        tags = tags,
        visibility = ["//visibility:private"],
    )
    cc_binary(
        name = name,
        srcs = [":" + name + "_main.cc"],
        deps = [":" + name + "_ops", Label("//lite:cli")],
        visibility = visibility,
        **kwargs
    )
