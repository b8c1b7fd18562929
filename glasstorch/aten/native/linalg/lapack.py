"""What the LAPACK-backed operators of torch.linalg share: argument checks in torch's words,
the layout of their results, the error codes LAPACK reports, and SciPy on first use.

Note [Batched LAPACK]
    NumPy's linalg functions are gufuncs: one C loop runs LAPACK over every matrix of a
    batch (`np.linalg.cholesky`, `inv`, `solve`, `det`, `slogdet`, `eigh`, `svd`, `qr`,
    `eig`). The kernels hand them the whole batch. NumPy refuses a batch as soon as one
    matrix fails, though, where torch goes on and reports an `info` per matrix; so a
    kernel whose batch NumPy refused runs SciPy's LAPACK wrappers matrix by matrix, only
    then, for the partial results and codes torch reports. Routines NumPy has no gufunc
    for (triangular solves, LU with pivots, Householder products, LDL) run SciPy's
    wrappers over the batch.

Note [Column-major results]
    LAPACK works on column-major matrices, and torch allocates its results so: a batch
    of m x n matrices gets strides ``(m n, 1, m)`` (`column_major_strides`). The meta
    rules describe results with those strides, as torch's do, so that `stride()` and
    `is_contiguous()` match torch's whatever computed them.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.errors import _LinAlgError
from ....c10.promotion import can_cast
from ...meta.shape import broadcast_shapes
from ...structured import TensorMeta, prepare_out
from ..shape.triangular import exact_out_dtype

LinAlgError = _LinAlgError          # torch.linalg.LinAlgError (torch._C._LinAlgError)

LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)


@functools.cache
def scipy_linalg():
    """`scipy.linalg`, imported on first use (`import glasstorch` never loads SciPy)."""
    import scipy.linalg
    return scipy.linalg


def lapack(name: str, *arrays: np.ndarray):
    """SciPy's wrapper of the LAPACK routine `name` (``"getrf"``) for `arrays`' dtype."""
    return scipy_linalg().get_lapack_funcs((name,), arrays)[0]


# ----------------------------------------------------------------------------------
# Checks, in torch's words
# ----------------------------------------------------------------------------------
def _dtype_word(dtype, python_words: bool) -> str:
    """A dtype as torch's messages print it: ``Long``, or ``torch.int64`` in the words of
    its Python meta functions (the Meta registrations)."""
    return str(dtype) if python_words else scalar_type_name(dtype)


def check_matrix(name: str, A, arg: str = "A", python_words: bool = False) -> None:
    """At least two dims (torch's meta functions assert it, in other words)."""
    if A.dim() >= 2:
        return
    if python_words:
        raise AssertionError(f"{name}: The input tensor must have at least 2 dimensions, got "
                             f"{A.dim()}")
    raise RuntimeError(f"{name}: The input tensor {arg} must have at least 2 dimensions.")


def check_square(name: str, A, arg: str = "A", python_words: bool = False) -> None:
    """A batch of square matrices."""
    check_matrix(name, A, arg, python_words)
    rows, cols = A._size[-2:]
    if rows != cols:
        raise RuntimeError(f"{name}: {arg} must be batches of square matrices, but they are "
                           f"{rows} by {cols} matrices")


def check_floating(name: str, A, allow_low_precision: bool = False,
                   python_words: bool = False) -> None:
    """A floating or complex dtype (float16 and bfloat16 only where the kernel has them)."""
    if not (A._dtype.is_floating_point or A._dtype.is_complex):
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {_dtype_word(A._dtype, python_words)}")
    if not allow_low_precision and A._dtype in LOW_PRECISION:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got "
                           f"{_dtype_word(A._dtype, python_words)}")


def check_kernel_dtype(kernel: str, A, python_words: bool = False) -> None:
    """The dtypes a LAPACK kernel is compiled for: float32/64, complex64/128 (a check of
    the CPU kernel, which torch's meta functions do not make)."""
    if python_words:
        return
    if A._dtype in LOW_PRECISION or not (A._dtype.is_floating_point or A._dtype.is_complex):
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{scalar_type_name(A._dtype)}'")


def check_same_dtype(name: str, A, B, first: str = "A", second: str = "B",
                     python_words: bool = False, end: str = "") -> None:
    """`A` and `B` of one dtype (`name`: the message's prefix, if any; `end` its end)."""
    if A._dtype is not B._dtype:
        prefix = f"{name}: " if name else ""
        raise RuntimeError(f"{prefix}Expected {first} and {second} to have the same dtype, but "
                           f"found {first} of type {_dtype_word(A._dtype, python_words)} and "
                           f"{second} of type {_dtype_word(B._dtype, python_words)} instead{end}")


def batch_shape(first: tuple, second: tuple, python_words: bool = False) -> tuple:
    """The broadcast of two batch shapes, refused in the words of torch's C++
    (``The size of tensor a ...``) or of its Python meta functions."""
    if not python_words:
        return broadcast_shapes(first, second)
    common = [1] * max(len(first), len(second))
    for index, shape in enumerate((first, second)):
        for dim in range(-1, -len(shape) - 1, -1):
            if common[dim] == 1:
                common[dim] = shape[dim]
            elif shape[dim] not in (1, common[dim]):
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[dim]} "
                                   f"at {dim}! Mismatching argument at index {index} had "
                                   f"torch.Size({list(shape)}); but expected shape should be "
                                   f"broadcastable to {common}")
    return tuple(common)


def check_castable_out(name: str, dtype, out, what: str = "result") -> None:
    """An out= these kernels write with a cast: any dtype `dtype` safely casts to."""
    if out is not None and not can_cast(dtype, out._dtype):
        raise RuntimeError(f"{name}: Expected {what} to be safely castable from "
                           f"{scalar_type_name(dtype)} dtype, but got {what} with dtype "
                           f"{scalar_type_name(out._dtype)}")


def written_out(result, out, overload):
    """A composite's `result`, or written into its out= tensor (of exactly its dtype;
    resized as torch resizes, with its warning when out= had elements); `overload`: the
    composite's out= overload."""
    if out is None:
        return result
    exact_out_dtype(result.dtype, out)
    prepare_out(overload, out, TensorMeta(tuple(result.shape), result.dtype))
    return out.copy_(result)


def written_outs(results: tuple, outs: tuple, overload) -> tuple:
    """A composite's several `results`, or each written into its out= tensor (of exactly
    its dtype, resized to its shape and strides as torch's out= forms of decompositions
    leave them); `overload`: the composite's out= overload."""
    if outs[0] is None:
        return results
    for result, out in zip(results, outs):
        exact_out_dtype(result.dtype, out)
    for result, out in zip(results, outs):
        prepare_out(overload, out, TensorMeta(tuple(result.shape), result.dtype,
                                              result.stride()))
        out.copy_(result)
    return outs


def castable_out(result, out, overload, name: str, what: str = "result", exact: bool = False):
    """A composite's `result`, or written into its out= tensor, which may have any dtype
    the result casts to (torch's words for the others, naming `name`); `exact`: then only
    the result's own dtype."""
    if out is None:
        return result
    check_castable_out(name, result.dtype, out, what)
    if exact:
        exact_out_dtype(result.dtype, out)
    prepare_out(overload, out, TensorMeta(tuple(result.shape), out._dtype))
    return out.copy_(result)


def real_dtype(dtype):
    """The real dtype of a complex one (eigenvalues of a Hermitian matrix, |det|)."""
    return dtype.to_real() if dtype.is_complex else dtype


# ----------------------------------------------------------------------------------
# Layout (Note [Column-major results])
# ----------------------------------------------------------------------------------
def column_major_strides(shape: tuple) -> tuple:
    """Strides of a batch of column-major matrices of `shape`."""
    if len(shape) < 2:
        return contiguous_strides(shape)
    rows, cols = shape[-2:]
    strides = [1, max(rows, 1)]
    step = max(rows, 1) * max(cols, 1)
    for size in reversed(shape[:-2]):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides[:-2]) + (1, max(rows, 1))


def out_strides(shape: tuple, out) -> tuple | None:
    """Column-major, except for an out= tensor, which torch's older kernels (those that
    cast into out=) resize row-major."""
    return column_major_strides(shape) if out is None else None


def contiguous_strides(shape: tuple) -> tuple:
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)


def batch_count(shape: tuple) -> int:
    return math.prod(shape[:-2])


# ----------------------------------------------------------------------------------
# LAPACK's error codes (torch's _linalg_check_errors)
# ----------------------------------------------------------------------------------
def info_message(api_name: str, code: int) -> str | None:
    """What torch says of a positive LAPACK `code` from the routine behind `api_name`."""
    if "inv" in api_name:
        return (f"The diagonal element {code} is zero, the inversion could not be completed "
                f"because the input matrix is singular.")
    if "solve" in api_name:
        return "The solver failed because the input matrix is singular."
    if "cholesky" in api_name:
        return (f"The factorization could not be completed because the input is not "
                f"positive-definite (the leading minor of order {code} is not "
                f"positive-definite).")
    if "svd" in api_name:
        return (f"The algorithm failed to converge because the input matrix is ill-conditioned "
                f"or has too many repeated singular values (error code: {code}).")
    if "eig" in api_name or "syevd" in api_name:
        return (f"The algorithm failed to converge because the input matrix is ill-conditioned "
                f"or has too many repeated eigenvalues (error code: {code}).")
    if "lstsq" in api_name:
        return (f"The least squares solution could not be computed because the input matrix "
                f"does not have full rank (error code: {code}).")
    if "lu_factor" in api_name:
        return (f"U[{code},{code}] is zero and using it on lu_solve would result in a division "
                f"by zero. If you still want to perform the factorization, consider calling "
                f"linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return None


def raise_for_info(info: np.ndarray, api_name: str, is_matrix: bool) -> None:
    """Raise torch's error for the first nonzero code of `info` (one per matrix)."""
    codes = np.asarray(info).reshape(-1)
    failed = np.flatnonzero(codes)
    if failed.size == 0:
        return
    index = int(failed[0])
    code = int(codes[index])
    where = "" if is_matrix else f"(Batch element {index}): "
    if code < 0:
        raise RuntimeError(f"{api_name}: {where}Argument {-code} has illegal value. Most "
                           f"certainly there is a bug in the implementation calling the "
                           f"backend library.")
    message = info_message(api_name, code)
    if message is None:
        raise RuntimeError(f"{api_name}: Unknown error code: {code}.")
    # torch words a singular U for lu_factor as a plain check, not a LinAlgError
    error = RuntimeError if "lu_factor" in api_name else _LinAlgError
    raise error(f"{api_name}: {where}{message}")


def per_matrix(routine, *batches: np.ndarray):
    """Run `routine` on the matrices of equally shaped batches, one at a time: the path
    of Note [Batched LAPACK] for a batch NumPy refused, and for routines without a
    gufunc. Yields the index tuple and the routine's result for each."""
    batch = batches[0].shape[:-2]
    for index in np.ndindex(*batch):
        yield index, routine(*(b[index] for b in batches))
