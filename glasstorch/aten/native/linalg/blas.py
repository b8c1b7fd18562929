"""Matrix products on BLAS: mm, bmm, mv, dot, vdot, and the helpers the fused
``beta * self + alpha * product`` family (`addmm.py`) shares.

Every kernel hands its operands to NumPy's `matmul` / `dot` as they are: a transposed
operand is an F-ordered view, which NumPy passes to BLAS as a transposed matrix, so no
copy is made; the product is written straight into the allocated result
(``np.matmul(a, b, out=out)``). float16 and bfloat16 are multiplied in float32 and
rounded once (torch's opmath); integer products wrap as C's do. Batches of tiny
matrices (bmm, baddbmm with n*k*p < 400) are the exception: torch sums them in a plain
loop, term by term, and so does `sum_in_order`, to round as torch rounds.

torch checks these operators in two places, and so does this file: the meta rules check
what torch's meta functions check (ranks, sizes, dtypes where torch's meta does), the
kernels check what torch's CPU kernels check (dtypes they have no loop for, operands of
different dtypes), so meta tensors pass where torch's do.

Note [beta == 0 ignores self]
    As BLAS defines gemm, a zero `beta` means `self` is not read at all: NaN or inf in
    it do not reach the result. Likewise a zero `alpha` skips the product.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dispatch_key import CONJUGATE, MATH_BITS, DispatchKey
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ....c10.promotion import result_type_with_scalar
from ....c10.tensor_impl import TensorBase, wrap_array
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...math_bits import math_bits_fallback, raw
from ...registry import TensorMeta, check_castable, op
from ...structured import fast_path
from .blas_threads import WORK_PER_THREAD, matmul_into
from ..pointwise.binary import conj, maybe_multiply
from ..pointwise.unary import BOOL, WIDE_UNSIGNED, refuse
from ..shape.view import expand

NO_LOOP = BOOL | WIDE_UNSIGNED          # torch's CPU BLAS kernels have none for these
_HALF = frozenset(np.dtype(t) for t in (np.float16, dtypes.bfloat16._np))


# ----------------------------------------------------------------------------------
# Shared checks
# ----------------------------------------------------------------------------------
def check_out_dtype(out, dtype) -> None:
    """A structured kernel's out= must have the result's dtype exactly."""
    if out is not None and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but "
                           f"got {type_meta_name(out._dtype)} instead")


def check_inplace_shape(self, out, shape: tuple) -> None:
    """An in-place call (`out` is `self`) must not change `self`'s shape."""
    if out is self and self._size != tuple(shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self._size)} and "
                           f"output tensor size {list(shape)} should match")


def check_multipliable(mat1, mat2) -> None:
    (n, k), (k2, p) = mat1._size, mat2._size
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{p})")


def expanded_to(self, shape: tuple) -> None:
    """Check that `self` broadcasts to `shape` (torch's expand_size errors)."""
    size = self._size
    if size == shape or (len(size) == 1 and size[0] in (1, shape[-1])):    # bias-like
        return
    expand.declaration.meta(self, shape)


def dtype_name(array: np.ndarray) -> str:
    return scalar_type_name(from_numpy_dtype(array.dtype))


def check_same_dtype(mat1: np.ndarray, mat2: np.ndarray) -> None:
    """addmm's kernel check, worded with c10's TypeMeta names."""
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{type_meta_name(from_numpy_dtype(mat1.dtype))} != "
                           f"{type_meta_name(from_numpy_dtype(mat2.dtype))}")


def check_batch_kernel(batch1: np.ndarray, out: np.ndarray, loop: str) -> bool:
    """The checks of the kernel bmm / baddbmm take; whether it is the small-size loop.

    The loop (n*k*p < 400) is chosen by batch1's dtype and reads the result as batch1's
    dtype; the batched gemm works in the result's dtype and reads batch1 as that; other
    dtypes go through addmm_ batch by batch (batch2's dtype is the result's).
    """
    small = batch1.shape[1] * batch1.shape[2] * out.shape[2] < 400
    if small:
        refuse(batch1, loop, NO_LOOP)
    if batch1.dtype != out.dtype:
        if not small and (out.dtype.kind not in "fc" or out.dtype in _HALF):
            check_same_dtype(batch1, out)      # no batched gemm: addmm_ batch by batch
        expected, found = (batch1, out) if small else (out, batch1)
        raise RuntimeError(f"expected scalar type {dtype_name(expected)} but found "
                           f"{dtype_name(found)}")
    if not small:
        refuse(out, "addmm_impl_cpu_", NO_LOOP)
    return small


def coefficient(value, dtype: np.dtype):
    """`alpha` / `beta` as the kernel reads them: converted to the computation's type
    (C's truncation for integers, as ``Scalar.to<int64_t>()``)."""
    if dtype.kind == "c":
        return complex(value)
    if isinstance(value, complex):
        if value.imag != 0:
            raise RuntimeError(f"value cannot be converted to type "
                               f"{type_meta_name(from_numpy_dtype(dtype))} without overflow")
        value = value.real
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        return np.array(int(value)).astype(dtype)[()]
    return float(value)


# ----------------------------------------------------------------------------------
# The product, written into `out`
# ----------------------------------------------------------------------------------
def compute_dtype(dtype: np.dtype) -> np.dtype:
    """float16 / bfloat16 are multiplied in float32 (opmath); other dtypes as they are."""
    return np.dtype(np.float32) if dtype in _HALF else dtype


def product_into(out: np.ndarray, mat1: np.ndarray, mat2: np.ndarray) -> None:
    """``out = mat1 @ mat2``: BLAS writes `out` directly; float16 / bfloat16 through float32."""
    if out.dtype in _HALF:
        np.copyto(out, np.matmul(mat1.astype(np.float32), mat2.astype(np.float32)),
                  casting="unsafe")
    else:
        matmul_into(out, mat1, mat2)


def affine_product(out: np.ndarray, mat1: np.ndarray, mat2: np.ndarray, self, beta=0,
                   alpha=1, in_order: bool = False) -> None:
    """``out = beta * self + alpha * (mat1 @ mat2)`` (see Note [beta == 0 ignores self]).

    `self` broadcasts to `out` (None when beta is 0). The product goes straight into
    `out` when it has the computation's dtype; otherwise it is computed in float32 and
    rounded once. `in_order`: sum the products in order (`sum_in_order`).
    """
    compute = compute_dtype(out.dtype)
    if beta == 0 and alpha == 1 and type(alpha) is not bool:     # the plain product
        if in_order:
            np.copyto(out, sum_in_order(mat1.astype(compute, copy=False),
                                        mat2.astype(compute, copy=False)), casting="unsafe")
        else:
            product_into(out, mat1, mat2)
        return
    beta, alpha = coefficient(beta, compute), coefficient(alpha, compute)
    reads_out = beta != 0 and np.may_share_memory(self, out)     # in place: self is out
    if alpha == 0:
        result = np.zeros(out.shape, compute)
    elif in_order:
        result = sum_in_order(mat1.astype(compute, copy=False),
                              mat2.astype(compute, copy=False))
    elif compute == out.dtype and not reads_out:
        bias = _bias_row(self, out, beta, alpha)
        matmul_into(out, mat1, mat2, bias)
        result = out
        if bias is not None:
            beta = 0                    # added to each slab of the product already
    else:
        result = np.matmul(mat1.astype(compute), mat2.astype(compute))
    if alpha != 0 and alpha != 1:
        np.multiply(result, alpha, out=result)
    if beta != 0:
        scaled = self if beta == 1 else np.multiply(self, beta, dtype=compute)
        np.add(result, scaled, out=result, casting="unsafe")
    if result is not out:
        np.copyto(out, result, casting="unsafe")


def _bias_row(self, out: np.ndarray, beta, alpha):
    """`self` when the update is ``self + mat1 @ mat2`` with `self` one row of `out`'s
    dtype (a linear layer's bias): `matmul_into` adds it slab by slab. Else None."""
    if beta == 1 and alpha == 1 and out.ndim == 2 and isinstance(self, np.ndarray) \
            and self.shape == out.shape[1:] and self.dtype == out.dtype:
        return self
    return None


def sum_in_order(batch1: np.ndarray, batch2: np.ndarray) -> np.ndarray:
    """``batch1 @ batch2`` with each product rounded and the sum taken term by term in
    order, as torch's plain loop for tiny batches does (so its float results agree to
    the bit; BLAS orders the sum its own way). A running sum is a cumulative sum.

    Complex products are spelled out in real arithmetic, as C++'s complex<float> does
    them (NumPy's own complex multiply may fuse them).
    """
    left, right = batch1[..., :, :, None], batch2[..., None, :, :]
    if left.dtype.kind != "c":
        return np.cumsum(left * right, axis=-2)[..., -1, :]
    real = left.real * right.real - left.imag * right.imag
    imag = left.real * right.imag + left.imag * right.real
    result = np.empty(real.shape[:-2] + real.shape[-1:], left.dtype)
    result.real = np.cumsum(real, axis=-2)[..., -1, :]
    result.imag = np.cumsum(imag, axis=-2)[..., -1, :]
    return result


def empty_sum(out: np.ndarray, self, beta, in_place: bool = True) -> None:
    """The product of an empty contraction is 0: `out` is ``beta * self``.

    torch scales the result in place (``result.mul_(beta)``) for addmm and the batched
    forms, so a fractional `beta` cannot scale an integer result; addmv converts `beta`
    to the result's type first.
    """
    if beta == 0:
        out[...] = 0
        return
    if in_place:
        dtype = from_numpy_dtype(out.dtype)
        check_castable(result_type_with_scalar(dtype, beta), dtype)
    beta = coefficient(beta, compute_dtype(out.dtype))
    np.copyto(out, np.multiply(self, beta), casting="unsafe")


# ----------------------------------------------------------------------------------
# mm, bmm, mv, dot, vdot
# ----------------------------------------------------------------------------------
def _mm_meta(self, mat2, out=None):
    if len(self._size) != 2:
        raise RuntimeError("self must be a matrix")
    if len(mat2._size) != 2:
        raise RuntimeError("mat2 must be a matrix")
    check_multipliable(self, mat2)
    check_out_dtype(out, self._dtype)
    return TensorMeta((self._size[0], mat2._size[1]), self._dtype)


# mm / addmm: a column-major matrix (strides (1, rows): a transposed one, such as the
# weight.t() of linear) gets its gradient as the transpose of a row-major product, as in
# torch, so the gradient has the input's own layout: a leaf behind a `.t()` then receives
# a row-major gradient that AccumulateGrad keeps instead of copying.
@derivative_helper
def mm_mat1_backward(grad, mat2, sizes, strides, alpha):
    """The gradient of `mat1` in ``alpha * mat1 @ mat2``, laid out as `mat1` was."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return maybe_multiply(mat2.conj().mm(grad.t()).t(), conj(alpha))
    return maybe_multiply(grad.mm(mat2.t().conj()), conj(alpha))


@derivative_helper
def mm_mat2_backward(grad, mat1, sizes, strides, alpha):
    """The gradient of `mat2` in ``alpha * mat1 @ mat2``, laid out as `mat2` was."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return maybe_multiply(grad.t().mm(mat1.conj()).t(), conj(alpha))
    return maybe_multiply(mat1.t().conj().mm(grad), conj(alpha))


_BLAS_DTYPES = frozenset((dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128))


@fast_path("two small matrices of one BLAS dtype")
def _mm_fast(self, mat2):
    """NumPy's product allocating its own row-major result, as the kernel's `out`, when
    the product is too small for the pool (so the kernel would make the same one BLAS
    call) and has no empty dim."""
    if not isinstance(mat2, TensorBase) or self._dtype is not mat2._dtype or \
            self._dtype not in _BLAS_DTYPES or len(self._size) != 2 or len(mat2._size) != 2:
        return None
    (n, k), (k2, p) = self._size, mat2._size
    if k != k2 or not n * k * p or n * k * p > WORK_PER_THREAD:
        return None
    return wrap_array(np.matmul(self._arr if self._arr is not None else self._np,
                                mat2._arr if mat2._arr is not None else mat2._np), self._dtype)


@op("mm(Tensor self, Tensor mat2) -> Tensor", meta=_mm_meta, out=True, method=True, fast=_mm_fast,
    grad={"self": "mm_mat1_backward(grad, mat2, self_sym_sizes, self_sym_strides, 1)",
          "mat2": "mm_mat2_backward(grad, self, mat2_sym_sizes, mat2_sym_strides, 1)"})
def mm(self, mat2, *, out):
    """The matrix product of two matrices (no broadcasting; see `torch.matmul`).

    Args:
        input (Tensor): an ``(n, k)`` matrix.
        mat2 (Tensor): a ``(k, p)`` matrix of the same dtype.

    Returns:
        Tensor: the ``(n, p)`` product.

    Example::

        >>> torch.mm(torch.ones(2, 3), torch.ones(3, 4)).shape
        torch.Size([2, 4])
    """
    check_same_dtype(self, mat2)
    if out.size == 0:
        return
    if self.shape[1] == 0:
        out[...] = 0
        return
    refuse(out, "addmm_impl_cpu_", NO_LOOP)
    product_into(out, self, mat2)


def check_batches(batch1, batch2) -> tuple:
    """bmm's rank and size checks; the result's shape."""
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (b, n, k), (b2, k2, p) = batch1._size, batch2._size
    if (b2, k2) != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{b2}, {k2}].")
    return b, n, p


def _bmm_meta(self, mat2, out=None):
    shape = check_batches(self, mat2)
    check_out_dtype(out, mat2._dtype)
    return TensorMeta(shape, mat2._dtype)


@op("bmm(Tensor self, Tensor mat2) -> Tensor", meta=_bmm_meta, out=True, method=True,
    grad={"self": "grad.bmm(mat2.transpose(1, 2).conj())",
          "mat2": "self.transpose(1, 2).conj().bmm(grad)"})
def bmm(self, mat2, *, out):
    """Batched matrix product: ``out[i] = input[i] @ mat2[i]``.

    Args:
        input (Tensor): a ``(b, n, k)`` batch of matrices.
        mat2 (Tensor): a ``(b, k, p)`` batch of matrices.

    Returns:
        Tensor: the ``(b, n, p)`` products, of `mat2`'s dtype.

    Example::

        >>> torch.bmm(torch.ones(5, 2, 3), torch.ones(5, 3, 4)).shape
        torch.Size([5, 2, 4])
    """
    if out.size == 0:
        return
    if self.shape[2] == 0:
        out[...] = 0
        return
    small = check_batch_kernel(self, out, "bmm")
    affine_product(out, self, mat2, None, in_order=small and out.dtype.kind in "fcV")


def check_addmv(self_dim: int, self_numel: int, self_dtype, mat, vec) -> None:
    """addmv's checks, shared by mv (whose `self` is the result)."""
    if not (mat.dim() == 2 and vec.dim() == 1 and self_dim <= 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {self_dim}, {mat.dim()}, "
                           f"{vec.dim()}")
    (n, k), k2 = mat._size, vec._size[0]
    if k != k2 or (n != self_numel and self_numel != 1):
        shown = self_numel if self_dim else 1
        raise RuntimeError(f"size mismatch, got input ({shown}), mat ({n}x{k}), vec ({k2})")
    if not (self_dtype is mat._dtype is vec._dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{scalar_type_name(self_dtype)}, {scalar_type_name(mat._dtype)}, "
                           f"and {scalar_type_name(vec._dtype)}")


def _mv_meta(self, vec, out=None):
    if self.dim() == 0:
        raise IndexError("dimension specified as 0 but tensor has no dimensions")
    n = self._size[0]
    # torch runs addmv into `out` itself when it can serve as addmv's `self`
    usable = out is not None and out.dim() <= 1 and out.numel() in (n, 1)
    target = out if usable else None
    check_addmv(1 if target is None else target.dim(), n if target is None else target.numel(),
                vec._dtype if target is None else target._dtype, self, vec)
    check_out_dtype(out, vec._dtype)
    return TensorMeta((n,), vec._dtype)


@op("mv(Tensor self, Tensor vec) -> Tensor", meta=_mv_meta, out=True, method=True,
    grad={"self": "grad.outer(vec.conj())", "vec": "self.t().conj().mv(grad)"})
def mv(self, vec, *, out):
    """The product of a matrix and a vector.

    Args:
        input (Tensor): an ``(n, k)`` matrix.
        vec (Tensor): a vector of size ``k`` and the same dtype.

    Returns:
        Tensor: the vector ``input @ vec`` of size ``n``.

    Example::

        >>> torch.mv(torch.ones(2, 3), torch.ones(3))
        tensor([3., 3.])
    """
    addmv_kernel(out, None, self, vec, 0, 1)


def addmv_kernel(out, self, mat, vec, beta, alpha) -> None:
    if mat.size == 0:
        empty_sum(out, self, beta, in_place=False)
        return
    if out.size:
        refuse(out, "addmv_impl_cpu", NO_LOOP)
        affine_product(out, mat, vec, self, beta, alpha)


def _dot_meta(self, tensor, out=None):
    if self.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.dim()}D and {tensor.dim()}D "
                           f"tensors")
    if self._dtype is not tensor._dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{scalar_type_name(self._dtype)} and "
                           f"{scalar_type_name(tensor._dtype)}")
    n, m = self._size[0], tensor._size[0]
    if n != m:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to "
                           f"have the same number of elements, but got {n} and {m} elements "
                           f"respectively")
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError(f"result dtype {scalar_type_name(out._dtype)} does not match input "
                           f"dtype {scalar_type_name(self._dtype)}")
    return TensorMeta((), self._dtype)


def _dot_into(out: np.ndarray, a: np.ndarray, b: np.ndarray, conjugate: bool) -> None:
    refuse(a, "dot", NO_LOOP)
    compute = compute_dtype(a.dtype)
    a, b = a.astype(compute, copy=False), b.astype(compute, copy=False)
    out[...] = np.vdot(a, b) if conjugate else np.dot(a, b)


@op("dot(Tensor self, Tensor tensor) -> Tensor", meta=_dot_meta, out=True, method=True,
    grad={"self": "grad * tensor.conj()", "tensor": "grad * self.conj()"})
def dot(self, tensor, *, out):
    """The dot product of two vectors (no complex conjugation; see `torch.vdot`).

    Args:
        input (Tensor): a vector.
        tensor (Tensor): a vector of the same size and dtype.

    Returns:
        Tensor: a 0-dim tensor, ``sum(input * tensor)``.

    Example::

        >>> torch.dot(torch.tensor([2., 3.]), torch.tensor([2., 1.]))
        tensor(7.)
    """
    _dot_into(out, self, tensor, False)


def _vdot_meta(self, other, out=None):
    return _dot_meta(self, other, out)


@op("vdot(Tensor self, Tensor other) -> Tensor", meta=_vdot_meta, out=True, method=True,
    grad={"self": "grad.conj() * other", "other": "grad * self"})
def vdot(self, other, *, out):
    """The dot product of two vectors, the first one complex-conjugated.

    Args:
        input (Tensor): a vector (conjugated when complex).
        other (Tensor): a vector of the same size and dtype.

    Returns:
        Tensor: a 0-dim tensor, ``sum(input.conj() * other)``.

    Example::

        >>> torch.vdot(torch.tensor([1j, 2.]), torch.tensor([1j, 1.]))
        tensor(3.+0.j)
    """
    _dot_into(out, self, other, self.dtype.kind == "c")



def _conjugate_products(op, keyset, args):
    """dot / vdot at the Conjugate key, as torch's kernels read conjugate views: the
    product of two conjugates (dot), or of a plain vector's conjugate with a
    conjugate (vdot), is the conjugate of a plain dot product, returned as a lazy
    conjugate view (Note [Math bits]); every other case resolves its inputs."""
    a, b = args
    conjugate_a = (a._keys & MATH_BITS) == CONJUGATE
    conjugate_b = (b._keys & MATH_BITS) == CONJUGATE
    lazy = conjugate_a if op is dot else not a._keys & MATH_BITS
    if conjugate_b and lazy:
        plain = dot.call(raw(a) if conjugate_a else a, raw(b))
        return ops.aten._conj.default.call(plain)
    return math_bits_fallback(op, keyset, args)


for _overload in (dot, vdot):
    _overload.register(DispatchKey.Conjugate, _conjugate_products)
