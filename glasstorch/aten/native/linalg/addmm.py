"""The fused products ``beta * self + alpha * product``: addmm, addmv, addr, addbmm,
baddbmm (and their in-place and out= forms).

The products go to BLAS exactly as in `blas.py` (whose helpers these kernels share);
`self` is added in the same pass over the result. See Note [beta == 0 ignores self] in
`blas.py`: a zero `beta` means `self` is not read, a zero `alpha` that the product is
not computed. `alpha` and `beta` are read in the result's type: C's truncation for
integer results (``alpha=0.5`` is 0 there), as torch's kernels do.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ....c10.promotion import promote_types
from ...meta.pointwise import permuted_strides
from ...meta.shape import check_no_internal_overlap
from ...registry import TensorMeta, op
from .blas import (NO_LOOP, affine_product, check_addmv, check_batches, check_inplace_shape,
                   check_multipliable, check_out_dtype, check_same_dtype, check_batch_kernel,
                   coefficient, compute_dtype, dtype_name, empty_sum, expanded_to,
                   addmv_kernel)
from ..pointwise.unary import WIDE_UNSIGNED, refuse
from ..shape.view import expand


_FUSED_GRAD = {"self": "maybe_multiply(grad, conj(beta))"}


def _addmm_meta(self, mat1, mat2, beta=1, alpha=1, out=None):
    for name, first, second in (("self", self, mat2), ("mat1", mat1, mat2)):
        if first._dtype is not second._dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{scalar_type_name(first._dtype)} and "
                               f"{scalar_type_name(second._dtype)}")
    for name, mat in (("mat1", mat1), ("mat2", mat2)):
        if mat.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {mat.dim()}-D tensor")
    check_multipliable(mat1, mat2)
    shape = (mat1._size[0], mat2._size[1])
    check_inplace_shape(self, out, shape)
    check_out_dtype(out if out is not self else None, mat1._dtype)
    expanded_to(self, shape)
    return TensorMeta(shape, mat1._dtype)


@op("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
    meta=_addmm_meta, out=True, inplace=True, method=True,
    grad={**_FUSED_GRAD,
          "mat1": "mm_mat1_backward(grad, mat2, mat1_sym_sizes, mat1_sym_strides, alpha)",
          "mat2": "mm_mat2_backward(grad, mat1, mat2_sym_sizes, mat2_sym_strides, alpha)"})
def addmm(self, mat1, mat2, beta, alpha, *, out):
    """``beta * input + alpha * (mat1 @ mat2)``, in one pass as BLAS's gemm.

    With ``beta=0`` `input` is not read (NaN in it does not propagate).

    Args:
        input (Tensor): added to the product; broadcasts to ``(n, p)``.
        mat1 (Tensor): an ``(n, k)`` matrix.
        mat2 (Tensor): a ``(k, p)`` matrix.
        beta (Number, optional): the factor of `input`. Default: 1.
        alpha (Number, optional): the factor of the product. Default: 1.

    Example::

        >>> torch.addmm(torch.ones(2, 2), torch.ones(2, 3), torch.ones(3, 2), alpha=2)
        tensor([[7., 7.],
                [7., 7.]])
    """
    check_same_dtype(mat1, mat2)
    if out.size == 0:
        return
    if mat1.shape[1] == 0:
        empty_sum(out, self, beta)
        return
    refuse(out, "addmm_impl_cpu_", NO_LOOP)
    affine_product(out, mat1, mat2, self, beta, alpha)


def _addmv_meta(self, mat, vec, beta=1, alpha=1, out=None):
    check_addmv(self.dim(), self.numel(), self._dtype, mat, vec)
    shape = (mat._size[0],)
    check_inplace_shape(self, out, shape)
    check_out_dtype(out if out is not self else None, vec._dtype)
    return TensorMeta(shape, vec._dtype)


@op("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
    meta=_addmv_meta, out=True, inplace=True, method=True,
    grad={**_FUSED_GRAD, "mat": "maybe_multiply(grad.outer(vec.conj()), conj(alpha))",
          "vec": "maybe_multiply(mat.t().conj().mv(grad), conj(alpha))"})
def addmv(self, mat, vec, beta, alpha, *, out):
    """``beta * input + alpha * (mat @ vec)``.

    With ``beta=0`` `input` is not read (NaN in it does not propagate).

    Args:
        input (Tensor): a vector of size ``n`` (or 1, broadcast), added to the product.
        mat (Tensor): an ``(n, k)`` matrix.
        vec (Tensor): a vector of size ``k``.
        beta (Number, optional): the factor of `input`. Default: 1.
        alpha (Number, optional): the factor of the product. Default: 1.

    Example::

        >>> torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3), beta=0.5)
        tensor([3.5000, 3.5000])
    """
    addmv_kernel(out, self, mat, vec, beta, alpha)


class _Geometry:
    """Sizes and strides of an operand not made into a tensor (for layout rules)."""

    __slots__ = ("_size", "_stride")

    def __init__(self, size: tuple, stride: tuple) -> None:
        self._size, self._stride = size, stride


def _check_addr_scalar(dtype, value, name: str) -> None:
    if isinstance(value, bool) and dtype is not dtypes.bool:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if not (dtype.is_floating_point or dtype.is_complex) and isinstance(value, (float, complex)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating "
                           f"point number.")


def _addr_meta(self, vec1, vec2, beta=1, alpha=1, out=None):
    for name, vec in (("vec1", vec1), ("vec2", vec2)):
        if vec.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {vec.dim()}-D")
    shape = (vec1._size[0], vec2._size[0])
    if out is self:
        check_no_internal_overlap(self)
        if self.dim() != 2:
            raise RuntimeError(f"2D tensor expected, got {self.dim()}D tensor for input")
        if self._size != shape:
            raise RuntimeError(f"size mismatch, input: {list(self._size)}, v1: "
                               f"{list(vec1._size)}, v2: {list(vec2._size)}")
        geometry = self._size, self._stride
    else:
        geometry = expand.declaration.meta(self, shape)[:2]
    dtype = promote_types(promote_types(self._dtype, vec1._dtype), vec2._dtype)
    _check_addr_scalar(dtype, beta, "beta")
    _check_addr_scalar(dtype, alpha, "alpha")
    # the result is laid out as TensorIterator lays out (self, vec1 as a column, vec2)
    operands = (_Geometry(*geometry), _Geometry((shape[0], 1), (vec1._stride[0], 1)), vec2)
    return TensorMeta(shape, dtype, permuted_strides(operands, shape))


@op("addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
    meta=_addr_meta, out=True, inplace=True, method=True,
    grad={**_FUSED_GRAD, "vec1": "maybe_multiply(grad.mv(vec2.conj()), conj(alpha))",
          "vec2": "maybe_multiply(grad.t().mv(vec1.conj()), conj(alpha))"})
def addr(self, vec1, vec2, beta, alpha, *, out):
    """``beta * input + alpha * outer(vec1, vec2)``; for bool tensors ``(beta and input)
    or (alpha and vec1 and vec2)``.

    The operands are promoted to a common dtype, as elementwise operators do. With
    ``beta=0`` `input` is not read.

    Args:
        input (Tensor): broadcasts to ``(n, m)``.
        vec1 (Tensor): a vector of size ``n``.
        vec2 (Tensor): a vector of size ``m``.
        beta (Number, optional): the factor of `input`. Default: 1.
        alpha (Number, optional): the factor of the outer product. Default: 1.

    Example::

        >>> torch.addr(torch.zeros(2, 2), torch.tensor([1., 2.]), torch.tensor([3., 4.]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    refuse(out, "addr_cpu", WIDE_UNSIGNED)
    common = promote_types(promote_types(from_numpy_dtype(self.dtype),
                                         from_numpy_dtype(vec1.dtype)),
                           from_numpy_dtype(vec2.dtype))
    compute = compute_dtype(common._np)
    column, row = vec1.astype(compute)[:, None], vec2.astype(compute)
    if compute.kind == "b":
        product = column & row if alpha else np.zeros(out.shape, bool)
        np.copyto(out, product | self if beta else product, casting="unsafe")
        return
    beta, alpha = coefficient(beta, compute), coefficient(alpha, compute)
    product = np.multiply(np.multiply(column, alpha), row)
    if beta != 0:
        product += np.multiply(self, beta, dtype=compute)
    # rounded to the result's dtype first, as an out= of another dtype receives it
    np.copyto(out, product.astype(common._np, copy=False), casting="unsafe")


def _addbmm_meta(self, batch1, batch2, beta=1, alpha=1, out=None):
    shape = (batch1._size[1] if batch1.dim() > 1 else 0,
             batch2._size[2] if batch2.dim() > 2 else 0)
    if out is not self:
        expanded_to(self, shape)
    for name, batch in (("batch1", batch1), ("batch2", batch2)):
        if batch.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    (b, n, k), (b2, k2, p) = batch1._size, batch2._size
    if b != b2:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b} "
                           f"and {b2}")
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{p})")
    if out is self and self._size != shape:
        raise RuntimeError("self tensor does not match matmul output shape")
    if out is not None and b and out._dtype is not batch2._dtype:     # addmm_ into out
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{scalar_type_name(out._dtype)} and "
                           f"{scalar_type_name(batch2._dtype)}")
    return TensorMeta(shape, self._dtype)


@op("addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
    "-> Tensor", meta=_addbmm_meta, out=True, inplace=True, method=True,
    grad={**_FUSED_GRAD,
          "batch1": "maybe_multiply(grad.unsqueeze(0).expand(batch1.size(0), -1, -1)"
                    ".bmm(batch2.transpose(1, 2).conj()), conj(alpha))",
          "batch2": "maybe_multiply(batch1.transpose(1, 2).conj()"
                    ".bmm(grad.unsqueeze(0).expand(batch1.size(0), -1, -1)), conj(alpha))"})
def addbmm(self, batch1, batch2, beta, alpha, *, out):
    """``beta * input + alpha * sum_i(batch1[i] @ batch2[i])``: the batch of products
    summed into one matrix.

    Args:
        input (Tensor): broadcasts to ``(n, p)``.
        batch1 (Tensor): a ``(b, n, k)`` batch of matrices.
        batch2 (Tensor): a ``(b, k, p)`` batch of matrices.
        beta (Number, optional): the factor of `input`. Default: 1.
        alpha (Number, optional): the factor of the summed products. Default: 1.

    Example::

        >>> torch.addbmm(torch.zeros(2, 2), torch.ones(3, 2, 4), torch.ones(3, 4, 2))
        tensor([[12., 12.],
                [12., 12.]])
    """
    b, n, k = batch1.shape
    if b:                       # torch accumulates batch by batch with addmm_
        _check_same_dtype_as(out, batch1, batch2)
        if out.size == 0:
            return
    if b == 0 or k == 0:
        empty_sum(out, self, beta)
        return
    refuse(out, "addmm_impl_cpu_", NO_LOOP)
    # sum_i A_i @ B_i is one product: the A_i side by side times the B_i stacked
    side_by_side = batch1.transpose(1, 0, 2).reshape(n, b * k)
    affine_product(out, side_by_side, batch2.reshape(b * k, -1), self, beta, alpha)


def _check_same_dtype_as(out: np.ndarray, batch1: np.ndarray, batch2: np.ndarray) -> None:
    """addbmm accumulates with addmm_ into the result: addmm's dtype checks."""
    for name, first in (("self", out), ("mat1", batch1)):
        if first.dtype != batch2.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{dtype_name(first)} and {dtype_name(batch2)}")


def _baddbmm_meta(self, batch1, batch2, beta=1, alpha=1, out=None):
    shape = (batch1._size[0] if batch1.dim() else 0, batch1._size[1] if batch1.dim() > 1 else 0,
             batch2._size[2] if batch2.dim() > 2 else 0)
    expanded_to(self, shape)
    if self._dtype is not batch1._dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input "
                           f"{type_meta_name(self._dtype)}, batch1: "
                           f"{type_meta_name(batch1._dtype)}, batch2: "
                           f"{type_meta_name(batch2._dtype)}")
    shape = check_batches(batch1, batch2)
    check_inplace_shape(self, out, shape)
    check_out_dtype(out if out is not self else None, batch2._dtype)
    return TensorMeta(shape, batch2._dtype)


@op("baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
    "-> Tensor", meta=_baddbmm_meta, out=True, inplace=True, method=True,
    grad={**_FUSED_GRAD,
          "batch1": "maybe_multiply(grad.bmm(batch2.transpose(1, 2).conj()), conj(alpha))",
          "batch2": "maybe_multiply(batch1.transpose(1, 2).conj().bmm(grad), conj(alpha))"})
def baddbmm(self, batch1, batch2, beta, alpha, *, out):
    """``beta * input + alpha * (batch1[i] @ batch2[i])`` for each batch index ``i``.

    Args:
        input (Tensor): broadcasts to ``(b, n, p)``.
        batch1 (Tensor): a ``(b, n, k)`` batch of matrices.
        batch2 (Tensor): a ``(b, k, p)`` batch of matrices.
        beta (Number, optional): the factor of `input`. Default: 1.
        alpha (Number, optional): the factor of the products. Default: 1.

    Example::

        >>> torch.baddbmm(torch.zeros(3, 2, 2), torch.ones(3, 2, 4), torch.ones(3, 4, 2))[0]
        tensor([[4., 4.],
                [4., 4.]])
    """
    if out.size == 0:
        return
    if batch1.shape[2] == 0:
        empty_sum(out, self, beta)
        return
    small = check_batch_kernel(batch1, out, "baddbmm")
    affine_product(out, batch1, batch2, self, beta, alpha,
                   in_order=small and out.dtype.kind in "fcV")
