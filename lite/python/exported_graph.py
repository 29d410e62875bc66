"""A decomposed `torch.export.ExportedProgram` as a `LiteModel` (needs torch).

`convert_program(ep, metadata)` walks `ep.graph` in its (topological) order:
placeholders become constants (parameters, buffers, lifted tensor constants, with their
raw bytes; the names of one tensor, as a tied parameter's, with one bytes object, which
the writer stores once) or inputs (user inputs); each OpOverload call becomes a node with its
arguments in schema order (schema_args.py) and one slot per return, or, for a Tensor[]
return, one slot per element (unpack); `operator.getitem` nodes are folded into the
slot they name; the output node names the user outputs. Slots are numbered in the order
they are defined. `aten::_assert_tensor_metadata` calls (no returns; static facts) are
left out. A Python number given for a Tensor argument (a wrapped number:
`aten::mul.Tensor(x, 2)`) becomes a 0-dim constant named `<node>.<argument>`.

Dynamic shapes (symbolic.py) make a version-2 model: the inputs' symbolic dimensions
become symbols; a node whose value is a scalar (`aten.sym_size.int`, and the Python
operator nodes `operator.mul`, `torch.sym_max`, `math.ceil`, ...) defines a scalar slot,
the Python ones as `sym::` nodes; `aten._assert_scalar` becomes `sym::assert`, and the
range constraints' calls are left out; a scalar node given for a Tensor argument becomes
an `aten::scalar_tensor` node named `<node>.<argument>`; each tensor a node defines gets
its symbolic shape in value_info. Everything else raises `ConvertError` whose message
starts with the node's name (and operator).
"""

import operator

import torch
from lite_model import Arg, Constant, Input, LiteModel, Node, Output, Tag, TensorDesc
from schema_args import ConvertError, dtype_code, encode_arguments, is_scalar_node
from symbolic import ASSERT_SCALAR, RANGE_CONSTRAINTS, SYM_TARGETS, Symbols
from torch.export.graph_signature import InputKind, OutputKind, TensorArgument

# Checks that hold by construction, left out: `.to()` asserts its input's dtype, device
# and layout, which the exported input descriptions already fix; the range constraints
# are the symbols' bounds, checked when the inputs bind them.
DROPPED = {"aten::_assert_tensor_metadata"} | RANGE_CONSTRAINTS
# Return types whose value is a scalar: the node's one output slot holds a scalar.
SCALAR_RETURNS = {"SymInt", "SymFloat", "SymBool", "int", "float", "bool", "Scalar"}


def op_name(op: torch._ops.OpOverload) -> str:
    """PyTorch's spelling: `aten::addmm` for the default overload, `aten::add.Tensor` otherwise."""
    overload = op._overloadname
    return op._schema.name if overload == "default" else f"{op._schema.name}.{overload}"


def _node_error(node: torch.fx.Node, message: str, op: str = None) -> ConvertError:
    return ConvertError(f"node '{node.name}'{f' ({op})' if op else ''}: {message}")


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    """A tensor's elements, contiguous and little-endian (bfloat16 through an int16 view)."""
    t = tensor.detach().contiguous().cpu()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    array = t.numpy()
    return array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


class _Converter:
    def __init__(self, ep: torch.export.ExportedProgram, dim_names: dict = None):
        self.ep = ep
        self.symbols = Symbols(ep, dim_names)
        self.model = LiteModel()
        self.slot_of = {}  # fx node -> slot (single-tensor values)
        self.slots_of = {}  # fx node -> its output slots (multi-output nodes)
        self.scalar_slots = 0  # scalar slots defined (a data-dependent size needs version 2)
        self.data_of = {}  # (storage address, offset, sizes, strides, dtype) -> (tensor, bytes)
        self.specs = {
            spec.arg.name: spec
            for spec in ep.graph_signature.input_specs
            if isinstance(spec.arg, TensorArgument)
        }

    def new_slot(self) -> int:
        self.model.num_values += 1
        return self.model.num_values - 1

    def placeholder(self, node):
        spec = self.specs.get(node.name)
        if spec is None:
            raise _node_error(
                node, "an input that is not a tensor; only tensor inputs are supported"
            )
        if spec.kind == InputKind.USER_INPUT:
            val = node.meta.get("val")
            if not isinstance(val, torch.Tensor):
                raise _node_error(node, f"user input without a tensor value ({type(val).__name__})")
            what = f"node '{node.name}' (user input)"
            sizes = self.symbols.input_sizes(val, node.name, what)
            desc = TensorDesc(dtype_code(val.dtype, what), sizes)
            self.slot_of[node] = self.new_slot()
            self.model.inputs.append(Input(node.name, self.slot_of[node], desc))
            return
        if spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
            tensor = self.ep.state_dict.get(spec.target)
            if tensor is None:  # a non-persistent buffer
                tensor = self.ep.constants.get(spec.target)
        elif spec.kind == InputKind.CONSTANT_TENSOR:
            tensor = self.ep.constants.get(spec.target)
        else:
            raise _node_error(node, f"a {spec.kind.name} input, which the format cannot hold")
        if not isinstance(tensor, torch.Tensor):
            raise _node_error(
                node, f"no tensor for {spec.kind.name.lower()} '{spec.target}' in the program"
            )
        what = f"node '{node.name}' ({spec.kind.name.lower()} '{spec.target}')"
        if tensor.layout != torch.strided or tensor.is_quantized:
            raise ConvertError(
                f"{what}: a {tensor.layout} tensor; the format holds dense strided tensors only"
            )
        desc = TensorDesc(dtype_code(tensor.dtype, what), tuple(tensor.shape))
        self.slot_of[node] = self.new_slot()
        self.model.constants.append(
            Constant(spec.target, self.slot_of[node], desc, self.tensor_data(tensor))
        )

    def tensor_data(self, tensor: torch.Tensor) -> bytes:
        """tensor_bytes(tensor), made once for every name of one tensor: torch.export keeps a
        tied parameter (`lm_head.weight = embed.weight`) as one placeholder per name, whose
        state_dict tensors are the same view of one storage. The writer stores equal
        constants once anyway (lite_model.data_layout); this keeps the converter from
        copying (and the writer from hashing) a tied embedding once per name."""
        try:
            storage = tensor.untyped_storage().data_ptr()
        except (RuntimeError, NotImplementedError):  # no storage to share (a wrapper subclass)
            return tensor_bytes(tensor)
        key = (storage, tensor.storage_offset(), tuple(tensor.shape), tensor.stride(), tensor.dtype)
        if key not in self.data_of:
            # The tensor is kept with its bytes, so that its storage's address cannot be
            # reused by another tensor while the program is converted.
            self.data_of[key] = (tensor, tensor_bytes(tensor))
        return self.data_of[key][1]

    def lift_number(self, node, arg_name: str, number) -> int:
        """The slot of a 0-dim constant `{node}.{arg}` for a number passed as a Tensor
        (or of a 0-dim tensor made at run time from a scalar node, `lift_scalar`).

        Its dtype keeps PyTorch's wrapped-number promotion: bool, int64 for an int; for a
        float, float64 (a wrapped number's own dtype: a 0-dim tensor never promotes a
        dimensioned one of its category, and its value reaches the kernel unrounded) when a
        dimensioned floating tensor is an argument, else the first floating tensor
        argument's dtype, else float32 (the default dtype, what int tensors promote to).
        """
        value = number.meta["val"] if isinstance(number, torch.fx.Node) else number
        if isinstance(value, (bool, torch.SymBool)):
            dtype = torch.bool
        elif isinstance(value, (int, torch.SymInt)):
            dtype = torch.int64
        else:
            vals = [a.meta.get("val") for a in node.args if isinstance(a, torch.fx.Node)]
            floating = [
                v for v in vals if isinstance(v, torch.Tensor) and v.dtype.is_floating_point
            ]
            if any(v.dim() > 0 for v in floating):
                dtype = torch.float64
            else:
                dtype = floating[0].dtype if floating else torch.get_default_dtype()
        if isinstance(number, torch.fx.Node):
            return self.lift_scalar(node, arg_name, number, dtype)
        tensor = torch.tensor(number, dtype=dtype)
        slot = self.new_slot()
        desc = TensorDesc(dtype_code(dtype, f"argument '{arg_name}'"), ())
        self.model.constants.append(
            Constant(f"{node.name}.{arg_name}", slot, desc, tensor_bytes(tensor))
        )
        return slot

    def lift_scalar(self, node, arg_name: str, scalar, dtype) -> int:
        """The slot of `aten::scalar_tensor(scalar, dtype=...)`, a node `{node}.{arg}`: what
        eager PyTorch makes of a SymInt given for a Tensor (`x * x.shape[0]`)."""
        slot = self.new_slot()
        args = [
            Arg(Tag.VALUE, self.slot_of[scalar]),
            Arg(Tag.SCALAR_TYPE, dtype_code(dtype, f"argument '{arg_name}'")),
        ]
        name = f"{node.name}.{arg_name}"
        self.model.nodes.append(
            Node(name, self.operator_index("aten::scalar_tensor"), args, False, [slot])
        )
        self.model.value_info.append((slot, "[]"))
        return slot

    def operator_index(self, name: str) -> int:
        if name not in self.model.operators:
            self.model.operators.append(name)
        return self.model.operators.index(name)

    def getitem(self, node):
        source, index = node.args
        if (
            source not in self.slots_of
            or not isinstance(index, int)
            or not -len(self.slots_of[source]) <= index < len(self.slots_of[source])
        ):
            raise _node_error(
                node,
                f"getitem({getattr(source, 'name', source)!r}, {index!r}) does not name an "
                "output of a multi-output operator",
            )
        self.slot_of[node] = self.slots_of[source][index]

    def call(self, node):
        op = node.target
        name = op_name(op)
        if name in DROPPED:
            return
        if name == ASSERT_SCALAR:
            self.scalar_call(node, "sym::assert", outputs=0)
            return
        schema = op._schema
        if schema.is_mutable:
            raise _node_error(
                node,
                "the operator writes to an argument; the format holds functional graphs only "
                "(run_decompositions() should have removed it)",
                name,
            )
        try:
            args = encode_arguments(
                op, node, self.slot_of, lambda arg, number: self.lift_number(node, arg, number)
            )
        except ConvertError as e:
            raise _node_error(node, str(e), name) from None
        returns = [str(r.real_type) for r in schema.returns]
        val = node.meta.get("val")
        for k, tensor in enumerate(val if isinstance(val, (list, tuple)) else [val]):
            if isinstance(tensor, torch.Tensor):
                try:
                    dtype_code(tensor.dtype, f"output {k}")
                except ConvertError as e:
                    raise _node_error(node, str(e), name) from None
        unpack = returns == ["List[Tensor]"]
        if unpack:
            if not isinstance(val, (list, tuple)):
                raise _node_error(
                    node, "a Tensor[] return without its list of values in node.meta['val']", name
                )
            count = len(val)
        elif all(r == "Tensor" for r in returns) or (
            len(returns) == 1 and returns[0] in SCALAR_RETURNS
        ):
            count = len(returns)
        else:
            raise _node_error(
                node,
                f"returns ({', '.join(returns)}); the format's slots hold tensors and single "
                "scalars only",
                name,
            )
        outs = [self.new_slot() for _ in range(count)]
        self.scalar_slots += sum(1 for r in returns if r in SCALAR_RETURNS)
        if count == 1 and not unpack:
            self.slot_of[node] = outs[0]
        else:
            self.slots_of[node] = outs
        self.model.nodes.append(Node(node.name, self.operator_index(name), args, unpack, outs))
        for slot, tensor in zip(outs, val if isinstance(val, (list, tuple)) else [val]):
            if isinstance(tensor, torch.Tensor):
                self.model.value_info.append((slot, self.symbols.shape_text(tensor)))

    def scalar_call(self, node, name: str, outputs: int = 1):
        """A `sym::` node: the operands of a Python scalar operator (or of _assert_scalar)."""
        args = []
        for k, operand in enumerate(list(node.args) + list(node.kwargs.values())):
            if isinstance(operand, torch.fx.Node):
                if operand not in self.slot_of or not is_scalar_node(operand):
                    raise _node_error(
                        node,
                        f"operand {k} '{operand.name}' is not a scalar the graph computes",
                        name,
                    )
                args.append(Arg(Tag.VALUE, self.slot_of[operand]))
            elif isinstance(operand, bool):
                args.append(Arg(Tag.BOOL, operand))
            elif isinstance(operand, int):
                args.append(Arg(Tag.INT, operand))
            elif isinstance(operand, float):
                args.append(Arg(Tag.FLOAT, operand))
            elif isinstance(operand, str) and name == "sym::assert" and k == 1:
                args.append(Arg(Tag.STR, operand))
            else:
                raise _node_error(
                    node, f"operand {k} is {operand!r}, not a number or a scalar node", name
                )
        outs = [self.new_slot() for _ in range(outputs)]
        self.scalar_slots += outputs
        if outputs:
            self.slot_of[node] = outs[0]
        self.model.nodes.append(Node(node.name, self.operator_index(name), args, False, outs))

    def unsupported_call(self, node):
        target = node.target
        if isinstance(target, torch._ops.HigherOrderOperator):
            spelled = f"torch.ops.higher_order.{target.name()}"
        else:
            spelled = f"{getattr(target, '__module__', None) or 'builtins'}.{getattr(target, '__qualname__', target)}"
        raise _node_error(
            node,
            f"calls {spelled}, which is not an ATen operator overload (higher-order ops such as "
            "cond, map and while_loop, and Python functions, are not supported)",
            spelled,
        )

    def output(self, node):
        specs = self.ep.graph_signature.output_specs
        values = node.args[0] if isinstance(node.args[0], (tuple, list)) else [node.args[0]]
        if len(values) != len(specs):
            raise _node_error(
                node, f"{len(values)} outputs but the graph signature lists {len(specs)}"
            )
        for spec, value in zip(specs, values):
            if spec.kind != OutputKind.USER_OUTPUT:
                raise _node_error(
                    node,
                    f"a {spec.kind.name} output (mutated buffers or inputs are not supported; "
                    "make the model functional)",
                )
            if not isinstance(value, torch.fx.Node) or value not in self.slot_of:
                raise _node_error(
                    node,
                    f"output {value!r} is not a tensor of the graph (constant outputs are not "
                    "supported)",
                )
            self.model.outputs.append(Output(spec.arg.name, self.slot_of[value]))

    def run(self) -> LiteModel:
        signature = self.ep.graph_signature
        for kind, mutated in (
            ("buffer", signature.buffers_to_mutate),
            ("input", signature.user_inputs_to_mutate),
        ):
            for node_name, target in mutated.items():
                raise ConvertError(
                    f"node '{node_name}': its value is written back to {kind} '{target}'; mutated "
                    "buffers and inputs are not supported (return the new value instead)"
                )
        for node in self.ep.graph.nodes:  # a higher-order op before its get_attr submodules
            if (
                node.op == "call_function"
                and not isinstance(node.target, torch._ops.OpOverload)
                and node.target is not operator.getitem
                and not self.sym_target(node)
            ):
                self.unsupported_call(node)
        for node in self.ep.graph.nodes:
            if node.op == "placeholder":
                self.placeholder(node)
            elif node.op == "call_function" and node.target is operator.getitem:
                self.getitem(node)
            elif node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload):
                self.call(node)
            elif node.op == "call_function" and self.sym_target(node):
                self.scalar_call(node, self.sym_target(node))
            elif node.op == "call_function":
                self.unsupported_call(node)
            elif node.op == "output":
                self.output(node)
            else:
                raise _node_error(
                    node,
                    f"a '{node.op}' node ({node.target}); the format holds operator calls only "
                    "(no submodules or attributes)",
                )
        self.model.symbols = self.symbols.symbols
        if not self.model.symbols and not self.scalar_slots:
            self.model.value_info = []  # a static model: version 1, which has no value_info
        return self.model

    @staticmethod
    def sym_target(node) -> str:
        """The `sym::` operator of a Python scalar node whose value is a scalar, else ''."""
        try:
            name = SYM_TARGETS.get(node.target, "")
        except TypeError:  # an unhashable target
            return ""
        return name if name and is_scalar_node(node) else ""


def convert_program(
    ep: torch.export.ExportedProgram, metadata: list, dim_names: dict = None
) -> LiteModel:
    """The LiteModel of an already decomposed program, with the given (key, value) metadata.

    `dim_names`, {(input name, dimension): name}, names the symbols; by default the names
    the program's shape env remembers (symbolic.dim_names), else "<input>.<dim>".
    """
    model = _Converter(ep, dim_names).run()
    model.metadata = list(metadata)
    return model
