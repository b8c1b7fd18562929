"""The 2-D and N-D transforms of `torch.fft` (fft2, fftn, rfftn, irfftn, hfftn, ihfftn
and their inverses), composites over the operators of `fft.py`.

`s` gives the signal size of each transformed dim (-1: the input's own), `dim` the dims
(default: the last ``len(s)`` dims, or every dim; the 2-D forms default to the last two).
The real-to-complex forms halve the last of the dims; the complex-to-real forms take a
one-sided last dim and make ``s[-1]`` (default ``2 * (size - 1)``) real samples of it.
"""
from __future__ import annotations

from ....c10.dtype import scalar_type_name
from ...dispatcher import ops
from ...registry import composite
from .fft_functions import (_N_DIM, _TWO_DIM, c2c, c2r, conjugated, norm_code, promote, r2c,
                            resize, shape_and_dims, written)


def complex_nd(x, s, dim, norm, forward: bool, out):
    """fftn / ifftn: a complex-to-complex transform (a real input made complex)."""
    x = promote(x, True)
    shape, dims = shape_and_dims(x, s, dim)
    return written("fftn", c2c(resize(x, dims, shape), dims, norm_code(norm, forward), forward),
                   out)


def _at_least_one(name: str, dims) -> None:
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")


def real_nd(name: str, x, s, dim, norm, forward: bool, out):
    """rfftn, ihfftn: the one-sided transform of a real input (ihfftn: the conjugate
    of the forward one, scaled as a backward one)."""
    if forward and x._dtype.is_complex:
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{scalar_type_name(x._dtype)}")
    x = promote(x, False)
    shape, dims = shape_and_dims(x, s, dim)
    _at_least_one(name, dims)
    x = resize(x, dims, shape)
    code = norm_code(norm, forward)
    if forward:
        return written(name, r2c(x, dims, code, True), out)
    half = r2c(x, dims[-1:], code, True)
    if len(dims) == 1:
        return conjugated(name, half, out)
    return written(name, c2c(ops.aten.conj_physical.default.call(half), dims[:-1], code, False),
                   out)


def to_real_nd(name: str, x, s, dim, norm, forward: bool, out):
    """irfftn, hfftn: a spectrum, one-sided in its last transformed dim, to real samples."""
    x = promote(x, True)
    shape, dims = shape_and_dims(x, s, dim)
    _at_least_one(name, dims)
    last_size = 2 * (x._size[dims[-1]] - 1) if s is None or s[-1] == -1 else shape[-1]
    if last_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_size}) specified")
    x = resize(x, dims, shape[:-1] + [last_size // 2 + 1])
    code = norm_code(norm, forward)
    if not forward:
        return written(name, c2r(x, dims, code, last_size), out)
    if len(dims) > 1:        # hfftn: the other dims forwards, then the conjugate's inverse
        x = c2c(x, dims[:-1], code, True)
    return written(name, c2r(ops.aten.conj.default.call(x), dims[-1:], code, last_size), out)


@composite(f"fft_fft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_fft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform (over the last two dims by default); see
    `torch.fft.fftn`.

    Example::

        >>> torch.fft.fft2(torch.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return complex_nd(self, s, dim, norm, True, out)


@composite(f"fft_ifft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ifft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The inverse of `torch.fft.fft2`.

    Example::

        >>> torch.fft.ifft2(torch.tensor([[4.+0.j, 0.], [0., 0.]]))
        tensor([[1.+0.j, 1.+0.j],
                [1.+0.j, 1.+0.j]])
    """
    return complex_nd(self, s, dim, norm, False, out)


@composite(f"fft_fftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_fftn(self, s=None, dim=None, norm=None, out=None):
    """The N-dimensional discrete Fourier transform of `input`.

    Args:
        input (Tensor): the signal, real or complex.
        s (Tuple[int], optional): the signal size of each transformed dim (-1: the
            input's): zero-padded or trimmed to it.
        dim (Tuple[int], optional): the dims to transform. Default: all of them, or
            the last ``len(s)``.
        norm (str, optional): "backward" (default), "forward" or "ortho"; see
            `torch.fft.fft`.

    Example::

        >>> torch.fft.fftn(torch.ones(2, 2, 2)).abs().sum()
        tensor(8.)
    """
    return complex_nd(self, s, dim, norm, True, out)


@composite(f"fft_ifftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ifftn(self, s=None, dim=None, norm=None, out=None):
    """The inverse of `torch.fft.fftn`.

    Example::

        >>> torch.fft.ifftn(torch.fft.fftn(torch.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return complex_nd(self, s, dim, norm, False, out)


@composite(f"fft_rfft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_rfft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The 2-D Fourier transform of a real input, one-sided in the last dim; see
    `torch.fft.rfftn`.

    Example::

        >>> torch.fft.rfft2(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    return real_nd("rfftn", self, s, dim, norm, True, out)


@composite(f"fft_rfftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_rfftn(self, s=None, dim=None, norm=None, out=None):
    """The N-D Fourier transform of a real input: the last transformed dim keeps its
    ``n // 2 + 1`` non-negative frequencies.

    Example::

        >>> torch.fft.rfftn(torch.ones(2, 4))
        tensor([[8.+0.j, 0.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j, 0.+0.j]])
    """
    return real_nd("rfftn", self, s, dim, norm, True, out)


@composite(f"fft_irfft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_irfft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The inverse of `torch.fft.rfft2`; see `torch.fft.irfftn`.

    Example::

        >>> torch.fft.irfft2(torch.fft.rfft2(torch.ones(2, 4)))
        tensor([[1., 1., 1., 1.],
                [1., 1., 1., 1.]])
    """
    return to_real_nd("irfftn", self, s, dim, norm, False, out)


@composite(f"fft_irfftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_irfftn(self, s=None, dim=None, norm=None, out=None):
    """The inverse of `torch.fft.rfftn`: real samples from a spectrum one-sided in its
    last transformed dim (``s[-1]`` samples there, ``2 * (size - 1)`` by default).

    Example::

        >>> torch.fft.irfftn(torch.fft.rfftn(torch.ones(2, 3)), s=(2, 3))
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    return to_real_nd("irfftn", self, s, dim, norm, False, out)


@composite(f"fft_hfft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_hfft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The 2-D Fourier transform of a Hermitian-symmetric signal given by its half;
    see `torch.fft.hfftn`.

    Example::

        >>> torch.fft.hfft2(torch.fft.ihfft2(torch.ones(2, 4)))
        tensor([[1., 1., 1., 1.],
                [1., 1., 1., 1.]])
    """
    return to_real_nd("hfftn", self, s, dim, norm, True, out)


@composite(f"fft_hfftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_hfftn(self, s=None, dim=None, norm=None, out=None):
    """The N-D Fourier transform of a Hermitian-symmetric signal given by its half in
    the last transformed dim: a real spectrum.

    Example::

        >>> torch.fft.hfftn(torch.ones(2, 3, dtype=torch.complex64)).shape
        torch.Size([2, 4])
    """
    return to_real_nd("hfftn", self, s, dim, norm, True, out)


@composite(f"fft_ihfft2(Tensor self, {_TWO_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ihfft2(self, s=None, dim=(-2, -1), norm=None, out=None):
    """The inverse of `torch.fft.hfft2`; see `torch.fft.ihfftn`.

    Example::

        >>> torch.fft.ihfft2(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    return real_nd("ihfftn", self, s, dim, norm, False, out)


@composite(f"fft_ihfftn(Tensor self, {_N_DIM}) -> Tensor", python_module="fft", out=True)
def fft_ihfftn(self, s=None, dim=None, norm=None, out=None):
    """The inverse of `torch.fft.hfftn`: the half (in the last transformed dim) of the
    inverse transform of a real signal.

    Example::

        >>> torch.fft.ihfftn(torch.ones(2, 4))
        tensor([[1.+0.j, 0.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j, 0.+0.j]])
    """
    return real_nd("ihfftn", self, s, dim, norm, False, out)
