"""How the converter decomposes an exported program to core ATen (needs torch).

`decompose(ep)` is `ep.run_decompositions()` made to hold for programs exported from
real models, in two steps:

1. Views that nothing writes through become reshapes (`views_as_reshapes`). An exported
   graph calls `aten.view` wherever the model did, valid for the strides the eager
   kernels produced while tracing; a `.contiguous()` that was a no-op then is not in
   the graph at all. Decomposing may change those strides: the decomposition of
   `aten._scaled_dot_product_flash_attention_for_cpu` returns its output laid out as
   (L, N, H, E) (what nn.MultiheadAttention's `permute(2, 0, 1, 3)` wants), the CPU
   kernel as (N, L, H, E) (what Hugging Face's `transpose(1, 2).contiguous()` then
   `view(-1, hidden)` wants). GPT-2 then fails with "Cannot view a tensor with shape
   [2, 32, 128] and strides (128, 256, 1) as a tensor with shape (64, 128)". A reshape
   has the view's values and becomes a view again where the strides allow, a copy
   (`clone`, `_unsafe_view`) where they do not. A view whose tensor, or any alias of
   it, an operator writes in place (`add_`, `copy_`) is kept: a copy would not see
   the write.
2. Operators outside core ATen that the default table leaves in the graph
   (`aten.linalg_vector_norm`, ...) are decomposed too, with torch._decomp's
   decomposition of each, until no such operator with a decomposition is left.
   Operators outside core ATen without one stay, for the runtime to implement.
"""

import operator

import torch
from torch._decomp import decomposition_table

# Left out of the lite model anyway (exported_graph.DROPPED): not worth decomposing.
KEPT = {torch.ops.aten._assert_tensor_metadata.default}
# Rounds of extra decompositions before giving up on reaching a fixed point.
MAX_ROUNDS = 8


def _argument_nodes(node: torch.fx.Node, k: int, arg) -> list:
    """The graph nodes passed for schema argument `k` (`arg`) of `node`."""
    value = node.args[k] if k < len(node.args) else node.kwargs.get(arg.name)
    values = value if isinstance(value, (list, tuple)) else [value]
    return [v for v in values if isinstance(v, torch.fx.Node)]


def _aliased_inputs(node: torch.fx.Node) -> list:
    """The nodes whose storage `node`'s value may share: every argument the schema
    annotates with an alias set (a view's or an in-place op's `Tensor(a)`, a split's
    `Tensor(a -> *)`), and the source of an operator.getitem."""
    if node.op != "call_function":
        return []
    if node.target is operator.getitem:
        return [node.args[0]] if isinstance(node.args[0], torch.fx.Node) else []
    if not isinstance(node.target, torch._ops.OpOverload):
        return []
    inputs = []
    for k, arg in enumerate(node.target._schema.arguments):
        if arg.alias_info is not None:
            inputs += _argument_nodes(node, k, arg)
    return inputs


def _written_nodes(graph: torch.fx.Graph) -> set:
    """The nodes whose tensor some operator of `graph` writes in place."""
    written = set()
    for node in graph.nodes:
        op = node.target
        if node.op != "call_function" or not isinstance(op, torch._ops.OpOverload):
            continue
        for k, arg in enumerate(op._schema.arguments):
            if arg.alias_info is not None and arg.alias_info.is_write:
                written.update(_argument_nodes(node, k, arg))
    return written


def views_as_reshapes(ep: torch.export.ExportedProgram) -> int:
    """Rewrites in place each `aten.view` of `ep` that no write can reach as `aten.reshape`.

    Returns how many it rewrote. Nodes are grouped with the inputs they may alias
    (`_aliased_inputs`); a view stays a view when any member of its group is written.
    """
    graph = ep.graph_module.graph
    root = {}

    def find(node):
        while root.get(node, node) is not node:
            node = root[node]
        return node

    for node in graph.nodes:
        for base in _aliased_inputs(node):
            root[find(node)] = find(base)
    written = {find(node) for node in _written_nodes(graph)}
    count = 0
    for node in graph.nodes:
        if node.target is torch.ops.aten.view.default and find(node) not in written:
            node.target = torch.ops.aten.reshape.default
            count += 1
    if count:
        ep.graph_module.recompile()
    return count


def leftover_operators(ep: torch.export.ExportedProgram) -> list:
    """The operators of `ep` outside core ATen that torch._decomp can decompose."""
    found = set()
    for node in ep.graph.nodes:
        op = node.target
        if (
            node.op == "call_function"
            and isinstance(op, torch._ops.OpOverload)
            and torch.Tag.core not in op.tags
            and op not in KEPT
            and op in decomposition_table
        ):
            found.add(op)
    return sorted(found, key=str)


def decompose(ep: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """`ep` decomposed to core ATen as the module doc says (rewrites `ep`'s views first)."""
    views_as_reshapes(ep)
    table = torch.export.default_decompositions()
    decomposed = ep.run_decompositions(table)
    for _ in range(MAX_ROUNDS):
        extra = [op for op in leftover_operators(decomposed) if op not in table]
        if not extra:
            break
        for op in extra:
            table[op] = decomposition_table[op]
        decomposed = ep.run_decompositions(table)
    return decomposed
