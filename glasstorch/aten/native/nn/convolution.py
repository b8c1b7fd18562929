"""Convolution: `convolution` (plain and transposed, any number of spatial dims) and
`convolution_backward`.

`convolution` is the one operator every convolution front end (`conv2d`,
`conv_transpose1d`, ... in `convolution_functions.py`) reaches, and the one autograd
records (ConvolutionBackward0). Its kernels are GEMMs (Note [Convolution as GEMM] in
`convolution_kernels.py`).

Note [Convolution backward in convolutions]
    Each gradient of a convolution is a convolution again. The input's gradient is
    the transposed convolution of the incoming gradient by the same weight (and the
    other way round for a transposed forward). The weight's gradient correlates the
    input with the incoming gradient: with the batch dim moved into the channels
    (``(Cig, G*N, *spatial)``) and the gradient as a weight ``(G*Cog, N,
    *out_spatial)``, it is a grouped convolution whose stride is the forward's
    dilation and whose dilation is the forward's stride, cut to the kernel's size.
    The bias's gradient sums the incoming gradient over batch and positions.
    `convolution_backward` is written in those operators, so a second derivative
    (and a third) comes from their own formulas.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.layout import channels_last, channels_last_3d, contiguous_format
from ....c10.tensor_impl import contiguous_strides
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from ..creation.copy import memory_format_strides, suggest_memory_format
from ..pointwise.unary import refuse
from . import convolution_kernels as kernels
from .padding import constant_pad_nd

_AXIS_NAMES = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}


# ----------------------------------------------------------------------------------
# Argument checks (torch's, in its order)
# ----------------------------------------------------------------------------------
def expand_parameter(name: str, value, dims: int) -> list:
    """A one-element list stands for every spatial dim; otherwise one value per dim."""
    value = list(value)
    if len(value) == 1:
        return value * dims
    if len(value) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={value}")
    return value


def _check_parameters(weight, stride, padding, dilation, output_padding, groups) -> tuple:
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    dims = weight.dim() - 2
    stride, padding, dilation, output_padding = (
        expand_parameter(name, value, dims) for name, value in
        (("stride", stride), ("padding", padding), ("dilation", dilation),
         ("output_padding", output_padding)))
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {dilation}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    return stride, padding, dilation, output_padding


def _check_shapes(input, weight, bias, transposed: bool, groups: int) -> None:
    if input.dim() != weight.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight._size)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input._size)} instead")
    out_channels = weight._size[1] * groups if transposed else weight._size[0]
    if weight._size[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"[{list(weight._size)}] instead")
    expected = weight._size[0] if transposed else weight._size[1] * groups
    if input._size[1] != expected:
        given = f"transposed=1" if transposed else f"groups={groups}"
        raise RuntimeError(f"Given {given}, weight of size {list(weight._size)}, expected "
                           f"input{list(input._size)} to have {expected} channels, but got "
                           f"{input._size[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias._size[0] != out_channels):
        raise RuntimeError(f"Given weight of size {list(weight._size)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of "
                           f"size {list(bias._size)} instead")


def _check_dtypes(input, weight, bias) -> None:
    if weight._dtype is not input._dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(input._dtype)} but found "
                           f"{scalar_type_name(weight._dtype)}")
    if bias is not None and bias._dtype is not input._dtype:
        raise RuntimeError(f"Input type ({c_type_name(input._dtype)}) and bias type "
                           f"({c_type_name(bias._dtype)}) should be the same")


_C_NAMES = {dtypes.float32: "float", dtypes.float64: "double", dtypes.float16: "c10::Half",
            dtypes.bfloat16: "c10::BFloat16", dtypes.int64: "long int", dtypes.int32: "int",
            dtypes.int16: "short int", dtypes.int8: "signed char",
            dtypes.uint8: "unsigned char", dtypes.bool: "bool",
            dtypes.complex64: "c10::complex<float>", dtypes.complex128: "c10::complex<double>"}


def c_type_name(dtype) -> str:
    """The C++ name torch's messages give a dtype (``float``, ``long int``)."""
    return _C_NAMES.get(dtype, str(dtype).replace("torch.", ""))


def _sizes_text(sizes) -> str:
    return "(" + " x ".join(str(s) for s in sizes) + ")"


def output_spatial(input, weight, stride, padding, dilation, transposed: bool,
                   output_padding) -> list:
    """The result's spatial sizes, refusing a kernel larger than the padded input and
    a transposed result with a non-positive size."""
    in_spatial, kernel = input._size[2:], weight._size[2:]
    if transposed:
        sizes = [(i - 1) * s - 2 * p + d * (k - 1) + o + 1 for i, s, p, d, k, o in
                 zip(in_spatial, stride, padding, dilation, kernel, output_padding)]
        if any(s <= 0 for s in sizes):
            raise RuntimeError(f"Given input size per channel: {_sizes_text(in_spatial)}. "
                               f"Calculated output size per channel: {_sizes_text(sizes)}. "
                               f"Output size is too small")
        return sizes
    padded = [i + 2 * p for i, p in zip(in_spatial, padding)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
    if any(r > q for r, q in zip(reach, padded)):
        raise RuntimeError(f"Calculated padded input size per channel: {_sizes_text(padded)}. "
                           f"Kernel size: {_sizes_text(reach)}. Kernel size can't be greater "
                           f"than actual input size")
    return [(q - r) // s + 1 for q, r, s in zip(padded, reach, stride)]


def _check_output_padding(output_padding, stride, dilation) -> None:
    if all(o < max(s, d) for o, s, d in zip(output_padding, stride, dilation)):
        return
    names = _AXIS_NAMES.get(len(stride), tuple(str(i) for i in range(len(stride))))
    words = [f"{kind}_{axis}: {v}" for kind, values in
             (("output_padding", output_padding), ("stride", stride), ("dilation", dilation))
             for axis, v in zip(names, values)]
    raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                       "got " + " ".join(words))


# ----------------------------------------------------------------------------------
# convolution
# ----------------------------------------------------------------------------------
def _convolution_meta(input, weight, bias, stride, padding, dilation, transposed,
                      output_padding, groups):
    stride, padding, dilation, output_padding = _check_parameters(
        weight, stride, padding, dilation, output_padding, groups)
    _check_shapes(input, weight, bias, transposed, groups)
    _check_dtypes(input, weight, bias)
    if transposed:
        _check_output_padding(output_padding, stride, dilation)
    spatial = output_spatial(input, weight, stride, padding, dilation, transposed,
                             output_padding)
    channels = weight._size[1] * groups if transposed else weight._size[0]
    shape = (input._size[0], channels) + tuple(spatial)
    return TensorMeta(shape, input._dtype, _result_strides(input, weight, shape, groups))


def _result_strides(input, weight, shape: tuple, groups: int) -> tuple:
    """Channels-last when the input or the weight is laid out so, as torch's CPU
    convolution decides: always in 2D; in 3D only where it would run oneDNN (float32,
    and a call its heuristic finds large enough), its other kernels writing row-major."""
    layouts = {suggest_memory_format(input), suggest_memory_format(weight)}
    if channels_last in layouts:
        return memory_format_strides(shape, channels_last) or contiguous_strides(shape)
    if channels_last_3d in layouts and _uses_onednn(input, weight, groups):
        return memory_format_strides(shape, channels_last_3d) or contiguous_strides(shape)
    return contiguous_strides(shape)


def _uses_onednn(input, weight, groups: int) -> bool:
    """torch's test for its oneDNN path (float32 only here): several groups, a kernel
    larger than 3x3 in its last two dims, a batch, or a large enough input."""
    if input._dtype is not dtypes.float32:
        return False
    n, c, d, h = input._size[:4]
    return (groups > 1 or (weight._size[-1] > 3 and weight._size[-2] > 3) or n > 1
            or n * c * d * h > 20480)


def _convolution_meta_key(input, weight, bias, stride, padding, dilation, transposed,
                          output_padding, groups):
    """torch's meta function (Python): fewer checks, its own words; the sizes from the
    same formulas, a size-0 channel dim kept."""
    dims = input.dim() - 2
    if weight.dim() < input.dim():
        raise IndexError("tuple index out of range")
    if bias is not None and bias._dtype is not input._dtype:
        raise RuntimeError(f"Input type ({c_type_name(input._dtype)}) and bias type "
                           f"({c_type_name(bias._dtype)}) should be the same")
    if not transposed and weight._size[1] * groups != input._size[1]:
        raise RuntimeError("Invalid channel dimensions")
    stride, padding, dilation, output_padding = (
        list(v) * dims if len(v) == 1 else list(v)
        for v in (stride, padding, dilation, output_padding))
    if not transposed:
        output_spatial(input, weight, [1] * dims, padding, dilation, False, [0] * dims)
    in_spatial, kernel = input._size[2:], weight._size[2:]
    if transposed:
        spatial = [(n - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1)
                   + output_padding[i] + 1 for i, n in enumerate(in_spatial)]
    else:
        spatial = [(n + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                   for i, n in enumerate(in_spatial)]
    if spatial and all(s <= 0 for s in spatial):
        raise RuntimeError(f"Given input size per channel: {list(in_spatial)}. Calculated "
                           f"output size per channel: {spatial}. Output size is too small")
    channels = weight._size[1] * groups if transposed else weight._size[0]
    shape = (input._size[0], channels if input._size[1] else 0) + tuple(spatial)
    return TensorMeta(shape, input._dtype, _result_strides(input, weight, shape, groups))


_REFUSED = frozenset(np.dtype(t) for t in (np.bool_, np.complex64, np.complex128))


def _kernel_name(dims: int, transposed: bool) -> str:
    """The CPU kernel torch names when it refuses a dtype (complex inputs reach
    `convolution` split into real ones by the front ends)."""
    if transposed:
        return "slow_conv_transpose3d_out_cpu" if dims == 3 else "slow_conv_transpose2d_out_cpu"
    return "compute_columns3d" if dims == 3 else "slow_conv2d_cpu"


@derivative_helper
def convolution_backward_of(grad, input, weight, bias, stride, padding, dilation,
                            transposed: bool, output_padding, groups: int, mask):
    """`convolution`'s gradients through `convolution_backward` (the bias's sizes
    from the bias, when there is one)."""
    bias_sizes = None if bias is None else list(bias.shape)
    return convolution_backward.call(grad, input, weight, bias_sizes, stride, padding,
                                     dilation, transposed, output_padding, groups,
                                     [bool(m) for m in mask])


@op("convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] "
    "padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) "
    "-> Tensor", meta=_convolution_meta,
    grad={"input, weight, bias": "convolution_backward_of(grad, input, weight, bias, stride, "
                                 "padding, dilation, transposed, output_padding, groups, "
                                 "grad_input_mask)"})
def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups, *, out):
    """A convolution (or transposed convolution) over the spatial dims of `input`.

    The operator behind `conv1d`, `conv2d`, `conv3d` and the `conv_transpose` functions,
    with every parameter given as a list (a one-element list stands for all dims).

    Args:
        input (Tensor): ``(N, C_in, *spatial)``.
        weight (Tensor): ``(C_out, C_in / groups, *kernel)``, or for a transposed
            convolution ``(C_in, C_out / groups, *kernel)``.
        bias (Tensor, optional): ``(C_out,)``.
        stride, padding, dilation (list of ints): per spatial dim.
        transposed (bool): the adjoint (fractionally strided) convolution.
        output_padding (list of ints): extra size on one side of a transposed result.
        groups (int): split the channels into this many independent convolutions.

    Example::

        >>> torch.convolution(torch.ones(1, 1, 3), torch.ones(1, 1, 2), None, [1], [0],
        ...                   [1], False, [0], 1)
        tensor([[[2., 2.]]])
    """
    dims = weight.ndim - 2
    refuse(input, _kernel_name(dims, transposed), _REFUSED)
    stride, padding, dilation = (expand_parameter("", v, dims)
                                 for v in (stride, padding, dilation))
    forward = kernels.transposed_forward if transposed else kernels.convolution_forward
    forward(input, weight, bias, stride, padding, dilation, groups, out)


register_meta(convolution, _convolution_meta_key)


# ----------------------------------------------------------------------------------
# convolution_backward
# ----------------------------------------------------------------------------------
def _weight_gradient(input, grad, weight_shape, stride, padding, dilation, groups):
    """The weight's gradient as one grouped convolution (Note [Convolution backward in
    convolutions])."""
    input, padding = _reached(input, grad.shape[2:], weight_shape[2:], stride, padding,
                              dilation)
    n, channels = input.shape[:2]
    spatial = list(input.shape[2:])
    dims = len(spatial)
    moved = input.reshape([n, groups, channels // groups] + spatial)
    moved = moved.permute([2, 1, 0] + list(range(3, dims + 3)))
    moved = moved.reshape([channels // groups, groups * n] + spatial)
    kernel = grad.transpose(0, 1)
    found = convolution.call(moved, kernel, None, dilation, padding, stride, False,
                             [0] * dims, groups)
    for d, size in enumerate(weight_shape[2:]):
        if found.shape[d + 2] != size:
            found = found.narrow(d + 2, 0, size)
    # a fresh row-major copy, as torch returns, also where a size-1 dim would let the
    # transposed view pass for contiguous
    return found.transpose(0, 1).clone(memory_format=contiguous_format)


def _reached(input, grad_spatial, kernel, stride, padding, dilation) -> tuple:
    """`input` and `padding` for the weight's gradient: where the forward's last
    window stopped short of the padded input's end (a stride that does not divide
    it), the input is padded here with only the zeros the windows reach (or cut), so
    that the gradient's convolution computes no positions past the kernel's size.
    Left as they are when nothing would be saved, or when the cut would go past the
    data."""
    ends = [(k - 1) * d + (o - 1) * s + 1 - size - p for k, d, o, s, size, p in
            zip(kernel, dilation, grad_spatial, stride, input.shape[2:], padding)]
    ends = [end if -size < end else p for end, size, p in
            zip(ends, input.shape[2:], padding)]
    if ends == list(padding):
        return input, padding
    amounts = [amount for p, end in zip(reversed(padding), reversed(ends))
               for amount in (p, end)]               # constant_pad_nd: the last dim first
    return constant_pad_nd.call(input, amounts, 0), [0] * len(padding)


def _input_gradient(grad, weight, input_shape, stride, padding, dilation, transposed,
                    groups):
    """The input's gradient: the convolution of the other kind by the same weight."""
    dims = len(input_shape) - 2
    if transposed:
        found = convolution.call(grad, weight, None, stride, padding, dilation, False,
                                 [0] * dims, groups)
    else:
        reached = [(o - 1) * s - 2 * p + d * (k - 1) + 1 for o, s, p, d, k in
                   zip(grad.shape[2:], stride, padding, dilation, weight.shape[2:])]
        extra = [i - r for i, r in zip(input_shape[2:], reached)]
        found = convolution.call(grad, weight, None, stride, padding, dilation, True, extra,
                                 groups)
    narrowed = found
    for d, size in enumerate(input_shape[2:]):
        if narrowed.shape[d + 2] != size:
            narrowed = narrowed.narrow(d + 2, 0, size)
    if narrowed is found:
        return found
    # dense, as torch returns it, in the layout the convolution chose
    return narrowed.clone(memory_format=suggest_memory_format(found))


@composite("convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? "
           "bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, "
           "SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, "
           "Tensor)", function=False)
def convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                         transposed, output_padding, groups, output_mask):
    """The gradients of `convolution`'s input, weight and bias (None where
    `output_mask` says no), written in convolutions (Note [Convolution backward in
    convolutions])."""
    stride, padding, dilation, _ = _check_parameters(weight, stride, padding, dilation,
                                                     output_padding, groups)
    _check_shapes(input, weight, None, transposed, groups)
    dims = weight.dim() - 2
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        grad_input = _input_gradient(grad_output, weight, input.shape, stride, padding,
                                     dilation, transposed, groups)
    if output_mask[1]:
        if transposed:
            grad_weight = _weight_gradient(grad_output, input, weight.shape, stride, padding,
                                           dilation, groups)
        else:
            grad_weight = _weight_gradient(input, grad_output, weight.shape, stride, padding,
                                           dilation, groups)
    if output_mask[2]:
        grad_bias = grad_output.sum([0] + list(range(2, dims + 2)))
    return grad_input, grad_weight, grad_bias
