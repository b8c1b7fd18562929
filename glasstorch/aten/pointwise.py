"""Elementwise operators: one declaration gives torch's full pointwise semantics.

    @pointwise("mul.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
               grad={"self": "grad * other.conj()", "other": "grad * self.conj()"})
    def mul(self, other, *, out):
        np.multiply(self, other, out=out)

The kernel only does the math, on arrays already in the *compute dtype*, writing
`out` (of the compute dtype, or bool for comparisons: `ElementwiseMeta.target`). Everything else is done here, once for every operator, the
way ATen's TensorIterator does it:
  * operands may be tensors or Python/NumPy numbers (torch's wrapped numbers);
  * promotion, broadcasting and the result's layout come from the meta rule
    (`meta/pointwise.py`);
  * float16 / bfloat16 are widened to float32 for the math and rounded once at the
    end (opmath); numbers are converted to the compute dtype with C's wraparound;
  * in-place and out= variants, with torch's checks (`registry.py`);
  * large results are split over the thread pool (`parallel.py`);
  * NumPy's floating point warnings are silenced, as torch computes silently.
"""
from __future__ import annotations

import functools

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.promotion import can_cast, result_type_with_scalar
from ..c10.tensor_impl import _STRIDES_CACHE, TensorBase, wrap_array
from .allocation import empty_from_meta
from .backends import register_meta
from .dispatcher import OpOverload
from .meta.shape import check_no_internal_overlap, check_no_partial_overlap
from .meta.pointwise import ElementwiseMeta, Promotion, elementwise_meta, result_and_compute
from .quiet import mute, unmute
from .parallel import SPLIT_SIZE, parallel_elementwise
from .registry import (AD_INPLACE_OR_VIEW, CPU, META, _bind, _bump_written, _check_inplace,
                       parameter_names, _inplace_schema, _install, _label, _new_declaration,
                       _out_schema, _prepare_out)
from .schema import SchemaKind, parse_schema



def pointwise(schema: str, *, promotion: Promotion = Promotion.DEFAULT, inplace: bool = False,
              out: bool = False, method: bool = True, function: bool = True,
              grad: dict | None = None, check=None, python_name: str | None = None,
              out_overload: str | None = None, check_out=None, numbers: tuple | None = None,
              masks: tuple = (), python_module: str | None = None, leading: str | None = None,
              out_names: tuple | None = None, kernel_check=None):
    """Declare an elementwise operator (see the module docstring).

    Args:
        schema: the functional schema; its `Tensor` arguments are the operands.
        promotion: how the result dtype follows from the operands' common dtype; or a
            function of the call's arguments giving it (`div`'s rounding_mode decides).
        inplace, out, method, function, grad, python_name, out_overload: as for `op`.
        check: ``check(*args)`` raising torch's error for inputs the operator refuses
            on every backend, run before anything else.
        kernel_check: ``kernel_check(*args)``, run after `check`: the refusals of
            torch's kernels (a dtype they have no loop for: ``"atan2_cpu" not
            implemented for 'ComplexFloat'``), which its Meta key does not make (Note
            [Meta registrations] in backends.py).
        check_out: ``check_out(target, described, inplace)`` refusing an out= tensor
            (or the self of an in-place call) that torch refuses although it could hold
            the result: unary ops such as `abs` or `floor` want exactly the result dtype.
        numbers: the operands that `torch.<name>` / `Tensor.<name>` accept as Python
            numbers (those torch has Scalar overloads for: ``("other",)`` for `fmod`);
            None for all of them, as `add` or `mul`.
        masks: the Tensor arguments that select rather than compute (`where`'s
            condition): they broadcast and shape the result like operands, but take no
            part in promotion and reach the kernel as bool arrays.
        python_module: bind the function (and the in-place one) in a namespace module,
            as for `op` (``"nn"``: torch.nn.functional's `gelu`, `elu_`).
        leading: the operand torch's kernel hands TensorIterator first when that is not
            the schema's first (`threshold_backward` builds on `self`, then the gradient):
            where the operands' layouts disagree, it decides the result's.
        out_names: the out= argument's name when not ``out`` (the backward operators'
            ``grad_input``), as for `op`.
    """
    def declare(kernel):
        parsed = parse_schema(schema)
        inputs = tuple(i for i, a in enumerate(parsed.arguments) if a.type.base == "Tensor")
        operands = tuple(i for i in inputs if parsed.arguments[i].name not in masks)
        names = [a.name for a in parsed.arguments]
        first = () if leading is None else (names.index(leading),)
        order = first + tuple(i for i in operands if i not in first)
        checks = check
        if kernel_check is not None:
            checks = kernel_check if check is None else _in_turn(check, kernel_check)
        meta = _meta_rule(order, inputs, promotion, checks, parsed.name)
        decl = _new_declaration(parsed, "pointwise", kernel, meta, grad, method, function,
                                python_name)
        decl.numbers = True if numbers is None else frozenset(numbers)
        decl.python_module = python_module
        compute = _computer(kernel, operands, inputs)
        main = _install(decl, parsed)
        _register_functional(main, meta, compute, kernel,
                             _fast_path(kernel, operands, promotion, checks))
        if inplace:
            fast = None if check_out is not None else \
                _fast_path(kernel, operands, promotion, checks, inplace=True)
            _register_writing(_install(decl, _inplace_schema(parsed)), meta, compute, kernel,
                              "inplace", check_out, fast)
        if out:
            _register_writing(_install(decl, _out_schema(parsed, out_overload, out_names)),
                              meta, compute,
                              kernel, "out", check_out)
        for overload in decl.overloads.values():
            overload.accept_numbers(inputs)

        def register_backend(key, rule):        # the rule is a check: see register_meta
            own = _meta_rule(order, inputs, promotion, rule, parsed.name)
            _register_functional(main, own, compute, kernel, None, (key,))
            for kind, overload in decl.overloads.items():
                if kind is not SchemaKind.functional:
                    _register_writing(overload, own, compute, kernel, kind.value, check_out,
                                      keys=(key,))
        decl.register_backend = register_backend
        if kernel_check is not None:
            register_meta(main, check)
        _bind(decl)
        return main
    return declare


def _in_turn(first, then):
    """One check running `first`, then `then`."""
    def check(*args):
        first(*args)
        then(*args)
    return check


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


def _computer(kernel, operands: tuple, inputs: tuple):
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
        for i in inputs:
            value = values[i]
            if isinstance(value, TensorBase):
                values[i] = value._np            # widened chunk by chunk, in `step`
                if i not in operands and value._dtype is not dtypes.bool:
                    values[i] = values[i] != 0   # a mask (where's uint8 condition)
            elif value is not None:
                values[i] = to_compute_scalar(value, dtype)
        written = described.target._np
        result = described.dtype._np
        # The kernel writes `out` itself only if nothing lies between: no float16 widening
        # to round back (even an out= of a wider dtype gets the result dtype's rounding,
        # as TensorIterator casts the result to the output), no other out= dtype.
        direct = out.dtype == written == result
        run = kernel
        if takes_result and described.dtype is not described.compute:
            run = functools.partial(kernel, result=result)

        def step(*chunk, out):
            """One chunk (the whole, when small): widen, compute, round back into `out`.
            Casting per chunk lets the thread pool share the casts too."""
            chunk = list(chunk)
            for i in operands:
                if isinstance(chunk[i], np.ndarray) and chunk[i].dtype != dtype:
                    chunk[i] = chunk[i].astype(dtype)
            target = out if direct else np.empty(out.shape, written)
            run(*chunk, out=target)
            if target is not out:
                if result != written and out.dtype != result:
                    target = target.astype(result)
                np.copyto(out, target, casting="unsafe")
        token = mute()
        try:
            parallel_elementwise(step, values, inputs, out)
        finally:
            unmute(token)
    return compute


def _fast_path(kernel, operands: tuple, promotion: Promotion, check, inplace: bool = False):
    """The common call, without the general machinery: returns None when it does not apply.

    It applies when the operands are row-major tensors of one dtype and shape (or one
    such tensor and a number that does not change the dtype; a lone tensor operand may
    also be broadcast from a scalar, all strides 0, and one of two on the conditions of
    `_row_major_result`), and that dtype is computed in itself (no float16 widening).
    Then the result is row-major, of the
    dtype the promotion kind gives, and the kernel reads the arrays as they are. The
    in-place form (``inplace=True``) also needs the result dtype to be self's: it then
    writes self and bumps its version, doing ADInplaceOrView's job too. A promotion
    kind that depends on the arguments (clamp's number bounds, div's rounding mode) is
    asked per call, after the checks, as the meta rule does.
    """
    if operands not in ((0,), (0, 1)):
        return None
    fixed = None if callable(promotion) else _fast_results(promotion, inplace)
    binary = len(operands) == 2

    def fast(args):
        a = args[0]
        if not isinstance(a, TensorBase):
            return None
        checked = fixed is None and check is not None
        if checked:
            check(*args)
        results = fixed if fixed is not None else _fast_results(promotion(*args), inplace)
        entry = results.get(a._dtype)
        size = a._size
        dense = row_major(size)                 # (None until first computed)
        if entry is None or dense is None:
            return None
        if binary:
            b = args[1]
            if isinstance(b, TensorBase):
                if b._dtype is not a._dtype or b._size != size \
                        or not _row_major_result(a, b, dense, inplace):
                    return None
                b = b._arr if b._arr is not None else b._np
            elif a._stride != dense and (inplace or any(a._stride)):
                return None
            elif type(b) in _PYTHON_NUMBERS and result_type_with_scalar(a._dtype, b) is a._dtype:
                b = to_compute_scalar(b, a._dtype._np)
            else:
                return None
            values = [a._arr if a._arr is not None else a._np, b, *args[2:]]
        elif a._stride != dense and (inplace or any(a._stride)):
            return None
        else:
            values = [a._arr if a._arr is not None else a._np, *args[1:]]
        if check is not None and not checked:
            check(*args)
        out = values[0] if inplace else np.empty(size, entry[1])
        token = mute()
        try:
            if out.size >= SPLIT_SIZE:          # large: split over the thread pool
                parallel_elementwise(kernel, values, operands, out)
            else:
                kernel(*values, out=out)
        finally:
            unmute(token)
        if inplace:
            a._version_counter().value += 1
            return a
        return wrap_array(out, entry[0])
    return fast


def _row_major_result(a: TensorBase, b: TensorBase, dense: tuple, inplace: bool) -> bool:
    """Whether two operands of one shape make a row-major result that the fast path may
    write: both row-major (not partly overlapping `self` in place), or one row-major and
    the other a broadcast value (all strides 0: an expanded scalar, such as the gradient
    of a sum) on a shape whose dims all have 2 or more elements, where the row-major
    operand alone orders every dim (TensorIterator's rule ignores stride-0 operands) and
    so the result is row-major too. In place, `self` must be the row-major one."""
    if a._stride == dense:
        if b._stride == dense:
            return not (inplace and b._storage is a._storage and b._offset != a._offset)
        return not any(b._stride) and min(a._size) > 1 and not (
            inplace and b._storage is a._storage)
    return not inplace and b._stride == dense and not any(a._stride) and min(a._size) > 1


def _fast_results(promotion: Promotion, inplace: bool) -> dict:
    """dtype -> (result dtype, NumPy dtype written) for the dtypes the fast path serves
    under a promotion kind; shared by every operator of that kind."""
    key = (promotion, inplace)
    results = _FAST_RESULTS.get(key)
    if results is None:
        results = _FAST_RESULTS[key] = {}
        for dtype in dtypes.ALL_DTYPES:
            result, compute, target = result_and_compute(dtype, promotion)
            if compute is dtype and (not inplace or result is dtype):
                results[dtype] = (result, target._np)
    return results


_FAST_RESULTS: dict = {}
_PYTHON_NUMBERS = (bool, int, float, complex)
row_major = _STRIDES_CACHE.get       # row-major strides of a shape seen before, else None


def zero_where(mask: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """``out = 0 where mask, else values``, exactly (+0, and `values`' own NaN and -0.0
    kept), for elementwise kernels (relu, threshold_backward).

    The zeros are made by clearing bits, one bitwise and with a mask of all-ones or
    all-zeros words: NumPy's masked assignment (``out[mask] = 0``, ``copyto(where=)``)
    branches per element and is 5 to 10 times slower on mixed masks.
    """
    unsigned = _UNSIGNED.get(out.dtype.itemsize)
    if unsigned is None:                        # complex128: no 16-byte integer
        np.copyto(out, values, casting="unsafe")
        out[mask] = 0
        return
    if values.dtype != out.dtype:
        np.copyto(out, values, casting="unsafe")
        values = out
    keep = mask.astype(unsigned)
    keep -= 1                                   # True -> 0, False -> all ones (wraps)
    np.bitwise_and(values.view(unsigned), keep, out=out.view(unsigned))


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def to_compute_scalar(value, dtype: np.dtype):
    """A Python/NumPy number as a NumPy scalar of `dtype`, wrapping integers as C does."""
    kind = dtype.kind
    if kind == "b":
        return np.bool_(value)
    if kind in "iu" and not isinstance(value, (float, complex, np.floating, np.complexfloating)):
        value = int(value)
        if not -2 ** 63 <= value < 2 ** 64:
            raise RuntimeError(f"value cannot be converted to type {dtype} without overflow")
        wide = np.array(value, dtype=np.int64 if value < 2 ** 63 else np.uint64)
        return wide.astype(dtype)[()]
    return dtype.type(value)


def _register_functional(overload: OpOverload, meta, compute, kernel, fast,
                         keys: tuple = (CPU, META)) -> None:
    def run_cpu(op, keyset, args):
        if fast is not None:
            result = fast(args)
            if result is not None:
                return result
        described = meta(*args)
        result = empty_from_meta(described, "cpu")
        compute(args, described, result._np)
        return result

    def run_meta(op, keyset, args):
        return empty_from_meta(meta(*args), "meta")
    _label(run_cpu, f"{kernel.__name__} (elementwise: {meta.__name__} -> allocate -> kernel "
                    f"in the compute dtype)", kernel)
    _label(run_meta, f"{meta.__name__} (meta rule: shapes only, no data)", kernel)
    for key in keys:
        overload.register(key, run_meta if key is META else run_cpu)


def _refuse_target_first(op: OpOverload, target: TensorBase, described, variant: str,
                         check_out) -> None:
    """torch's kernel refuses a dtype ("... not implemented for 'Float'") only after
    TensorIterator has checked the written tensor, so ``int_tensor &= float_tensor`` is
    torch's cast error: raise the written tensor's error, if it has one, first."""
    if check_out is not None:
        check_out(target, described, variant == "inplace")
    check_no_internal_overlap(target)
    if variant == "inplace":
        _check_inplace(op, target, described)
    elif not can_cast(described.dtype, target._dtype):
        _prepare_out(op, target, described)         # raises the cast error, resizing nothing


# Plain ints: `int & DispatchKey.CPU` would run IntFlag's Python-level `__rand__` (a
# subclass's reflected operator goes first), twice per in-place call.
_CPU_BIT = int(CPU)
_BELOW_AD_INPLACE_OR_VIEW = ~int(AD_INPLACE_OR_VIEW)


def _register_writing(overload: OpOverload, meta, compute, kernel, variant: str,
                      check_out, fast=None, keys: tuple = (CPU, META)) -> None:
    """The in-place (`self` is written) or out= (`out` is written) overload."""
    n_in = len(overload._schema.arguments) - (variant == "out")

    def run(op, keyset, args):
        inputs = args[:n_in]
        target = args[0] if variant == "inplace" else args[n_in]
        try:
            described = meta(*inputs)
        except NotImplementedError:         # a dtype the kernel has no loop for
            _refuse_target_first(op, target, meta.describe(*inputs), variant, check_out)
            raise
        if check_out is not None:
            check_out(target, described, variant == "inplace")
        check_no_internal_overlap(target)
        for value in inputs:
            if isinstance(value, TensorBase):
                check_no_partial_overlap(target, value)
        if variant == "inplace":
            _check_inplace(op, target, described)
        else:
            _prepare_out(op, target, described,
                         through_temporary=described.casts_to_out
                         and target._dtype is not described.dtype)
        if target._device.type == "cpu":
            compute(inputs, described, target._np)
        return target
    _label(run, f"{kernel.__name__} ({'in place' if variant == 'inplace' else 'out='}: "
                f"{meta.__name__} checks, kernel writes {'self' if variant == 'inplace' else 'out'})",
           kernel)
    overload.register(AD_INPLACE_OR_VIEW, _bump_written)
    for key in keys:
        overload.register(key, run)
    if fast is not None:
        def inplace_fast_path(op, keyset, args):
            if keyset & _CPU_BIT:
                result = fast(args)
                if result is not None:
                    return result
            return _bump_written(op, keyset & _BELOW_AD_INPLACE_OR_VIEW, args)
        _label(inplace_fast_path, f"{kernel.__name__} (in place, fast path: kernel writes self, "
                                  f"version bumped)", kernel)
        overload.register_fast(inplace_fast_path)
