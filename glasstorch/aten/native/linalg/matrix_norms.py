"""Matrix norms with a numeric order, the general norm and the condition number:
linalg_matrix_norm (its Scalar-order overload; 'fro' and 'nuc' are
`reduction/norms.py`'s), linalg_norm, linalg_cond, and the deprecated frobenius_norm and
nuclear_norm. All written in other operators.
"""
from __future__ import annotations

import math

from ....c10.dtype import scalar_type_name
from ...dispatcher import ops
from ...meta.shape import wrap_dim
from ...registry import composite
from ..shape.shape import _warn_once
from ..shape.triangular import exact_out_dtype
from ..reduction.norms import linalg_matrix_norm as matrix_norm_str, linalg_vector_norm
from .lapack import castable_out, check_square
from .solve import linalg_inv
from .svd import linalg_svdvals


def _check_ord(ord) -> None:
    if ord not in (1, -1, 2, -2, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


@composite("linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, "
           "*, ScalarType? dtype=None) -> Tensor", out=True, python_module="linalg")
def linalg_matrix_norm(self, ord, dim=(-2, -1), keepdim=False, dtype=None, out=None):
    """The matrix norm of order `ord` over the two dims `dim`: 1 / inf the largest
    column / row sum of magnitudes, 2 the largest singular value (-1, -inf, -2 the
    smallest); 'fro' and 'nuc' take the other overload.

    Example::

        >>> torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), ord=1)
        tensor(6.)
    """
    _check_ord(ord)
    if self.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    A = self if dtype is None else self.to(dtype)
    rows, columns = (wrap_dim(d, A.dim()) for d in dim)
    if A.numel() == 0 and ord != -2:          # the norms of empty matrices are 0
        zeros = A.abs().sum((rows, columns), keepdim=keepdim)
        return _exact_out(zeros, out, "linalg.matrix_norm", ops.aten.linalg_matrix_norm.out)
    if abs(ord) == 2:
        moved = A.movedim((rows, columns), (-2, -1))
        values = linalg_svdvals.call(moved, None)
        result = values.amax(-1) if ord > 0 else values.amin(-1)
        if keepdim:
            for d in sorted((rows, columns)):
                result = result.unsqueeze(d)
    else:
        summed, kept = (rows, columns) if abs(ord) == 1 else (columns, rows)
        sums = A.abs().sum(summed, keepdim=True)
        result = sums.amax(kept, keepdim=True) if ord > 0 else sums.amin(kept, keepdim=True)
        if not keepdim:
            result = result.squeeze((rows, columns))
    result = result.clone() if result._is_view() else result     # torch's is no view
    return _exact_out(result, out, "linalg.matrix_norm", ops.aten.linalg_matrix_norm.out)


def _exact_out(result, out, name: str, overload):
    if out is not None and out.dtype != result.dtype:
        raise RuntimeError(f"{name} expected out tensor dtype {scalar_type_name(result.dtype)} "
                           f"but got: {scalar_type_name(out.dtype)}")
    return castable_out(result, out, overload, name)


def _norm(self, ord, dim, keepdim, dtype):
    """linalg.norm's routing: a matrix norm for two dims (or a 2-D input with an order and
    no dims), a vector norm otherwise (of the flattened input when neither is given)."""
    if dim is not None and len(dim) == 2 or dim is None and ord is not None and self.dim() == 2:
        dims = (-2, -1) if dim is None else tuple(dim)
        if isinstance(ord, str) or ord is None:
            return matrix_norm_str.call(self, "fro" if ord is None else ord, dims, keepdim,
                                        dtype)
        return linalg_matrix_norm(self, ord, dims, keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {self.dim()}D.")
    return linalg_vector_norm.call(self, 2 if ord is None else ord, dim, keepdim, dtype)


@composite("linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, "
           "*, ScalarType? dtype=None) -> Tensor", out=True, python_module="linalg")
def linalg_norm(self, ord=None, dim=None, keepdim=False, dtype=None, out=None):
    """A vector or matrix norm, by `dim` and `ord` (see matrix_norm and vector_norm).

    Example::

        >>> torch.linalg.norm(torch.tensor([[3., 4.], [0., 0.]]))
        tensor(5.)
    """
    return _exact_out(_norm(self, ord, dim, keepdim, dtype), out, "linalg.norm",
                      ops.aten.linalg_norm.out)


@composite("linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, "
           "*, ScalarType? dtype=None) -> Tensor", python_module="linalg")
def linalg_norm_str(self, ord, dim=None, keepdim=False, dtype=None):
    """linalg.norm with 'fro' or 'nuc'."""
    return _norm(self, ord, dim, keepdim, dtype)


def _cond(self, p):
    if p is None or p in (2, -2):
        values = linalg_svdvals.call(self, None)
        largest, smallest = values[..., :1], values[..., -1:]
        ratio = largest / smallest if p != -2 else smallest / largest
        return ratio.squeeze(-1)               # a view, as torch's
    check_square("linalg.cond", self)
    norm = (lambda A: matrix_norm_str.call(A, p, (-2, -1), False, None)) if isinstance(p, str) \
        else (lambda A: linalg_matrix_norm(A, p))
    return norm(self) * norm(linalg_inv.call(self))


@composite("linalg_cond(Tensor self, Scalar? p=None) -> Tensor", out=True,
           python_module="linalg")
def linalg_cond(self, p=None, out=None):
    """The condition number ``|A|_p |A^{-1}|_p`` (p None or ±2: the ratio of extreme
    singular values, defined for any matrix).

    Example::

        >>> torch.linalg.cond(torch.tensor([[2., 0.], [0., 1.]]))
        tensor(2.)
    """
    return castable_out(_cond(self, p), out, ops.aten.linalg_cond.out, "linalg.cond")


@composite("linalg_cond.p_str(Tensor self, str p) -> Tensor", python_module="linalg")
def linalg_cond_str(self, p):
    """linalg.cond with 'fro' or 'nuc'."""
    return _cond(self, p)



def _deprecated(name: str, replacement: str) -> None:
    """torch's deprecation warning, once per process as torch gives it."""
    _warn_once(f"at::{name} is deprecated and it is just left for JIT compatibility. It will "
               f"be removed in a future PyTorch release. Please use `{replacement}` instead")


@composite("frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
           out=True)
def frobenius_norm(self, dim, keepdim=False, out=None):
    """The 2-norm of the elements over `dim` (deprecated: `torch.linalg.vector_norm`).

    Example::

        >>> torch.frobenius_norm(torch.eye(2), dim=(0, 1))
        tensor(1.4142)
    """
    _deprecated("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)")
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           f"instead.")
    if out is None:
        return linalg_vector_norm.call(self, 2, dim, keepdim, None)
    exact_out_dtype(self.dtype.to_real(), out)        # no dtype taken from out=, unlike norms
    return ops.aten.linalg_vector_norm.out.call(self, 2, dim, keepdim, None, out)


def _nuclear(self, dim, keepdim: bool, out):
    _deprecated("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)")
    if out is None:
        return matrix_norm_str.call(self, "nuc", dim, keepdim, None)
    if out.dtype != self.dtype.to_real():
        raise RuntimeError(f"linalg.matrix_norm expected out tensor dtype "
                           f"{scalar_type_name(self.dtype.to_real())} but got: "
                           f"{scalar_type_name(out.dtype)}")
    return ops.aten.linalg_matrix_norm.str_ord_out.call(self, "nuc", dim, keepdim, None, out)


@composite("nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", out=True)
def nuclear_norm(self, keepdim=False, out=None):
    """The sum of the singular values (deprecated: `torch.linalg.matrix_norm(A, 'nuc')`).

    Example::

        >>> torch.nuclear_norm(torch.eye(2))
        tensor(2.)
    """
    return _nuclear(self, (-2, -1), keepdim, out)


@composite("nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", out=True)
def nuclear_norm_dim(self, dim, keepdim=False, out=None):
    """The nuclear norm over the two dims `dim`."""
    return _nuclear(self, tuple(dim), keepdim, out)
