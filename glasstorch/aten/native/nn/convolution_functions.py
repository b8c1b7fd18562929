"""The convolution front ends: conv1d/2d/3d (numeric or string padding),
conv_transpose1d/2d/3d and conv_tbc, each a composite reaching `convolution`.

They add what the operator leaves to its callers: unbatched inputs (a batch of one,
squeezed again), ``padding='same'`` / ``'valid'``, and the argument order of the
transposed functions (output_padding before groups, dilation last).
"""
from __future__ import annotations

import warnings

from ...registry import composite
from ....c10.dtype import scalar_type_name
from .convolution import c_type_name, convolution, convolution_backward
from .padding import constant_pad_nd

_SAME_WARNING = ("Using padding='same' with even kernel lengths and odd dilation may require "
                 "a zero-padded copy of the input be created")


def _batched(name: str, input, dims: int):
    """`input` with a batch dim, and whether one was added (torch's unbatched form)."""
    if input.dim() == dims + 1:
        return input.unsqueeze(0), True
    if input.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    return input, False


def _convolve(name: str, dims: int, input, weight, bias, stride, padding, dilation,
              transposed: bool, output_padding, groups: int):
    batched, added = _batched(name, input, dims)
    result = any_convolution(batched, weight, bias, stride, padding, dilation, transposed,
                             output_padding, groups)
    return result.squeeze(0) if added else result


def any_convolution(input, weight, bias, *parameters):
    """`convolution`, or for complex inputs three real ones (Gauss's trick, as torch's
    front ends do): with ``a = conv(xr, wr, br)``, ``b = conv(xi, wi)`` and ``c =
    conv(xr + xi, wr + wi, br + bi)``, the result is ``a - b + i (c - a - b)``."""
    if not input.is_complex():
        return convolution.call(input, weight, bias, *parameters)
    _check_same_type(input, weight, bias)
    input, weight = input.resolve_conj(), weight.resolve_conj()
    real, imag = input.real, input.imag
    weight_real, weight_imag = weight.real, weight.imag
    bias_real = bias_sum = None
    if bias is not None:
        bias = bias.resolve_conj()
        bias_real, bias_sum = bias.real, bias.real + bias.imag
    a = convolution.call(real, weight_real, bias_real, *parameters)
    b = convolution.call(imag, weight_imag, None, *parameters)
    c = convolution.call(real + imag, weight_real + weight_imag, bias_sum, *parameters)
    return a - b + (c - a - b) * 1j


def _check_same_type(input, weight, bias) -> None:
    """The complex path's own checks, in torch's words (the real convolutions could not
    see a mismatch)."""
    if weight.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_type_name(input.dtype)}) and weight type "
                           f"({_type_name(weight.dtype)}) should be the same")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({c_type_name(input.dtype)}) and bias type "
                           f"({c_type_name(bias.dtype)}) should be the same")


def _type_name(dtype) -> str:
    """torch's legacy type names: ``CPUComplexFloatType``, ``torch.DoubleTensor``."""
    name = scalar_type_name(dtype)
    return f"CPU{name}Type" if dtype.is_complex else f"torch.{name}Tensor"


def _same_padding(input, weight, stride, dilation, dims: int) -> tuple:
    """``padding='same'``: the symmetric padding, and the input with the odd extra
    element of each dim padded on its far side (torch's rule)."""
    if any(s != 1 for s in (list(stride) * dims)[:dims]):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation = list(dilation) * dims if len(dilation) == 1 else list(dilation)
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    extra = []
    for total in reversed(totals):               # constant_pad_nd lists the last dim first
        extra += [0, total % 2]
    if any(extra):
        warnings.warn(_SAME_WARNING, UserWarning, stacklevel=4)
        input = constant_pad_nd.call(input, extra, 0)
    return [total // 2 for total in totals], input


def _string_padding(name: str, dims: int, input, weight, bias, stride, padding: str,
                    dilation, groups: int):
    if padding == "valid":
        amounts = [0] * dims
    elif padding == "same":
        amounts, input = _same_padding(input, weight, stride, dilation, dims)
    else:
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    return _convolve(name, dims, input, weight, bias, stride, amounts, dilation, False,
                     [0] * dims, groups)


def _declare_conv(dims: int):
    name = f"conv{dims}d"
    ones, zeros = [1] * dims, [0] * dims
    head = f"{name}(Tensor input, Tensor weight, Tensor? bias=None, SymInt[{dims}] stride=1"

    def numeric(input, weight, bias=None, stride=ones, padding=zeros, dilation=ones, groups=1):
        return _convolve(name, dims, input, weight, bias, stride, padding, dilation, False,
                         zeros, groups)
    numeric.__doc__ = _conv_doc(dims)
    numeric = composite(f"{head}, SymInt[{dims}] padding=0, SymInt[{dims}] "
                        f"dilation=1, SymInt groups=1) -> Tensor", python_name=name)(numeric)

    @composite(f"{name}.padding{head[len(name):]}, str padding=\"valid\", SymInt[{dims}] "
               f"dilation=1, SymInt groups=1) -> Tensor", python_name=name)
    def with_string(input, weight, bias=None, stride=ones, padding="valid", dilation=ones,
                    groups=1):
        return _string_padding(name, dims, input, weight, bias, stride, padding, dilation,
                               groups)
    return numeric, with_string


def _declare_conv_transpose(dims: int):
    name = f"conv_transpose{dims}d"
    ones, zeros = [1] * dims, [0] * dims
    overload = "" if dims == 1 else ".input"

    def transposed(input, weight, bias=None, stride=ones, padding=zeros, output_padding=zeros,
                   groups=1, dilation=ones):
        return _convolve(name, dims, input, weight, bias, stride, padding, dilation, True,
                         output_padding, groups)
    transposed.__doc__ = _conv_transpose_doc(dims)
    return composite(f"{name}{overload}(Tensor input, Tensor weight, Tensor? bias=None, "
                     f"SymInt[{dims}] stride=1, SymInt[{dims}] padding=0, "
                     f"SymInt[{dims}] output_padding=0, SymInt groups=1, SymInt[{dims}] "
                     f"dilation=1) -> Tensor", python_name=name)(transposed)


def _conv_doc(dims: int) -> str:
    spatial = {1: "(iW)", 2: "(iH, iW)", 3: "(iT, iH, iW)"}[dims]
    return f"""Apply a {dims}D convolution over an input signal made of several planes.

    Args:
        input (Tensor): ``(minibatch, in_channels, *{spatial})``, or without the batch dim.
        weight (Tensor): ``(out_channels, in_channels / groups, *kernel)``.
        bias (Tensor, optional): ``(out_channels,)``. Default: None
        stride (int or tuple): the step of the kernel. Default: 1
        padding (int, tuple or str): implicit zero padding on both sides, or ``'valid'``
            (none) or ``'same'`` (an output as large as the input). Default: 0
        dilation (int or tuple): the spacing between kernel elements. Default: 1
        groups (int): split the input into groups convolved separately. Default: 1

    Returns:
        Tensor: ``(minibatch, out_channels, *out_spatial)``.

    Example::

        >>> torch.conv{dims}d(torch.ones((1, 1) + (3,) * {dims}), torch.ones((1, 1) + (3,) * {dims})).flatten()
        tensor([{3 ** dims}.])
    """


def _conv_transpose_doc(dims: int) -> str:
    return f"""Apply a {dims}D transposed convolution (sometimes called "deconvolution"),
    the adjoint of `conv{dims}d`: each input position spreads its value over a kernel-sized
    window of the output.

    Args:
        input (Tensor): ``(minibatch, in_channels, *spatial)``, or without the batch dim.
        weight (Tensor): ``(in_channels, out_channels / groups, *kernel)``.
        bias (Tensor, optional): ``(out_channels,)``. Default: None
        stride (int or tuple): the step of the kernel. Default: 1
        padding (int or tuple): ``dilation * (kernel_size - 1) - padding`` zero padding is
            added to both sides of each dim of the input. Default: 0
        output_padding (int or tuple): extra size added to one side of each output dim.
            Default: 0
        groups (int): split the input into groups. Default: 1
        dilation (int or tuple): the spacing between kernel elements. Default: 1

    Example::

        >>> torch.conv_transpose{dims}d(torch.ones((1, 1) + (1,) * {dims}), torch.ones((1, 1) + (2,) * {dims})).shape
        torch.Size([1, 1{', 2' * dims}])
    """


conv1d, conv1d_padding = _declare_conv(1)
conv2d, conv2d_padding = _declare_conv(2)
conv3d, conv3d_padding = _declare_conv(3)
conv_transpose1d = _declare_conv_transpose(1)
conv_transpose2d = _declare_conv_transpose(2)
conv_transpose3d = _declare_conv_transpose(3)


# ----------------------------------------------------------------------------------
# conv_tbc: a 1D convolution of (time, batch, channel) inputs
# ----------------------------------------------------------------------------------
def _check_tbc(self, weight, bias) -> None:
    if self.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if self.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if bias.shape[0] != weight.shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")


@composite("conv_tbc(Tensor self, Tensor weight, Tensor bias, int pad=0) -> Tensor",
           grad={"self, weight, bias": "conv_tbc_backward(grad, self, weight, bias, pad)"})
def conv_tbc(self, weight, bias, pad=0):
    """A 1D convolution of a ``(time, batch, in_channels)`` input by a ``(kernel_width,
    in_channels, out_channels)`` weight, zero-padded by `pad` on both ends of time.

    Args:
        self (Tensor): the input, time first.
        weight (Tensor): ``(kernel_width, in_channels, out_channels)``.
        bias (Tensor): ``(out_channels,)``.
        pad (int): zero padding at both ends of the time dim. Default: 0

    Example::

        >>> torch.conv_tbc(torch.ones(3, 1, 1), torch.ones(2, 1, 1), torch.zeros(1)).flatten()
        tensor([2., 2.])
    """
    _check_tbc(self, weight, bias)
    result = any_convolution(self.permute([1, 2, 0]), weight.permute([2, 1, 0]), bias, [1],
                             [pad], [1], False, [0], 1)
    return result.permute([2, 0, 1]).contiguous()


@composite("conv_tbc_backward(Tensor self, Tensor input, Tensor weight, Tensor bias, int pad) "
           "-> (Tensor, Tensor, Tensor)", function=False)
def conv_tbc_backward(self, input, weight, bias, pad):
    """The gradients of `conv_tbc`'s input, weight and bias for the incoming gradient
    `self` ``(time, batch, out_channels)``."""
    grads = convolution_backward.call(self.permute([1, 2, 0]), input.permute([1, 2, 0]),
                                      weight.permute([2, 1, 0]), list(bias.shape), [1], [pad],
                                      [1], False, [0], 1, [True, True, True])
    return (grads[0].permute([2, 0, 1]).contiguous(), grads[1].permute([2, 1, 0]).contiguous(),
            grads[2])
