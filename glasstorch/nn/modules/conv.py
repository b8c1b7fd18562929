"""Convolution layers: Conv1d/2d/3d, ConvTranspose1d/2d/3d and their lazy forms.

Each layer holds a weight ``(out_channels, in_channels / groups, *kernel_size)``
(transposed: ``(in_channels, out_channels / groups, *kernel_size)``) and an optional
bias, initialised as torch's layers are (Kaiming-uniform with ``a = sqrt(5)``, the bias
uniform in ``±1 / sqrt(fan_in)``), drawing from the global generator in torch's order.
A `padding_mode` other than ``'zeros'`` pads the input with `F.pad` first and
convolves without padding.
"""
from __future__ import annotations

import math
from itertools import repeat

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d"]

_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _ntuple(value, n: int) -> tuple:
    """An int repeated n times; an iterable as a tuple."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return tuple(repeat(value, n))


class _ConvNd(Module):
    """What every convolution layer shares: the arguments' checks, the parameters and
    their initialisation, and the printed form."""

    __constants__ = ["stride", "padding", "dilation", "groups", "padding_mode",
                     "output_padding", "in_channels", "out_channels", "kernel_size"]

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride, padding,
                 dilation, transposed: bool, output_padding, groups: int, bias: bool,
                 padding_mode: str, device=None, dtype=None) -> None:
        super().__init__()
        _check_arguments(in_channels, out_channels, groups, padding, stride, padding_mode)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = kernel_size, stride
        self.padding, self.dilation = padding, dilation
        self.transposed, self.output_padding = transposed, output_padding
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = _reversed_padding(padding, dilation,
                                                                  kernel_size)
        shape = ((in_channels, out_channels // groups) if transposed
                 else (out_channels, in_channels // groups)) + tuple(kernel_size)
        self.weight = Parameter(torch.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw new parameters: Kaiming-uniform weights (``a = sqrt(5)``), and a bias
        uniform in ``±1 / sqrt(fan_in)``."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        text = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            text += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += ", output_padding={output_padding}"
        if self.groups != 1:
            text += ", groups={groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += ", padding_mode={padding_mode}"
        return text.format(**self.__dict__)

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


def _check_arguments(in_channels, out_channels, groups, padding, stride, padding_mode):
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str):
        if padding not in _PADDING_STRINGS:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             f"{_PADDING_STRINGS}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                         f"padding_mode='{padding_mode}'")


def _reversed_padding(padding, dilation, kernel_size) -> list:
    """F.pad's amounts (last dim first, both sides) for a non-zero `padding_mode`;
    ``'same'`` puts the odd extra element on the far side."""
    if isinstance(padding, str):
        amounts = [0, 0] * len(kernel_size)
        if padding == "same":
            for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                total = d * (k - 1)
                amounts[2 * i] = total // 2
                amounts[2 * i + 1] = total - total // 2
        return amounts
    return [amount for amount in reversed(padding) for _ in range(2)]


class _Conv(_ConvNd):
    """Conv1d/2d/3d: `_dims` spatial dims, convolved by `_function`."""

    _dims = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 padding=0, dilation=1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        n = self._dims
        padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n),
                         _ntuple(stride, n), padding, _ntuple(dilation, n), False,
                         _ntuple(0, n), groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        convolve = getattr(F, f"conv{self._dims}d")
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return convolve(padded, weight, bias, self.stride, _ntuple(0, self._dims),
                            self.dilation, self.groups)
        return convolve(input, weight, bias, self.stride, self.padding, self.dilation,
                        self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


_CONV_DOC = r"""A {n}D convolution over an input of several planes: each output channel
    is the bias plus the sum over the (grouped) input channels of their
    cross-correlation with the channel's kernel.

    Args:
        in_channels (int): channels of the input
        out_channels (int): channels the convolution produces
        kernel_size (int or tuple): the kernel's size
        stride (int or tuple, optional): the step of the kernel. Default: 1
        padding (int, tuple or str, optional): padding added to all sides, or
            ``'valid'`` / ``'same'``. Default: 0
        dilation (int or tuple, optional): spacing between kernel elements. Default: 1
        groups (int, optional): blocked connections from input to output channels.
            Default: 1
        bias (bool, optional): learn an additive bias. Default: ``True``
        padding_mode (str, optional): ``'zeros'``, ``'reflect'``, ``'replicate'`` or
            ``'circular'``. Default: ``'zeros'``

    Shape:
        - Input: :math:`(N, C_{{in}}, *)` or :math:`(C_{{in}}, *)` with {n} spatial dims
        - Output: :math:`(N, C_{{out}}, *)` or :math:`(C_{{out}}, *)`

    Example::

        >>> m = nn.Conv{n}d(16, 33, 3, stride=2)
        >>> m(torch.randn((20, 16) + (10,) * {n})).shape[:2]
        torch.Size([20, 33])
    """


class Conv1d(_Conv):
    __doc__ = _CONV_DOC.format(n=1)
    _dims = 1


class Conv2d(_Conv):
    __doc__ = _CONV_DOC.format(n=2)
    _dims = 2


class Conv3d(_Conv):
    __doc__ = _CONV_DOC.format(n=3)
    _dims = 3


class _ConvTransposeNd(_ConvNd):
    """ConvTranspose1d/2d/3d: the adjoint of the convolution with the same arguments."""

    _dims = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 padding=0, output_padding=0, groups: int = 1, bias: bool = True,
                 dilation=1, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{self.__class__.__name__}')
        n = self._dims
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n),
                         _ntuple(stride, n), _ntuple(padding, n), _ntuple(dilation, n), True,
                         _ntuple(output_padding, n), groups, bias, padding_mode, device,
                         dtype)

    def _output_padding(self, input, output_size, stride, padding, kernel_size,
                        num_spatial_dims: int, dilation=None) -> list:
        """The output_padding that gives `output_size` (the layer's own without one)."""
        if output_size is None:
            return list(self.output_padding)
        non_spatial = 2 if input.dim() == num_spatial_dims + 2 else 1
        output_size = list(output_size)
        if len(output_size) == non_spatial + num_spatial_dims:
            output_size = output_size[non_spatial:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, "
                             f"output_size must have {num_spatial_dims} or "
                             f"{non_spatial + num_spatial_dims} elements (got "
                             f"{len(output_size)})")
        smallest = [(input.size(d + non_spatial) - 1) * stride[d] - 2 * padding[d]
                    + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1
                    for d in range(num_spatial_dims)]
        largest = [low + stride[d] - 1 for d, low in enumerate(smallest)]
        for size, low, high in zip(output_size, smallest, largest):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid "
                                 f"sizes range from {smallest} to {largest} (for an input "
                                 f"of {input.size()[2:]})")
        return [size - low for size, low in zip(output_size, smallest)]

    def forward(self, input, output_size=None):
        if self.padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{self.__class__.__name__}')
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, self._dims, self.dilation)
        convolve = getattr(F, f"conv_transpose{self._dims}d")
        return convolve(input, self.weight, self.bias, self.stride, self.padding,
                        output_padding, self.groups, self.dilation)


_CONV_TRANSPOSE_DOC = r"""A {n}D transposed convolution: the gradient of `Conv{n}d` with
    respect to its input, each input position spreading its value over a kernel-sized
    window of the output (often used to upsample).

    Args:
        in_channels (int): channels of the input
        out_channels (int): channels the convolution produces
        kernel_size (int or tuple): the kernel's size
        stride (int or tuple, optional): the step of the kernel. Default: 1
        padding (int or tuple, optional): ``dilation * (kernel_size - 1) - padding`` zero
            padding on both sides of each input dim. Default: 0
        output_padding (int or tuple, optional): extra size on one side of each output
            dim. Default: 0
        groups (int, optional): blocked connections from input to output channels.
            Default: 1
        bias (bool, optional): learn an additive bias. Default: ``True``
        dilation (int or tuple, optional): spacing between kernel elements. Default: 1

    Shape:
        - Input: :math:`(N, C_{{in}}, *)` or :math:`(C_{{in}}, *)` with {n} spatial dims
        - Output: :math:`(N, C_{{out}}, *)` or :math:`(C_{{out}}, *)`; ``forward`` takes
          an `output_size` choosing among the sizes a strided layer could produce

    Example::

        >>> m = nn.ConvTranspose{n}d(16, 33, 3, stride=2)
        >>> m(torch.randn((20, 16) + (10,) * {n})).shape[:3]
        torch.Size([20, 33, 21])
    """


class ConvTranspose1d(_ConvTransposeNd):
    __doc__ = _CONV_TRANSPOSE_DOC.format(n=1)
    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    __doc__ = _CONV_TRANSPOSE_DOC.format(n=2)
    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    __doc__ = _CONV_TRANSPOSE_DOC.format(n=3)
    _dims = 3


class _LazyConvXdMixin(LazyModuleMixin):
    """A convolution layer whose `in_channels` comes from its first input."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None, **transposed) -> None:
        # in_channels 0 and no bias: nothing drawn until the first input arrives
        super().__init__(0, 0, kernel_size, stride, padding, groups=groups, bias=False,
                         dilation=dilation, padding_mode=padding_mode, device=device,
                         dtype=dtype, **transposed)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        """Materialize the weight (and bias) for the input's channel count."""
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._get_in_channels(input)
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        with torch.no_grad():
            self.weight.materialize(shape + tuple(self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input) -> int:
        unbatched = self._dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D "
                               f"(batched) input to {self.__class__.__name__}, but got input "
                               f"of size: {input.shape}")
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]


class _LazyConvTransposeMixin(_LazyConvXdMixin):
    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding=output_padding)


class LazyConv1d(_LazyConvXdMixin, Conv1d):
    """A `Conv1d` whose `in_channels` is inferred from the first input."""
    cls_to_become = Conv1d


class LazyConv2d(_LazyConvXdMixin, Conv2d):
    """A `Conv2d` whose `in_channels` is inferred from the first input."""
    cls_to_become = Conv2d


class LazyConv3d(_LazyConvXdMixin, Conv3d):
    """A `Conv3d` whose `in_channels` is inferred from the first input."""
    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposeMixin, ConvTranspose1d):
    """A `ConvTranspose1d` whose `in_channels` is inferred from the first input."""
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeMixin, ConvTranspose2d):
    """A `ConvTranspose2d` whose `in_channels` is inferred from the first input."""
    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeMixin, ConvTranspose3d):
    """A `ConvTranspose3d` whose `in_channels` is inferred from the first input."""
    cls_to_become = ConvTranspose3d
