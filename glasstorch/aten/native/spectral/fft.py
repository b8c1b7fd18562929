"""The three FFT operators every `torch.fft` function lowers to: `_fft_r2c`, `_fft_c2r`,
`_fft_c2c`.

Each transforms `self` over a list of (already wrapped) dims and scales the result by
a `normalization` code, as ATen's do: 0 leaves it unscaled, 1 divides by the square
root of the signal's size, 2 by its size (the size is the product of the transformed
dims of the complex-valued side). `_fft_c2c` runs forwards (``exp(-2πi kn/N)``) or
backwards; `_fft_r2c` is always a forward transform of real input (with `onesided`, only
the non-negative frequencies of the last dim: the rest is their conjugate), and
`_fft_c2r` always a backward one, of a one-sided spectrum to a real signal of
`last_dim_size` samples.

Kernels call `scipy.fft` (imported on first use): it computes float32 input in single
precision and returns complex64, as torch does (NumPy's own FFT widens to complex128).

Results are laid out as torch lays them out (Note [FFT result layout] in
`fft_layout.py`), on CPU and on meta tensors.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...parallel import get_num_threads
from ...registry import TensorMeta, op
from . import fft_layout as layout

NO_SCALING, BY_ROOT_N, BY_N = 0, 1, 2
# scipy.fft's `norm` for each code, for forward and for backward transforms
_SCIPY_NORM = {True: {NO_SCALING: "backward", BY_ROOT_N: "ortho", BY_N: "forward"},
               False: {NO_SCALING: "forward", BY_ROOT_N: "ortho", BY_N: "backward"}}


def scipy_fft():
    """`scipy.fft`, imported on first use (SciPy is not loaded by `import glasstorch`)."""
    try:
        import scipy.fft
    except ImportError as error:
        raise ImportError("torch.fft needs SciPy (scipy.fft), which is not installed: "
                          "pip install scipy") from error
    return scipy.fft


def _workers(x: np.ndarray) -> int:
    """scipy.fft splits a batch over threads: worth it only for a large transform."""
    return get_num_threads() if x.size >= 1 << 16 else 1


def _scipy(name: str, x: np.ndarray, dim, norm: str, sizes=None) -> np.ndarray:
    """scipy.fft's transform `name` (``"fft"``, ``"irfft"``, ...) of `x` over `dim`: its
    1-D form for one dim (less overhead per call), its N-D form (``fftn``) otherwise;
    `sizes` are the signal sizes of the dims, where they are not `x`'s."""
    transforms = scipy_fft()
    if len(dim) == 1:
        return getattr(transforms, name)(x, sizes and sizes[0], dim[0], norm,
                                         workers=_workers(x))
    return getattr(transforms, name + "n")(x, sizes, dim, norm, workers=_workers(x))


# ----------------------------------------------------------------------------------
# Meta rules: dtype checks and torch's result layout
# ----------------------------------------------------------------------------------
def _require_complex(self) -> None:
    if not self._dtype.is_complex:
        raise RuntimeError(f"Only supports complex dtypes, but found: "
                           f"{scalar_type_name(self._dtype)}")


def _require_floating(self) -> None:
    if not self._dtype.is_floating_point:
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{scalar_type_name(self._dtype)}")


def _refuse_half(self: np.ndarray) -> None:
    """torch's kernel (not its meta rule) refuses half precision."""
    dtype = dtypes.from_numpy_dtype(self.dtype)
    if dtype in (dtypes.float16, dtypes.bfloat16):
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: {scalar_type_name(dtype)}")


def _result_size(self, dim, last_size) -> tuple:
    size = list(self._size)
    if dim and last_size is not None:
        size[dim[-1]] = last_size
    return tuple(size)


def _c2c_meta(self, dim, normalization, forward, out=None):
    _require_complex(self)
    return TensorMeta(self._size, self._dtype, layout.cpu_c2c(self._stride, self._size, dim))


def _r2c_meta(self, dim, normalization, onesided, out=None):
    _require_floating(self)
    size = _result_size(self, dim, self._size[dim[-1]] // 2 + 1 if onesided and dim else None)
    return TensorMeta(size, self._dtype.to_complex(), layout.cpu_r2c(self._stride, size, dim))


def _c2r_meta(self, dim, normalization, last_dim_size, out=None):
    _require_complex(self)
    size = _result_size(self, dim, last_dim_size)
    stride = layout.cpu_c2r(self._stride, self._size, size, dim)
    return TensorMeta(size, self._dtype.to_real(), stride)


def _c2c_meta_key(self, dim, normalization, forward, out=None):
    _require_complex(self)
    return TensorMeta(self._size, self._dtype, layout.staged(self._stride, self._size, dim))


def _r2c_meta_key(self, dim, normalization, onesided, out=None):
    described = _r2c_meta(self, dim, normalization, onesided)
    stride = layout.meta_r2c(self._stride, self._size, described.shape, dim)
    return TensorMeta(described.shape, described.dtype, stride)


def _c2r_meta_key(self, dim, normalization, last_dim_size, out=None):
    described = _c2r_meta(self, dim, normalization, last_dim_size)
    stride = layout.meta_c2r(self._stride, self._size, described.shape, dim)
    return TensorMeta(described.shape, described.dtype, stride)


# ----------------------------------------------------------------------------------
# Derivatives (each written in these operators, so it differentiates again)
# ----------------------------------------------------------------------------------
@derivative_helper
def fft_c2c_backward(grad, dim: list, normalization: int, forward: bool):
    """The adjoint of a DFT is the DFT the other way, with the same scale."""
    return ops.aten._fft_c2c.default(grad, dim, normalization, not forward)


@derivative_helper
def fft_r2c_backward(grad, self_sym_sizes: tuple, dim: list, normalization: int,
                     onesided: bool):
    """The real part of the adjoint transform of the gradient; a one-sided gradient is
    first padded with zeros for the frequencies the result left out."""
    if onesided:
        last = dim[-1]
        missing = self_sym_sizes[last] - grad.size(last)
        pad = [0, 0] * (grad.dim() - 1 - last) + [0, missing]
        grad = ops.aten.constant_pad_nd.default(grad, pad, 0)
    return ops.aten.real.default(ops.aten._fft_c2c.default(grad, dim, normalization, False))


@derivative_helper
def fft_c2r_backward(grad, dim: list, normalization: int):
    """The one-sided forward transform of the gradient, its entries that stand for a
    conjugate pair (all but the zero and, for even lengths, the Nyquist frequency)
    counted twice."""
    result = ops.aten._fft_r2c.default(grad, dim, normalization, True)
    last = dim[-1]
    doubled = grad.size(last) - result.size(last)
    if doubled <= 0:
        return result
    weight = [1.0] + [2.0] * doubled + [1.0] * (result.size(last) - 1 - doubled)
    shape = [1] * result.dim()
    shape[last] = len(weight)
    return result * grad.new_tensor(weight).view(shape)


# ----------------------------------------------------------------------------------
# The operators
# ----------------------------------------------------------------------------------
@op("_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor",
    meta=_c2c_meta, out=True,
    grad={"self": "fft_c2c_backward(grad, dim, normalization, forward)"})
def fft_c2c(self, dim, normalization, forward, *, out):
    """The complex-to-complex DFT of `self` over `dim`, forwards or backwards, scaled
    by the `normalization` code; torch.fft's complex functions call it."""
    if not dim or self.size == 0:
        out[...] = self
        return
    norm = _SCIPY_NORM[forward][normalization]
    out[...] = _scipy("fft" if forward else "ifft", self, dim, norm)


@op("_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor",
    meta=_r2c_meta, out=True,
    grad={"self": "fft_r2c_backward(grad, self_sym_sizes, dim, normalization, onesided)"})
def fft_r2c(self, dim, normalization, onesided, *, out):
    """The forward DFT of the real `self` over `dim`; with `onesided`, only the
    frequencies ``0 .. n // 2`` of the last dim of `dim`."""
    _refuse_half(self)
    if self.size == 0:
        return
    out[...] = _scipy("rfft" if onesided else "fft", self, dim, _SCIPY_NORM[True][normalization])


@op("_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor",
    meta=_c2r_meta, out=True,
    grad={"self": "fft_c2r_backward(grad, dim, normalization)"})
def fft_c2r(self, dim, normalization, last_dim_size, *, out):
    """The backward DFT over `dim` of the one-sided spectrum `self` (the last dim of
    `dim` holding frequencies ``0 .. last_dim_size // 2``) to a real signal."""
    if out.size == 0:
        return
    sizes = [out.shape[d] for d in dim]
    out[...] = _scipy("irfft", self, dim, _SCIPY_NORM[False][normalization], sizes)


# torch's Meta key lays results out as its CUDA FFT does (Note [FFT result layout])
register_meta(fft_c2c, _c2c_meta_key)
register_meta(fft_r2c, _r2c_meta_key)
register_meta(fft_c2r, _c2r_meta_key)
