"""The transforms of `torch.fft`: fft, ifft, rfft, irfft, hfft, ihfft and their 2-D and
N-D forms, composites over the three operators of `fft.py`.

Each function promotes its input (integers and bool to the default float dtype; half
precision is refused), pads with zeros or trims the transformed dims to the requested
signal sizes, turns `norm` into a scaling code and calls one or two of `_fft_c2c`,
`_fft_r2c`, `_fft_c2r` (autograd flows through them, with torch's node names).

Note [FFT norm modes]
    `norm` says which direction of a transform pair carries the scale: "backward" (the
    default) leaves the forward transform unscaled and divides the backward one by n,
    "forward" the other way round, "ortho" divides both by sqrt(n). The inverse
    functions (ifft, irfft, ihfft) are backward transforms; hfft is a forward one,
    although it goes from a spectrum to a real signal.
"""
from __future__ import annotations

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.promotion import get_default_dtype
from ...dispatcher import ops
from ...registry import TensorMeta, composite
from ...structured import prepare_out
from .fft import BY_N, BY_ROOT_N, NO_SCALING

_ONE_DIM = "SymInt? n=None, int dim=-1, str? norm=None"
_TWO_DIM = "SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None"
_N_DIM = "SymInt[1]? s=None, int[1]? dim=None, str? norm=None"


# ----------------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------------
def norm_code(norm: str | None, forward: bool) -> int:
    """The scaling code of `norm` for a transform in direction `forward`
    (Note [FFT norm modes])."""
    if norm is None or norm == "backward":
        return NO_SCALING if forward else BY_N
    if norm == "forward":
        return BY_N if forward else NO_SCALING
    if norm == "ortho":
        return BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def promote(x, require_complex: bool):
    """`x` in a dtype the transforms take: float32 / float64 (integers and bool as the
    default dtype), or their complex forms when `require_complex`."""
    dtype = x._dtype
    if dtype.is_complex:
        if dtype not in (dtypes.complex64, dtypes.complex128):
            raise RuntimeError(f"Unsupported dtype {scalar_type_name(dtype)}")
        return x
    if not dtype.is_floating_point:
        dtype = get_default_dtype()
    if dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError(f"Unsupported dtype {scalar_type_name(dtype)}")
    if require_complex:
        dtype = dtype.to_complex()
    return x if dtype is x._dtype else ops.aten.to.dtype.call(x, dtype, False, False, None)


def _wrap(dim: int, ndim: int) -> int:
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    return dim % ndim


def _check_points(n: int) -> None:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def resize(x, dims, sizes):
    """`x` with each of `dims` trimmed or zero-padded at its end to its size in `sizes`."""
    pad = [0] * (2 * x.dim())
    for d, n in zip(dims, sizes):
        if n > x._size[d]:
            pad[2 * (x.dim() - 1 - d) + 1] = n - x._size[d]
    if any(pad):
        x = ops.aten.constant_pad_nd.default.call(x, pad, 0)
    for d, n in zip(dims, sizes):
        if n < x._size[d]:
            x = ops.aten.slice.Tensor.call(x, d, 0, n, 1)
    return x


def shape_and_dims(x, s, dim) -> tuple:
    """The signal sizes and the (wrapped, distinct) dims of an N-D transform: every
    dim when neither is given, the last ``len(s)`` dims for `s` alone, and -1 in `s`
    meaning the input's size."""
    if dim is not None:
        dims = [_wrap(d, x.dim()) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(s) != len(dim):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if dim is None:
            if len(s) > x.dim():
                raise RuntimeError(f"Got shape with {len(s)} values but input tensor only "
                                   f"has {x.dim()} dimensions.")
            dims = list(range(x.dim() - len(s), x.dim()))
        shape = [x._size[d] if n == -1 else n for d, n in zip(dims, s)]
        for n in shape:
            _check_points(n)
    else:
        dims = dims if dim is not None else list(range(x.dim()))
        shape = [x._size[d] for d in dims]
        for n in shape:
            _check_points(n)
    return shape, dims


# ----------------------------------------------------------------------------------
# The three kinds of transform, to a fresh result or into out=
# ----------------------------------------------------------------------------------
def written(name: str, result, out):
    """`result`, or `result` written into out= as torch's FFTs write it: an `out` of the
    result's kind (complex, or real floating point), resized to the result's shape
    (warning when it held elements), the result copied into it (cast to its precision)."""
    if out is None:
        return result
    if result._dtype.is_complex and not out._dtype.is_complex:
        raise RuntimeError(f"{name} expects a complex output tensor, but got "
                           f"{scalar_type_name(out._dtype)}")
    if not result._dtype.is_complex and not out._dtype.is_floating_point:
        raise RuntimeError(f"{name} expects a floating point output tensor, but got "
                           f"{scalar_type_name(out._dtype)}")
    if out._size != result._size:
        prepare_out(ops.aten._fft_c2c.out, out, TensorMeta(result._size, out._dtype))
    return ops.aten.copy_.default.call(out, result, False)


def conjugated(name: str, result, out):
    """The conjugate of `result`: a lazy view, or (as torch) its physical conjugate
    written into out=, which must then have the result's dtype."""
    if out is None:
        return ops.aten.conj.default.call(result)
    if not out._dtype.is_complex:
        return written(name, result, out)       # refused: the result is complex
    return ops.aten.conj_physical.out.call(result, out)


def c2c(x, dims, code: int, forward: bool):
    return ops.aten._fft_c2c.default.call(x, dims, code, forward)


def r2c(x, dims, code: int, onesided: bool):
    return ops.aten._fft_r2c.default.call(x, dims, code, onesided)


def c2r(x, dims, code: int, last_dim_size: int):
    return ops.aten._fft_c2r.default.call(x, dims, code, last_dim_size)


# ----------------------------------------------------------------------------------
# The 1-D transforms
# ----------------------------------------------------------------------------------
def one_dim_complex(name: str, x, n, dim, norm, forward: bool, out):
    """fft / ifft of a complex input."""
    dim = _wrap(dim, x.dim())
    n = x._size[dim] if n is None else n
    _check_points(n)
    x = resize(promote(x, True), (dim,), (n,))
    return written(name, c2c(x, [dim], norm_code(norm, forward), forward), out)


def one_dim_real(name: str, x, n, dim, norm, forward: bool, onesided: bool, out):
    """fft / ifft of a real input, rfft, ihfft: a real-to-complex transform (a
    backward one is the conjugate of the forward one, scaled)."""
    if x._dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got "
                           f"{scalar_type_name(x._dtype)}")
    x = promote(x, False)
    dim = _wrap(dim, x.dim())
    n = x._size[dim] if n is None else n
    _check_points(n)
    x = resize(x, (dim,), (n,))
    result = r2c(x, [dim], norm_code(norm, forward), onesided)
    return written(name, result, out) if forward else conjugated(name, result, out)


def one_dim_to_real(name: str, x, n, dim, norm, forward: bool, out):
    """irfft, hfft: a one-sided spectrum to `n` real samples (2 * (size - 1) by default)."""
    x = promote(x, True)
    dim = _wrap(dim, x.dim())
    n = 2 * (x._size[dim] - 1) if n is None else n
    _check_points(n)
    x = resize(x, (dim,), (n // 2 + 1,))
    if forward:                         # hfft: the spectrum of the conjugate's inverse
        x = ops.aten.conj.default.call(x)
    return written(name, c2r(x, [dim], norm_code(norm, forward), n), out)


@composite(f"fft_fft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_fft(self, n=None, dim=-1, norm=None, out=None):
    """The one-dimensional discrete Fourier transform of `input` along `dim`.

    Args:
        input (Tensor): the signal, real or complex.
        n (int, optional): the signal length: `input` is zero-padded or trimmed to it.
        dim (int, optional): the dim to transform. Default: -1.
        norm (str, optional): "backward" (no scaling, the default), "forward" (divide
            by n) or "ortho" (divide by sqrt(n)).

    Example::

        >>> torch.fft.fft(torch.tensor([1., 2., 3., 4.]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    if self._dtype.is_complex:
        return one_dim_complex("fft", self, n, dim, norm, True, out)
    return one_dim_real("fft", self, n, dim, norm, True, False, out)


@composite(f"fft_ifft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ifft(self, n=None, dim=-1, norm=None, out=None):
    """The inverse of `torch.fft.fft`: by default divided by n.

    Example::

        >>> torch.fft.ifft(torch.tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j]))
        tensor([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
    """
    if self._dtype.is_complex:
        return one_dim_complex("ifft", self, n, dim, norm, False, out)
    return one_dim_real("ifft", self, n, dim, norm, False, False, out)


@composite(f"fft_rfft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_rfft(self, n=None, dim=-1, norm=None, out=None):
    """The Fourier transform of a real signal: the ``n // 2 + 1`` non-negative
    frequencies (the others are their conjugates).

    Example::

        >>> torch.fft.rfft(torch.tensor([1., 2., 3., 4.]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    return one_dim_real("rfft", self, n, dim, norm, True, True, out)


@composite(f"fft_irfft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_irfft(self, n=None, dim=-1, norm=None, out=None):
    """The inverse of `torch.fft.rfft`: `n` real samples (``2 * (size - 1)`` by
    default; give `n` for an odd length) from the non-negative frequencies.

    Example::

        >>> torch.fft.irfft(torch.tensor([10.+0.j, -2.+2.j, -2.+0.j]))
        tensor([1., 2., 3., 4.])
    """
    return one_dim_to_real("irfft", self, n, dim, norm, False, out)


@composite(f"fft_hfft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_hfft(self, n=None, dim=-1, norm=None, out=None):
    """The Fourier transform of a Hermitian-symmetric signal given by its first half:
    a real spectrum of `n` points (``2 * (size - 1)`` by default).

    Example::

        >>> torch.fft.hfft(torch.tensor([2.5+0.j, -0.5-0.5j, -0.5+0.j]))
        tensor([1., 2., 3., 4.])
    """
    return one_dim_to_real("hfft", self, n, dim, norm, True, out)


@composite(f"fft_ihfft(Tensor self, {_ONE_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ihfft(self, n=None, dim=-1, norm=None, out=None):
    """The inverse of `torch.fft.hfft`: the first half of the inverse transform of a
    real signal.

    Example::

        >>> torch.fft.ihfft(torch.tensor([1., 2., 3., 4.]))
        tensor([ 2.5000-0.0000j, -0.5000-0.5000j, -0.5000-0.0000j])
    """
    return one_dim_real("ihfft", self, n, dim, norm, False, True, out)
