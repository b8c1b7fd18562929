"""Functions of matrices and the smaller torch.linalg names: linalg_matrix_power,
matrix_power, linalg_matrix_exp, matrix_exp, linalg_pinv, pinverse, linalg_matrix_rank,
linalg_lstsq, linalg_vander, linalg_vecdot, linalg_diagonal, linalg_tensorinv,
linalg_tensorsolve.

Most are written in other operators (their gradients follow); matrix_exp (SciPy's expm
takes the batch), pinv and lstsq are kernels with torch's derivative formulas.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.layout import contiguous_format
from ... import functions as at
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .lapack import (castable_out, check_castable_out, check_floating, check_kernel_dtype, check_matrix, check_square,
                     contiguous_strides, real_dtype, scipy_linalg)
from .eigh import linalg_eigvalsh
from .solve import linalg_inv, linalg_solve
from .svd import linalg_svd, linalg_svdvals, unused

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


# ----------------------------------------------------------------------------------
# matrix_power, matrix_exp
# ----------------------------------------------------------------------------------
@composite("linalg_matrix_power(Tensor self, int n) -> Tensor", out=True,
           python_module="linalg")
def linalg_matrix_power(self, n, out=None):
    """``A^n`` for square matrices by repeated squaring (n < 0: of the inverse; n = 0:
    the identity).

    Example::

        >>> torch.linalg.matrix_power(torch.tensor([[1., 1.], [0., 1.]]), 3)
        tensor([[1., 3.],
                [0., 1.]])
    """
    check_square("linalg.matrix_power", self)
    return castable_out(_power(self, n).contiguous(), out, ops.aten.linalg_matrix_power.out,
                        "matrix_power", exact=n != 0)      # n = 0 copies, and casts


def _power(A, n: int):
    if n == 0:                         # the identity, still A's function (gradient zero)
        identity = at.eye(A.shape[-1], dtype=A.dtype).expand(tuple(A.shape))
        return A.clone(memory_format=contiguous_format).copy_(identity)
    if n < 0:
        A, n = linalg_inv.call(A), -n
    result, square = None, A
    while n:
        if n & 1:
            result = square if result is None else result.matmul(square)
        n >>= 1
        if n:
            square = square.matmul(square)
    return result if result is not A else A.clone()


@composite("matrix_power(Tensor self, int n) -> Tensor", method=True, out=True)
def matrix_power(self, n, out=None):
    """`torch.linalg.matrix_power`.

    Example::

        >>> torch.matrix_power(torch.tensor([[1., 1.], [0., 1.]]), 2)
        tensor([[1., 2.],
                [0., 1.]])
    """
    return castable_out(linalg_matrix_power.call(self, n), out, ops.aten.matrix_power.out,
                        "matrix_power", exact=True)


def _matrix_exp_meta(self, out=None):
    check_square("linalg.matrix_exp", self)
    check_floating("linalg.matrix_exp", self, allow_low_precision=True)
    exact_out_dtype(self._dtype, out)
    return TensorMeta(self._size, self._dtype)


@derivative_helper
def matrix_exp_backward(grad, self):
    """The adjoint of the Fréchet derivative: the top-right block of
    ``exp([[A^H, G], [0, A^H]])`` (written in operators, so it differentiates again)."""
    n = self.shape[-1]
    top = at.cat([self.mH, grad], -1)
    bottom = at.cat([at.zeros_like(self), self.mH], -1)
    return linalg_matrix_exp.call(at.cat([top, bottom], -2))[..., :n, n:]


@op("linalg_matrix_exp(Tensor self) -> Tensor", meta=_matrix_exp_meta, out=True,
    python_module="linalg", bind_out=False, grad={"self": "matrix_exp_backward(grad, self)"})
def linalg_matrix_exp(self, *, out):
    """The matrix exponential ``sum_k A^k / k!`` (SciPy's Padé approximant).

    Example::

        >>> torch.linalg.matrix_exp(torch.zeros(2, 2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    if self.size:
        np.copyto(out, scipy_linalg().expm(self))


@composite("matrix_exp(Tensor self) -> Tensor", method=True)
def matrix_exp(self):
    """`torch.linalg.matrix_exp`.

    Example::

        >>> torch.matrix_exp(torch.zeros(1, 1))
        tensor([[1.]])
    """
    return linalg_matrix_exp.call(self)


# ----------------------------------------------------------------------------------
# pinv, pinverse, matrix_rank
# ----------------------------------------------------------------------------------
def _pinv_meta(self, atol=None, rtol=None, hermitian=False, out=None):
    if self.dim() < 2 or not (self._dtype.is_floating_point or self._dtype.is_complex):
        raise RuntimeError(f"linalg.pinv({_type_word(self)}{{{list(self._size)}}}): expected a "
                           f"tensor with 2 or more dimensions of float, double, cfloat or "
                           f"cdouble types")
    check_castable_out("linalg.pinv", self._dtype, out)
    shape = self._size[:-2] + (self._size[-1], self._size[-2])
    return TensorMeta(shape, self._dtype, contiguous_strides(shape))


def _type_word(t) -> str:
    from ....c10.dtype import scalar_type_name
    return scalar_type_name(t._dtype)


def _tolerance(S_max: np.ndarray, shape: tuple, atol, rtol) -> np.ndarray:
    """torch's cut-off: ``max(atol, rtol * S_max)``; rtol defaults to eps * max(m, n)
    when neither is given, to 0 when only atol is."""
    eps = np.finfo(S_max.dtype).eps
    atol_ = 0.0 if atol is None else np.asarray(atol)
    if rtol is None:
        rtol_ = eps * max(shape[-2:]) if atol is None or np.all(atol_ <= 0) else 0.0
    else:
        rtol_ = np.asarray(rtol)
    return np.maximum(atol_, rtol_ * S_max)


def _pinv_into(A: np.ndarray, atol, rtol, hermitian: bool, out: np.ndarray) -> None:
    if A.size == 0:
        out.fill(0)
        return
    if hermitian:
        w, V = np.linalg.eigh(A)
        S, U, Vh = np.abs(w), V * np.sign(w)[..., None, :], np.swapaxes(V, -1, -2).conj()
    else:
        U, S, Vh = np.linalg.svd(A, full_matrices=False)
    cut = _tolerance(S.max(-1, keepdims=True), A.shape, atol, rtol)
    if np.ndim(cut) and np.ndim(cut) < S.ndim:
        cut = np.asarray(cut)[..., None]
    inverse = np.where(S > cut, 1 / np.where(S > cut, S, 1), 0).astype(S.dtype)
    result = np.swapaxes(Vh, -1, -2).conj() @ (inverse[..., None] * np.swapaxes(U, -1, -2).conj())
    np.copyto(out, result.astype(A.dtype), casting="unsafe")     # rounded in A's dtype first


@derivative_helper
def pinv_backward(grad, pinvA, A):
    """torch's formula for the pseudo-inverse's gradient (it holds across ranks)."""
    m, n = A.shape[-2:]
    pinvAh, gradh = pinvA.mH, grad.mH
    if m <= n:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        return (-(pinvA.matmul(K)).mH + KpinvAh - A.matmul(pinvA).matmul(KpinvAh)
                + pinvAh.matmul(pinvA).matmul(gradh - K.matmul(A)))
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    return (-(K.matmul(pinvA)).mH + (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh)
            + pinvAhK - pinvAhK.matmul(pinvA).matmul(A))


@op("linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, "
    "bool hermitian=False) -> Tensor", meta=_pinv_meta, out=True,
    out_overload="atol_rtol_tensor_out", python_module="linalg",
    grad={"self": "pinv_backward(grad, result, self)", "atol": "refuses_requires_grad",
          "rtol": "refuses_requires_grad"})
def linalg_pinv(self, atol, rtol, hermitian, *, out):
    """The Moore-Penrose pseudo-inverse, through the SVD (the eigendecomposition if
    `hermitian`): singular values at or below ``max(atol, rtol * S_max)`` count as zero.

    Example::

        >>> torch.linalg.pinv(torch.tensor([[2., 0.], [0., 0.]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    _pinv_into(self, atol, rtol, hermitian, out)


@composite("linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
           "bool hermitian=False) -> Tensor", python_module="linalg", out=True)
def linalg_pinv_float(self, atol=None, rtol=None, hermitian=False, out=None):
    """linalg.pinv with number tolerances."""
    as_tensor = (lambda x: None if x is None else at.full((), x, dtype=real_dtype(self.dtype)))
    return castable_out(linalg_pinv.call(self, as_tensor(atol), as_tensor(rtol), hermitian), out,
                        ops.aten.linalg_pinv.atol_rtol_float_out, "linalg.pinv")


@composite("linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> "
           "Tensor", python_module="linalg", out=True, out_overload="out_rcond_tensor")
def linalg_pinv_rcond_tensor(self, rcond, hermitian=False, out=None):
    """linalg.pinv with `rcond`, the relative tolerance's older name, as a tensor."""
    zero = at.zeros((), dtype=real_dtype(self.dtype), device=self.device)
    return castable_out(linalg_pinv.call(self, zero, rcond, hermitian), out,
                        ops.aten.linalg_pinv.out_rcond_tensor, "linalg.pinv")


@composite("linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor",
           python_module="linalg", out=True)
def linalg_pinv_rcond(self, rcond, hermitian=False, out=None):
    """linalg.pinv with `rcond`, the relative tolerance's older name."""
    return castable_out(linalg_pinv_float(self, atol=0.0, rtol=rcond, hermitian=hermitian),
                        out, ops.aten.linalg_pinv.out, "linalg.pinv")


@composite("pinverse(Tensor self, float rcond=1e-15) -> Tensor", method=True)
def pinverse(self, rcond=1e-15):
    """`torch.linalg.pinv` with a relative tolerance `rcond`.

    Example::

        >>> torch.pinverse(torch.tensor([[2., 0.], [0., 0.]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    return linalg_pinv_rcond(self, rcond)


@composite("linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, "
           "Tensor? rtol=None, bool hermitian=False) -> Tensor", python_module="linalg",
           out=True)
def linalg_matrix_rank_tensor(input, atol=None, rtol=None, hermitian=False, out=None):
    """linalg.matrix_rank with tolerances as tensors (one per matrix, broadcast); declared
    first, so that a 0-dim tolerance tensor stays a tensor (on meta too)."""
    return castable_out(_rank(input, atol, rtol, hermitian), out,
                        ops.aten.linalg_matrix_rank.atol_rtol_tensor_out,
                        "torch.linalg.matrix_rank")


@composite("linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, "
           "float? rtol=None, bool hermitian=False) -> Tensor", python_module="linalg",
           out=True)
def linalg_matrix_rank(self, atol=None, rtol=None, hermitian=False, out=None):
    """The number of singular values (absolute eigenvalues if `hermitian`) above
    ``max(atol, rtol * S_max)``.

    Example::

        >>> torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]]))
        tensor(1)
    """
    return castable_out(_rank(self, atol, rtol, hermitian), out,
                        ops.aten.linalg_matrix_rank.atol_rtol_float_out,
                        "torch.linalg.matrix_rank")


@composite("linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> "
           "Tensor", python_module="linalg", out=True, out_overload="out_tol_tensor")
def linalg_matrix_rank_tol_tensor(input, tol, hermitian=False, out=None):
    """linalg.matrix_rank with `tol`, an absolute tolerance (atol's older name), as a
    tensor."""
    return castable_out(_rank(input, tol, 0.0, hermitian), out,
                        ops.aten.linalg_matrix_rank.out_tol_tensor, "torch.linalg.matrix_rank")


@composite("linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor",
           python_module="linalg", out=True)
def linalg_matrix_rank_tol(self, tol, hermitian=False, out=None):
    """linalg.matrix_rank with `tol`, an absolute tolerance (atol's older name)."""
    return castable_out(_rank(self, tol, 0.0, hermitian), out, ops.aten.linalg_matrix_rank.out,
                        "torch.linalg.matrix_rank")


def _rank(self, atol, rtol, hermitian: bool):
    """The singular values above ``max(atol, rtol * S_max)``, counted; rtol defaults to
    ``eps * max(m, n)`` where atol is not positive, to 0 where it is."""
    if self.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at "
                           "least 2 dimensions.")
    detached = self.detach()
    S = (linalg_eigvalsh.call(detached, "L").abs() if hermitian else
         linalg_svdvals.call(detached, None))
    if S.shape[-1] == 0:
        return at.zeros(tuple(S.shape[:-1]), dtype=dtypes.int64, device=self.device)
    S_max = S.amax(-1, keepdim=True)
    as_column = (lambda t: None if t is None else
                 (t if hasattr(t, "shape") else at.full((), t, dtype=S.dtype)).unsqueeze(-1))
    atol, rtol = as_column(atol), as_column(rtol)
    if rtol is None:
        default = np.finfo(np.dtype(S.dtype._np)).eps * max(self.shape[-2:])
        rtol = S_max.new_full((), default) if atol is None else \
            (atol <= 0).to(S.dtype) * default
    cut = rtol * S_max if atol is None else at.maximum(atol.to(S.dtype), rtol * S_max)
    return (S > cut).sum(-1)


# ----------------------------------------------------------------------------------
# lstsq
# ----------------------------------------------------------------------------------
def _lstsq_meta(self, b, rcond=None, driver=None, out=None):
    name = "torch.linalg.lstsq"
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError(f"{name}: parameter `driver` should be one of "
                           f"({', '.join(_DRIVERS)})")
    check_matrix("linalg.lstsq", self)
    check_floating("linalg.lstsq", self)
    vector = b.dim() == self.dim() - 1
    rows = b._size[-1] if vector else b._size[-2]
    if rows != self._size[-2]:
        raise RuntimeError(f"{name}: input.size(-2) should match other.size(-1)" if vector else
                           f"{name}: input.size(-2) should match other.size(-2)")
    batch = self._size[:-2]
    n, m = self._size[-1], self._size[-2]
    columns = () if vector else b._size[-1:]
    solution = batch + (n,) + columns
    strides = contiguous_strides(solution) if vector else \
        contiguous_strides(solution[:-2] + solution[-1:] + solution[-2:-1])[:-2] + (1, n)
    real = real_dtype(self._dtype)
    full = (driver or "gelsy") != "gels"
    singular = (driver or "gelsy") in ("gelsd", "gelss")
    residuals = batch + columns if m > n and (driver or "gelsy") != "gelsy" else (0,)
    return (TensorMeta(solution, self._dtype, strides), TensorMeta(residuals, real),
            TensorMeta(batch if full else (0,), dtypes.int64),
            TensorMeta(batch + (min(m, n),) if singular else (0,), real))


def _lstsq_each(A: np.ndarray, B: np.ndarray, rcond, driver: str, out) -> None:
    """SciPy's lstsq matrix by matrix (LAPACK's least-squares drivers take one)."""
    solution, residuals, rank, values = out
    scipy_driver = "gelsy" if driver == "gels" else driver
    for index in np.ndindex(*A.shape[:-2]):
        x, residual, found_rank, found_values = scipy_linalg().lstsq(
            A[index], B[index], cond=rcond, lapack_driver=scipy_driver, check_finite=False)
        solution[index] = x
        if rank.size:
            rank[index] = found_rank
        if values.size:
            values[index] = found_values
        if residuals.size:
            residuals[index] = np.sum(np.abs(B[index] - A[index] @ x) ** 2, axis=0)


@derivative_helper
def lstsq_backward(grad, grad_residuals, self, b, solution, residuals, grad_input_mask):
    """Through the pseudo-inverse, as torch's: ``X = A^+ B``; plus, where the residuals
    ``r_j = |B_j - A X_j|^2`` were computed and used, their gradient (X is optimal, so
    only their explicit dependence on A and B counts)."""
    vector = b.dim() == self.dim() - 1
    gX = grad.unsqueeze(-1) if vector else grad
    B = b.unsqueeze(-1) if vector else b
    pinvA = linalg_pinv.call(self, None, None, False)
    gA = pinv_backward(gX.matmul(B.mH), pinvA, self) if grad_input_mask[0] else None
    gB = pinvA.mH.matmul(gX) if grad_input_mask[1] else None
    if residuals.numel() and not unused(grad_residuals):
        X = solution.unsqueeze(-1) if vector else solution
        weighted = (B - self.matmul(X)) * grad_residuals.unsqueeze(-2).mul(2)
        gA = gA - weighted.matmul(X.mH) if gA is not None else None
        gB = gB + weighted if gB is not None else None
    return gA, (gB.squeeze(-1) if vector and gB is not None else gB)


@op("linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> "
    "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)",
    meta=_lstsq_meta, out=True, python_module="linalg",
    grad={"self, b": "lstsq_backward(grads[0], grads[1], self, b, solution, residuals, "
                     "grad_input_mask)",
          "output_differentiability": (True, True, False, False)})
def linalg_lstsq(self, b, rcond, driver, *, out):
    """The least-squares solution of ``A X = B`` (any driver name torch takes: 'gels'
    assumes full rank, 'gelsy' (the default), 'gelsd' and 'gelss' do not and report the
    rank; the latter two the singular values; residuals for tall full-rank problems).

    Example::

        >>> A = torch.tensor([[1., 0.], [0., 1.], [0., 0.]])
        >>> torch.linalg.lstsq(A, torch.tensor([[1.], [2.], [3.]])).solution
        tensor([[1.],
                [2.]])
    """
    vector = b.ndim == self.ndim - 1
    B = b[..., None] if vector else b
    solution = out[0][..., None] if vector else out[0]
    if self.size == 0 or B.size == 0:
        solution[...] = 0
        return
    _lstsq_each(self, B, rcond, driver or "gelsy", (solution,) + tuple(out[1:]))


# ----------------------------------------------------------------------------------
# vander, vecdot, diagonal, tensorinv, tensorsolve
# ----------------------------------------------------------------------------------
@composite("linalg_vander(Tensor x, *, SymInt? N=None) -> Tensor", python_module="linalg")
def linalg_vander(x, N=None):
    """The Vandermonde matrix of `x`: columns ``x^0, x^1, ..., x^(N-1)`` (batched over
    x's leading dims).

    Example::

        >>> torch.linalg.vander(torch.tensor([1., 2., 3.]))
        tensor([[1., 1., 1.],
                [1., 2., 4.],
                [1., 3., 9.]])
    """
    if x.dim() == 0 and N is None:
        raise RuntimeError("N must be greater than 1.")
    N = x.shape[-1] if N is None else N
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    x = x.reshape(1) if x.dim() == 0 else x        # a number is a one-point grid
    ones = at.ones_like(x).unsqueeze(-1)
    powers = x.unsqueeze(-1).expand(tuple(x.shape) + (N - 1,)).cumprod(-1)
    return at.cat([ones.to(powers.dtype), powers], -1)


@composite("vander(Tensor x, int? N=None, bool increasing=False) -> Tensor")
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a 1-D `x`, powers decreasing (unless `increasing`).

    Example::

        >>> torch.vander(torch.tensor([1, 2, 3]), N=3)
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    N = x.shape[0] if N is None else N
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    if N == 0:
        return at.empty((x.shape[0], 0), dtype=x.dtype)
    result = at.ones((x.shape[0], 1), dtype=x.dtype) if N == 1 else linalg_vander(x, N=N)
    return result if increasing else result.flip(-1)


@composite("linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", out=True,
           python_module="linalg")
def linalg_vecdot(x, y, dim=-1, out=None):
    """The dot product of vectors along `dim`, conjugating `x`: ``sum(x.conj() * y)``.

    Example::

        >>> torch.linalg.vecdot(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
        tensor(11.)
    """
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {_type_word(x)} and y of type {_type_word(y)} instead")
    result = (x.conj() * y).sum(dim) if x.is_complex() else (x * y).sum(dim)
    if out is not None and out.dtype != result.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected out of dtype{_type_word(result)} but found "
                           f"{_type_word(out)}")
    return castable_out(result, out, ops.aten.linalg_vecdot.out, "linalg.vecdot")


@composite("linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> "
           "Tensor(a)", python_module="linalg")
def linalg_diagonal(A, offset=0, dim1=-2, dim2=-1):
    """`torch.diagonal` with the last two dims as defaults (a view).

    Example::

        >>> torch.linalg.diagonal(torch.tensor([[1, 2], [3, 4]]))
        tensor([1, 4])
    """
    return A.diagonal(offset, dim1, dim2)


@composite("linalg_tensorinv(Tensor self, int ind=2) -> Tensor", out=True,
           python_module="linalg")
def linalg_tensorinv(self, ind=2, out=None):
    """The inverse of a tensor as a linear map from its first `ind` dims to the rest:
    ``tensordot(tensorinv(A), A, ind)`` is the identity.

    Example::

        >>> torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape
        torch.Size([2, 2, 4])
    """
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, columns = tuple(self.shape[:ind]), tuple(self.shape[ind:])
    if math.prod(rows) != math.prod(columns):
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[ind:]) == prod(self.shape[:ind]), but got "
                           f"{math.prod(columns)} != {math.prod(rows)}")
    square = self.reshape(math.prod(rows), math.prod(columns))
    result = linalg_inv.call(square).reshape(columns + rows)
    return castable_out(result, out, ops.aten.linalg_tensorinv.out, "tensorinv")


@composite("linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor",
           out=True, python_module="linalg")
def linalg_tensorsolve(self, other, dims=None, out=None):
    """The X with ``tensordot(A, X, X.dim()) = B``; `dims`: dims of A moved to the end
    first.

    Example::

        >>> A = torch.eye(6).reshape(2, 3, 6)
        >>> torch.linalg.tensorsolve(A, torch.ones(2, 3)).shape
        torch.Size([6])
    """
    A = self
    if dims is not None:
        kept = [d for d in range(A.dim()) if d not in [d % A.dim() for d in dims]]
        A = A.permute(kept + [d % A.dim() for d in dims])
    result_shape = tuple(A.shape[other.dim():])
    square = A.reshape(other.numel(), math.prod(result_shape))
    result = linalg_solve.call(square, other.reshape(-1), True).reshape(result_shape)
    return castable_out(result, out, ops.aten.linalg_tensorsolve.out, "tensorsolve")
