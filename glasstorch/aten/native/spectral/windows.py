"""The window factories of torch's top level: hann_window, hamming_window,
blackman_window, bartlett_window, kaiser_window.

Each is a composite, computed as torch computes it: `arange` in the requested dtype
scaled and shaped by in-place operators, so each step rounds where torch's does. A
`periodic` window (the default: the one spectral analysis wants) is the symmetric
window one sample longer, without its last sample. Lengths 0 and 1 give an empty
tensor and ``[1.]``.
"""
from __future__ import annotations

import math

from ....c10 import dtype as dtypes
from ....c10.promotion import get_default_dtype
from ...dispatcher import ops
from ...registry import composite
from ..creation.copy import cpp_type_name
from ..creation.factory import TENSOR_OPTIONS

_OPTIONS = f"*, {TENSOR_OPTIONS}"
# C++'s names of the element types, as torch's options print them
_C_NAMES = {dtypes.int64: "long int", dtypes.int32: "int", dtypes.int16: "short int",
            dtypes.int8: "signed char", dtypes.uint8: "unsigned char", dtypes.bool: "bool"}


def _check_window(name: str, window_length: int, dtype) -> None:
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    if not (dtype.is_floating_point or dtype.is_complex):
        type_name = _C_NAMES.get(dtype) or cpp_type_name(dtype)
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={type_name}, "
            f"device=cpu, layout=Strided (default), requires_grad=false (default), "
            f"pinned_memory=false, memory_format=(nullopt))")


def window(name: str, window_length: int, periodic: bool, options: tuple, shape):
    """The window `shape(length, options)` computes, checked, with torch's lengths 0
    and 1, and made periodic by dropping the last sample of a longer one."""
    dtype = options[0] or get_default_dtype()
    _check_window(name, window_length, dtype)
    options = (dtype,) + tuple(options[1:])
    if window_length == 0:
        return ops.aten.empty.memory_format.call((0,), *options, None)
    if window_length == 1:
        return ops.aten.ones.default.call((1,), *options)
    length = window_length + 1 if periodic else window_length
    result = shape(length, options)
    return ops.aten.narrow.default.call(result, 0, 0, window_length) if periodic else result


def _samples(length: int, options: tuple, scale: float):
    """``arange(length) * scale`` in the window's dtype."""
    return ops.aten.mul_.Scalar.call(ops.aten.arange.default.call(length, *options), scale)


def _raised_cosine(alpha: float, beta: float):
    """``alpha - beta * cos(2 pi n / (N - 1))``: Hamming's family (Hann: 0.5, 0.5)."""
    def shape(length, options):
        angles = _samples(length, options, 2 * math.pi / (length - 1))
        scaled = ops.aten.mul_.Scalar.call(ops.aten.cos_.default.call(angles), -beta)
        return ops.aten.add_.Scalar.call(scaled, alpha, 1)
    return shape


@composite(f"hann_window(int window_length, {_OPTIONS}) -> Tensor")
def hann_window(window_length, dtype=None, layout=None, device=None, pin_memory=None):
    """The Hann window: ``0.5 - 0.5 * cos(2 pi n / (N - 1))``, zero at both ends.

    Args:
        window_length (int): the number of samples.
        periodic (bool, optional): True (default) for the window of a periodic signal
            (the symmetric window of ``window_length + 1`` samples without its last),
            False for the symmetric window.

    Keyword args:
        dtype (torch.dtype, optional): a floating point dtype. Default: the default dtype.
        layout, device, requires_grad: as for `torch.arange`.

    Example::

        >>> torch.hann_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return hann_window_periodic.call(window_length, True, dtype, layout, device, pin_memory)


@composite(f"hann_window.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor")
def hann_window_periodic(window_length, periodic, dtype=None, layout=None, device=None,
                         pin_memory=None):
    """The Hann window; see `torch.hann_window`."""
    return window("hann_window", window_length, periodic, (dtype, layout, device, pin_memory),
                  _raised_cosine(0.5, 0.5))


@composite(f"hamming_window(int window_length, {_OPTIONS}) -> Tensor")
def hamming_window(window_length, dtype=None, layout=None, device=None, pin_memory=None):
    """The Hamming window: ``alpha - beta * cos(2 pi n / (N - 1))``.

    Args:
        window_length (int): the number of samples.
        periodic (bool, optional): a periodic window (default) or a symmetric one; see
            `torch.hann_window`.
        alpha (float, optional): the constant term. Default: 0.54.
        beta (float, optional): the cosine's weight. Default: 0.46.

    Keyword args:
        dtype (torch.dtype, optional): a floating point dtype. Default: the default dtype.

    Example::

        >>> torch.hamming_window(4, periodic=False)
        tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """
    return hamming_window_periodic_alpha_beta.call(window_length, True, 0.54, 0.46, dtype,
                                                   layout, device, pin_memory)


@composite(f"hamming_window.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor")
def hamming_window_periodic(window_length, periodic, dtype=None, layout=None, device=None,
                            pin_memory=None):
    """The Hamming window; see `torch.hamming_window`."""
    return hamming_window_periodic_alpha_beta.call(window_length, periodic, 0.54, 0.46, dtype,
                                                   layout, device, pin_memory)


@composite(f"hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, "
           f"{_OPTIONS}) -> Tensor")
def hamming_window_periodic_alpha(window_length, periodic, alpha, dtype=None, layout=None,
                                  device=None, pin_memory=None):
    """The Hamming window; see `torch.hamming_window`."""
    return hamming_window_periodic_alpha_beta.call(window_length, periodic, alpha, 0.46, dtype,
                                                   layout, device, pin_memory)


@composite(f"hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, "
           f"float beta, {_OPTIONS}) -> Tensor")
def hamming_window_periodic_alpha_beta(window_length, periodic, alpha, beta, dtype=None,
                                       layout=None, device=None, pin_memory=None):
    """The Hamming window; see `torch.hamming_window`."""
    return window("hamming_window", window_length, periodic,
                  (dtype, layout, device, pin_memory), _raised_cosine(alpha, beta))


def _blackman(length, options):
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    angles = _samples(length, options, math.pi / (length - 1))
    mul, cos_ = ops.aten.mul.Tensor, ops.aten.cos_.default
    first = ops.aten.mul_.Scalar.call(cos_.call(mul.call(angles, 4)), 0.08)
    second = ops.aten.mul_.Scalar.call(cos_.call(mul.call(angles, 2)), 0.5)
    return ops.aten.add.Tensor.call(ops.aten.sub.Tensor.call(first, second, 1), 0.42, 1)


@composite(f"blackman_window(int window_length, {_OPTIONS}) -> Tensor")
def blackman_window(window_length, dtype=None, layout=None, device=None, pin_memory=None):
    """The Blackman window: ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    Args:
        window_length (int): the number of samples.
        periodic (bool, optional): a periodic window (default) or a symmetric one; see
            `torch.hann_window`.

    Example::

        >>> torch.blackman_window(3, periodic=False)
        tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    return blackman_window_periodic.call(window_length, True, dtype, layout, device, pin_memory)


@composite(f"blackman_window.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor")
def blackman_window_periodic(window_length, periodic, dtype=None, layout=None, device=None,
                             pin_memory=None):
    """The Blackman window; see `torch.blackman_window`."""
    return window("blackman_window", window_length, periodic,
                  (dtype, layout, device, pin_memory), _blackman)


def _bartlett(length, options):
    """The triangle ``1 - |2n / (N - 1) - 1|``: a ramp up, its second half folded down."""
    ramp = _samples(length, options, 2.0 / (length - 1))
    half = (length - 1) // 2 + 1
    falling = ops.aten.narrow.default.call(ramp, 0, half, length - half)
    ops.aten.add_.Scalar.call(ops.aten.mul_.Scalar.call(falling, -1), 2, 1)
    return ramp


@composite(f"bartlett_window(int window_length, {_OPTIONS}) -> Tensor")
def bartlett_window(window_length, dtype=None, layout=None, device=None, pin_memory=None):
    """The Bartlett (triangular) window: ``1 - |2n / (N - 1) - 1|``.

    Args:
        window_length (int): the number of samples.
        periodic (bool, optional): a periodic window (default) or a symmetric one; see
            `torch.hann_window`.

    Example::

        >>> torch.bartlett_window(5, periodic=False)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return bartlett_window_periodic.call(window_length, True, dtype, layout, device, pin_memory)


@composite(f"bartlett_window.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor")
def bartlett_window_periodic(window_length, periodic, dtype=None, layout=None, device=None,
                             pin_memory=None):
    """The Bartlett window; see `torch.bartlett_window`."""
    return window("bartlett_window", window_length, periodic,
                  (dtype, layout, device, pin_memory), _bartlett)


def _kaiser(beta: float):
    """``I0(beta * sqrt(1 - ((n - m) / m)^2)) / I0(beta)`` with ``m = (N - 1) / 2``,
    computed in float32 at least (torch's opmath) and rounded once."""
    def shape(length, options):
        dtype = options[0]
        compute = dtype if dtype in (dtypes.float32, dtypes.float64) else dtypes.float32
        n = ops.aten.arange.default.call(length, compute, *options[1:])
        middle = (length - 1) / 2.0
        ratio = ops.aten.div.Tensor.call(ops.aten.sub.Tensor.call(n, middle, 1), middle)
        inside = ops.aten.abs.default.call(ops.aten.rsub.Scalar.call(
            ops.aten.mul.Tensor.call(ratio, ratio), 1, 1))
        top = ops.aten.i0.default.call(ops.aten.mul.Tensor.call(
            ops.aten.sqrt.default.call(inside), beta))
        bottom = ops.aten.i0.default.call(ops.aten.scalar_tensor.default.call(
            beta, compute, None, None, None))
        result = ops.aten.div.Tensor.call(top, bottom)
        return result if compute is dtype else ops.aten.to.dtype.call(result, dtype, False,
                                                                     False, None)
    return shape


@composite(f"kaiser_window(int window_length, {_OPTIONS}) -> Tensor")
def kaiser_window(window_length, dtype=None, layout=None, device=None, pin_memory=None):
    """The Kaiser window: ``I0(beta * sqrt(1 - ((n - m) / m)^2)) / I0(beta)``, with
    ``m = (N - 1) / 2`` and I0 the modified Bessel function of order zero.

    Args:
        window_length (int): the number of samples.
        periodic (bool, optional): a periodic window (default) or a symmetric one; see
            `torch.hann_window`.
        beta (float, optional): the shape: larger is narrower. Default: 12.0.

    Example::

        >>> torch.kaiser_window(3, periodic=False, beta=1.0)
        tensor([0.7898, 1.0000, 0.7898])
    """
    return kaiser_window_beta.call(window_length, True, 12.0, dtype, layout, device, pin_memory)


@composite(f"kaiser_window.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor")
def kaiser_window_periodic(window_length, periodic, dtype=None, layout=None, device=None,
                           pin_memory=None):
    """The Kaiser window; see `torch.kaiser_window`."""
    return kaiser_window_beta.call(window_length, periodic, 12.0, dtype, layout, device,
                                   pin_memory)


@composite(f"kaiser_window.beta(int window_length, bool periodic, float beta, {_OPTIONS}) "
           f"-> Tensor")
def kaiser_window_beta(window_length, periodic, beta, dtype=None, layout=None, device=None,
                       pin_memory=None):
    """The Kaiser window; see `torch.kaiser_window`."""
    return window("kaiser_window", window_length, periodic, (dtype, layout, device, pin_memory),
                  _kaiser(beta))
