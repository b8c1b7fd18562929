"""The window functions of `torch.signal.windows`, written in torch operators.

Each window samples a function at M points. A symmetric window (``sym=True``) spans the
function's support end to end; a periodic one (``sym=False``) is the symmetric window of
M + 1 points without its last, and takes its spacing from that longer window. Every
function takes the keyword arguments of a factory: `dtype` (float32 or float64),
`layout`, `device` and `requires_grad`.
"""
from __future__ import annotations

import math
from typing import Iterable

import glasstorch as torch

_Tensor = torch.Tensor


def _check(name: str, M: int, dtype, layout) -> None:
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not torch.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _span(M: int, sym: bool) -> int:
    """The number of intervals the window's support is cut into."""
    return M - 1 if sym else M


def _points(start: float, step: float, M: int, options: dict) -> _Tensor:
    """``start, start + step, ..., start + (M - 1) * step``."""
    return torch.linspace(start, start + (M - 1) * step, M, **options)


def _options(dtype, layout, device, requires_grad) -> dict:
    return {"dtype": dtype, "layout": layout, "device": device, "requires_grad": requires_grad}


def _trivial(M: int, options: dict) -> _Tensor | None:
    """The windows of length 0 and 1 (an empty tensor, ``[1.]``), None for longer ones."""
    if M == 0:
        return torch.empty((0,), **options)
    if M == 1:
        return torch.ones((1,), **options)
    return None


def exponential(M: int, *, center: float | None = None, tau: float = 1.0, sym: bool = True,
                dtype=None, layout=torch.strided, device=None,
                requires_grad: bool = False) -> _Tensor:
    """The exponential (Poisson) window: ``exp(-|n - center| / tau)``.

    Args:
        M (int): the window length.

    Keyword args:
        center (float, optional): where the window peaks (periodic windows only).
            Default: the middle.
        tau (float, optional): the decay: the window falls by e every `tau` samples.
        sym (bool, optional): symmetric (default) or periodic.

    Example::

        >>> torch.signal.windows.exponential(3)
        tensor([0.3679, 1.0000, 0.3679])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    options = _options(dtype, layout, device, requires_grad)
    if M == 0:
        return torch.empty((0,), **options)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _points(-center / tau, 1 / tau, M, options)
    return torch.exp(-torch.abs(k))


def cosine(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
           requires_grad: bool = False) -> _Tensor:
    """The cosine (sine) window: ``sin(pi (n + 1/2) / M)``.

    Example::

        >>> torch.signal.windows.cosine(3)
        tensor([0.5000, 1.0000, 0.5000])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("cosine", M, dtype, layout)
    options = _options(dtype, layout, device, requires_grad)
    if M == 0:
        return torch.empty((0,), **options)
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return torch.sin(_points(0.5 * step, step, M, options))


def gaussian(M: int, *, std: float = 1.0, sym: bool = True, dtype=None, layout=torch.strided,
             device=None, requires_grad: bool = False) -> _Tensor:
    """The Gaussian window: ``exp(-(n - (M - 1) / 2)^2 / (2 std^2))``.

    Keyword args:
        std (float, optional): the standard deviation, in samples. Default: 1.0.

    Example::

        >>> torch.signal.windows.gaussian(3)
        tensor([0.6065, 1.0000, 0.6065])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    options = _options(dtype, layout, device, requires_grad)
    if M == 0:
        return torch.empty((0,), **options)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / (std * math.sqrt(2))
    return torch.exp(-_points(start * scale, scale, M, options) ** 2)


def kaiser(M: int, *, beta: float = 12.0, sym: bool = True, dtype=None,
           layout=torch.strided, device=None, requires_grad: bool = False) -> _Tensor:
    """The Kaiser window: ``I0(beta sqrt(1 - (2n / (M - 1) - 1)^2)) / I0(beta)``.

    Keyword args:
        beta (float, optional): the shape (non-negative): larger is narrower. Default: 12.0.

    Example::

        >>> torch.signal.windows.kaiser(3, beta=1.0)
        tensor([0.7898, 1.0000, 0.7898])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    options = _options(dtype, layout, device, requires_grad)
    trivial = _trivial(M, options)
    if trivial is not None:
        return trivial
    beta = torch.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * beta / _span(M, sym)
    end = torch.minimum(beta, -beta + (M - 1) * step)
    k = torch.linspace(-beta, end, M, dtype=dtype, layout=layout, device=device,
                       requires_grad=requires_grad)
    return torch.i0(torch.sqrt(beta * beta - torch.pow(k, 2))) / torch.i0(beta)


def general_cosine(M: int, *, a: Iterable, sym: bool = True, dtype=None,
                   layout=torch.strided, device=None, requires_grad: bool = False) -> _Tensor:
    """A sum of cosines: ``sum_i (-1)^i a_i cos(2 pi i n / (M - 1))``.

    Keyword args:
        a (Iterable): the weights of the cosines.

    Example::

        >>> torch.signal.windows.general_cosine(3, a=[0.5, 0.5])
        tensor([0., 1., 0.])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("general_cosine", M, dtype, layout)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    options = _options(dtype, layout, device, requires_grad)
    trivial = _trivial(M, options)
    if trivial is not None:
        return trivial
    k = _points(0.0, 2 * math.pi / _span(M, sym), M, options)
    weights = torch.tensor([(-1) ** i * w for i, w in enumerate(a)], device=device,
                           dtype=dtype, requires_grad=requires_grad)
    orders = torch.arange(weights.shape[0], dtype=weights.dtype, device=weights.device,
                          requires_grad=weights.requires_grad)
    return (weights.unsqueeze(-1) * torch.cos(orders.unsqueeze(-1) * k)).sum(0)


def general_hamming(M: int, *, alpha: float = 0.54, sym: bool = True, dtype=None,
                    layout=torch.strided, device=None, requires_grad: bool = False) -> _Tensor:
    """The generalized Hamming window: ``alpha - (1 - alpha) cos(2 pi n / (M - 1))``.

    Example::

        >>> torch.signal.windows.general_hamming(3, alpha=0.5)
        tensor([0., 1., 0.])
    """
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
            requires_grad: bool = False) -> _Tensor:
    """The Hamming window: `general_hamming` with alpha = 0.54.

    Example::

        >>> torch.signal.windows.hamming(3)
        tensor([0.0800, 1.0000, 0.0800])
    """
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
         requires_grad: bool = False) -> _Tensor:
    """The Hann window: `general_hamming` with alpha = 0.5.

    Example::

        >>> torch.signal.windows.hann(3)
        tensor([0., 1., 0.])
    """
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
             requires_grad: bool = False) -> _Tensor:
    """The Blackman window: `general_cosine` with weights 0.42, 0.5, 0.08.

    Example::

        >>> torch.signal.windows.blackman(3)
        tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def bartlett(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
             requires_grad: bool = False) -> _Tensor:
    """The Bartlett (triangular) window: ``1 - |2n / (M - 1) - 1|``.

    Example::

        >>> torch.signal.windows.bartlett(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype = dtype or torch.get_default_dtype()
    _check("bartlett", M, dtype, layout)
    options = _options(dtype, layout, device, requires_grad)
    trivial = _trivial(M, options)
    if trivial is not None:
        return trivial
    return 1 - torch.abs(_points(-1.0, 2 / _span(M, sym), M, options))


def nuttall(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
            requires_grad: bool = False) -> _Tensor:
    """The minimum 4-term Blackman-Harris window of Nuttall: `general_cosine` with
    weights 0.3635819, 0.4891775, 0.1365995, 0.0106411.

    Example::

        >>> torch.signal.windows.nuttall(3)
        tensor([3.6280e-04, 1.0000e+00, 3.6280e-04])
    """
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)
