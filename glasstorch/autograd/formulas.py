"""Derivative formulas: from a declaration's `grad=` strings to a backward node type.

A declaration says, as derivatives.yaml does, how to get each input's gradient from the
output's: ``grad={"self": "grad * other.conj()", "other": "grad * self.conj()"}``. This
module turns that into a `Node` subclass named as torch names it (`MulBackward0`):

- each formula becomes a Python function of the names it uses, compiled once;
- the names a formula reads decide what the forward call saves: an input (`self`,
  `other`, ...), the output (`result`, or the output's schema name, `result0`...), or a
  plain argument (`alpha`, `dim`);
- `grad` is the gradient of the (first differentiable) output, `grads` all of them;
- any other name is a function: a derivative helper beside its operator, or a torch
  function (`where`, `zeros_like`), found by `aten/derivatives.py`, which also checked
  every name when the operator was declared. Methods (`.conj()`) are Tensor methods.

The formulas run on tensors through the ordinary operators, so with grad mode on
(`create_graph=True`) backward itself is recorded and can be differentiated again.
"""
from __future__ import annotations

import ast
import re

from ..aten.derivatives import (OUTPUT_DIFFERENTIABILITY, RESERVED, formula_names, formulas,
                                forward_outputs, forward_variables, output_names, resolve,
                                variables)
from ..aten.dispatcher import operator_entry
from ..aten.registry import DECLARATIONS
from ..c10.dispatch_key import PYTHON, local_keys
from ..c10 import tensor_impl     # its _TensorClass: tensor_class() without a call
from .graph import Node, next_sequence_nr
from .saved import SavedTensor


def camel_case(name: str) -> str:
    """``'max_pool2d'`` -> ``'MaxPool2D'``, ``'log1p'`` -> ``'Log1P'``: torch's node-type
    spelling (a capital after each underscore and after each digit)."""
    spelled = "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)
    return re.sub(r"(?<=\d)([a-z])", lambda m: m.group(1).upper(), spelled)


class Formula:
    """One input's formula, compiled: `function(**values)` returns the input's gradient."""

    def __init__(self, input_name: str, text: str, op_name: str) -> None:
        self.input_name = input_name
        self.text = text
        self.names = formula_names(text)
        self._op_name = op_name
        self._function = self.run = None    # `run(values)`: the compiled formula
        self._parameters: tuple = ()

    def compile(self, variables: set) -> None:
        """Bind the names: those in `variables` are read from the values dict the node
        passes (Note [Formulas read the values dict]), the rest are functions."""
        self._parameters = tuple(n for n in self.names if n in variables)
        namespace = {name: resolve(name) for name in self.names if name not in variables}
        namespace.update(_CONJ_NAMES)
        if ".expand(" in self.text:          # Note [Formulas read the values dict]
            namespace["__expand"] = operator_entry("expand", "default")
        tree = _ReadValues(set(self._parameters)).visit(ast.parse(self.text.strip(), mode="eval"))
        source = f"lambda {_VALUES}: {ast.unparse(tree)}"
        self._function = self.run = eval(
            compile(source, f"<{self._op_name}: {self.input_name}>", "eval"), namespace)

    def __call__(self, values: dict):
        return self._function(values)


# Note [Formulas read the values dict]
#     A backward node calls each formula once per backward pass with one dict of its
#     saved values and gradients. The formula's text is compiled with its argument names
#     replaced by reads of that dict (``grad * other.conj()`` becomes
#     ``__values["grad"] * <conj of __values["other"]>``), so the call is one frame: no
#     list of arguments built first. `x.conj()` becomes the expression `_REAL_CONJ`:
#     most formulas conjugate for complex inputs' sake, and a real tensor of the plain
#     class is its own conjugate, handed back at once unless a dispatch mode would see
#     conj's call (torch's Tensor::conj answers so before dispatching anything, so
#     traces and profiles do not show it either); written inline, it costs no frame.
#     `x.expand(self_sym_sizes)` (sum's and mean's gradient) calls the expand operator's
#     entry, as torch's C++ formula calls at::expand: no binding parses sizes already
#     known to be a tuple of ints.
_VALUES, _OPERAND = "__values", "__operand"
_REAL_CONJ = ("__c if type(__c := __operand) is __impl._TensorClass "
              "and not __c._dtype.is_complex "
              "and not (__c._keys & __PYTHON or __local_keys.included) else __c.conj()")
_CONJ_NAMES = {"__impl": tensor_impl, "__PYTHON": PYTHON, "__local_keys": local_keys}


class _ReadValues(ast.NodeTransformer):
    def __init__(self, names: set) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name):
        if node.id not in self.names:
            return node
        return ast.copy_location(ast.Subscript(ast.Name(_VALUES, ast.Load()),
                                               ast.Constant(node.id), ast.Load()), node)

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "conj" and not node.args \
                and not node.keywords:
            inline = ast.parse(_REAL_CONJ, mode="eval").body
            return ast.copy_location(_Substitute(func.value).visit(inline), node)
        if isinstance(func, ast.Attribute) and func.attr == "expand" and not node.keywords \
                and len(node.args) == 1 and _reads_sizes(node.args[0]):
            call = ast.Call(ast.Name("__expand", ast.Load()),
                            [func.value, node.args[0], ast.Constant(False)], [])
            return ast.copy_location(call, node)
        return node


def _reads_sizes(node: ast.expr) -> bool:
    """Whether `node` reads an input's sizes from the values dict (``self_sym_sizes``)."""
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
        and str(node.slice.value).endswith("_sym_sizes")


class _Substitute(ast.NodeTransformer):
    """`_REAL_CONJ` with its operand in place of the placeholder name."""

    def __init__(self, operand: ast.expr) -> None:
        self.operand = operand

    def visit_Name(self, node: ast.Name):
        return self.operand if node.id == _OPERAND else node


class SharedFormula:
    """One formula for several inputs at once, declared under a key naming them all
    (``"input, weight, bias": "native_layer_norm_backward(..., grad_input_mask)"``, as
    derivatives.yaml does): a fused backward op computes every gradient in one pass.

    Each input gets a `SharedMember` that the node calls like a `Formula`; the first
    call of a backward runs the formula once, with `grad_input_mask` saying which of
    the inputs want a gradient, and keeps its tuple in that call's `values`.
    """

    def __init__(self, input_names: tuple, text: str, op_name: str) -> None:
        self.input_names = input_names
        self.formula = Formula(", ".join(input_names), text, op_name)

    def __call__(self, values: dict) -> tuple:
        found = values.get(self)
        if found is None:
            wanted = values.get("wanted_inputs")     # None in forward AD: every given one
            values["grad_input_mask"] = [values.get(name) is not None if wanted is None
                                         else wanted[name] for name in self.input_names]
            found = values[self] = self.formula(values)
        return found


class SharedMember:
    """One input's item of a `SharedFormula`'s result."""

    def __init__(self, shared: SharedFormula, index: int) -> None:
        self.shared = shared
        self.index = index
        self.input_name = shared.input_names[index]
        self.names = shared.formula.names
        self.text = shared.formula.text
        self.run = self.__call__           # what the node calls, as a Formula's `run`

    def __call__(self, values: dict):
        return self.shared(values)[self.index]


def _formulas_by_input(grad: dict, op_name: str) -> dict:
    """input name -> its Formula, or a SharedFormula's member for the inputs it names."""
    found = {}
    for key, text in formulas(grad).items():
        names = tuple(name.strip() for name in key.split(","))
        if len(names) == 1:
            found[key] = Formula(key, text, op_name)
            continue
        shared = SharedFormula(names, text, op_name)
        found.update((name, SharedMember(shared, i)) for i, name in enumerate(names))
    return found


class FormulaNode(Node):
    """The backward node of an operator with declared formulas.

    Class attributes, set per operator by `node_type`: `formulas` and `input_names`
    (one per differentiable input; a Tensor[] input has one edge per tensor),
    `saved_names`, `output_names`.
    """

    formulas: tuple = ()
    forward_formulas: dict = {}      # output index -> Formula (Note [Forward formulas])
    shares_formulas: bool = False
    differentiable_outputs: tuple | None = None     # None: every floating output
    saved_names: frozenset = frozenset()
    output_names: tuple = ()

    def __init__(self, next_functions: tuple, saved: dict, spans: tuple) -> None:
        # Node.__init__'s three fields set here: one frame less per recorded call
        self.next_functions = next_functions
        self._sequence_nr = next_sequence_nr()
        self._input_metadata = []
        self._saved = saved
        self._spans = spans          # per formula: None (one tensor) or a list's length

    def apply(self, grads: list) -> list:
        for g in grads:
            if g is None:                 # (`None in grads` would call Tensor.__eq__)
                if all(g is None for g in grads):
                    return [None] * len(self.next_functions)
                grads = self._materialize(grads)
                break
        values = self._unpack()
        values["grads"] = grads
        values["grad"] = grads[0]
        if self.shares_formulas:          # which inputs a SharedFormula is asked for
            values["wanted_inputs"] = {name: _wanted(edge) for name, edge
                                       in zip(self.input_names, self.next_functions)}
        results, edges = [], self.next_functions
        for formula, span in zip(self.formulas, self._spans):
            if span is None:              # one tensor input, one edge
                edge = edges[len(results)]
                results.append(formula.run(values) if edge is not None and edge[0] is not None
                               else None)
                continue
            wanted = [_wanted(edge) for edge in edges[len(results):len(results) + span]]
            if not any(wanted):
                results.extend(None for _ in wanted)
                continue
            results.extend(formula.run(values))
        return results

    def _unpack(self) -> dict:
        values = {}
        for name, value in self._saved.items():
            if type(value) is SavedTensor:
                value = value.unpack(self)
            elif type(value) is list and any(type(v) is SavedTensor for v in value):
                value = [None if v is None else v.unpack(self) for v in value]
            values[name] = value
        return values

    def _materialize(self, grads: list) -> list:
        """Missing gradients of other outputs as zeros (formulas expect tensors)."""
        from .engine import zeros_for
        return [zeros_for(meta) if g is None and meta is not None else g
                for g, meta in zip(grads, self._input_metadata)]

    def release(self) -> None:
        for value in self._saved.values():       # (most are SavedTensors or numbers)
            if type(value) is SavedTensor:
                value.release()
            elif type(value) is list:            # a Tensor[], or numbers (int[] dims)
                for item in value:
                    if type(item) is SavedTensor:
                        item.release()

    def __getattr__(self, name: str):
        """`_saved_self`, `_saved_other`, ...: the saved values, as torch exposes them."""
        if name.startswith("_saved_") and name[7:] in type(self).saved_names:
            return self._unpack().get(name[7:])     # None: not needed by this call
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


def _forward_formulas(grad: dict, schema, op_name: str) -> dict:
    """Output index -> compiled forward formula (Note [Forward formulas] in
    aten/derivatives.py); empty where the tangents come from the backward formulas."""
    found = {}
    for index, text in forward_outputs(schema, grad).items():
        found[index] = Formula(f"result{index}", text, op_name)
        found[index].compile(forward_variables(schema))
    return found


def _wanted(edge) -> bool:
    return edge is not None and edge[0] is not None


_NODE_TYPES: dict = {}          # qualified op name -> Node subclass
# Names that `<Op>Backward<n>` with n in declaration order does not give: torch numbers
# an operator's overloads in derivatives.yaml's order, and names some nodes by hand.
_NODE_NAMES = {
    "copy_": "CopyBackwards", "div.Tensor_mode": "DivBackward2",
    "fill.Scalar": "FillBackward0", "fill.Tensor": "FillBackward1",
    "fill_.Tensor": "FillBackward1", "fmod.Tensor": "FmodBackward1",
    "remainder.Tensor": "RemainderBackward1", "index_fill.int_Scalar": "IndexFillBackward0",
    "index_fill.int_Tensor": "IndexFillBackward1", "lerp.Scalar": "LerpBackward0",
    "lerp.Tensor": "LerpBackward1", "masked_fill.Scalar": "MaskedFillBackward0",
    "masked_fill.Tensor": "MaskedFillBackward1", "max": "MaxBackward1", "max.dim": "MaxBackward0",
    "min": "MinBackward1", "min.dim": "MinBackward0", "pow.Tensor_Tensor": "PowBackward1",
    "pow.Scalar": "PowBackward2", "pow.Tensor_Scalar": "PowBackward0",
    "pow_.Scalar": "PowBackward0",
    "norm.ScalarOpt_dtype": "NormBackward2", "norm.ScalarOpt_dim_dtype": "NormBackward3",
    "std": "StdBackward0", "std.dim": "StdBackward0", "std.correction": "StdBackward0",
    "var": "VarBackward0", "var.dim": "VarBackward0", "var.correction": "VarBackward0",
    "std_mean": "StdMeanBackward0", "std_mean.dim": "StdMeanBackward0",
    "std_mean.correction": "StdMeanBackward0", "var_mean": "VarMeanBackward0",
    "var_mean.dim": "VarMeanBackward0", "var_mean.correction": "VarMeanBackward0",
    "clamp_min": "ClampMinBackward0", "clamp_min.Tensor": "ClampMinBackward1",
    "clamp_max": "ClampMaxBackward0", "clamp_max.Tensor": "ClampMaxBackward1",
    "clip": "ClampBackward1", "clip.Tensor": "ClampBackward0",
    "max.other": "MaximumBackward0", "min.other": "MinimumBackward0",
    "float_power.Tensor_Tensor": "PowBackward1", "square": "PowBackward0",
    # random: numbered in derivatives.yaml's order, not in the order bindings try them
    "normal.Tensor_float": "NormalBackward1", "normal.float_Tensor": "NormalBackward2",
    "normal.Tensor_Tensor": "NormalBackward3", "bernoulli_.Tensor": "BernoulliBackward1",
    "bernoulli_.float": "BernoulliBackward2",
    # one node here standing for torch's composite that records one node of another op
    "msort": "SortBackward0", "take_along_dim": "GatherBackward0",
    "repeat_interleave.self_Tensor": "IndexSelectBackward0", "cross": "LinalgCrossBackward0",
    "cdist": "CdistBackward0", "_cdist_forward": "CdistBackward0",
    # in-place views, numbered after their views (swapaxes_/swapdims_ are transpose_'s)
    "t_": "TBackward1", "transpose_": "TransposeBackward1", "swapaxes_": "TransposeBackward1",
    "swapdims_": "TransposeBackward1", "unsqueeze_": "UnsqueezeBackward1",
    "squeeze_": "SqueezeBackward3", "squeeze_.dim": "SqueezeBackward4",
    "squeeze_.dims": "SqueezeBackward5", "as_strided_": "AsStridedBackward1",
    # a number's overloads (native/pointwise/binary_scalar.py), in-place twins included
    **{f"{name}{inplace}.Scalar": f"{name.title()}Backward1"
       for name in ("add", "sub", "mul", "div") for inplace in ("", "_")},
}
# In-place twins derivatives.yaml lists apart (with a formula on the result): numbered
# after the functional overload, where torch's name differs from it.
_INPLACE_NODE_NAMES = {"threshold": "ThresholdBackward1", "elu": "EluBackward1",
                       "leaky_relu": "LeakyReluBackward1", "celu": "CeluBackward1",
                       "rrelu_with_noise": "RreluWithNoiseBackward1"}
_HAND_WRITTEN = {"copy_"}
# A number where the schema says Tensor is torch's wrapped number, or selects one of its
# `.Scalar` overloads: (declaration, the arguments given as numbers) -> that node's name.
_SCALAR_NODE_NAMES = {
    ("sub.Tensor", ("self",)): "RsubBackward1",           # `2 - x`: torch's rsub.Scalar
    ("pow.Tensor_Tensor", ("exponent",)): "PowBackward0",
    ("pow.Tensor_Tensor", ("self",)): "PowBackward2",
    ("float_power.Tensor_Tensor", ("exponent",)): "PowBackward0",
    ("float_power.Tensor_Tensor", ("self",)): "PowBackward2",
    ("xlogy.Tensor", ("self",)): "XlogyBackward1", ("xlogy.Tensor", ("other",)): "XlogyBackward2",
    ("copysign.Tensor", ("other",)): "CopysignBackward1",
    ("fmod.Tensor", ("other",)): "FmodBackward0",
    ("remainder.Tensor", ("other",)): "RemainderBackward0",
    ("remainder.Tensor", ("self",)): "RemainderBackward2",
}
_VARIANTS: dict = {}            # (node type, name) -> its subclass of that name


def named_for_call(cls, declaration, numbers: tuple):
    """The node type of one call: `cls`, or a same-formula subclass named after the
    torch overload that numbers in `numbers` (Tensor arguments) would have selected."""
    name = _SCALAR_NODE_NAMES.get((declaration.name, numbers))
    if name is None or name == cls.__name__:
        return cls
    return _variant(cls, name)


def _variant(cls, name: str):
    """A subclass of node type `cls` with the same formulas under another name."""
    variant = _VARIANTS.get((cls, name))
    if variant is None:
        variant = _VARIANTS[cls, name] = type(name, (cls,), {})
    return variant


def _aliased(declaration):
    """The declaration an alias (`negative` of `neg`) repeats: its nodes are the main
    operator's, as torch's aliases decompose into the main operator."""
    kernel = getattr(declaration.kernel, "aliased", None)
    if kernel is None:
        return None
    from ..aten.registry import DECLARATIONS
    return next((d for d in DECLARATIONS.values() if d.kernel is kernel and d.grad), None)


def _index(declaration) -> int:
    """The `n` of `<Op>Backward<n>`: which of the operator's overloads with formulas this
    is, in declaration order (derivatives.yaml numbers them in its order; Note
    [Declaration order] in aten/native/__init__.py keeps that order whatever loads
    first)."""
    from ..aten.registry import DECLARATIONS
    base = declaration.name.split(".")[0]
    index = 0
    for other in DECLARATIONS.values():
        if other is declaration:
            return index
        if other.grad is not None and other.name.split(".")[0] == base \
                and _aliased(other) is None:
            index += 1
    return index


def _copy_of_view_name(declaration) -> str | None:
    """torchgen names the node of a view's ``*_copy`` twin after the view's node:
    ``t_copy`` records ``TBackward0_copy``. None for other operators."""
    base, dot, overload = declaration.name.partition(".")
    view = DECLARATIONS.get(base.removesuffix("_copy") + dot + overload)
    if not base.endswith("_copy") or view is None or view.kind != "view" or view.grad is None:
        return None
    return node_type(view, next(iter(view.overloads.values()))._schema).__name__ + "_copy"


def node_type(declaration, schema) -> type:
    """The Node subclass for a declaration with `grad=` formulas (made once)."""
    inplace_name = _INPLACE_NODE_NAMES.get(declaration.name)
    from ..aten.schema import SchemaKind
    if inplace_name is not None and schema.kind is SchemaKind.inplace:
        functional = declaration.overloads[SchemaKind.functional]._schema
        return _variant(node_type(declaration, functional), inplace_name)
    found = _NODE_TYPES.get(declaration.name)
    if found is not None:
        return found
    target = _aliased(declaration)
    if target is not None:
        functional = next(iter(target.overloads.values()))._schema
        found = _NODE_TYPES[declaration.name] = node_type(target, functional)
        return found
    base = declaration.name.split(".")[0].removesuffix("_forward")   # as torchgen names them
    name = (_NODE_NAMES.get(declaration.name) or _copy_of_view_name(declaration)
            or f"{camel_case(base)}Backward{_index(declaration)}")
    op_name = declaration.name
    by_input = _formulas_by_input(declaration.grad, op_name)
    inputs = [a for a in schema.arguments if a.type.base == "Tensor" and a.name in by_input]
    outputs = output_names(schema)
    ordered = [by_input[arg.name] for arg in inputs]
    known = variables(schema)
    shared = {f.shared for f in ordered if isinstance(f, SharedMember)}
    for formula in [f for f in ordered if isinstance(f, Formula)] + \
            [s.formula for s in shared]:
        formula.compile(known)
    used = set().union(*(f.names for f in ordered))
    cls = type(name, (FormulaNode,), {"hand_written": declaration.name in _HAND_WRITTEN,
        "formulas": tuple(ordered), "output_names": outputs, "shares_formulas": bool(shared),
        "forward_formulas": _forward_formulas(declaration.grad, schema, op_name),
        "differentiable_outputs": declaration.grad.get(OUTPUT_DIFFERENTIABILITY),
        "saved_names": frozenset(used & (known - RESERVED)),
        "input_names": tuple(a.name for a in inputs)})
    _NODE_TYPES[declaration.name] = cls
    return cls
