"""The declaration decorators: one operator, one place.

    @op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
        meta=clone_meta, method=True)
    def clone(self, memory_format, *, out):      # CPU kernel: ndarrays in, writes `out`
        np.copyto(out, self)

From one declaration the registry makes the `OpOverload` (`torch.ops.aten.clone`)
with a kernel for every dispatch key, the in-place and out= overloads when asked
(`inplace=True`, `out=True`), and the Python bindings (`torch.clone`,
`Tensor.clone`), generated once by `binding.py`.

Four kinds of declaration, as in ATen:
  * `op`: a structured operator. `meta(*args)` checks the arguments and describes the
    result (`TensorMeta`: shape, dtype, strides); the kernel writes into results
    allocated from that description. Functional = allocate, then kernel; in-place =
    the kernel writes `self`; out= = the kernel writes `out` (resized if needed).
  * `view`: the result aliases `self`. The rule computes the new geometry (sizes,
    strides, offset) and that is all a view is: no kernel touches data.
  * `composite`: written in other operators (ATen's CompositeImplicitAutograd); it
    runs on every backend and autograd flows through the operators it calls.
  * `factory` declarations are `op`s without tensor inputs: the `device` argument picks
    the backend.
"""
from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field

from ..c10.dispatch_key import DispatchKey, local_keys
from ..c10.dtype import scalar_type_name
from ..c10.promotion import can_cast
from ..c10.tensor_impl import TensorBase, make_tensor, make_view
from .allocation import empty_from_meta, resize_tensor
from .derivatives import check_formulas
from .dispatcher import OpOverload, get_overload
from .schema import FunctionSchema, SchemaKind, parse_schema

CPU = DispatchKey.CPU
META = DispatchKey.Meta
AD_INPLACE_OR_VIEW = DispatchKey.ADInplaceOrView


class TensorMeta:
    """What a meta rule says about one result: its shape, dtype and (optionally) strides."""

    __slots__ = ("shape", "dtype", "stride")

    def __init__(self, shape: tuple, dtype, stride: tuple | None = None) -> None:
        self.shape = shape
        self.dtype = dtype
        self.stride = stride

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype}, stride={self.stride})"


@dataclass
class Declaration:
    """Everything declared about one operator; printable, and read by the OpInfo tests."""

    name: str
    kind: str                           # 'op', 'view' or 'composite'
    overloads: dict = field(default_factory=dict)    # SchemaKind -> OpOverload
    kernel: object = None
    meta: object = None
    grad: dict | None = None
    method: bool = False
    function: bool = True
    python_name: str | None = None
    doc: str | None = None
    numbers: bool = False               # Python numbers accepted where the schema says Tensor
    python_module: str | None = None    # "linalg", "nn": bound in torch.linalg, torch.nn.functional
    bind_out: bool = True               # out= in the Python binding (else torch.ops.aten only)
    meta_rules: dict = field(default_factory=dict)  # key -> own rule (Note [Meta registrations])
    register_backend: object = None     # (key, rule): remake the key's kernels with that rule


DECLARATIONS: dict = {}      # qualified name of the functional overload -> Declaration


# ----------------------------------------------------------------------------------
# The decorators
# ----------------------------------------------------------------------------------
def op(schema: str, *, meta, inplace: bool = False, out: bool = False, method: bool = False,
       function: bool = True, grad: dict | None = None, python_name: str | None = None,
       out_overload: str | None = None, python_module: str | None = None,
       bind_out: bool = True, out_names: tuple | None = None, fast=None):
    """Declare a structured operator (see the module docstring).

    Args:
        schema: the schema, in ATen's syntax: a functional one, or an in-place one
            for an operator that only exists in place (``copy_``, ``fill_``).
        meta: the meta rule, ``meta(*args) -> TensorMeta | tuple[TensorMeta, ...]``.
        inplace: also declare ``name_`` writing `self`.
        out: also declare the out= overload (``name.out``).
        method: bind as a `Tensor` method too.
        function: bind as a ``torch.`` function.
        grad: derivative formulas keyed by input name (checked by aten/derivatives.py).
        python_name: the Python name when it differs from the schema's.
        out_overload: the out= overload's name when not the usual one.
        python_module: bind the function in a namespace module (``"linalg"``) instead
            of ``torch.``, as for `composite`.
        bind_out: give the Python binding an ``out=`` keyword; False for the out=
            overloads torch's Python API leaves to ``torch.ops.aten`` (`trace.out`).
        out_names: the out= arguments' names when they are not the results' names
            (``max.dim_max`` writes ``max`` and ``max_values``).
        fast: the common CPU call without the general machinery, ``fast(args) ->
            Tensor | None`` (None: it does not apply): the functional overload's CPU
            kernel tries it before the meta rule, as pointwise operators' fast paths.
    """
    def declare(kernel):
        parsed = parse_schema(schema)
        decl = _new_declaration(parsed, "op", kernel, meta, grad, method, function,
                                python_name)
        decl.python_module = python_module
        decl.bind_out = bind_out
        main = _install(decl, parsed)
        _register_structured(main, decl, parsed.kind.value, fast)
        if inplace:
            overload = _install(decl, _inplace_schema(parsed))
            _register_structured(overload, decl, "inplace")
        if out:
            overload = _install(decl, _out_schema(parsed, out_overload, out_names))
            _register_structured(overload, decl, "out")
        decl.register_backend = functools.partial(_register_variants, decl)
        _bind(decl)
        return main
    return declare


def view(schema: str, *, method: bool = True, function: bool = True,
         grad: dict | None = None, python_name: str | None = None, is_view: bool = True):
    """Declare a view operator: the decorated rule returns the result's geometry.

    The rule is called as ``rule(self, *args)`` with tensors (any device) and returns
    ``(size, stride, storage_offset)``, optionally with a fourth item, a new dtype;
    a rule of a multi-result view returns a list of those. With ``is_view=False`` the
    result shares storage and version counter but is not a view for autograd (it has
    no `_base`): `detach`.
    """
    def declare(rule):
        parsed = parse_schema(schema)
        decl = _new_declaration(parsed, "view", None, rule, grad, method, function,
                                python_name)
        overload = _install(decl, parsed)
        overload.register(AD_INPLACE_OR_VIEW, _view_bookkeeping if is_view else _share_version)
        alias = _make_alias(rule)
        overload.register(CPU, alias)
        overload.register(META, alias)
        overload.register_fast(_fast_view(rule, is_view))
        decl.register_backend = lambda key, own: overload.register(key, _make_alias(own))
        _bind(decl)
        return overload
    return declare


def composite(schema: str, *, method: bool = False, function: bool = True,
              python_name: str | None = None, grad: dict | None = None, out: bool = False,
              python_module: str | None = None, bind_out: bool = True):
    """Declare an operator written in other operators; it runs on every backend.

    Without `grad` it is ATen's CompositeImplicitAutograd: the same body under every
    key, so autograd, modes and backends all see the operators it decomposes into and
    never the composite itself. With `grad` (its own derivative formulas) it is
    CompositeExplicitAutograd: autograd and view/version bookkeeping happen for the
    composite as a whole, and its body runs below them, as a backend kernel does (so
    `_to_copy`'s internal `copy_` does not bump the fresh result's version).

    With ``out=True`` the out= overload (``name.out``) is declared too and runs the same
    body with the `out` tensor as a last argument (None for the functional call), as
    ATen pairs ``hstack`` with ``hstack_out``: the body hands `out` to the operators it
    calls (``cat.out``), which check, resize and write it.

    `python_module` binds the function in a namespace module instead of ``torch.``, as
    native_functions.yaml's ``python_module:`` does (see Note [Namespace modules]);
    ``bind_out=False`` keeps ``out=`` out of the Python binding, as for `op`.
    """
    def declare(body):
        parsed = parse_schema(schema)
        decl = _new_declaration(parsed, "composite", body, None, grad, method, function,
                                python_name)
        decl.python_module = python_module
        decl.bind_out = bind_out
        overload = _install(decl, parsed)
        explicit = grad is not None
        run_composite = _composite_runner(body, explicit)
        overloads = [overload] + ([_install(decl, _out_schema(parsed, None))] if out else [])
        for key in ((CPU, META) if explicit else DispatchKey):
            for each in overloads:
                each.register(key, run_composite)
        if explicit:                  # its writes are bumped here, as an `op`'s are
            for each in overloads:
                if each.written_args:
                    each.register(AD_INPLACE_OR_VIEW, _bump_written)
            decl.register_backend = functools.partial(_register_composite, overloads)
        _bind(decl)
        return overload
    return declare


_ABOVE_BACKEND = int(DispatchKey.ForwardAD | DispatchKey.Autograd | DispatchKey.ADInplaceOrView)


def _composite_runner(body, explicit: bool):
    """The kernel running a composite's body (below autograd when `explicit`)."""
    def run_composite(op, keyset, args):
        if not explicit:
            return body(*args)
        included, excluded = local_keys.included, local_keys.excluded
        local_keys.set(included, excluded | _ABOVE_BACKEND)
        try:
            return body(*args)
        finally:
            local_keys.set(included, excluded)
    kind = "explicit composite: runs below autograd" if explicit else "composite"
    _label(run_composite, f"{body.__name__} ({kind}, in the operators it is written in)", body)
    return run_composite


def _register_composite(overloads: list, key: DispatchKey, body) -> None:
    """An explicit composite's kernel for one backend key, running `body`."""
    for each in overloads:
        each.register(key, _composite_runner(body, True))


def _new_declaration(parsed, kind, kernel, meta, grad, method, function, python_name):
    check_formulas(parsed, grad, (kernel or meta).__module__)    # before anything is declared
    decl = Declaration(parsed.qualified_name, kind, kernel=kernel, meta=meta, grad=grad,
                       method=method, function=function, python_name=python_name or parsed.name,
                       doc=(kernel if kind != "view" else meta).__doc__)
    if decl.name in DECLARATIONS:
        raise RuntimeError(f"operator {decl.name} is declared twice")
    DECLARATIONS[decl.name] = decl
    return decl


def _install(decl: Declaration, parsed: FunctionSchema) -> OpOverload:
    overload = get_overload(parsed)
    if overload.declaration is not None:
        raise RuntimeError(f"aten::{parsed.qualified_name} is declared twice")
    overload.declaration = decl
    mutable = parsed.kind is SchemaKind.mutable     # writes a buffer: rrelu_with_noise's noise
    decl.overloads[SchemaKind.functional if mutable else parsed.kind] = overload
    return overload


def parameter_names(function) -> tuple:
    """The names of `function`'s parameters (through ``__wrapped__``, as inspect does),
    read from its code object: far cheaper than an `inspect.Signature` per declaration."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    code = function.__code__
    return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


# Told of every declaration once its overloads exist (autograd installs its kernels).
DECLARATION_SINKS: list = []


def _bind(decl: Declaration) -> None:
    from .binding import bind_declaration
    bind_declaration(decl)
    for sink in DECLARATION_SINKS:
        sink(decl)


# ----------------------------------------------------------------------------------
# Deriving the in-place and out= schemas from the functional one
# ----------------------------------------------------------------------------------
def _inplace_schema(functional: FunctionSchema) -> FunctionSchema:
    text = str(functional)
    head, _, tail = text.partition("(")
    name, dot, overload = head.partition(".")
    args_text, _, _ = tail.rpartition(") -> ")
    args_text = args_text.replace("Tensor self", "Tensor(a!) self", 1)
    return parse_schema(f"{name}_{dot}{overload}({args_text}) -> Tensor(a!)")


def _out_schema(functional: FunctionSchema, overload_name: str | None,
                out_names: tuple | None = None) -> FunctionSchema:
    if overload_name is None:
        base = functional.overload_name
        overload_name = "out" if base in ("", "Tensor", "default") else f"{base}_out"
    returns = functional.returns
    letters = "abcdefgh"
    if len(returns) == 1:
        out_args = [f"Tensor(a!) {out_names[0] if out_names else 'out'}"]
        rets = "Tensor(a!)"
    else:
        names = [r.name or f"out{i}" for i, r in enumerate(returns)]
        out_args = [f"Tensor({letters[i]}!) {n}" for i, n in enumerate(out_names or names)]
        rets = "(" + ", ".join(f"Tensor({letters[i]}!) {n}" for i, n in enumerate(names)) + ")"
    args = [str(a) for a in functional.arguments if not a.kwarg_only]
    kwargs = [str(a) for a in functional.arguments if a.kwarg_only]
    star = ["*"] + kwargs + out_args
    return parse_schema(f"{functional.name}.{overload_name}({', '.join(args + star)}) -> {rets}")


# ----------------------------------------------------------------------------------
# Structured operators: functional, in-place and out= from one meta rule + kernel
# ----------------------------------------------------------------------------------
def _register_structured(overload: OpOverload, decl: Declaration, variant: str,
                         fast=None, meta=None, keys: tuple = (CPU, META)) -> None:
    schema = overload._schema
    unwrap = _unwrapper(schema)
    n_out = len(schema.out_arguments)
    n_in = len(schema.arguments) - n_out
    meta = decl.meta if meta is None else meta      # a key's own: Note [Meta registrations]
    kernel = decl.kernel
    single = len(schema.returns) == 1 and not schema.returns[0].type.is_list
    # A meta rule with an `out` parameter sees the tensor it will write (self in place,
    # the out= tensors), as ATen's maybe_get_output(): some ops word refusals by it.
    sees_out = "out" in parameter_names(meta)

    if schema.returns[0].type.base != "Tensor":       # e.g. item(): a Python value
        def run_value(op, keyset, args):
            meta(*args)
            return kernel(*unwrap(args))
        _label(run_value, f"{kernel.__name__} (checked by {meta.__name__})", kernel)
        for key in keys:
            overload.register(key, run_value)
        return

    if variant in ("functional", "mutable"):          # mutable: the kernel writes a buffer
        def run_cpu(op, keyset, args):
            if fast is not None:
                result = fast(args)
                if result is not None:
                    return result
            described = meta(*args)
            if single:
                result = empty_from_meta(described, "cpu")
                kernel(*unwrap(args), out=result._np)
                return result
            # a result the meta rule describes as None is not computed: torch's
            # undefined tensor (a backward op's gradient that output_mask leaves out)
            results = tuple(None if m is None else empty_from_meta(m, "cpu") for m in described)
            kernel(*unwrap(args), out=tuple(None if r is None else r._np for r in results))
            return results

        def run_meta(op, keyset, args):
            described = meta(*args)
            if single:
                return empty_from_meta(described, "meta")
            return tuple(None if m is None else empty_from_meta(m, "meta") for m in described)
        _label(run_cpu, f"{kernel.__name__} (structured: {meta.__name__} -> allocate -> "
                        f"kernel)", kernel)
        _label(run_meta, f"{meta.__name__} (meta rule: shapes only, no data)", kernel)
        for key in keys:
            overload.register(key, run_meta if key is META else run_cpu)
        return

    if variant == "inplace":
        def run_inplace(op, keyset, args):
            self = args[0]
            described = meta(*args, out=self) if sees_out else meta(*args)
            _check_inplace(op, self, described)
            if self._device.type == "cpu":
                kernel(*unwrap(args), out=self._np)
            return self
        _label(run_inplace, f"{kernel.__name__} (in place: {meta.__name__} checks, kernel "
                            f"writes self)", kernel)
        overload.register(AD_INPLACE_OR_VIEW, _bump_written)
        for key in keys:
            overload.register(key, run_inplace)
        return

    def run_out(op, keyset, args):
        outs = args[n_in:]
        inputs = _fill_dtype_from_out(schema, args[:n_in], outs[0])
        if sees_out:
            described = meta(*inputs, out=outs[0] if single else outs)
        else:
            described = meta(*inputs)
        described = (described,) if single else described
        for out, wanted in zip(outs, described):
            _prepare_out(op, out, wanted)
        if outs[0]._device.type == "cpu":
            arrays = tuple(o._np for o in outs)
            kernel(*unwrap(args[:n_in]), out=arrays[0] if single else arrays)
        return outs[0] if single else tuple(outs)
    _label(run_out, f"{kernel.__name__} (out=: {meta.__name__} checks, out resized, kernel "
                    f"writes out)", kernel)
    overload.register(AD_INPLACE_OR_VIEW, _bump_written)
    for key in keys:
        overload.register(key, run_out)


def _register_variants(decl: Declaration, key: DispatchKey, meta) -> None:
    """Remake `key`'s kernels of every variant of `decl` with the meta rule `meta`."""
    for overload in decl.overloads.values():
        _register_structured(overload, decl, overload.kind.value, meta=meta, keys=(key,))


def _label(runner, text: str, source) -> None:
    """Name a generated kernel after what it runs, for traces and `repr(op)`."""
    runner.__qualname__ = text
    runner.__module__ = source.__module__


def _unwrapper(schema: FunctionSchema):
    """Build `args -> kernel args`: tensors become their ndarrays, the rest stays."""
    kinds = []
    for a in schema.arguments:
        if a.is_write and a.kwarg_only:
            continue
        if a.type.base != "Tensor":
            kinds.append(0)
        elif a.type.is_list:
            kinds.append(3)
        elif a.type.optional:
            kinds.append(2)
        else:
            kinds.append(1)
    if kinds == [1]:
        return lambda args: (args[0]._np,)
    if not any(kinds):
        return tuple

    def unwrap(args):
        converted = []
        for kind, value in zip(kinds, args):
            if kind == 1:
                value = value._np
            elif kind == 2:
                value = None if value is None else value._np
            elif kind == 3:
                value = [None if t is None else t._np for t in value]
            converted.append(value)
        return converted
    return unwrap


def _fill_dtype_from_out(schema: FunctionSchema, args: tuple, out: TensorBase) -> tuple:
    """Factories called with out= take their dtype from `out` when none is given, and
    refuse a different one."""
    for i, a in enumerate(schema.arguments[:len(args)]):
        if a.name == "dtype" and a.type.base == "ScalarType":
            if args[i] is None:
                return args[:i] + (out._dtype,) + args[i + 1:]
            if args[i] is not out._dtype and _is_factory(schema):
                raise RuntimeError(f"dtype {scalar_type_name(args[i])} does not match dtype of "
                                   f"out parameter ({scalar_type_name(out._dtype)})")
    return args


def _is_factory(schema: FunctionSchema) -> bool:
    """No tensor goes in (out= tensors aside): the operator makes its result from options."""
    return not any(a.type.base == "Tensor" and not a.is_write for a in schema.arguments)


def _check_inplace(op: OpOverload, self: TensorBase, described: TensorMeta) -> None:
    if tuple(described.shape) != self._size:
        raise RuntimeError(f"output with shape {list(self._size)} doesn't match the broadcast "
                           f"shape {list(described.shape)}")
    if not can_cast(described.dtype, self._dtype):
        raise RuntimeError(f"result type {scalar_type_name(described.dtype)} can't be cast to "
                           f"the desired output type {scalar_type_name(self._dtype)}")


def _prepare_out(op: OpOverload, out: TensorBase, wanted: TensorMeta,
                 through_temporary: bool = False) -> None:
    """torch's out= contract: cast-compatible dtype; resize (with a warning, except for
    factories) if misshaped.

    `through_temporary`: the result is computed in its own dtype and then copied into an
    `out` of another dtype, as TensorIterator does; torch then resizes, and warns, twice.
    """
    if not can_cast(wanted.dtype, out._dtype):
        raise RuntimeError(f"result type {scalar_type_name(wanted.dtype)} can't be cast to the "
                           f"desired output type {scalar_type_name(out._dtype)}")
    shape = tuple(wanted.shape)
    if out._size != shape:
        if out.numel() != 0 and not _is_factory(op._schema):     # factories resize quietly
            message = (
                f"An output with one or more elements was resized since it had shape "
                f"{list(out._size)}, which does not match the required output shape "
                f"{list(shape)}. This behavior is deprecated, and in a future PyTorch release "
                f"outputs will not be resized unless they have zero elements. You can "
                f"explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                f"with t.resize_(0).")
            for _ in range(2 if through_temporary else 1):
                warnings.warn(message, UserWarning, stacklevel=4)
        resize_tensor(out, shape, wanted.stride)


def _bump_written(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for writing ops: run below, then bump the written tensors' versions."""
    result = op.redispatch(keyset, args)
    for i in op.written_args:
        args[i]._version_counter().value += 1
    return result


# ----------------------------------------------------------------------------------
# Views
# ----------------------------------------------------------------------------------
def _make_alias(rule):
    """The backend part of a view: new tensors over `self`'s storage, geometry from `rule`."""
    def make_alias(op, keyset, args):
        self = args[0]
        geometry = rule(*args)
        if type(geometry) is list:
            return [_alias(self, g) for g in geometry]
        return _alias(self, geometry)
    _label(make_alias, f"{rule.__name__} (view: new sizes/strides over the same storage)", rule)
    return make_alias


def _alias(self: TensorBase, geometry: tuple) -> TensorBase:
    dtype = geometry[3] if len(geometry) == 4 else self._dtype
    return make_tensor(self._storage, geometry[0], geometry[1], geometry[2], dtype)


def _view_bookkeeping(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for views: results share `self`'s version counter and base."""
    result = op.redispatch(keyset, args)
    self = args[0]
    base = self._base if self._base is not None else self
    if type(result) is list:
        for r in result:
            r._base = base
            r._vc = self._version_counter()
        note_view_creation(self, result, True)
    else:
        result._base = base
        result._vc = self._version_counter()
        note_view_creation(self, [result], False)
    return result


def _no_notes(source, views: list, multi: bool) -> None:
    """Until autograd installs its own (autograd/views.py `note_views`): nothing."""


# How autograd records the way views were made (torch's CreationMeta): set by the
# autograd package, as c10 does not know it.
note_view_creation = _no_notes


def _fast_view(rule, is_view: bool):
    """ADInplaceOrView + backend of a view in one function (see `OpOverload._lookup`)."""
    def view_fast_path(op, keyset, args):
        self = args[0]
        base = (self._base if self._base is not None else self) if is_view else None
        geometry = rule(*args)
        if type(geometry) is list:
            results = [make_view(self, g, base) for g in geometry]
            note_view_creation(self, results, True)
            return results
        result = make_view(self, geometry, base)
        if is_view and (self._creation_meta or not local_keys.plain):   # grad mode off, ...
            note_view_creation(self, [result], False)
        return result
    view_fast_path.__qualname__ = f"{rule.__name__} (view fast path)"
    return view_fast_path


def _share_version(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for aliases that are not views: only the version counter is shared."""
    result = op.redispatch(keyset, args)
    result._vc = args[0]._version_counter()
    return result
