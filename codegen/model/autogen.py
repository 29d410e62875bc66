"""`autogen:` expansion: the functional and out= variants the generator writes itself.

For each pre-group (the variants of one operator), when it is not a view, not
manually bound and not a decomposing CompositeImplicitAutograd operator:
  * an out= variant is made when the base variant asks for one (`autogen: foo.out`)
    and has something to write into (it is inplace, or returns a tensor);
  * a functional variant is made when there is an out= variant but no functional one.
The base variant is, by preference, the mutable, inplace, out= or functional one.
Generated functions get a CompositeExplicitAutograd kernel named after them.
"""

from __future__ import annotations

import string

from codegen.model.dispatch import COMPOSITE_EXPLICIT, BackendMetadata
from codegen.model.entry import SET_, NativeFunction, cpp_name
from codegen.model.groups import PreGroup
from codegen.model.schema import (
    FUNCTIONAL,
    INPLACE,
    MUTABLE,
    OUT,
    Argument,
    Arguments,
    BaseOperatorName,
    FunctionSchema,
    OperatorName,
    Return,
)
from codegen.model.tags import GENERATED_TAG, INPLACE_TAG, OUT_TAG
from codegen.model.types import TENSOR, Annotation

# Tags a generated variant inherits from its base.
_INHERITED_TAGS = frozenset(("nondeterministic_seeded", "view_copy", "pt2_compliant_tag"))
ONLY_OUT = "it only has an out= variant"
COMPOSITE_IMPLICIT_SKIP = "it is a CompositeImplicitAutograd operator, which decomposes"


def skip_reason(d: dict[str, NativeFunction]) -> str | None:
    """Why autogen leaves this operator alone, or None if it does not."""
    fs = list(d.values())
    if all(f.manual_cpp_binding for f in fs):
        return "its variants use `manual_cpp_binding`"
    if any(f.is_view_op and str(f.func.name.name) != SET_ for f in fs):
        return "it is a view operator"
    if all(f.has_composite_implicit_autograd_kernel for f in fs) and not any(
        "core" in f.tags for f in fs
    ):
        return COMPOSITE_IMPLICIT_SKIP
    if OUT in d and len(d) == 1:
        return ONLY_OUT
    return None


def base_variant(d: dict[str, NativeFunction]) -> NativeFunction:
    return d.get(MUTABLE) or d.get(INPLACE) or d.get(OUT) or d[FUNCTIONAL]


def out_variant_problem(f: NativeFunction) -> str | None:
    """Why autogen cannot make an out= variant of `f`, or None if it can."""
    func = f.func
    if func.kind == INPLACE:
        s = func.arguments.self_arg
        if s is None or not s.is_write:
            return "it has no written `self` to become the out argument"  # reported by check_schema
        return None
    tensors = sum(r.type.is_tensor_like() for r in func.returns)
    if not tensors:
        return "it returns no tensor to write into an out= argument"
    if tensors > len(_free_alias_sets(func)):
        return "its out arguments would need more alias sets (`a`...`z`) than are left"
    return None


def can_get_out_variant(f: NativeFunction) -> bool:
    return out_variant_problem(f) is None


def wants_out_variant(f: NativeFunction) -> bool:
    return any("out" in str(n) for n in f.autogen)


def generate(pre_groups: list[PreGroup]) -> list[NativeFunction]:
    """The functions autogen adds, in a stable order."""
    new: list[NativeFunction] = []
    for p in pre_groups:
        d = p.by_kind
        if skip_reason(d) is not None:
            continue
        base = base_variant(d)
        has_out = OUT in d
        gets_out = not has_out and can_get_out_variant(base) and wants_out_variant(base)
        if gets_out:
            new.append(_generated(base, _out_schema(base.func)))
        if FUNCTIONAL not in d and (has_out or gets_out):
            new.append(_generated(base, _functional_schema(base.func)))
    return new


def _out_overload(name: OperatorName) -> OperatorName:
    overload = f"{name.overload_name}_out" if name.overload_name else "out"
    base = BaseOperatorName(name.name.base, False, name.name.dunder_method)
    return OperatorName(name.namespace, base, overload)


def _strip(a: Argument) -> Argument:
    return a if a.annotation is None else Argument(a.name, a.type, a.default, None)


def _signature_arguments(args: Arguments) -> Arguments:
    """Arguments without annotations, tensor options and out arguments."""
    return Arguments(
        tuple(_strip(a) for a in args.positional),
        tuple(_strip(a) for a in args.non_tensor_options_kwarg_only),
        (),
    )


def _out_schema(func: FunctionSchema) -> FunctionSchema:
    args = func.arguments
    if func.kind == INPLACE:
        # `self` stops being written; a new `out` takes its type and annotation.
        self_arg = args.self_arg
        assert self_arg is not None  # generate() asked can_get_out_variant() first
        positional = tuple(_strip(a) if a is self_arg else a for a in args.positional)
        out = Argument("out", self_arg.type, None, self_arg.annotation)
        return FunctionSchema(
            _out_overload(func.name), Arguments(positional, args.kwarg_only, (out,)), func.returns
        )
    returns, outs = _out_arguments(func)
    if func.kind == MUTABLE:
        arguments = Arguments(args.positional, args.kwarg_only, tuple(outs))
    else:
        sig = _signature_arguments(args)
        arguments = Arguments(sig.positional, sig.kwarg_only, tuple(outs))
    return FunctionSchema(_out_overload(func.name), arguments, tuple(returns))


def _out_arguments(func: FunctionSchema) -> tuple[list[Return], list[Argument]]:
    """Each tensor-like return becomes a written out argument, with a fresh alias set.

    If every return is a plain Tensor, the returns alias the new out arguments;
    otherwise only the non-tensor returns remain.
    """
    free = _free_alias_sets(func)
    all_tensors = all(r.type == TENSOR for r in func.returns)
    returns: list[Return] = []
    outs: list[Argument] = []
    for i, r in enumerate(func.returns):
        if r.type.is_tensor_like():
            annotation = Annotation((free[i],), True, ())
            out = Argument("out" if len(func.returns) == 1 else f"out{i}", r.type, None, annotation)
            outs.append(out)
            if all_tensors:
                returns.append(Return(None, r.type, annotation))
        else:
            returns.append(r)
    return returns, outs


def _free_alias_sets(func: FunctionSchema) -> list[str]:
    used = {
        x
        for a in func.arguments.flat_all
        if a.annotation is not None
        for x in a.annotation.alias_set
    }
    return [c for c in string.ascii_lowercase if c not in used]


def _functional_schema(func: FunctionSchema) -> FunctionSchema:
    """Written arguments become plain inputs; those not returned are returned as `NAME_out`."""
    args = func.arguments
    written = [
        a
        for a in ((args.self_arg,) if args.self_arg is not None else ())
        + args.out
        + args.post_self_positional
        if a.is_write and all(a.annotation != r.annotation for r in func.returns)
    ]
    returns = tuple(Return(r.name, r.type, None) for r in func.returns) + tuple(
        Return(f"{a.name}_out", a.type, None) for a in written
    )
    name = OperatorName(
        func.name.namespace,
        BaseOperatorName(
            func.name.name.base, False, func.name.name.dunder_method, func.kind == MUTABLE
        ),
        func.name.overload_name,
    )
    return FunctionSchema(name, _signature_arguments(args), returns)


def _generated(base: NativeFunction, func: FunctionSchema) -> NativeFunction:
    is_out = bool(func.arguments.out)
    kernel = func.name.unambiguous_name() if is_out else cpp_name(func)
    if base.func.arguments.has_symint_arg():
        kernel += "_symint"
    tags = {GENERATED_TAG} | (base.tags & _INHERITED_TAGS)
    if is_out:
        tags.add(OUT_TAG)
    if func.name.name.inplace:
        tags.add(INPLACE_TAG)
    return NativeFunction(
        func=func,
        source=base.source,
        variants=frozenset(("function",)),
        dispatch={COMPOSITE_EXPLICIT: BackendMetadata(kernel, False)},
        has_dispatch_table=False,
        written_dispatch=(),
        structured=False,
        structured_delegate=None,
        structured_inherits=None,
        precomputed=None,
        autogen=(),
        device_guard=False,
        device_check="NoCheck",
        manual_kernel_registration=False,
        manual_cpp_binding=False,
        use_const_ref_for_mutable_tensors=base.use_const_ref_for_mutable_tensors,
        category_override=None,
        python_module=None,
        tags=frozenset(tags),
        cpp_no_default_args=frozenset(),
        generated=True,
    )
