"""CUDA in Bazel without rules_cuda: the toolkit, cuda_library and requires_cuda().

Shaped like bazel-contrib/rules_cuda (which cannot be fetched here): a toolkit found on
the machine (@local_cuda, rules/private/cuda_toolkit.bzl), nvcc actions whose objects
are wrapped into CcInfo so that cc_library, cc_binary and cc_test link them like any
other, the architectures as a flag (//config:cuda_archs), and targets that are
incompatible, not broken, without --config=cuda.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")
load("@rules_cc//cc:defs.bzl", "CcInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")

CudaToolkitInfo = provider(
    doc = "The CUDA toolkit a build compiles with (a `cuda_toolkit` target).",
    fields = {
        "available": "bool: whether a toolkit was found; the other fields are empty if not.",
        "nvcc": "string: the nvcc executable's absolute path (outside the workspace).",
        "path": "string: the toolkit's root (include/, lib64/).",
        "runtime": "CcInfo: the CUDA runtime every cuda_library links (cudart).",
        "version": "string: nvcc's release, e.g. \"13.0\".",
        "why_missing": "string: where it looked, when no toolkit was found.",
    },
)

def _cuda_toolkit_impl(ctx):
    return [CudaToolkitInfo(
        available = ctx.attr.available,
        nvcc = ctx.attr.nvcc,
        path = ctx.attr.path,
        runtime = ctx.attr.runtime[CcInfo],
        version = ctx.attr.version,
        why_missing = ctx.attr.why_missing,
    )]

cuda_toolkit = rule(
    implementation = _cuda_toolkit_impl,
    doc = "A CUDA toolkit: @local_cuda//:toolkit, or a stand-in for tests.",
    attrs = {
        "available": attr.bool(mandatory = True, doc = "Whether a toolkit was found."),
        "nvcc": attr.string(doc = "The nvcc executable's absolute path."),
        "path": attr.string(doc = "The toolkit's root."),
        "runtime": attr.label(mandatory = True, providers = [CcInfo], doc = "The CUDA runtime library."),
        "version": attr.string(doc = "nvcc's release."),
        "why_missing": attr.string(doc = "Where it looked, when not found."),
    },
    provides = [CudaToolkitInfo],
)

def requires_cuda():
    """`target_compatible_with` for CUDA targets: compatible only under --config=cuda.

    Returns:
      A select: nothing under //config:cuda, else @platforms//:incompatible, so that
      `bazel build //...` and `bazel test //...` skip the target instead of failing.
    """
    return select({
        Label("//config:cuda_enabled"): [],
        "//conditions:default": [Label("@platforms//:incompatible")],
    })

def _gencode(label, arch):
    """nvcc's -gencode for `sm_90` (machine code) or `compute_90` (PTX)."""
    kind, _, number = arch.partition("_")
    if kind not in ("sm", "compute") or not number.isdigit():
        fail("%s: --//config:cuda_archs has '%s'; expected sm_NN (machine code for compute " % (label, arch) +
             "capability N.N, e.g. sm_90) or compute_NN (PTX for it, e.g. compute_90)")
    return "-gencode=arch=compute_%s,code=%s_%s" % (number, kind, number)

def _cuda_library_impl(ctx):
    toolkit = ctx.attr._toolkit[CudaToolkitInfo]
    if not toolkit.available:
        fail("%s needs a CUDA toolkit, and none was found: %s. Point --repo_env=CUDA_PATH at one, " % (
            ctx.label,
            toolkit.why_missing,
        ) + "or build without --config=cuda (CUDA targets are then skipped).")
    cc_toolchain = find_cpp_toolchain(ctx)
    deps = [d[CcInfo] for d in ctx.attr.deps] + [toolkit.runtime]

    # Headers are named from their repository's root, sources and generated files alike.
    root = ctx.label.workspace_root or "."
    own = cc_common.create_compilation_context(
        headers = depset(ctx.files.hdrs),
        quote_includes = depset([root, ctx.bin_dir.path + ("/" + ctx.label.workspace_root if ctx.label.workspace_root else "")]),
    )
    compilation = cc_common.merge_cc_infos(
        direct_cc_infos = [CcInfo(compilation_context = own)],
        cc_infos = deps,
    ).compilation_context

    archs = ctx.attr._archs[BuildSettingInfo].value
    if not archs:
        fail("%s: --//config:cuda_archs is empty; name at least one, e.g. sm_90" % ctx.label)
    gencode = [_gencode(ctx.label, a) for a in archs]
    optimize = ["-O3"] if ctx.var["COMPILATION_MODE"] == "opt" else ["-O0", "-g"] if ctx.var["COMPILATION_MODE"] == "dbg" else ["-O2"]

    # What the build's --copt/--cxxopt say about the C++ dialect reaches nvcc's host
    # compiler too: objects built with and without exceptions, RTTI or a -D would break
    # each other's inline code. (Optimization flags and -flto do not: nvcc's host
    # compiler is not the toolchain's, and its LTO objects would not link.)
    cpp = ctx.fragments.cpp
    dialect = [
        f
        for f in cpp.copts + cpp.cxxopts
        if f.startswith("-D") or f in ("-fno-exceptions", "-fno-rtti")
    ]

    # The flags every source shares, then each source's own.
    common = ctx.actions.args()
    common.add_all(["-c", "-x", "cu", "-std=c++17", "-Xcompiler", "-fPIC"])
    common.add_all(optimize)
    common.add_all(gencode)
    common.add_all(compilation.defines, format_each = "-D%s")
    common.add_all(compilation.local_defines, format_each = "-D%s")
    common.add_all(compilation.includes, format_each = "-I%s")
    common.add_all(compilation.quote_includes, format_each = "-I%s")
    common.add_all(compilation.system_includes, before_each = "-isystem")
    common.add_all(dialect, format_each = "-Xcompiler=%s")
    common.add_all(ctx.attr.copts)

    objects = []
    for src in ctx.files.srcs:
        # _objs/<name>/<path in the package, without extension>.o, as cc_library names them.
        relative = src.short_path[len(ctx.label.package) + 1:] if ctx.label.package else src.short_path
        obj = ctx.actions.declare_file("_objs/%s/%s.o" % (ctx.label.name, relative.rsplit(".", 1)[0]))
        own_args = ctx.actions.args()
        own_args.add(src)
        own_args.add("-o", obj)
        ctx.actions.run(
            executable = toolkit.nvcc,
            arguments = [common, own_args],
            inputs = depset([src], transitive = [compilation.headers]),
            outputs = [obj],
            # nvcc runs the host compiler from PATH (and host-nvcc, the offline root's
            # hand-off, runs chroot from /usr/sbin).
            env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"},
            mnemonic = "CudaCompile",
            progress_message = "Compiling %s with nvcc" % src.short_path,
        )
        objects.append(obj)

    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    linking_context, _ = cc_common.create_linking_context_from_compilation_outputs(
        actions = ctx.actions,
        name = ctx.label.name,
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        compilation_outputs = cc_common.create_compilation_outputs(
            objects = depset(objects),
            pic_objects = depset(objects),
        ),
        linking_contexts = [d.linking_context for d in deps],
        disallow_dynamic_library = True,
    )
    return [
        DefaultInfo(files = depset(objects)),
        CcInfo(compilation_context = compilation, linking_context = linking_context),
    ]

_cuda_library = rule(
    implementation = _cuda_library_impl,
    doc = "CUDA sources compiled by nvcc into objects that C++ targets link (CcInfo).",
    attrs = {
        "copts": attr.string_list(doc = "More nvcc flags."),
        "deps": attr.label_list(providers = [CcInfo], doc = "C++ libraries the sources include and link."),
        "hdrs": attr.label_list(allow_files = [".h", ".hpp", ".cuh"], doc = "Headers of this library, for its users."),
        "srcs": attr.label_list(allow_files = [".cu"], doc = "The .cu files, one nvcc action each."),
        "_archs": attr.label(default = Label("//config:cuda_archs")),
        "_toolkit": attr.label(default = Label("//config:cuda_toolkit"), providers = [CudaToolkitInfo]),
    },
    fragments = ["cpp"],
    provides = [CcInfo],
    toolchains = use_cpp_toolchain(),
)

def cuda_library(name, target_compatible_with = None, **kwargs):
    """CUDA sources compiled with nvcc, linked by C++ targets like any cc_library.

    Each .cu file is one nvcc action (-std=c++17, -fPIC, a -gencode per entry of
    --//config:cuda_archs, the include paths and defines of `deps`); the objects and
    the CUDA runtime reach every binary that depends on the target.

    Args:
      name: the target's name.
      target_compatible_with: by default requires_cuda(): the target (and what depends
        on it) is skipped unless --config=cuda.
      **kwargs: srcs (.cu), hdrs, deps (CcInfo), copts (more nvcc flags), visibility,
        tags, testonly.
    """
    _cuda_library(
        name = name,
        target_compatible_with = requires_cuda() if target_compatible_with == None else target_compatible_with,
        **kwargs
    )
