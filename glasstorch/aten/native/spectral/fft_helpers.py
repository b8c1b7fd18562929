"""The helpers of `torch.fft`: the frequencies of a transform's bins (fftfreq,
rfftfreq) and the shifts that put frequency zero in the middle (fftshift, ifftshift).

The frequencies are composites over `arange` and an in-place scaling, so each dtype
rounds as torch's do (the integers of `arange`, times ``1 / (n * d)`` rounded to the
dtype).
"""
from __future__ import annotations

from ....c10.promotion import get_default_dtype
from ...dispatcher import ops
from ...registry import composite
from ..creation.factory import TENSOR_OPTIONS


def _frequency_bins(name: str, count: int, n: int, d: float, dtype, layout, device,
                    pin_memory):
    """``arange(count) / (n * d)``, refusing dtypes that hold no fractions."""
    dtype = dtype or get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    return ops.aten.arange.default.call(count, dtype, layout, device, pin_memory)


@composite(f"fft_fftfreq(int n, float d=1.0, *, {TENSOR_OPTIONS}) -> Tensor",
           python_module="fft")
def fft_fftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=None):
    """The frequencies of the bins of an n-point `torch.fft.fft`, in cycles per unit of
    the sample spacing `d`: ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.

    Args:
        n (int): the signal length.
        d (float, optional): the sample spacing. Default: 1.0.

    Keyword args:
        dtype (torch.dtype, optional): a floating point or complex dtype. Default: the
            default dtype.
        layout, device, requires_grad: as for `torch.arange`.

    Example::

        >>> torch.fft.fftfreq(5)
        tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
    """
    result = _frequency_bins("fftfreq", n, n, d, dtype, layout, device, pin_memory)
    negative = ops.aten.slice.Tensor.call(result, 0, (n + 1) // 2, None, 1)
    ops.aten.sub_.Scalar.call(negative, n, 1)
    return ops.aten.mul_.Scalar.call(result, _spacing_reciprocal(n, d))


@composite(f"fft_rfftfreq(int n, float d=1.0, *, {TENSOR_OPTIONS}) -> Tensor",
           python_module="fft")
def fft_rfftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=None):
    """The frequencies of the bins of an n-point `torch.fft.rfft`:
    ``[0, 1, ..., n // 2] / (d * n)``; see `torch.fft.fftfreq`.

    Example::

        >>> torch.fft.rfftfreq(5)
        tensor([0.0000, 0.2000, 0.4000])
    """
    result = _frequency_bins("rfftfreq", n // 2 + 1, n, d, dtype, layout, device, pin_memory)
    return ops.aten.mul_.Scalar.call(result, _spacing_reciprocal(n, d))


def _spacing_reciprocal(n: int, d: float) -> float:
    """``1 / (n * d)`` as C computes it (infinite for n == 0: an empty result)."""
    return 1.0 / (n * d) if n * d else float("inf")


def _rolled(self, dim, shift_of):
    dims = list(range(self.dim())) if dim is None else list(dim)
    shifts = [shift_of(self.size(d)) for d in dims]
    return ops.aten.roll.default.call(self, shifts, dims)


@composite("fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor", python_module="fft")
def fft_fftshift(self, dim=None):
    """`input` rolled by half its size along `dim` (every dim by default), so that an
    FFT's zero frequency comes to the middle.

    Example::

        >>> torch.fft.fftshift(torch.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _rolled(self, dim, lambda size: size // 2)


@composite("fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor", python_module="fft")
def fft_ifftshift(self, dim=None):
    """The inverse of `torch.fft.fftshift` (they differ for odd sizes).

    Example::

        >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
        tensor([0, 1, 2, 3, 4])
    """
    return _rolled(self, dim, lambda size: (size + 1) // 2)
