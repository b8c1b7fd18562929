"""Structured kernels: the functional, in-place and out= overloads of an operator built
from one meta rule and one kernel, as ATen's structured kernels (meta -> allocate -> impl).

    functional  the meta rule describes the result, the backend allocates it, the
                kernel writes it;
    in place    the meta rule describes the result, which must fit `self` (same shape,
                castable dtype); the kernel writes `self`;
    out=        the meta rule describes the result; `out` is checked and, if misshaped,
                resized to it; the kernel writes `out`.

Which of the three an overload is comes from its schema (`SchemaKind`); how a backend
allocates, and whether it runs kernels at all, from the backend table (`backends.py`);
the meta rule and the compute step from the operator's *form*: `Structured`, a kernel
over ndarrays, or its elementwise kind `pointwise.Elementwise` (TensorIterator). The
registry asks the form for each overload's kernel per backend key (`backend_kernel`).

Every kernel runs with NumPy's floating point warnings muted (`quiet.py`), fast paths
included: torch computes `1 / 0` silently, and this is the one place that says so.
"""
from __future__ import annotations

import warnings

from ..c10.dtype import scalar_type_name
from ..c10.promotion import can_cast
from ..c10.tensor_impl import TensorBase
from ..c10.dispatch_key import CPU_KEYS, DispatchKey, local_keys
from .allocation import resize_tensor
from .backends import BACKENDS, Backend
from .dispatcher import OpOverload
from .fast_paths import FastPath
from .quiet import mute, unmute
from . import complex_half
from .schema import FunctionSchema, SchemaKind


class TensorMeta:
    """What a meta rule says about one result: its shape, dtype and (optionally) strides."""

    __slots__ = ("shape", "dtype", "stride")

    def __init__(self, shape: tuple, dtype, stride: tuple | None = None) -> None:
        self.shape = shape
        self.dtype = dtype
        self.stride = stride

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype}, stride={self.stride})"


def parameter_names(function) -> tuple:
    """The names of `function`'s parameters (through ``__wrapped__``, as inspect does),
    read from its code object: building an `inspect.Signature` for each of hundreds of
    declarations was a third of the import time."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    code = function.__code__
    return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def fast_path(case: str, silent: bool = False):
    """Mark a function as an `op`'s fast path (``op(fast=...)``) for `case`, the words
    traces and ``repr(op)`` show: ``@fast_path("a row-major tensor, kept row-major")``.
    `silent`: it computes nothing NumPy could warn about (a copy), so it runs without
    the mute every other kernel runs under."""
    def mark(function):
        function.case = case
        function.silent = silent
        return function
    return mark


class Structured:
    """The form of a structured operator: a meta rule and a kernel over ndarrays.

    ``meta(*args)`` checks the arguments and describes the result(s) (`TensorMeta`);
    ``kernel(*arrays_and_values, out=...)`` writes them. A meta rule with an `out`
    parameter also sees the tensor(s) it will write (self in place, the out= tensors),
    as ATen's maybe_get_output(): some operators word their refusals by it. `fast`:
    an optional fast path of the functional overload, ``fast(*args) -> Tensor | None``
    (Note [Fast paths] in fast_paths.py). `meta_rules` holds rules for one backend
    key alone (Note [Meta registrations] in backends.py), looked up when that key's
    kernels are built (`meta_for`).
    """

    kind = "op"
    how = "structured"                   # the word kernel labels use
    number_positions = ()                # Tensor arguments a Python number may stand for
    rules_per_key = True                 # a backend key may have its own meta rule

    def __init__(self, meta, kernel, fast=None) -> None:
        self.meta = meta
        self.kernel = kernel
        self.fast = fast
        self.meta_rules: dict = {}

    def setup(self, schema: FunctionSchema) -> None:
        """Learn the functional schema (the elementwise form reads its operands)."""

    def register(self, overload: OpOverload) -> None:
        """Install the overload's kernel, and fast path if any, for every backend key;
        writing overloads bump their written tensors' versions at ADInplaceOrView."""
        for backend in BACKENDS:
            overload.register(backend.key, backend_kernel(self, overload, backend))
            fast = self.fast_variant(overload, backend)
            if fast is not None:
                overload.register_fast_path(backend.key, fast)
        if overload.written_args:
            overload.register(DispatchKey.ADInplaceOrView, bump_written)

    def register_key(self, overload: OpOverload, backend: Backend) -> None:
        """Remake the overload's kernel for one backend, with that key's own meta rule
        (Note [Meta registrations]); its fast path there, if any, is dropped."""
        overload.register(backend.key, backend_kernel(self, overload, backend))

    def meta_for(self, key) -> object:
        """The meta rule of the backend `key`: its own, else the operator's."""
        return self.meta_rules[key] if key in self.meta_rules else self.meta

    def computer(self, schema: FunctionSchema):
        """``compute(inputs, described, out)``: run the kernel on the inputs' arrays."""
        unwrap, kernel, name = _unwrapper(schema), self.kernel, schema.name

        def compute(inputs, described, out) -> None:
            arrays = unwrap(inputs)
            try:
                kernel(*arrays, out=out)
            except TypeError:       # NumPy has no loop for complex32's float16 pairs:
                written = out if isinstance(out, tuple) else (out,)
                complex_half.refuse(name, [*arrays, *written])     # torch has none either,
                if not complex_half.holds_pairs(arrays):
                    raise
                kernel(*complex_half.widened(arrays), out=out)     # or computes in complex64
        return compute

    def describer(self, meta):
        """``describe(op, inputs, written, inplace)``: `meta` on an in-place or out= call,
        shown what it writes when it has an `out` parameter."""
        if "out" in parameter_names(meta):
            return lambda op, inputs, written, inplace: meta(*inputs, out=written)
        return lambda op, inputs, written, inplace: meta(*inputs)

    def check_written(self, op: OpOverload, written, described, inputs: tuple,
                      inplace: bool) -> None:
        """Refusals of the written tensor beyond shape and dtype (none here)."""

    def through_temporary(self, out: TensorBase, described) -> bool:
        """Whether the result reaches an out= tensor through a temporary of its own
        dtype, which torch resizes (and warns about) twice (TensorIterator's way)."""
        return False

    def fast_variant(self, op: OpOverload, backend: Backend):
        """The fast path of `op` on `backend`, or None: the declared one, for the
        functional overload on a backend that runs kernels."""
        fast = self.fast
        if fast is None or op.kind is not SchemaKind.functional or not backend.runs_kernels:
            return None

        def muted_fast_path(*args):
            token = mute()
            try:
                return fast(*args)
            finally:
                unmute(token)
        label = f"{self.kernel.__name__} (fast path: {getattr(fast, 'case', fast.__name__)})"
        silent = getattr(fast, "silent", False)
        express = _express(fast, silent, op.tensor_args == (0, 1)) \
            if op.tensor_args in ((0,), (0, 1)) else None
        return FastPath(fast if silent else muted_fast_path, label, fast.__module__,
                        express=express)


def _express(fast, silent: bool, two: bool):
    """The express entries of a declared fast path of an operator whose tensors are
    `self` (and, `two`, the argument after it) (Note [Express entries] in
    fast_paths.py): ``make(general, live)``."""
    def make(general, live):
        def call(*args):
            self = args[0]
            kept = local_keys.kept
            if isinstance(self, TensorBase) and self._keys & kept == CPU_KEYS and live[0] \
                    and (not two or isinstance(args[1], TensorBase)
                         and args[1]._keys & kept == CPU_KEYS):
                if silent:
                    result = fast(*args)
                else:
                    token = mute()
                    try:
                        result = fast(*args)
                    finally:
                        unmute(token)
                if result is not None:
                    return result
            return general(*args)
        return call
    return make


# ----------------------------------------------------------------------------------
# The backend kernels, one per schema kind
# ----------------------------------------------------------------------------------
def backend_kernel(form: Structured, op: OpOverload, backend: Backend):
    """The kernel of `op` for `backend`: the variant its schema kind says, made of
    `form`'s meta rule (for that backend) and compute step."""
    schema = op._schema
    meta = form.meta_for(backend.key)
    if not schema.returns:                           # an optimizer step: writes arguments
        runner = _writing_runner(form, meta, schema, backend)
    elif schema.returns[0].type.base != "Tensor":    # item(): a Python value
        runner = _value_runner(form, meta, schema, backend)
    elif op.kind is SchemaKind.inplace:
        runner = _inplace_runner(form, meta, schema, backend)
    elif op.kind is SchemaKind.out:
        runner = _out_runner(form, meta, schema, backend)
    else:                                # functional, or mutable (writes a buffer too)
        runner = _functional_runner(form, meta, schema, backend)
    runner.__module__ = form.kernel.__module__
    return runner


def _functional_runner(form: Structured, meta, schema: FunctionSchema, backend: Backend):
    allocate = backend.allocate
    single = len(schema.returns) == 1 and not schema.returns[0].type.is_list

    def allocate_all(described):
        # a result the meta rule describes as None is not computed: torch's undefined
        # tensor (a backward op's gradient that output_mask leaves out)
        return tuple(None if m is None else allocate(m.shape, m.stride, m.dtype)
                     for m in described)

    if not backend.runs_kernels:
        def run_meta(op, keyset, args):
            described = meta(*args)
            if single:
                return allocate(described.shape, described.stride, described.dtype)
            return allocate_all(described)
        run_meta.__qualname__ = f"{meta.__name__} (meta rule: shapes only, no data)"
        return run_meta

    compute = form.computer(schema)
    if single:
        def run(op, keyset, args):
            described = meta(*args)
            result = allocate(described.shape, described.stride, described.dtype)
            token = mute()
            try:
                compute(args, described, result._np)
            finally:
                unmute(token)
            return result
    else:
        def run(op, keyset, args):
            described = meta(*args)
            results = allocate_all(described)
            token = mute()
            try:
                compute(args, described, tuple(None if r is None else r._np for r in results))
            finally:
                unmute(token)
            return results
    run.__qualname__ = (f"{form.kernel.__name__} ({form.how}: {meta.__name__} -> allocate "
                        f"-> kernel)")
    return run


def _inplace_runner(form: Structured, meta, schema: FunctionSchema, backend: Backend):
    compute = form.computer(schema) if backend.runs_kernels else None
    describe = form.describer(meta)

    def run(op, keyset, args):
        self = args[0]
        described = describe(op, args, self, True)
        form.check_written(op, self, described, args, True)
        check_inplace(op, self, described)
        if compute is not None:
            token = mute()
            try:
                compute(args, described, self._np)
            finally:
                unmute(token)
        return self
    writes = "kernel writes self" if compute is not None else "writes nothing"
    run.__qualname__ = f"{form.kernel.__name__} (in place, {form.how}: {meta.__name__} " \
                       f"checks, {writes})"
    return run


def _out_runner(form: Structured, meta, schema: FunctionSchema, backend: Backend):
    n_in = len(schema.arguments) - len(schema.out_arguments)
    single = len(schema.returns) == 1
    takes_dtype = any(a.name == "dtype" and a.type.base == "ScalarType"
                      for a in schema.arguments)
    compute = form.computer(schema) if backend.runs_kernels else None
    describe = form.describer(meta)

    def run(op, keyset, args):
        inputs, outs = args[:n_in], args[n_in:]
        written = outs[0] if single else outs
        # the meta rule of a call without dtype= sees out='s; the kernel, the call
        described = describe(
            op, _fill_dtype_from_out(schema, inputs, outs[0]) if takes_dtype else inputs,
            written, False)
        if single:
            form.check_written(op, written, described, inputs, False)
            prepare_out(op, written, described, form.through_temporary(written, described))
        else:
            for out, wanted in zip(outs, described):
                prepare_out(op, out, wanted)
        if compute is not None:
            token = mute()
            try:
                compute(inputs, described,
                        written._np if single else tuple(o._np for o in outs))
            finally:
                unmute(token)
        return written if single else tuple(outs)
    writes = "kernel writes out" if compute is not None else "writes nothing"
    run.__qualname__ = f"{form.kernel.__name__} (out=, {form.how}: {meta.__name__} checks, " \
                       f"out resized, {writes})"
    return run


def _writing_runner(form: Structured, meta, schema: FunctionSchema, backend: Backend):
    """An operator returning nothing, writing its arguments (``Tensor(a!) self, ...``)."""
    compute = form.computer(schema) if backend.runs_kernels else None

    def run(op, keyset, args):
        meta(*args)
        if compute is not None:
            token = mute()
            try:
                compute(args, None, None)
            finally:
                unmute(token)
    writes = "kernel writes them" if compute is not None else "writes nothing"
    run.__qualname__ = f"{form.kernel.__name__} (writes its arguments: {meta.__name__} " \
                       f"checks, {writes})"
    return run


def _value_runner(form: Structured, meta, schema: FunctionSchema, backend: Backend):
    """An operator returning a Python value (`item`, `equal`): checked, then computed."""
    unwrap, kernel = _unwrapper(schema), form.kernel

    def run_value(op, keyset, args):
        meta(*args)
        if not backend.runs_kernels:
            raise NotImplementedError(f"Could not run 'aten::{op.name}' with arguments from "
                                      f"the '{backend.key.name}' backend.")
        token = mute()
        try:
            return kernel(*unwrap(args))
        finally:
            unmute(token)
    run_value.__qualname__ = f"{kernel.__name__} (checked by {meta.__name__})"
    return run_value


def _unwrapper(schema: FunctionSchema):
    """Build `args -> kernel args`: tensors become their ndarrays, the rest stays."""
    plain, optional, lists = [], [], []
    inputs = [a for a in schema.arguments if not (a.is_write and a.kwarg_only)]
    for i, a in enumerate(inputs):
        if a.type.base == "Tensor":
            (lists if a.type.is_list else optional if a.type.optional else plain).append(i)
    if plain == [0] and len(inputs) == 1:
        return lambda args: (args[0]._np,)
    if not (plain or optional or lists):
        return tuple
    count = len(inputs)

    def unwrap(args):
        converted = list(args[:count])
        for i in plain:
            converted[i] = converted[i]._np
        for i in optional:
            if converted[i] is not None:
                converted[i] = converted[i]._np
        for i in lists:
            converted[i] = [None if t is None else t._np for t in converted[i]]
        return converted
    return unwrap


# ----------------------------------------------------------------------------------
# The written tensor: torch's checks, shared by every form
# ----------------------------------------------------------------------------------
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


def check_castable(result, written) -> None:
    """torch's refusal to write a result of dtype `result` into a tensor of dtype
    `written` (an in-place self, an out= tensor, a step written in place)."""
    if not can_cast(result, written):
        raise RuntimeError(f"result type {scalar_type_name(result)} can't be cast to the "
                           f"desired output type {scalar_type_name(written)}")


def check_inplace(op: OpOverload, self: TensorBase, described: TensorMeta) -> None:
    """An in-place result must fit `self`: the same shape, a dtype castable to self's."""
    if tuple(described.shape) != self._size:
        raise RuntimeError(f"output with shape {list(self._size)} doesn't match the broadcast "
                           f"shape {list(described.shape)}")
    check_castable(described.dtype, self._dtype)


def prepare_out(op: OpOverload, out: TensorBase, wanted: TensorMeta,
                through_temporary: bool = False) -> None:
    """torch's out= contract: cast-compatible dtype; resize (with a warning, except for
    factories) if misshaped.

    `through_temporary`: the result is computed in its own dtype and then copied into an
    `out` of another dtype, as TensorIterator does; torch then resizes, and warns, twice.
    """
    check_castable(wanted.dtype, out._dtype)
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


def bump_written(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for writing ops: run below, then bump the written tensors' versions
    (each tensor of a written list: an optimizer's group step)."""
    result = op.redispatch(keyset, args)
    for i in op.written_args:
        written = args[i]
        if isinstance(written, TensorBase):
            written._version_counter().value += 1
        elif written is not None:        # None: an optional buffer not given
            for tensor in written:
                tensor._version_counter().value += 1
    return result
