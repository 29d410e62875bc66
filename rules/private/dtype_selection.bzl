"""dtype_selection: the `//config:dtypes` flag as a compile definition of the runtime."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc:defs.bzl", "CcInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")

def _dtype_selection_impl(ctx):
    dtypes = ctx.attr.flag[BuildSettingInfo].value
    defines = ["SOPS_SELECTED_DTYPES=" + ",".join(dtypes)] if dtypes else []
    return [CcInfo(compilation_context = cc_common.create_compilation_context(defines = depset(defines)))]

dtype_selection = rule(
    implementation = _dtype_selection_impl,
    doc = "Defines SOPS_SELECTED_DTYPES (runtime/visit_dtype.h) for everything that depends on it, " +
          "from a string_list flag of dtype names; nothing when the flag is empty.",
    attrs = {"flag": attr.label(mandatory = True, providers = [BuildSettingInfo])},
)
