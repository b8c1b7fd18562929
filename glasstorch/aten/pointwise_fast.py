"""The elementwise fast path: the common call without TensorIterator's machinery.

Note [The elementwise fast path]
    Most elementwise calls are the simplest case TensorIterator knows: row-major
    operands of one dtype and shape (or a tensor and a number that keeps its dtype),
    computed in that dtype. Then there is nothing to promote, broadcast, widen or lay
    out: the result is a fresh row-major array of the dtype the promotion kind gives,
    and the kernel reads the operands' arrays as they are. `fast_path` builds, per
    operator, the function that checks for exactly that case and computes it, or
    declines (returns None) so that the general path runs (Note [Fast paths] in
    fast_paths.py).

    An operator whose kernel is one NumPy ufunc for real dtypes, when its arguments
    after the operands are their defaults (`mul` is ``np.multiply``; `add` is
    ``np.add`` at ``alpha=1``), declares it (``pointwise(..., ufunc=np.add)``): the fast
    path then calls the ufunc itself and lets it allocate the result, skipping the
    kernel's frame and a separate allocation. Tests hold the ufunc to the kernel bit
    for bit for every dtype the fast path serves (tests/aten/test_fast_path_kernels.py).
"""
from __future__ import annotations

import functools

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.promotion import result_type_with_scalar
from ..c10.strides import _STRIDES_CACHE, contiguous_strides
from ..c10.dispatch_key import CPU_KEYS, local_keys
from ..c10.tensor_impl import TensorBase, share_storage, wrap_array
from .meta.pointwise import Promotion, result_and_compute
from .parallel import SPLIT_SIZE, parallel_elementwise
from .quiet import mute, unmute


def fast_path(kernel, operands: tuple, promotion: Promotion, check, *, inplace: bool = False,
              options_only: bool = False, ufunc=None, refused: frozenset = frozenset(),
              defaults: tuple = (), general=None, live=None):
    """The fast path of an elementwise operator, ``fast(*args) -> Tensor | None``.

    It applies when the operands are row-major tensors of one dtype and shape (or one
    such tensor and a number that does not change the dtype; a lone tensor operand may
    also be broadcast from a scalar, all strides 0, and one of two on the conditions of
    `_row_major_result`), and that dtype is computed in itself (no float16 widening).
    The in-place form (``inplace=True``) also needs the result dtype to be self's: it
    then writes self and bumps its version, doing ADInplaceOrView's job too. A
    promotion kind that depends on the arguments (clamp's number bounds, div's rounding
    mode) is asked per call, after the checks, as the meta rule does.

    Given `general`, it is an express entry instead (Note [Express entries] in
    fast_paths.py): it also checks that the call is a plain CPU call, and hands every
    call it does not serve to `general` rather than returning None. A Python operator's
    express entry (``a + b``) is given the operands alone: the other arguments take
    their defaults.

    Args:
        kernel: the operator's kernel, ``kernel(*arrays_and_options, out=)``.
        operands: the positions of the elementwise operands: ``(0,)`` or ``(0, 1)``.
        promotion: the promotion kind, or a function of the arguments giving it.
        check: ``check(*args)`` raising the operator's refusals, or None.
        options_only: whether `check` reads only the arguments after the operands and
            passes at their defaults (an `OptionCheck`).
        inplace: whether this is the in-place overload's fast path.
        ufunc: the ufunc the kernel is for real dtypes when the arguments after the
            operands equal `defaults` (Note [The elementwise fast path]), or a mapping
            of dtypes to the C callables that are the kernel for them, or None.
        refused: the dtypes left to the general path (the kernel's `DtypeRefusal`).
        defaults: those arguments' schema defaults.
        general: the overload's general entry, for the express entry.
        live: the express entry serves while ``live[0]`` is True.
    """
    @functools.cache                    # a hit is a C call: no frame on the hot path
    def results(kind: Promotion) -> dict:
        return _served(_fast_results(kind, inplace), refused, ufunc)
    fixed = None if callable(promotion) else results(promotion)
    binary = len(operands) == 2
    count = len(operands)
    express = general is not None
    declined = general if express else _declined

    def fast(*args):
        a = args[0]
        if express:
            kept = local_keys.kept
            if not isinstance(a, TensorBase) or a._keys & kept != CPU_KEYS or not live[0]:
                return general(*args)
        elif not isinstance(a, TensorBase):
            return None
        if fixed is None:                   # the result dtype depends on the arguments
            if check is not None:
                check(*args)
            entry = results(promotion(*args)).get(a._dtype)
        else:
            entry = fixed.get(a._dtype)
        if entry is None:
            return declined(*args)
        size = a._size
        dense = _STRIDES_CACHE.get(size) or contiguous_strides(size)
        b = args[1] if binary else None
        if isinstance(b, TensorBase):
            if b._dtype is not a._dtype or b._size != size or \
                    express and b._keys & kept != CPU_KEYS:
                return declined(*args)
            if not (a._stride == dense and b._stride == dense and not inplace) \
                    and not _row_major_result(a, b, dense, inplace):
                return declined(*args)
            b = b._arr if b._arr is not None else b._np
        elif a._stride != dense and (inplace or any(a._stride)):
            return declined(*args)
        elif binary:
            b = _kept_number(a._dtype, b)
            if b is None:
                return declined(*args)
        if fixed is not None and check is not None:
            check(*args)
        x = a._arr if a._arr is not None else a._np
        arrays = (x, b) if binary else (x,)
        options = args[count:] or defaults     # a Python operator passes the operands alone
        token = mute()
        try:
            direct = entry[2]
            if direct is not None and size and x.size < SPLIT_SIZE and options == defaults:
                out = direct(*arrays, out=x) if inplace else direct(*arrays)
            else:
                out = x if inplace else np.empty(size, entry[1])
                if out.size >= SPLIT_SIZE:      # large: split over the thread pool
                    parallel_elementwise(kernel, [*arrays, *options], operands, out)
                else:
                    kernel(*arrays, *options, out=out)
        finally:
            unmute(token)
        if inplace:
            a._version_counter().value += 1
            return a
        return wrap_array(out, entry[0], dense)
    if express and fixed is not None and (check is None or options_only) \
            and len(defaults) <= 1 and any(entry[2] is not None for entry in fixed.values()):
        return _plain(fast, fixed, count, defaults, general, live, inplace)
    return fast


def _plain(fast, fixed: dict, count: int, defaults: tuple, general, live, inplace: bool):
    """The express entry's first layer, for the commonest call of an operator whose
    kernel is a C callable: row-major tensors of one dtype and shape (``a + b``,
    ``x.exp()``), given alone or with the default of the one option (``torch.add(a, b)``
    passes ``alpha=1``), computed by that callable. It tests only for that case, hands
    a call that is not plain to `general` as `fast` would (for two tensors it applies
    `fast`'s own conditions, `_row_major_result`), and anything else to `fast`. The
    default is recognised by identity, so ``alpha=True`` still meets add's check. In
    place (``a.add_(b)``), an operand over self's storage is left to `fast`, which
    knows when that may be written."""
    default = defaults[0] if defaults else None
    given = count + len(defaults)

    def plain(*args):
        a = args[0]
        if not isinstance(a, TensorBase) or a._keys & local_keys.kept != CPU_KEYS \
                or not live[0]:
            return general(*args)
        size = a._size
        dense = _STRIDES_CACHE.get(size) or contiguous_strides(size)
        entry = fixed.get(a._dtype)
        if entry is None or entry[2] is None or not size or not (
                len(args) == count or len(args) == given and args[count] is default):
            return fast(*args)
        x = a._arr if a._arr is not None else a._np
        if count == 1:
            if a._stride != dense:
                return fast(*args)
            arrays = (x,)
        else:
            b = args[1]
            if not isinstance(b, TensorBase):
                b = _kept_number(a._dtype, b)
                if b is None or a._stride != dense:
                    return fast(*args)
                arrays = (x, b)
            else:           # what `fast` declines goes to `general` straight
                if b._keys & local_keys.kept != CPU_KEYS or b._dtype is not a._dtype \
                        or b._size != size:
                    return general(*args)
                if inplace and a._storage_slot is not None and \
                        a._storage_slot is b._storage_slot:
                    return fast(*args)
                if not (a._stride == dense and b._stride == dense) and \
                        not _row_major_result(a, b, dense, inplace):
                    return general(*args)
                arrays = (x, b._arr if b._arr is not None else b._np)
        if x.size >= SPLIT_SIZE:
            return fast(*args)
        token = mute()
        try:
            out = entry[2](*arrays, out=x) if inplace else entry[2](*arrays)
        finally:
            unmute(token)
        if inplace:
            (a._vc or a._version_counter()).value += 1
            return a
        return wrap_array(out, entry[0], dense)
    return plain


def _declined(*args) -> None:
    """A fast path's answer to a call it does not serve: the kernel runs next."""
    return None


def _row_major_result(a: TensorBase, b: TensorBase, dense: tuple, inplace: bool) -> bool:
    """Whether two operands of one shape make a row-major result that the fast path may
    write: both row-major (not partly overlapping `self` in place), or one row-major and
    the other a broadcast value (all strides 0: an expanded scalar, such as the gradient
    of a sum) on a shape whose dims all have 2 or more elements, where the row-major
    operand alone orders every dim (TensorIterator's rule ignores stride-0 operands) and
    so the result is row-major too. In place, `self` must be the row-major one."""
    if a._stride == dense:
        if b._stride == dense:
            return not (inplace and share_storage(a, b) and b._offset != a._offset)
        return not any(b._stride) and min(a._size) > 1 and not (
            inplace and share_storage(a, b))
    return not inplace and b._stride == dense and not any(a._stride) and min(a._size) > 1


def _fast_results(promotion: Promotion, inplace: bool) -> dict:
    """dtype -> (result dtype, NumPy dtype written, real) for the dtypes the fast path
    serves under a promotion kind; shared by every operator of that kind. `real` says
    whether a declared ufunc may stand for the kernel (real operands only)."""
    key = (promotion, inplace)
    results = _FAST_RESULTS.get(key)
    if results is None:
        results = _FAST_RESULTS[key] = {}
        for dtype in dtypes.ALL_DTYPES:
            result, compute, target = result_and_compute(dtype, promotion)
            if compute is dtype and (not inplace or result is dtype):
                results[dtype] = (result, target._np, not dtype.is_complex)
    return results


_FAST_RESULTS: dict = {}


def _kept_number(dtype: dtypes.dtype, value):
    """A Python number operand beside a tensor of `dtype` as a NumPy scalar of it, when
    it leaves the result dtype `dtype` (``x + 1``); else None."""
    if type(value) not in _PYTHON_NUMBERS or result_type_with_scalar(dtype, value) is not dtype:
        return None
    return to_compute_scalar(value, dtype._np)


def _served(table: dict, refused: frozenset, ufunc) -> dict:
    """One operator's share of a promotion kind's table: dtype -> (result dtype, NumPy
    dtype written, the C callable standing for the kernel or None), without the dtypes
    its kernel refuses."""
    def direct(dtype, real: bool):
        if isinstance(ufunc, dict):
            return ufunc.get(dtype)
        return ufunc if real else None
    return {dtype: (result, target, direct(dtype, real))
            for dtype, (result, target, real) in table.items() if dtype not in refused}


_PYTHON_NUMBERS = (bool, int, float, complex)


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
