"""Elementwise operators: one declaration gives torch's full pointwise semantics.

    @pointwise("mul.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
               grad={"self": "grad * other.conj()", "other": "grad * self.conj()"})
    def mul(self, other, *, out):
        np.multiply(self, other, out=out)

`pointwise` is `op` with the elementwise form, `Elementwise`: ATen's TensorIterator as a
plug-in of the structured path (Note [Declaration forms] in registry.py). The kernel
only does the math, on arrays already in the *compute dtype*, writing `out` (of the
compute dtype, or bool for comparisons: `ElementwiseMeta.target`). The form does the
rest, once for every operator, the way TensorIterator does it:
  * operands may be tensors or Python/NumPy numbers (torch's wrapped numbers);
  * promotion, broadcasting and the result's layout are the meta rule
    (`meta/pointwise.py`);
  * float16 / bfloat16 are widened to float32 for the math and rounded once at the
    end (opmath); numbers are converted to the compute dtype with C's wraparound
    (Note [Numbers beside float16]);
  * in-place and out= variants get TensorIterator's checks of the written tensor
    (overlap, dtype) besides the structured ones (`structured.py`);
  * large results are split over the thread pool (`parallel.py`);
  * row-major operands of one dtype take a fast path (Note [The elementwise fast
    path] in pointwise_fast.py).
"""
from __future__ import annotations

import functools

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.dtype import COMPLEX32_PAIR, complex_to_pairs, pairs_to_complex64
from ..c10.promotion import can_cast
from ..c10.tensor_impl import TensorBase
from .backends import Backend, register_meta
from .dispatcher import OpOverload
from .fast_paths import FastPath
from .meta.pointwise import ElementwiseMeta, Promotion, elementwise_meta
from . import complex_half
from .meta.shape import check_no_internal_overlap, check_no_partial_overlap
from .overlapping import overlaps_itself, write_in_order
from .parallel import parallel_elementwise
from .pointwise_fast import fast_path, to_compute_scalar  # noqa: F401  (re-exported)
from .registry import declare
from .schema import FunctionSchema, SchemaKind
from .structured import Structured, check_inplace, parameter_names, prepare_out


def pointwise(schema: str, *, promotion: Promotion = Promotion.DEFAULT, check=None,
              kernel_check=None, check_out=None, numbers: tuple | None = None,
              masks: tuple = (), leading: str | None = None, method: bool = True,
              numbers_as_given: bool = False, ufunc=None, **options):
    """Declare an elementwise operator (see the module docstring).

    Args:
        schema: the functional schema; its `Tensor` arguments are the operands.
        promotion: how the result dtype follows from the operands' common dtype; or a
            function of the call's arguments giving it (`div`'s rounding_mode decides).
        check: ``check(*args)`` raising torch's error for inputs the operator refuses
            on every backend, run before anything else.
        kernel_check: ``kernel_check(*args)``, run after `check`: the refusals of
            torch's kernels (a dtype they have no loop for: ``"atan2_cpu" not
            implemented for 'ComplexFloat'``), which its Meta key does not make (Note
            [Meta registrations] in backends.py). A `DtypeRefusal` costs the fast path
            nothing.
        check_out: ``check_out(target, described, inplace)`` refusing an out= tensor
            (or the self of an in-place call) that torch refuses although it could hold
            the result: unary ops such as `abs` or `floor` want exactly the result dtype.
        numbers: the operands that `torch.<name>` / `Tensor.<name>` accept as Python
            numbers (those torch has Scalar overloads for: ``("other",)`` for `fmod`);
            None for all of them, as `add` or `mul`.
        masks: the Tensor arguments that select rather than compute (`where`'s
            condition): they broadcast and shape the result like operands, but take no
            part in promotion and reach the kernel as bool arrays.
        leading: the operand torch's kernel hands TensorIterator first when that is not
            the schema's first (`threshold_backward` builds on `self`, then the gradient):
            where the operands' layouts disagree, it decides the result's.
        method: bind as a `Tensor` method too (elementwise operators are, by default).
        numbers_as_given: a number beside float16 / bfloat16 tensors reaches the kernel
            unrounded (torch's mul and divisions; Note [Numbers beside float16]).
        ufunc: the NumPy ufunc the kernel is, for real operands of one dtype, when the
            arguments after the operands are their defaults: the fast path calls it
            directly (Note [The elementwise fast path] in pointwise_fast.py). Or a
            mapping of dtypes to C callables that are the kernel for them (a
            ``functools.partial`` of a ufunc adds no Python frame).
        options: the variants and bindings, as for `op`: ``inplace``, ``out``,
            ``out_overload``, ``out_names`` (``grad_input`` for the backward operators),
            ``function``, ``grad``, ``python_name``, ``python_module`` (``"nn"``:
            torch.nn.functional's `gelu`, `elu_`).
    """
    def declare_pointwise(kernel):
        form = Elementwise(kernel, promotion, check, kernel_check, check_out, masks, leading,
                           numbers_as_given, ufunc)
        main = declare(schema, form, kernel=kernel, doc_source=kernel, method=method,
                       numbers=True if numbers is None else frozenset(numbers), **options)
        if kernel_check is not None:
            register_meta(main, _unwrapped(check))
        return main
    return declare_pointwise


class DtypeRefusal:
    """A `kernel_check` refusing calls by the operands' common dtype alone.

    The general path calls it as any check. The fast path, which serves operands of one
    dtype only, leaves the refused dtypes out of its table instead: they reach the
    general path and its error, and every other call pays no check.

    Args:
        refuses: ``refuses(dtype) -> bool``, the dtypes the kernel has no loop for.
        check: ``check(*args)`` raising the kernel's error for those dtypes.
    """

    def __init__(self, refuses, check) -> None:
        self.refused = frozenset(d for d in dtypes.ALL_DTYPES if refuses(d))
        self.check = check

    def __call__(self, *args) -> None:
        self.check(*args)


class OptionCheck:
    """A `check` of the arguments after the operands alone (add's alpha), which passes
    when they are their defaults: the express entry's first layer skips it on a call that
    gives the operands alone, or the defaults themselves (Note [The elementwise fast path]).
    """

    def __init__(self, check) -> None:
        self.check = check


def _unwrapped(check):
    """The function a `DtypeRefusal` / `OptionCheck` declaration holds (called directly:
    a wrapper's ``__call__`` would cost every call a frame)."""
    return check.check if isinstance(check, (DtypeRefusal, OptionCheck)) else check


def _in_turn(first, then):
    """One check running `first`, then `then`."""
    def check(*args):
        first(*args)
        then(*args)
    return check


class Elementwise(Structured):
    """The elementwise form: TensorIterator's meta rule and compute step around a
    kernel that only does the math (see the module docstring)."""

    kind = "pointwise"
    how = "elementwise"

    def __init__(self, kernel, promotion: Promotion, check, kernel_check, check_out,
                 masks: tuple, leading: str | None, numbers_as_given: bool = False,
                 ufunc=None) -> None:
        self.kernel = kernel
        self.ufunc = ufunc
        self.numbers_as_given = numbers_as_given
        self.promotion = promotion
        # the fast path's operands share one dtype: a refusal by dtype is a table entry
        by_dtype = isinstance(kernel_check, DtypeRefusal)
        self.refused = kernel_check.refused if by_dtype else frozenset()
        self.options_only = isinstance(check, OptionCheck)
        check, kernel_check = _unwrapped(check), _unwrapped(kernel_check)
        self.check = check if kernel_check is None else \
            kernel_check if check is None else _in_turn(check, kernel_check)
        self.fast_check = check if by_dtype else self.check
        self.check_out = check_out
        self.masks = masks
        self.leading = leading
        self.fast = None
        self.meta_rules: dict = {}

    def setup(self, schema: FunctionSchema) -> None:
        """Read the operands (the Tensor arguments that are not masks) and build the
        meta rule; every Tensor argument may be a Python number."""
        arguments = schema.arguments
        inputs = tuple(i for i, a in enumerate(arguments) if a.type.base == "Tensor")
        operands = tuple(i for i in inputs if arguments[i].name not in self.masks)
        names = [a.name for a in arguments]
        first = () if self.leading is None else (names.index(self.leading),)
        self.order = first + tuple(i for i in operands if i not in first)
        self.name = schema.name
        self.meta = _meta_rule(self.order, inputs, self.promotion, self.check, self.name)
        self.inputs, self.operands = inputs, operands
        self.number_positions = inputs

    def meta_for(self, key) -> object:
        """A key's own rule is its check (Note [Meta registrations]): the description
        is TensorIterator's on every backend."""
        if key not in self.meta_rules:
            return self.meta
        return _meta_rule(self.order, self.inputs, self.promotion, self.meta_rules[key],
                          self.name)

    def computer(self, schema: FunctionSchema):
        return _computer(self.kernel, self.operands, self.inputs, schema.name,
                         self.numbers_as_given)

    def describer(self, meta):
        """torch's kernel refuses a dtype ("... not implemented for 'Float'") only after
        TensorIterator has checked the written tensor, so ``int_tensor &= float_tensor``
        is torch's cast error: the written tensor's error, if it has one, goes first."""
        def describe(op, inputs: tuple, written, inplace: bool):
            try:
                return meta(*inputs)
            except NotImplementedError:         # a dtype the kernel has no loop for
                described = meta.describe(*inputs)
                self._check_target(written, described, inplace)
                if inplace:
                    check_inplace(op, written, described)
                elif not can_cast(described.dtype, written._dtype):
                    prepare_out(op, written, described)     # the cast error, resizing nothing
                raise
        return describe

    def check_written(self, op: OpOverload, written, described, inputs: tuple,
                      inplace: bool) -> None:
        """TensorIterator's: the operator's own refusal (`check_out`), no internal
        overlap in the written tensor, no partial overlap with an input."""
        self._check_target(written, described, inplace)
        for value in inputs:
            if isinstance(value, TensorBase):
                check_no_partial_overlap(written, value)

    def _check_target(self, written: TensorBase, described, inplace: bool) -> None:
        if self.check_out is not None:
            self.check_out(written, described, inplace)
        check_no_internal_overlap(written)

    def through_temporary(self, out: TensorBase, described: ElementwiseMeta) -> bool:
        return described.casts_to_out and out._dtype is not described.dtype

    def fast_variant(self, op: OpOverload, backend: Backend):
        """Row-major operands: for the functional overload, and fused with the version
        bump for the in-place one (unless the operator refuses written tensors itself);
        each with its express entry (Note [Express entries] in fast_paths.py)."""
        if not backend.runs_kernels or self.operands not in ((0,), (0, 1)):
            return None
        inplace = op.kind is SchemaKind.inplace
        if not inplace and op.kind is not SchemaKind.functional or \
                inplace and self.check_out is not None:
            return None
        make = functools.partial(
            fast_path, self.kernel, self.operands, self.promotion, self.fast_check,
            options_only=self.options_only,
            inplace=inplace, ufunc=self.ufunc, refused=self.refused,
            defaults=tuple(a.default for a in op._schema.arguments[len(self.operands):]))
        name = self.kernel.__name__
        label = f"{name}_ (fast path: row-major self written in place, version bumped)" \
            if inplace else f"{name} (fast path: row-major operands of one dtype)"
        return FastPath(make(), label, self.kernel.__module__, fused=inplace,
                        express=lambda general, live: make(general=general, live=live))


def _meta_rule(operands: tuple, inputs: tuple, promotion: Promotion, check, name: str):
    """``meta(*args)``: `check`, then the description; ``meta.describe`` skips the check."""
    def describe(*args):
        values = [args[i] for i in operands if args[i] is not None]
        kind = promotion(*args) if callable(promotion) else promotion
        if len(inputs) == len(operands):
            return elementwise_meta(values, kind)
        return elementwise_meta(values, kind, [args[i] for i in inputs if args[i] is not None])

    def meta(*args):
        if check is not None:
            check(*args)
        return describe(*args)
    meta.__name__ = meta.__qualname__ = f"{name}_meta"
    meta.describe = describe
    return meta


def _computer(kernel, operands: tuple, inputs: tuple, name: str,
              numbers_as_given: bool = False):
    """Build ``compute(args, described, out_array)``: convert, run the kernel, cast back.

    A kernel with a ``result`` keyword is told the result's NumPy dtype when it differs
    from the compute dtype (float16 / bfloat16 computed in float32): some of torch's
    kernels round a scalar or an intermediate to the result dtype (``add``'s alpha,
    ``pow``'s exponent), and the kernel cannot see that dtype in its arrays.
    """
    takes_result = "result" in parameter_names(kernel)

    def compute(args, described: ElementwiseMeta, out: np.ndarray) -> None:
        dtype = described.compute._np
        values = list(args)
        narrow = None if numbers_as_given else _numbers_rounded_to(args, operands, dtype)
        for i in inputs:
            value = values[i]
            if isinstance(value, TensorBase):
                values[i] = value._np            # widened chunk by chunk, in `step`
                if i not in operands and value._dtype is not dtypes.bool:
                    values[i] = values[i] != 0   # a mask (where's uint8 condition)
            elif value is not None:
                if narrow is not None and not isinstance(value, (complex, np.complexfloating)):
                    value = to_compute_scalar(value, narrow)
                values[i] = to_compute_scalar(value, dtype)
        if described.compute is dtypes.complex64:      # complex32 operands, if torch lacks
            complex_half.refuse(name, [values[i] for i in operands])      # the kernel
        written = described.target._np
        result = described.dtype._np
        # The kernel writes `out` itself only if nothing lies between: no float16 widening
        # to round back (even an out= of a wider dtype gets the result dtype's rounding,
        # as TensorIterator casts the result to the output), no other out= dtype.
        direct = out.dtype == written == result
        run = kernel
        if takes_result and described.dtype is not described.compute:
            # complex32's kernels see complex64 (Note [complex32 as float16 pairs])
            run = functools.partial(kernel, result=np.dtype(np.complex64)
                                    if result == COMPLEX32_PAIR else result)

        def step(*chunk, out):
            """One chunk (the whole, when small): widen, compute, round back into `out`.
            Casting per chunk lets the thread pool share the casts too."""
            chunk = list(chunk)
            for i in operands:
                if isinstance(chunk[i], np.ndarray) and chunk[i].dtype != dtype:
                    chunk[i] = _widened(chunk[i], dtype)
            target = out if direct else np.empty(out.shape, written)
            run(*chunk, out=target)
            if target is not out:
                if result != written and out.dtype != result:
                    target = _rounded(target, result)
                _store(out, target)
        # an `out` reaching a location twice is written in torch's order (Note
        # [Overlapping writes])
        if not (overlaps_itself(out) and write_in_order(step, values, inputs, out)):
            parallel_elementwise(step, values, inputs, out)
    return compute


_REDUCED = (dtypes.float16, dtypes.bfloat16)


def _numbers_rounded_to(args, operands: tuple, compute: np.dtype):
    """The dtype numbers are rounded to before widening, or None.

    Note [Numbers beside float16]
        When the common dtype of an elementwise call is float16 or bfloat16 (its tensor
        operands all have it, and a number takes part), TensorIterator converts the
        number to that dtype with the tensors, and the kernel widens it back to float32
        for the math: ``half_tensor + 0.4`` adds 0.39990234375. Only mul and the
        divisions (true, trunc, floor) read the number as given (torch's kernels take
        the original scalar there); their declarations say so (`numbers_as_given`).
    """
    if compute != np.float32:
        return None
    found = None
    for i in operands:
        value = args[i]
        if isinstance(value, TensorBase):
            if value._dtype not in _REDUCED or (found is not None and value._dtype is not found):
                return None
            found = value._dtype
    if found is None or all(isinstance(args[i], TensorBase) for i in operands):
        return None
    return found._np


def _widened(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """An operand in the compute dtype; complex32 pairs through complex64 (Note
    [complex32 as float16 pairs])."""
    if array.dtype == COMPLEX32_PAIR:
        array = pairs_to_complex64(array)
    return array if array.dtype == dtype else array.astype(dtype)


def _rounded(values: np.ndarray, result: np.ndarray) -> np.ndarray:
    """`values` rounded to the result dtype, kept in a dtype NumPy computes with."""
    if result == COMPLEX32_PAIR:
        return pairs_to_complex64(complex_to_pairs(values.astype(np.complex64)))
    return values.astype(result)


def _store(out: np.ndarray, values: np.ndarray) -> None:
    """Write the kernel's values into `out`, converting to its dtype (unchecked)."""
    if out.dtype == COMPLEX32_PAIR:
        out[...] = complex_to_pairs(values.astype(np.complex64, copy=False))
    else:
        np.copyto(out, values, casting="unsafe")


def zero_where(mask: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """``out = 0 where mask, else values``, exactly (+0, and `values`' own NaN and -0.0
    kept), for elementwise kernels (relu, threshold_backward).

    The zeros are made by clearing bits, one bitwise and with a mask of all-ones or
    all-zeros words: NumPy's masked assignment (``out[mask] = 0``, ``copyto(where=)``)
    branches per element and is 5 to 10 times slower on mixed masks. Below
    `_MASKED_UP_TO` elements the masked assignment wins all the same, as it makes two
    NumPy calls where the bits take four.
    """
    unsigned = _UNSIGNED.get(out.dtype.itemsize)
    if unsigned is None or out.size <= _MASKED_UP_TO:      # complex128: no 16-byte integer
        out[...] = values                       # converting as copyto(casting="unsafe")
        out[mask if mask.shape == out.shape else np.broadcast_to(mask, out.shape)] = 0
        return
    if values.dtype != out.dtype:
        np.copyto(out, values, casting="unsafe")
        values = out
    keep = mask.astype(unsigned)
    keep -= 1                                   # True -> 0, False -> all ones (wraps)
    np.bitwise_and(values.view(unsigned), keep, out=out.view(unsigned))


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_MASKED_UP_TO = 1024
