"""Extrema and truth reductions: max/min (whole, over a dim with indices, and the binary
overloads), amax/amin, aminmax, argmax/argmin, all/any.

NaN wins, as in torch: a NaN among the reduced elements makes max and min NaN, and
argmax / argmin (and max.dim's indices) point at the first NaN. Ties go to the first
occurrence. Reductions without an identity refuse an empty reduced dim.

`all` / `any` answer in bool, except for uint8 inputs, which answer in uint8 (torch
keeps that for backward compatibility). An empty dim list reduces nothing for them
(``torch.all(x, ())`` is ``x != 0``), where sum would reduce everything.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.promotion import can_cast
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.reduction import (check_nonempty_dims, check_out_dtype, reduced_shape,
                              reduction_dims, reduction_meta)
from ...pointwise import pointwise
from ...registry import TensorMeta, op
from ..pointwise.minmax import _refuse_complex
from .sum import axes, over_slabs, reduced_dims, restore_reduced_dims, split_reduce, write
from ..pointwise.unary import COMPLEX, refuse


def _check_exact_out(out, wanted) -> None:
    """out= of a result that is never cast: torch's "Expected out tensor to have dtype"."""
    if out is not None and out._dtype is not wanted:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(wanted)}, but "
                           f"got {type_meta_name(out._dtype)} instead")


def extreme_along(x: np.ndarray, axis: int, largest: bool) -> tuple:
    """The largest (or smallest) elements along `axis` and the index of the first of
    each, NaN winning (the first NaN). The reduced dim is dropped.

    Note [Arg-extremes along a long stride]
        NumPy's argmax over an axis that is not innermost copies the array transposed
        first, which reads memory across the cache: 4M floats take ~40 ms where the
        innermost axis takes 2 ms. When each slice along the axis is wide, the extremes
        come from one vectorized reduction instead, and their first indices from one
        pass over the slices, last to first, each slice recording where it holds the
        extreme (so the first one found is written last).
    """
    ufunc = np.maximum if largest else np.minimum
    values = ufunc.reduce(x, axis=axis)
    if not _long_stride(x, axis):
        return values, (np.argmax if largest else np.argmin)(x, axis=axis)
    length = x.shape[axis]
    slices = np.moveaxis(x, axis, 0)
    index = np.zeros(values.shape, np.int64)
    hit = np.empty(values.shape, np.bool_)
    for position in range(length - 1, -1, -1):
        np.equal(slices[position], values, out=hit)
        np.copyto(index, position, where=hit)
    if x.dtype.kind in "fcV":
        _first_nans(slices, values, index)
    return values, index


def _long_stride(x: np.ndarray, axis: int) -> bool:
    """Whether `axis` is not innermost and its slices are wide: Note [Arg-extremes
    along a long stride]."""
    length = x.shape[axis]
    return x.size >= 65536 and length > 1 and x.size // length >= 1024 and \
        abs(x.strides[axis]) > min(abs(s) for s in x.strides)


def _first_nans(slices: np.ndarray, values: np.ndarray, index: np.ndarray) -> None:
    """Where the extreme is NaN (NaN equals nothing), the index of the first NaN."""
    missing = np.isnan(values)
    if missing.any():
        index[missing] = np.argmax(np.isnan(slices[:, missing]), axis=0)


def arg_extreme(x: np.ndarray, axis, keepdim: bool, largest: bool) -> np.ndarray:
    """The index of the first largest (or smallest) element along `axis`, NaN first."""
    if axis is None or x.ndim < 2 or not _long_stride(x, axis):
        return (np.argmax if largest else np.argmin)(x, axis=axis, keepdims=keepdim)
    found = extreme_along(x, axis, largest)[1]
    return np.expand_dims(found, axis) if keepdim else found


# ----------------------------------------------------------------------------------
# max / min over everything, and the binary overloads
# ----------------------------------------------------------------------------------
def _whole_meta(name: str):
    def meta(self, out=None):
        check_nonempty_dims(name, self, None)
        if out is not None and not can_cast(self._dtype, out._dtype):
            raise RuntimeError("Expected canCast( typeMetaToScalarType(self.dtype()), "
                               "typeMetaToScalarType(out.dtype())) to be true, but got false."
                               "  (Could this error message be improved?  If so, please "
                               "report an enhancement request to PyTorch.)")
        return TensorMeta((), self._dtype)
    meta.__name__ = f"_{name}_all_meta"
    return meta


def _whole_kernel(name: str, ufunc):
    def kernel(self, *, out):
        refuse(self, f"{name}_all", COMPLEX)
        write(out, ufunc.reduce(self, axis=None))
    kernel.__name__ = f"{name}_all"
    return kernel


@derivative_helper
def evenly_distribute_backward(grad, self, result):
    """max / min of everything: the gradient is shared by the elements equal to the
    result (by the NaNs when the result is NaN)."""
    if result.isnan().item():
        mask = self.isnan()
    else:
        mask = self == result
    return mask * (grad / mask.sum())


@derivative_helper
def value_selecting_reduction_backward(grad, dim: int, indices, sizes, keepdim: bool):
    """max.dim / min.dim (and the sorting reductions): the gradient goes to the selected
    index only."""
    sizes = tuple(sizes)
    if not sizes:
        return grad.clone()
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    indices = restore_reduced_dims(indices, dim, sizes, keepdim)
    return at.zeros(sizes, dtype=grad.dtype).scatter(dim % len(sizes), indices, grad)


def _declare_extreme(name: str, ufunc, binary_kernel, largest: bool):
    """``name``, ``name.other`` and ``name.dim``, in torch's order of Python overloads."""
    word = "largest" if largest else "smallest"
    whole = _whole_kernel(name, ufunc)
    whole.__doc__ = f"""The {word} element of `input`; or, with `dim`, the {word} elements
    along `dim` and their indices; or, with `other`, the elementwise {'maximum' if largest
    else 'minimum'} of `input` and `other`.

    Args:
        input (Tensor): the values.
        dim (int, optional): the dim to reduce.
        keepdim (bool): keep the reduced dim, with size 1.
        other (Tensor, optional): a second tensor (broadcast against `input`).

    NaN wins; ties give the first index.

    Example::

        >>> torch.{name}(torch.tensor([[1., 7.], [5., 3.]]), 1)
        torch.return_types.{name}(
        values=tensor([{'7., 5.' if largest else '1., 3.'}]),
        indices=tensor([{'1, 0' if largest else '0, 1'}]))
    """
    overall = op(f"{name}(Tensor self) -> Tensor", meta=_whole_meta(name), method=True,
                 out=True, out_overload="unary_out",
                 grad={"self": "evenly_distribute_backward(grad, self, result)"})(whole)
    binary = pointwise(f"{name}.other(Tensor self, Tensor other) -> Tensor", out=True,
                       out_overload="out", numbers=(),
                       kernel_check=_refuse_complex("maximum" if largest else "minimum"),
                       grad=_BINARY_GRADS[largest])(binary_kernel)
    along = op(f"{name}.dim(Tensor self, int dim, bool keepdim=False) -> "
               f"(Tensor values, Tensor indices)", meta=_dim_meta(name), method=True,
               out=True, out_overload=f"dim_{name}",
               out_names=(name, f"{name}_values" if largest else f"{name}_indices"),
               grad={"self": "value_selecting_reduction_backward(grad, dim, indices, "
                             "self_sym_sizes, keepdim)"})(_dim_kernel(ufunc, largest))
    along.declaration.doc = binary.declaration.doc = whole.__doc__
    return overall, binary, along


_BINARY_GRADS = {
    True: {"self": "where(self == other, grad / 2, grad).masked_fill(self < other, 0)",
           "other": "where(self == other, grad / 2, grad).masked_fill(self > other, 0)"},
    False: {"self": "where(self == other, grad / 2, grad).masked_fill(self > other, 0)",
            "other": "where(self == other, grad / 2, grad).masked_fill(self < other, 0)"},
}


def _dim_meta(name: str):
    def meta(self, dim, keepdim=False, out=None):
        if self._dtype.is_complex:
            raise RuntimeError(f"{name}(): does not support complex input")
        dims = check_nonempty_dims(name, self, dim)
        if out is not None:
            _check_exact_out(out[0], self._dtype)
            _check_exact_out(out[1], dtypes.int64)
        shape = reduced_shape(self._size, dims, keepdim)
        return TensorMeta(shape, self._dtype), TensorMeta(shape, dtypes.int64)
    meta.__name__ = f"_{name}_dim_meta"
    return meta


def _dim_kernel(ufunc, largest: bool):
    def kernel(self, dim, keepdim, *, out):
        values, indices = out
        if self.ndim == 0:
            values[...] = self
            indices[...] = 0
            return
        axis = dim % self.ndim

        def slab(x, values, indices):
            extremes, found = extreme_along(x, axis, largest)
            write(indices, np.expand_dims(found, axis) if keepdim else found)
            write(values, np.expand_dims(extremes, axis) if keepdim else extremes)
        over_slabs(slab, self, (axis,), keepdim, values, indices)
    kernel.__name__ = f"{'max' if largest else 'min'}_dim"
    return kernel


def _maximum(self, other, *, out):
    np.maximum(self, other, out=out)


def _minimum(self, other, *, out):
    np.minimum(self, other, out=out)


max_all, max_other, max_dim = _declare_extreme("max", np.maximum, _maximum, True)
min_all, min_other, min_dim = _declare_extreme("min", np.minimum, _minimum, False)


# ----------------------------------------------------------------------------------
# amax / amin, aminmax
# ----------------------------------------------------------------------------------
def _amax_meta(name: str):
    def meta(self, dim=(), keepdim=False, out=None):
        check_nonempty_dims(name, self, dim)
        check_out_dtype(out, self._dtype)
        return reduction_meta(self, dim, keepdim, self._dtype)
    meta.__name__ = f"_{name}_meta"
    return meta


def _amax_kernel(kernel_name: str, ufunc):
    def kernel(self, dim, keepdim, *, out):
        refuse(self, kernel_name, COMPLEX)
        split_reduce(ufunc, self, axes(self, dim), keepdim, out)
    return kernel


_AMAX_DOC = """The {word} elements of `input` over `dim` (every dim when empty), without indices.

    Args:
        input (Tensor): the values.
        dim (int or tuple of ints): the dims to reduce; ``()`` reduces every dim.
        keepdim (bool): keep the reduced dims, with size 1.

    NaN wins. The gradient is shared evenly among tied elements (where max.dim's goes
    to one index).

    Example::

        >>> torch.{name}(torch.tensor([[1., 7.], [5., 3.]]), dim=0)
        tensor([{values}])
    """


@derivative_helper
def amax_amin_backward(grad, self, result, dim, keepdim: bool):
    """amax / amin: shared evenly by the elements equal to the extreme."""
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    mask = self == restore_reduced_dims(result, dim, sizes, keepdim)
    return mask * grad / mask.sum(reduced_dims(dim, len(sizes)), keepdim=True)


@derivative_helper
def aminmax_backward(grad_min, grad_max, self, min, max, dim, keepdim: bool):
    """aminmax: amin's gradient plus amax's."""
    dims = () if dim is None else dim
    return (amax_amin_backward(grad_min, self, min, dims, keepdim) +
            amax_amin_backward(grad_max, self, max, dims, keepdim))


def _declare_amax(name: str, ufunc, kernel_name: str, word: str, values: str):
    kernel = _amax_kernel(kernel_name, ufunc)
    kernel.__name__ = name
    kernel.__doc__ = _AMAX_DOC.format(name=name, word=word, values=values)
    return op(f"{name}(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
              meta=_amax_meta(name), method=True, out=True,
              grad={"self": "amax_amin_backward(grad, self, result, dim, keepdim)"})(kernel)


amax = _declare_amax("amax", np.maximum, "max_values_cpu", "largest", "5., 7.")
amin = _declare_amax("amin", np.minimum, "min_values_cpu", "smallest", "1., 3.")


def _aminmax_meta(self, dim=None, keepdim=False, out=None):
    if self.numel() == 0 and dim is None and self._size:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    dims = check_nonempty_dims("aminmax", self, dim, separator=":")
    if out is not None:
        _check_exact_out(out[0], self._dtype)
        _check_exact_out(out[1], self._dtype)
    if dim is None:
        shape = (1,) * len(self._size) if keepdim else ()
    else:
        shape = reduced_shape(self._size, dims, keepdim)
    return TensorMeta(shape, self._dtype), TensorMeta(shape, self._dtype)


@op("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
    meta=_aminmax_meta, method=True, out=True,
    grad={"self": "aminmax_backward(grads[0], grads[1], self, min, max, dim, keepdim)"})
def aminmax(self, dim, keepdim, *, out):
    """The smallest and the largest elements of `input`, over every dim or along `dim`.

    Args:
        input (Tensor): the values.
        dim (int, optional): the dim to reduce (all when omitted).
        keepdim (bool): keep the reduced dims, with size 1.

    Example::

        >>> torch.aminmax(torch.tensor([3., -1., 7.]))
        torch.return_types.aminmax(
        min=tensor(-1.),
        max=tensor(7.))
    """
    refuse(self, "aminmax_cpu", COMPLEX)
    axis = None if dim is None else axes(self, dim)
    keep = keepdim and self.ndim > 0
    np.minimum.reduce(self, axis=axis, out=out[0], keepdims=keep)
    np.maximum.reduce(self, axis=axis, out=out[1], keepdims=keep)


# ----------------------------------------------------------------------------------
# argmax / argmin
# ----------------------------------------------------------------------------------
def _arg_meta(name: str):
    def meta(self, dim=None, keepdim=False, out=None):
        if self._dtype.is_complex:
            raise RuntimeError(f"{name}(): does not support complex input")
        if self._dtype is dtypes.bool:
            raise RuntimeError(f"{name}(): does not support bool input")
        dims = check_nonempty_dims(name, self, dim, IndexError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0."))
        if out is not None:
            _check_exact_out(out, dtypes.int64)
        if dim is None:
            return TensorMeta((1,) * len(self._size) if keepdim else (), dtypes.int64)
        return TensorMeta(reduced_shape(self._size, dims, keepdim), dtypes.int64)
    meta.__name__ = f"_{name}_meta"
    return meta


def _declare_arg(name: str, largest: bool):
    word = "largest" if largest else "smallest"

    def kernel(self, dim, keepdim, *, out):
        if dim is None or self.ndim == 0:
            write(out, arg_extreme(self.reshape(-1), None, False, largest))
            return
        axis = dim % self.ndim
        over_slabs(lambda x, result: write(result, arg_extreme(x, axis, keepdim, largest)),
                   self, (axis,), keepdim, out)
    kernel.__name__ = name
    kernel.__doc__ = f"""The index of the {word} element of `input` (flattened), or of the
    {word} elements along `dim`.

    Args:
        input (Tensor): the values (not bool, not complex).
        dim (int, optional): the dim to reduce; None flattens `input` first.
        keepdim (bool): keep the reduced dim(s), with size 1.

    The first NaN wins; ties give the first index.

    Example::

        >>> torch.{name}(torch.tensor([[1., 7.], [5., 3.]]), dim=1)
        tensor([{'1, 0' if largest else '0, 1'}])
    """
    return op(f"{name}(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
              meta=_arg_meta(name), method=True, out=True)(kernel)


argmax = _declare_arg("argmax", True)
argmin = _declare_arg("argmin", False)


# ----------------------------------------------------------------------------------
# all / any
# ----------------------------------------------------------------------------------
def _truth_meta(name: str):
    def meta(self, dim=None, keepdim=False, out=None):
        if out is not None and out._dtype not in (dtypes.bool, dtypes.uint8):
            raise RuntimeError(f"{name} only supports bool tensor for result, got: "
                               f"{scalar_type_name(out._dtype)}")
        dtype = dtypes.uint8 if self._dtype is dtypes.uint8 else dtypes.bool
        if out is not None:
            dtype = out._dtype                  # either answer fits either out= dtype
        if dim is not None and not isinstance(dim, int) and len(dim) == 0:
            return TensorMeta(self._size, dtype)          # an empty list reduces nothing
        dims = reduction_dims(dim, len(self._size))
        return TensorMeta(reduced_shape(self._size, dims, keepdim), dtype)
    meta.__name__ = f"_{name}_meta"
    return meta


def _truth_kernel(ufunc):
    def kernel(self, dim=None, keepdim=False, *, out):
        if dim is not None and not isinstance(dim, int) and len(dim) == 0:
            write(out, self != 0)
            return
        write(out, ufunc.reduce(self != 0 if self.dtype.kind != "b" else self,
                                axis=axes(self, dim), keepdims=keepdim))
    return kernel


_TRUTH_DOC = """Whether {which} element of `input` is true (non-zero), over every dim or over `dim`.

    Args:
        input (Tensor): the values.
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted);
            an empty tuple reduces nothing.
        keepdim (bool): keep the reduced dims, with size 1.

    Returns:
        Tensor: bool, or uint8 for a uint8 input.

    Example::

        >>> torch.{name}(torch.tensor([[1, 0], [2, 3]]), dim=1)
        tensor([{values}])
    """


def _declare_truth(name: str, ufunc, which: str, values: str):
    meta = _truth_meta(name)
    kernel = _truth_kernel(ufunc)
    kernel.__name__ = name
    kernel.__doc__ = _TRUTH_DOC.format(name=name, which=which, values=values)

    def whole_meta(self, out=None):
        return meta(self, None, False, out)

    def one_dim(self, dim, keepdim, *, out):
        kernel(self, dim, keepdim, out=out)

    def whole(self, *, out):
        kernel(self, out=out)
    declared = [
        op(f"{name}(Tensor self) -> Tensor", meta=whole_meta, method=True, out=True,
           out_overload="all_out")(whole),
        op(f"{name}.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
           meta=meta, method=True, out=True, out_overload="dims_out")(kernel),
        op(f"{name}.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", meta=meta,
           method=True, out=True, out_overload="out")(one_dim),
    ]
    for overload in declared:
        overload.declaration.doc = kernel.__doc__
    return declared


all_all, all_dims, all_dim = _declare_truth("all", np.logical_and, "every",
                                            "False,  True")
any_all, any_dims, any_dim = _declare_truth("any", np.logical_or, "any", "True, True")
