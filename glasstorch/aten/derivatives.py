"""Derivative formulas: the names a `grad=` formula may use, and the helpers it calls.

A declaration says, as derivatives.yaml does, how to get each input's gradient:
``grad={"self": "clamp_backward(grad, self, min, max)"}``. A formula reads the
operator's arguments (`self`, `min`), its outputs (`result`, or an output's schema
name), facts about an input (`self_sym_sizes`: `INPUT_FACTS`), the incoming gradients
(`grad`, `grads`), and calls functions: a derivative helper, a torch function (`where`,
`zeros_like`) or an aten operator Python binds nowhere else (`gelu_backward`).

A derivative too long for one line is a helper beside its operator (torch's
FunctionsManual, kept with each operator), written in operators so that it differentiates
again, and registered where it is defined:

    @derivative_helper
    def cumsum_backward(grad, dim: int):
        ...

    @op("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", ...,
        grad={"self": "cumsum_backward(grad.to(self_scalar_type), dim)"})

`print(HELPERS)` lists them. `autograd/formulas.py` compiles the formulas at the first
backward and finds the functions they call with `resolve`.

Note [Forward formulas]
    Forward mode derives an operator's tangents from its backward formulas
    (autograd/forward_ad.py), which is exact for every linear map they describe. Where
    torch's tangent is not that map's, the declaration says so as derivatives.yaml does,
    under an output's name (`result`, or `result0`, `result1`... for several): a formula
    reading the inputs' tangents as ``<input>_t`` (zeros for an input without one) and
    anything a backward formula reads. ``"result": "max_unpool2d(self_t, indices,
    output_size)"``: torch writes repeated indices' tangents over each other as the
    values are, where the adjoint of the gradient's gather would add them. An operator
    torch gives no forward derivative declares ``forward_ad_not_implemented('<name>')``,
    which raises torch's error. An operator declaring forward formulas declares one for
    each differentiable output; its other outputs' tangents are zeros.

Note [When formula names are checked]
    At declaration (`check_formulas`, called by the registry), so that a misspelt name
    (or input key) fails the import of its family, not the first backward. A name is
    known by then when it is a helper defined above the operator, an operator declared
    before, or a torch function or operator that the family index lists (families not
    loaded yet, and a family's own operators declared further down). Helpers come first
    because Python tells no one when a module has finished running, so the check cannot
    wait for the end of a family; defining a function before the module-level code that
    uses it is the order Python code keeps anyway. The index build starts from an empty
    index, so it loads the families inside `deferred_checks()`, where unknown names
    wait until all have loaded (copy_'s formula calls factory's `zeros_like`, and
    factory imports copy). The operators a helper calls (``at.where``) are Python
    names, found when it runs: the gradient tests run every helper.
"""
from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from operator import attrgetter

from ..c10.dispatch_key import AUTOGRAD, PYTHON, local_keys
from . import binding
from .dispatcher import has_operator, operator_entry, ops
from .python_arg import Mismatch

NOT_DIFFERENTIABLE = "non_differentiable"
# An input derivatives.yaml leaves out: torch refuses it when it requires grad ("The
# function 'nll_loss_forward' is not differentiable with respect to argument 'weight'").
REFUSES_GRAD = "refuses_requires_grad"
# A grad= key naming which outputs are differentiable (derivatives.yaml's
# output_differentiability: native_layer_norm's mean and rstd are not), e.g.
# ``"output_differentiability": (True, False, False)``; by default every floating one is.
OUTPUT_DIFFERENTIABILITY = "output_differentiability"
RESERVED = frozenset({"grad", "grads", "grad_input_mask"})

# Facts about an input a formula may read instead of the input itself (`self_sym_sizes`):
# saving them keeps no tensor alive and is immune to later in-place changes, as torch's
# `_saved_self_sym_sizes` is. Attributes are read by attrgetters: no Python frame per
# recorded call.
INPUT_FACTS = {"sym_sizes": attrgetter("_size"), "sym_strides": attrgetter("_stride"),
               "sym_storage_offset": attrgetter("_offset"), "scalar_type": attrgetter("_dtype"),
               "dim": lambda t: len(t._size), "sym_numel": lambda t: t.numel()}

HELPERS: dict = {}          # name -> derivative helper, filled by @derivative_helper
# Names a formula reads as they are: `ops` reaches one overload (``ops.aten.index.Tensor``).
_NAMESPACES = {"ops": ops}
_deferred: list | None = None   # unknown names waiting (Note [When formula names are checked])


def derivative_helper(function):
    """Register `function` under its name for the formulas of the operators below it."""
    name = function.__name__
    if name in HELPERS:
        raise RuntimeError(f"two derivative helpers are named {name}: "
                           f"{HELPERS[name].__module__} and {function.__module__}")
    HELPERS[name] = function
    return function


def output_names(schema) -> tuple:
    """The names a formula reads an operator's outputs by: ``result`` for a lone output,
    ``result0``, ``result1``... for several, plus each output's own schema name."""
    returns = schema.returns
    if len(returns) == 1:
        return ("result",) + ((returns[0].name,) if returns[0].name else ())
    names = []
    for i, ret in enumerate(returns):
        names.append(f"result{i}")
        if ret.name:
            names.append(ret.name)
    return tuple(names)


def forward_outputs(schema, grad: dict) -> dict:
    """Output index -> forward formula text (Note [Forward formulas])."""
    names = output_names(schema)
    indices = {"result": 0} if names[0] == "result" else {
        f"result{i}": i for i in range(len(schema.returns))}
    return {indices[key]: text for key, text in grad.items() if key in indices}


def forward_variables(schema) -> set:
    """The names a forward formula reads: a backward formula's, and the inputs' tangents."""
    return variables(schema) | {f"{a.name}_t" for a in schema.arguments
                                if a.type.base == "Tensor"}


def variables(schema) -> set:
    """The names a formula of this schema reads from the call: arguments, outputs,
    input facts and the gradients; every other name it uses is a function."""
    found = {a.name for a in schema.arguments} | set(output_names(schema)) | RESERVED
    found |= {f"{a.name}_{fact}" for a in schema.arguments if a.type.base == "Tensor"
              for fact in INPUT_FACTS}
    return found


# A formula's names are its identifiers outside string literals, less attributes (after a
# dot), keyword arguments (before a lone `=`) and the keywords an expression may hold: what
# the AST calls its names (tests hold the two equal on every formula). Read this way, not
# by walking the AST, as the core families' formulas are checked during `import glasstorch`.
_STRINGS = re.compile(r"'[^']*'|\"[^\"]*\"")
_IDENTIFIERS = re.compile(r"(?<![\w.])[A-Za-z_]\w*\b(?!\s*=(?!=))")
_KEYWORDS = frozenset({"and", "or", "not", "if", "else", "for", "in", "is", "lambda", "None",
                       "True", "False"})


@functools.cache
def formula_names(text: str) -> tuple:
    """The names a formula's text uses, sorted (``grad * other.conj()``: grad, other)."""
    found = _IDENTIFIERS.findall(_STRINGS.sub("''", text))
    return tuple(sorted({name for name in found if name not in _KEYWORDS}))


def formulas(grad: dict) -> dict:
    """The backward formulas of a `grad=` dict: key (input name, or names separated by
    commas) -> text; the markers (`NOT_DIFFERENTIABLE`, `REFUSES_GRAD`),
    `OUTPUT_DIFFERENTIABILITY` and the forward formulas (keyed `result...`) left out."""
    return {key: text for key, text in grad.items()
            if key != OUTPUT_DIFFERENTIABILITY and not _FORWARD_KEY.fullmatch(key)
            and text not in (NOT_DIFFERENTIABLE, REFUSES_GRAD)}


_FORWARD_KEY = re.compile(r"result\d*")        # no operator has an input named so


def check_formulas(schema, grad: dict | None, module: str) -> None:
    """Refuse a declaration whose formulas name something no one declares (`module`: its
    family, for the message)."""
    if grad is None:
        return
    name = schema.qualified_name
    inputs = {a.name for a in schema.arguments if a.type.base == "Tensor"}
    known = variables(schema)
    for key, text in formulas(grad).items():
        wrong = [k for k in key.split(",") if k.strip() not in inputs]
        if wrong:       # a formula no input would ever call
            raise NameError(f"derivative formula of {name} ({module}) is keyed by "
                            f"{wrong[0].strip()!r}, which is no Tensor argument of {schema}")
        _check_names(name, module, key, text, known)
    forward = [key for key in grad if key.startswith("result") and _FORWARD_KEY.fullmatch(key)]
    if forward and len(forward_outputs(schema, grad)) < len(forward):
        raise NameError(f"a forward formula of {name} ({module}) is keyed by no output of "
                        f"{schema} (result, or result0, result1...)")
    for key in forward:
        _check_names(name, module, key, grad[key], forward_variables(schema))


def _check_names(name: str, module: str, key: str, text: str, known: set) -> None:
    unknown = [n for n in formula_names(text) if n not in known and not _declared(n)]
    if not unknown:
        return
    if _deferred is None:
        raise _unknown(name, module, key, unknown[0])
    _deferred.append((name, module, key, unknown))


@contextmanager
def deferred_checks():
    """Let declarations name what is declared later; check them all at the end (Note
    [When formula names are checked])."""
    global _deferred
    outer, _deferred = _deferred, []
    try:
        yield
        for name, module, key, unknown in _deferred:
            for each in unknown:
                if not _declared(each):
                    raise _unknown(name, module, key, each)
    finally:
        _deferred = outer


def _declared(name: str) -> bool:
    return (name in HELPERS or name in _NAMESPACES or binding.has_binding("function", name)
            or has_operator(name))


def _unknown(name: str, module: str, key: str, unknown: str) -> NameError:
    return NameError(
        f"derivative formula of {name} ({module}) for {key!r} uses {unknown!r}, which is "
        f"neither an argument or output of the operator, nor a derivative helper defined "
        f"above it (@derivative_helper), nor a torch function or aten operator (one "
        f"declared further down needs the family index: python -m "
        f"glasstorch.aten.native.family_index)")


def resolve(name: str):
    """The function a formula calls by `name`: a derivative helper, else the torch
    function, else the aten operator (a backward op torch binds nowhere in Python)."""
    found = HELPERS.get(name) or _NAMESPACES.get(name)
    if found is not None:
        return found
    try:
        return binding.get_binding("function", name)
    except KeyError:
        pass
    try:
        packet = getattr(ops.aten, name)
    except AttributeError:
        raise NameError(f"derivative formulas use {name!r}, which is neither a derivative "
                        f"helper, a torch function nor an aten operator") from None
    return _packet_caller(packet)


def _packet_caller(packet):
    """``torch.ops.aten.<name>(...)`` for a backward op a formula calls once per node:
    the first overload's schema binder, then its dispatcher entry, without the packet's
    search and import in between. Arguments that overload does not accept go to the
    packet, which tries the overloads in order as before (the first already failed)."""
    if not packet._overloads:
        return packet
    overload = next(iter(packet._overloads.values()))
    binder = binding.schema_binder(overload)

    def call(*args, **kwargs):
        try:
            bound = binder(args, kwargs)
        except Mismatch:
            return packet(*args, **kwargs)
        return overload.call(*bound)
    call.__qualname__ = call.__name__ = overload._schema.name.removeprefix("aten::")
    return call


# ----------------------------------------------------------------------------------
# Helpers of the formula language itself
# ----------------------------------------------------------------------------------
@derivative_helper
def not_implemented(name: str):
    """The formula of an operator whose derivative torch does not implement either
    (derivatives.yaml's ``not_implemented``: torch raises NotImplementedError, which is
    a RuntimeError)."""
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


@derivative_helper
def forward_ad_not_implemented(name: str):
    """The forward formula of an operator torch gives no forward derivative (Note [Forward
    formulas]): torch's error."""
    raise NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not "
        f"been implemented yet.\nPlease file an issue to PyTorch at https://github.com/"
        f"pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize "
        f"its implementation or submit a PR adding the implementation to derivatives.yaml")


@derivative_helper
def sum_to(grad, shape):
    """Sum `grad` over the dimensions that broadcasting `shape` to grad's shape added:
    broadcasting's adjoint (expand's backward; the engine fits gradients with it, and
    helpers of every topic call it)."""
    shape = tuple(shape)
    lead = len(grad._size) - len(shape)
    inner = [lead + i for i, size in enumerate(shape) if size == 1 and grad._size[lead + i] != 1]
    if lead and not inner and _unseen(grad):     # (a bias's gradient)
        return operator_entry("sum", "dim_IntList")(grad, list(range(lead)), False, None)
    dims = list(range(lead)) + inner
    if dims:                                 # the operators themselves: no binding step
        grad = operator_entry("sum", "dim_IntList")(grad, dims, True, None)
    return operator_entry("view", "default")(grad, shape) if lead else grad


def _unseen(grad) -> bool:
    """Whether nothing would see how `sum_to` gets its result: nothing records (a graph
    under create_graph holds torch's keepdim sum and view), no dispatch mode, observer
    or tensor subclass watches the calls. Then summing the leading dimensions away is
    one call, with the values of the keepdim sum viewed to the shape (a test holds them
    equal bit for bit) and no view to make."""
    return bool(local_keys.excluded & AUTOGRAD and local_keys.kept) and \
        not grad._keys & PYTHON        # `kept` is 0 while anything is included or observed
