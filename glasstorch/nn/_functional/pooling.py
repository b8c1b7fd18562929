"""torch.nn.functional's pooling functions: the argument forms torch's Python layer
accepts (ints or tuples, ``stride=None``, ``return_indices``, ``None`` in an adaptive
output size, output ratios), around the operators of `aten/native/nn/pooling*.py`.

``max_pool2d(x, 2, return_indices=True)`` returns ``(values, indices)``; the
``*_with_indices`` forms always do. `lp_pool*` is torch's composition of an average
pool of ``x ** p``, and `fractional_max_pool*` draws its window samples with
`torch.rand` (so a seeded program pools the windows torch pools).
"""
from __future__ import annotations

import glasstorch as torch

from ...aten.binding import get_binding

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
           "max_pool2d_with_indices", "max_pool3d_with_indices", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "adaptive_max_pool3d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices",
           "adaptive_avg_pool2d", "adaptive_avg_pool3d", "lp_pool1d", "lp_pool2d",
           "lp_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "fractional_max_pool2d", "fractional_max_pool3d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]

Tensor = torch.Tensor


def _nn(name: str):
    """The binding of an operator declared with ``python_module="nn"`` (torch._C._nn)."""
    return get_binding("nn", name)


def _tuple(value, k: int) -> tuple:
    """An int repeated `k` times, or a sequence as a tuple (torch's _single/_pair/_triple)."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * k


def _stride(stride, k: int):
    """``None`` (the kernel size, to the operator) as an empty list."""
    return [] if stride is None else _tuple(stride, k)


# ----------------------------------------------------------------------------------
# Max pooling
# ----------------------------------------------------------------------------------
def max_pool1d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False) -> tuple:
    """1d max pooling with each maximum's index along the last dim.

    Args:
        input (Tensor): ``(N, C, L)`` or ``(C, L)``.
        kernel_size (int or tuple): the window's size.
        stride (int or tuple, optional): the step between windows. Default: `kernel_size`.
        padding (int or tuple): implicit ``-inf`` on both sides. Default: 0.
        dilation (int or tuple): the distance between a window's elements. Default: 1.
        ceil_mode (bool): round the output length up (a last partial window). Default: False.
        return_indices (bool): ignored; the indices are always returned.

    Returns:
        (Tensor, Tensor): the maxima and their indices.

    Example::

        >>> F.max_pool1d_with_indices(torch.tensor([[1., 3., 2., 0.]]), 2)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    return torch.max_pool1d_with_indices(input, _tuple(kernel_size, 1), _stride(stride, 1),
                                         _tuple(padding, 1), _tuple(dilation, 1), ceil_mode)


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False) -> tuple:
    """2d max pooling with each maximum's flat index over the last two dims.

    Args and Returns: as `max_pool1d_with_indices`, over ``(N, C, H, W)`` or ``(C, H, W)``.

    Example::

        >>> F.max_pool2d_with_indices(torch.arange(4.).view(1, 2, 2), 2)
        (tensor([[[3.]]]), tensor([[[3]]]))
    """
    return _nn("max_pool2d_with_indices")(input, kernel_size, _stride(stride, 2), padding,
                                          dilation, ceil_mode)


def max_pool3d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False) -> tuple:
    """3d max pooling with each maximum's flat index over the last three dims.

    Args and Returns: as `max_pool1d_with_indices`, over ``(N, C, D, H, W)`` or
    ``(C, D, H, W)``.

    Example::

        >>> F.max_pool3d_with_indices(torch.arange(8.).view(1, 2, 2, 2), 2)[1]
        tensor([[[[7]]]])
    """
    return _nn("max_pool3d_with_indices")(input, kernel_size, _stride(stride, 3), padding,
                                          dilation, ceil_mode)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """1d max pooling: the largest element of each window (with the indices when
    `return_indices`; see `max_pool1d_with_indices` for the arguments).

    Example::

        >>> F.max_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2)
        tensor([[3., 2.]])
    """
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool1d(input, _tuple(kernel_size, 1), _stride(stride, 1),
                            _tuple(padding, 1), _tuple(dilation, 1), ceil_mode)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """2d max pooling (see `max_pool1d`).

    Example::

        >>> F.max_pool2d(torch.arange(16.).view(1, 4, 4), 2)
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool2d(input, kernel_size, _stride(stride, 2), padding, dilation,
                            ceil_mode)


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """3d max pooling (see `max_pool1d`).

    Example::

        >>> F.max_pool3d(torch.arange(8.).view(1, 2, 2, 2), 2)
        tensor([[[[7.]]]])
    """
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool3d(input, kernel_size, _stride(stride, 3), padding, dilation,
                            ceil_mode)


# ----------------------------------------------------------------------------------
# Adaptive pooling
# ----------------------------------------------------------------------------------
def _output_size(output_size, input: Tensor, k: int):
    """An adaptive output size with ``None`` entries meaning the input's own size."""
    if not isinstance(output_size, (list, tuple)):
        return output_size
    if input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    sizes = input.shape[-len(output_size):]
    return [size if value is None else value for value, size in zip(output_size, sizes)]


def adaptive_max_pool1d_with_indices(input: Tensor, output_size,
                                     return_indices: bool = False) -> tuple:
    """Max pooling of the last dim to `output_size` windows, with each maximum's index.

    Example::

        >>> F.adaptive_max_pool1d_with_indices(torch.tensor([[1., 3., 2., 0.]]), 2)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    return torch.adaptive_max_pool1d(input, _tuple(output_size, 1))


def adaptive_max_pool2d_with_indices(input: Tensor, output_size,
                                     return_indices: bool = False) -> tuple:
    """Max pooling of the last two dims to `output_size` (``None`` keeps a size), with
    each maximum's flat index.

    Example::

        >>> F.adaptive_max_pool2d_with_indices(torch.arange(4.).view(1, 2, 2), 1)
        (tensor([[[3.]]]), tensor([[[3]]]))
    """
    return _nn("adaptive_max_pool2d")(input, _output_size(output_size, input, 2))


def adaptive_max_pool3d_with_indices(input: Tensor, output_size,
                                     return_indices: bool = False) -> tuple:
    """Max pooling of the last three dims to `output_size`, with each maximum's flat index.

    Example::

        >>> F.adaptive_max_pool3d_with_indices(torch.arange(8.).view(1, 2, 2, 2), 1)[1]
        tensor([[[[7]]]])
    """
    return _nn("adaptive_max_pool3d")(input, _output_size(output_size, input, 3))


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """Max pooling of the last dim to `output_size` windows (with the indices when
    `return_indices`).

    Example::

        >>> F.adaptive_max_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2)
        tensor([[3., 2.]])
    """
    result = adaptive_max_pool1d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Max pooling of the last two dims to `output_size` (see `adaptive_max_pool1d`).

    Example::

        >>> F.adaptive_max_pool2d(torch.arange(4.).view(1, 2, 2), 1)
        tensor([[[3.]]])
    """
    result = adaptive_max_pool2d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """Max pooling of the last three dims to `output_size` (see `adaptive_max_pool1d`).

    Example::

        >>> F.adaptive_max_pool3d(torch.arange(8.).view(1, 2, 2, 2), 1)
        tensor([[[[7.]]]])
    """
    result = adaptive_max_pool3d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average pooling of the last two dims to `output_size` (``None`` keeps a size).

    Args:
        input (Tensor): ``(N, C, H, W)`` or ``(C, H, W)``.
        output_size (int or tuple): the result's last two sizes.

    Example::

        >>> F.adaptive_avg_pool2d(torch.arange(4.).view(1, 2, 2), 1)
        tensor([[[1.5000]]])
    """
    return _nn("adaptive_avg_pool2d")(input, _output_size(output_size, input, 2))


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average pooling of the last three dims to `output_size` (``None`` keeps a size).

    Example::

        >>> F.adaptive_avg_pool3d(torch.arange(8.).view(1, 2, 2, 2), 1)
        tensor([[[[3.5000]]]])
    """
    return _nn("adaptive_avg_pool3d")(input, _output_size(output_size, input, 3))


# ----------------------------------------------------------------------------------
# Power-average pooling
# ----------------------------------------------------------------------------------
def _lp_pool(k: int, input: Tensor, norm_type, kernel_size, stride, ceil_mode) -> Tensor:
    """``(sum over each window of x ** p) ** (1 / p)``: an average pool of ``x ** p``
    times the window size; p = ±inf is the max (min) of ``|x|``."""
    kernel = _tuple(kernel_size, k)
    max_pool = (max_pool1d, max_pool2d, max_pool3d)[k - 1]
    if norm_type == float("inf"):
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    powered = input.pow(norm_type)
    if k == 1:
        out = torch.avg_pool1d(powered, kernel, _stride(stride, 1), (0,), ceil_mode)
    else:
        out = _nn(f"avg_pool{k}d")(powered, kernel, _stride(stride, k), 0, ceil_mode)
    window = 1
    for n in kernel:
        window *= n
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over the last dim: ``(sum x ** p) ** (1 / p)`` per window.

    Args:
        input (Tensor): ``(N, C, L)`` or ``(C, L)``.
        norm_type (float): the power `p` (inf: the max of ``|x|``).
        kernel_size (int): the window's size.
        stride (int, optional): the step between windows. Default: `kernel_size`.
        ceil_mode (bool): round the output length up. Default: False.

    Example::

        >>> F.lp_pool1d(torch.tensor([[3., 4.]]), 2, 2)
        tensor([[5.]])
    """
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over the last two dims (see `lp_pool1d`).

    Example::

        >>> F.lp_pool2d(torch.tensor([[[3., 4.]]]), 2, (1, 2))
        tensor([[[5.]]])
    """
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over the last three dims (see `lp_pool1d`).

    Example::

        >>> F.lp_pool3d(torch.tensor([[[[3., 4.]]]]), 2, (1, 1, 2))
        tensor([[[[5.]]]])
    """
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


# ----------------------------------------------------------------------------------
# Unpooling
# ----------------------------------------------------------------------------------
def _unpool_size(input: Tensor, kernel, stride, padding, output_size) -> list:
    """The unpooled sizes: the given ones (the last k of them), which must lie within a
    stride of the sizes that invert the pooling, or those sizes."""
    k = len(kernel)
    default = [(input.shape[d - k] - 1) * stride[d] + kernel[d] - 2 * padding[d]
               for d in range(k)]
    if output_size is None:
        return default
    if len(output_size) == k + 2:
        output_size = output_size[2:]
    if len(output_size) != k:
        raise ValueError(f"output_size should be a sequence containing {k} or {k + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(k):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f'{low} and {high})')
    return list(output_size)


def _unpool_arguments(k: int, input, kernel_size, stride, padding, output_size) -> tuple:
    kernel = _tuple(kernel_size, k)
    stride = kernel if stride is None else _tuple(stride, k)
    padding = _tuple(padding, k)
    return _unpool_size(input, kernel, stride, padding, output_size), stride, padding


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """The partial inverse of `max_pool1d`: each value put back at its index, zeros
    elsewhere.

    Args:
        input (Tensor): the pooled values, ``(N, C, L)`` or ``(C, L)``.
        indices (Tensor): the indices `max_pool1d` returned with them.
        kernel_size, stride, padding: the pooling's arguments.
        output_size (list, optional): the unpooled length (when the pooling dropped some).

    Example::

        >>> F.max_unpool1d(torch.tensor([[3., 2.]]), torch.tensor([[1, 2]]), 2)
        tensor([[0., 3., 2., 0.]])
    """
    size, _, _ = _unpool_arguments(1, input, kernel_size, stride, padding, output_size)
    return _nn("max_unpool2d")(input.unsqueeze(-1), indices.unsqueeze(-1),
                               list(size) + [1]).squeeze(-1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """The partial inverse of `max_pool2d` (see `max_unpool1d`).

    Example::

        >>> F.max_unpool2d(torch.tensor([[[3.]]]), torch.tensor([[[3]]]), 2)
        tensor([[[0., 0.],
                 [0., 3.]]])
    """
    size, _, _ = _unpool_arguments(2, input, kernel_size, stride, padding, output_size)
    return _nn("max_unpool2d")(input, indices, size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """The partial inverse of `max_pool3d` (see `max_unpool1d`).

    Example::

        >>> F.max_unpool3d(torch.tensor([[[[3.]]]]), torch.tensor([[[[0]]]]), 1)
        tensor([[[[3.]]]])
    """
    size, stride, padding = _unpool_arguments(3, input, kernel_size, stride, padding,
                                              output_size)
    return _nn("max_unpool3d")(input, indices, size, stride, padding)


# ----------------------------------------------------------------------------------
# Fractional max pooling
# ----------------------------------------------------------------------------------
def _fractional(k: int, input: Tensor, kernel_size, output_size, output_ratio,
                random_samples) -> tuple:
    name = f"fractional_max_pool{k}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an "
                         f"output_ratio")
    if output_size is None:
        ratio = _tuple(output_ratio, k)
        if len(ratio) > k:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or "
                             f"tuple of Ints.")
        output_size = [int(n * r) for n, r in zip(input.shape[-k:], ratio)]
    if random_samples is None:
        batch = 1 if input.dim() == k + 1 else input.shape[0]
        random_samples = torch.rand(batch, input.shape[-k - 1], k, dtype=input.dtype,
                                    device=input.device)
    return _nn(name)(input, _tuple(kernel_size, k), _tuple(output_size, k), random_samples)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    """Max pooling over windows of `kernel_size` at pseudo-random places, to
    `output_size` (or `output_ratio` times the input's sizes), with the indices.

    Args:
        input (Tensor): ``(N, C, H, W)`` or ``(C, H, W)``.
        kernel_size (int or tuple): the window's size.
        output_size (int or tuple, optional): the result's last two sizes.
        output_ratio (float or tuple, optional): the result's sizes as fractions of the
            input's, when `output_size` is not given.
        _random_samples (Tensor, optional): ``(N, C, 2)`` samples in [0, 1) placing the
            windows; drawn with torch.rand when None.

    Example::

        >>> v, i = F.fractional_max_pool2d_with_indices(torch.randn(1, 1, 5, 5), 2, 3)
        >>> v.shape
        torch.Size([1, 1, 3, 3])
    """
    return _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    """3d fractional max pooling with the indices (see
    `fractional_max_pool2d_with_indices`; samples ``(N, C, 3)``).

    Example::

        >>> F.fractional_max_pool3d_with_indices(torch.randn(1, 4, 4, 4), 2, 2)[0].shape
        torch.Size([1, 2, 2, 2])
    """
    return _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples: Tensor | None = None):
    """Fractional max pooling (the indices too when `return_indices`; see
    `fractional_max_pool2d_with_indices`).

    Example::

        >>> F.fractional_max_pool2d(torch.randn(1, 1, 5, 5), 2, output_ratio=0.5).shape
        torch.Size([1, 1, 2, 2])
    """
    result = _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return result if return_indices else result[0]


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples: Tensor | None = None):
    """3d fractional max pooling (see `fractional_max_pool2d`).

    Example::

        >>> F.fractional_max_pool3d(torch.randn(1, 4, 4, 4), 2, output_ratio=0.5).shape
        torch.Size([1, 2, 2, 2])
    """
    result = _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return result if return_indices else result[0]
