"""Pooling layers: each holds its functional's arguments and calls it
(`nn/_functional/pooling.py`). The classes are made per dimension count from one
family class each, as torch's are, with its attribute forms: `MaxPool2d` keeps
``kernel_size`` as given, `AvgPool1d` and `MaxUnpool*` as tuples."""
from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "LPPool1d",
           "LPPool2d", "LPPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


def _tuple(value, k: int) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * k


class _MaxPoolNd(Module):
    """Max pooling over the last `_dims` dims (see F.max_pool2d for the arguments)."""

    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices",
                     "ceil_mode"]
    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        function = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[self._dims - 1]
        return function(input, self.kernel_size, self.stride, self.padding, self.dilation,
                        ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """1d max pooling over ``(N, C, L)`` or ``(C, L)`` (F.max_pool1d).

    Example::

        >>> nn.MaxPool1d(2)(torch.tensor([[1., 3., 2., 0.]]))
        tensor([[3., 2.]])
    """

    _dims = 1


class MaxPool2d(_MaxPoolNd):
    """2d max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (F.max_pool2d).

    Example::

        >>> nn.MaxPool2d(2)(torch.arange(16.).view(1, 4, 4))
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """

    _dims = 2


class MaxPool3d(_MaxPoolNd):
    """3d max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` (F.max_pool3d).

    Example::

        >>> nn.MaxPool3d(2)(torch.arange(8.).view(1, 2, 2, 2))
        tensor([[[[7.]]]])
    """

    _dims = 3


class AvgPool1d(Module):
    """1d average pooling (F.avg_pool1d).

    Args:
        kernel_size, stride (default: `kernel_size`), padding (default: 0),
        ceil_mode (default: False), count_include_pad (default: True): as F.avg_pool1d.

    Example::

        >>> nn.AvgPool1d(2)(torch.tensor([[1., 3., 2., 0.]]))
        tensor([[2., 1.]])
    """

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"]

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _tuple(kernel_size, 1)
        self.stride = _tuple(stride if stride is not None else kernel_size, 1)
        self.padding = _tuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolNd(Module):
    """2d / 3d average pooling (F.avg_pool2d, F.avg_pool3d)."""

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                     "divisor_override"]
    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        function = F.avg_pool2d if self._dims == 2 else F.avg_pool3d
        return function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                        self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    """2d average pooling (F.avg_pool2d; `divisor_override` replaces the window size).

    Example::

        >>> nn.AvgPool2d(2)(torch.arange(4.).view(1, 2, 2))
        tensor([[[1.5000]]])
    """

    _dims = 2


class AvgPool3d(_AvgPoolNd):
    """3d average pooling (F.avg_pool3d).

    Example::

        >>> nn.AvgPool3d(2)(torch.arange(8.).view(1, 2, 2, 2))
        tensor([[[[3.5000]]]])
    """

    _dims = 3


class _AdaptivePoolNd(Module):
    """Adaptive pooling to `output_size` (``None`` entries keep the input's size)."""

    __constants__ = ["output_size"]
    _function = "adaptive_avg_pool2d"

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return getattr(F, self._function)(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    __constants__ = ["output_size", "return_indices"]

    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return getattr(F, self._function)(input, self.output_size, self.return_indices)


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Average pooling of the last dim to `output_size` windows.

    Example::

        >>> nn.AdaptiveAvgPool1d(2)(torch.tensor([[1., 3., 2., 0.]]))
        tensor([[2., 1.]])
    """

    _function = "adaptive_avg_pool1d"


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Average pooling of the last two dims to `output_size` (1: global average pooling).

    Example::

        >>> nn.AdaptiveAvgPool2d(1)(torch.arange(4.).view(1, 2, 2))
        tensor([[[1.5000]]])
    """

    _function = "adaptive_avg_pool2d"


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Average pooling of the last three dims to `output_size`.

    Example::

        >>> nn.AdaptiveAvgPool3d(1)(torch.arange(8.).view(1, 2, 2, 2))
        tensor([[[[3.5000]]]])
    """

    _function = "adaptive_avg_pool3d"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling of the last dim to `output_size` windows (indices too when
    `return_indices`).

    Example::

        >>> nn.AdaptiveMaxPool1d(2)(torch.tensor([[1., 3., 2., 0.]]))
        tensor([[3., 2.]])
    """

    _function = "adaptive_max_pool1d"


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling of the last two dims to `output_size`.

    Example::

        >>> nn.AdaptiveMaxPool2d(1)(torch.arange(4.).view(1, 2, 2))
        tensor([[[3.]]])
    """

    _function = "adaptive_max_pool2d"


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling of the last three dims to `output_size`.

    Example::

        >>> nn.AdaptiveMaxPool3d(1)(torch.arange(8.).view(1, 2, 2, 2))
        tensor([[[[7.]]]])
    """

    _function = "adaptive_max_pool3d"


class _LPPoolNd(Module):
    """Power-average pooling (F.lp_pool1d/2d/3d)."""

    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]
    _dims = 2

    def __init__(self, norm_type: float, kernel_size, stride=None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        function = (F.lp_pool1d, F.lp_pool2d, F.lp_pool3d)[self._dims - 1]
        return function(input, float(self.norm_type), self.kernel_size, self.stride,
                        self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """``(sum x ** p) ** (1 / p)`` over each window of the last dim.

    Example::

        >>> nn.LPPool1d(2, 2)(torch.tensor([[3., 4.]]))
        tensor([[5.]])
    """

    _dims = 1


class LPPool2d(_LPPoolNd):
    """``(sum x ** p) ** (1 / p)`` over each window of the last two dims.

    Example::

        >>> nn.LPPool2d(2, (1, 2))(torch.tensor([[[3., 4.]]]))
        tensor([[[5.]]])
    """

    _dims = 2


class LPPool3d(_LPPoolNd):
    """``(sum x ** p) ** (1 / p)`` over each window of the last three dims.

    Example::

        >>> nn.LPPool3d(2, (1, 1, 2))(torch.tensor([[[[3., 4.]]]]))
        tensor([[[[5.]]]])
    """

    _dims = 3


class _FractionalMaxPoolNd(Module):
    """Fractional max pooling to `output_size`, or to `output_ratio` (in (0, 1)) times
    the input's sizes; `_random_samples` (a buffer) fixes the windows."""

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]
    _dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None) -> None:
        super().__init__()
        k = self._dims
        self.kernel_size = _tuple(kernel_size, k)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _tuple(output_size, k) if output_size is not None else None
        self.output_ratio = _tuple(output_ratio, k) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"FractionalMaxPool{k}d requires specifying either an output "
                             f"size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        function = F.fractional_max_pool2d if self._dims == 2 else F.fractional_max_pool3d
        return function(input, self.kernel_size, self.output_size, self.output_ratio,
                        self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """2d fractional max pooling (F.fractional_max_pool2d).

    Example::

        >>> nn.FractionalMaxPool2d(2, output_ratio=0.5)(torch.randn(1, 1, 6, 6)).shape
        torch.Size([1, 1, 3, 3])
    """

    _dims = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """3d fractional max pooling (F.fractional_max_pool3d).

    Example::

        >>> nn.FractionalMaxPool3d(2, output_size=2)(torch.randn(1, 4, 4, 4)).shape
        torch.Size([1, 2, 2, 2])
    """

    _dims = 3


class _MaxUnpoolNd(Module):
    """The partial inverse of max pooling (F.max_unpool1d/2d/3d)."""

    __constants__ = ["kernel_size", "stride", "padding"]
    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        k = self._dims
        self.kernel_size = _tuple(kernel_size, k)
        self.stride = _tuple(stride if stride is not None else kernel_size, k)
        self.padding = _tuple(padding, k)

    def forward(self, input, indices, output_size: list | None = None):
        function = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._dims - 1]
        return function(input, indices, self.kernel_size, self.stride, self.padding,
                        output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Put each value back at the index `MaxPool1d` returned, zeros elsewhere.

    Example::

        >>> nn.MaxUnpool1d(2)(torch.tensor([[3., 2.]]), torch.tensor([[1, 2]]))
        tensor([[0., 3., 2., 0.]])
    """

    _dims = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of `MaxPool2d` (see `MaxUnpool1d`).

    Example::

        >>> nn.MaxUnpool2d(2)(torch.tensor([[[3.]]]), torch.tensor([[[3]]]))
        tensor([[[0., 0.],
                 [0., 3.]]])
    """

    _dims = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of `MaxPool3d` (see `MaxUnpool1d`).

    Example::

        >>> nn.MaxUnpool3d(1)(torch.tensor([[[[3.]]]]), torch.tensor([[[[0]]]]))
        tensor([[[[3.]]]])
    """

    _dims = 3
