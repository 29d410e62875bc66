"""operator_set, its provider, and the aspect that unions the sets a target depends on."""

load("@rules_cc//cc:defs.bzl", "CcInfo")

def _operator_set_info_init(files, labels):
    if type(files) != "depset":
        fail("OperatorSetInfo.files must be a depset of File, got %s" % type(files))
    if type(labels) != "depset":
        fail("OperatorSetInfo.labels must be a depset of Label, got %s" % type(labels))
    return {"files": files, "labels": labels}

OperatorSetInfo, _new_operator_set_info = provider(
    doc = "The operators one operator_set stands for, its `deps` included.",
    fields = {
        "files": "depset of File: one JSON file per operator_set in the closure " +
                 "(`{\"operators\": [{\"name\", \"all_overloads\", \"origin\"}], \"all_operators\"}`, " +
                 "written by lite/python/operator_set_tool.py); the set is their union.",
        "labels": "depset of Label: the operator_sets in the closure (for messages and tests).",
    },
    init = _operator_set_info_init,
)

def _operator_set_impl(ctx):
    output = ctx.actions.declare_file(ctx.label.name + ".operators.json")
    args = ctx.actions.args()
    args.add("--output", output)
    args.add("--label", str(ctx.label))
    inputs = []
    if ctx.attr.ops:
        listed = ctx.actions.declare_file(ctx.label.name + ".ops.txt")
        ctx.actions.write(listed, "".join([op + "\n" for op in ctx.attr.ops]))
        args.add("--ops", listed)
        inputs.append(listed)
    if ctx.file.selected_operators_yaml:
        args.add("--selected-operators-yaml", ctx.file.selected_operators_yaml)
        inputs.append(ctx.file.selected_operators_yaml)
    for model in ctx.files.models:
        args.add("--model", model)
    inputs += ctx.files.models
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [args],
        inputs = inputs,
        outputs = [output],
        mnemonic = "OperatorSet",
        progress_message = "Reading the operators of %{label}",
        env = {"PYTHONHASHSEED": "0"},
    )
    files = depset([output], transitive = [d[OperatorSetInfo].files for d in ctx.attr.deps])
    labels = depset([ctx.label], transitive = [d[OperatorSetInfo].labels for d in ctx.attr.deps])
    return [
        DefaultInfo(files = files),
        OperatorSetInfo(files = files, labels = labels),
        # So that an operator_set may sit in a cc_library's or cc_binary's deps, next to
        # the code that needs its operators, where the selective_ops aspect finds it.
        CcInfo(),
    ]

operator_set = rule(
    implementation = _operator_set_impl,
    doc = """A set of operators, for `selected_ops` of structured_ops_library and lite_runtime_binary.

The set is the union of its four sources: `ops`, `selected_operators_yaml`, the
operators that `models` call, and the sets in `deps`. A build action reads the yaml and
the models (lite/python/operator_set_tool.py); names are checked against the library
that uses the set, which fails listing every operator it does not declare.

An operator_set provides an empty CcInfo, so it may also be listed in the `deps` of a
cc_library or cc_binary that needs its operators: `selected_ops = ["//app:main"]` then
finds it there (the selective_ops aspect walks `deps` and `data`).

Example:

    operator_set(
        name = "app_ops",
        ops = ["aten::add.Tensor", "aten::addmm", "my_ops::scaled_add"],
        selected_operators_yaml = "traced/selected_operators.yaml",
        models = ["//models:mlp/model.sopsm"],
        deps = ["//shared:base_ops"],
    )
""",
    attrs = {
        "deps": attr.label_list(
            providers = [OperatorSetInfo],
            doc = "More operator_sets whose operators this one includes.",
        ),
        "models": attr.label_list(
            allow_files = [".sopsm"],
            doc = "Lite model files (lite/FORMAT.md, written by lite/python/export_model.py): " +
                  "every operator their nodes call.",
        ),
        "ops": attr.string_list(
            doc = "Operator names: `namespace::name.overload`, or `namespace::name` for the " +
                  "default overload (`aten::add.Tensor`, `aten::relu`, `my_ops::scaled_add`).",
        ),
        "selected_operators_yaml": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "PyTorch's selected_operators.yaml, e.g. what `lite_runtime trace` writes: its " +
                  "`operators` (with `include_all_overloads`) and `include_all_operators`.",
        ),
        "_tool": attr.label(
            default = Label("//lite/python:operator_set_tool"),
            executable = True,
            cfg = "exec",
        ),
    },
    provides = [OperatorSetInfo],
)

SelectedOperatorsInfo = provider(
    doc = "What the selective_ops aspect found under one target of `selected_ops`.",
    fields = {
        "files": "depset of File: the operator-set files (OperatorSetInfo.files) of every " +
                 "operator_set found under the target, along `deps` and `data`.",
    },
)

def _collect(target, ctx):
    files = []
    if OperatorSetInfo in target:
        files.append(target[OperatorSetInfo].files)
    for attr_name in ("deps", "data"):
        for dep in getattr(ctx.rule.attr, attr_name, None) or []:
            if type(dep) == "Target" and SelectedOperatorsInfo in dep:
                files.append(dep[SelectedOperatorsInfo].files)
    return [SelectedOperatorsInfo(files = depset(transitive = files))]

selective_ops_aspect = aspect(
    implementation = _collect,
    attr_aspects = ["deps", "data"],
    doc = "Unions every operator_set found under a target, along `deps` and `data` " +
          "(what Buck's query does for PyTorch's and ExecuTorch's selective builds).",
)
