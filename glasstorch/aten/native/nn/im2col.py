"""Sliding blocks: im2col (torch.nn.functional.unfold) and col2im (fold).

Note [Sliding blocks as one index]
    im2col lists, for each channel, the values under every kernel position of every
    block: ``(N, C, H, W)`` becomes ``(N, C * kh * kw, L)``, L blocks. Over the input
    padded with zeros and flattened to ``(N, C, Hp * Wp)``, those values are one
    index_select with a fixed index (kernel position major, then block rows, then
    block columns), and col2im is its adjoint: one index_add of the columns into zeros
    with the same index (overlapping blocks sum, in torch's order), then the padding
    cropped off. Gradients and meta shapes follow from those operators, and the two
    operators are each other's derivative.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import wrap_array
from ...meta.shape import holds_data
from ...registry import composite
from .padding import constant_pad_nd
from .pixel_shuffle import fresh

_SUPPORTED_EXTRA = (dtypes.bool, dtypes.complex64, dtypes.complex128)


def _check_parameters(kernel_size, dilation, padding, stride, order: str) -> None:
    """torch's checks of the four pairs, in the order its shape check makes them."""
    checks = {"kernel": (kernel_size, 0, "kernel size should be greater than zero, but got "
                                         "kernel_height: {} kernel_width: {}"),
              "dilation": (dilation, 0, "dilation should be greater than zero, but got "
                                        "dilation_height: {} dilation_width: {}"),
              "padding": (padding, -1, "padding should be non-negative, but got pad_height: {} "
                                       "pad_width: {}"),
              "stride": (stride, 0, "stride should be greater than zero, but got "
                                    "stride_height: {} stride_width: {}")}
    for name in order.split():
        pair, floor, message = checks[name]
        if min(pair) <= floor:
            raise RuntimeError(message.format(*pair))


def _blocks(size, kernel_size, dilation, padding, stride) -> tuple:
    """The number of blocks along each of the two spatial dims."""
    return tuple((size[i] + 2 * padding[i] - dilation[i] * (kernel_size[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _block_index(size, kernel_size, dilation, padding, stride, device):
    """Note [Sliding blocks as one index]: flat positions in the padded plane."""
    rows, cols = _blocks(size, kernel_size, dilation, padding, stride)
    width = size[1] + 2 * padding[1]
    kernel_rows = np.arange(kernel_size[0])[:, None, None, None] * dilation[0]
    kernel_cols = np.arange(kernel_size[1])[None, :, None, None] * dilation[1]
    block_rows = np.arange(rows)[None, None, :, None] * stride[0]
    block_cols = np.arange(cols)[None, None, None, :] * stride[1]
    flat = (kernel_rows + block_rows) * width + kernel_cols + block_cols
    return wrap_array(flat.reshape(-1).astype(np.int64), dtypes.int64).to(device)


def _refuse_dtype(self, kernel: str) -> None:
    """The CPU loops take floating, complex and bool tensors; meta calls pass."""
    if not holds_data(self) or self._dtype.is_floating_point:
        return
    if self._dtype not in _SUPPORTED_EXTRA:
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{scalar_type_name(self._dtype)}'")


def _check_rank_access(self) -> None:
    """torch reads the spatial sizes before checking the rank: too few dims fail there."""
    if self.dim() < 3:
        n = self.dim()
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {n})")


@composite("im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, "
           "int[2] stride) -> Tensor", python_module="nn")
def im2col(self, kernel_size, dilation, padding, stride):
    """Extract sliding blocks: ``(N, C, H, W)`` to ``(N, C * kh * kw, L)`` (see
    torch.nn.functional.unfold; Note [Sliding blocks as one index]).

    Example::

        >>> torch._C._nn.im2col(torch.arange(4.).view(1, 1, 2, 2), [1, 2], [1, 1],
        ...                     [0, 0], [1, 1])
        tensor([[[0., 2.],
                 [1., 3.]]])
    """
    _check_parameters(kernel_size, dilation, padding, stride, "kernel dilation padding stride")
    _check_rank_access(self)
    if not (self.dim() == 3 and all(self._size)) and not (self.dim() == 4 and
                                                          all(self._size[1:])):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: "
                           f"{list(self._size)}")
    size = self._size[-2:]
    rows, cols = _blocks(size, kernel_size, dilation, padding, stride)
    if rows < 1 or cols < 1:
        raise RuntimeError(f"Given input with spatial size {tuple(size)}, kernel_size="
                           f"{tuple(kernel_size)}, dilation={tuple(dilation)}, padding="
                           f"{tuple(padding)}, calculated shape of the array of sliding blocks "
                           f"as ({rows}, {cols}), but its components must be at least one.")
    _refuse_dtype(self, "im2col_out_cpu")
    padded = constant_pad_nd.call(self, [padding[1], padding[1], padding[0], padding[0]], 0)
    planes = padded.flatten(-2)
    index = _block_index(size, kernel_size, dilation, padding, stride, self.device)
    columns = planes.index_select(-1, index)
    channels = self._size[-3]
    return fresh(columns.reshape(*self._size[:-3], channels * kernel_size[0] * kernel_size[1],
                                 rows * cols))


def _check_columns(self, output_size, kernel_size, dilation, padding, stride) -> None:
    """col2im's checks of its input's rank and of the block count."""
    if not (self.dim() == 2 and all(self._size)) and not (self.dim() == 3 and
                                                          all(self._size[1:])):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(self._size)}")
    per_block = kernel_size[0] * kernel_size[1]
    if self._size[-2] % per_block:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={self._size[-2]} "
                           f"and kernel_size={tuple(kernel_size)}.")
    rows, cols = _blocks(output_size, kernel_size, dilation, padding, stride)
    if self._size[-1] != rows * cols:
        raise RuntimeError(f"Given output_size={tuple(output_size)}, kernel_size="
                           f"{tuple(kernel_size)}, dilation={tuple(dilation)}, padding="
                           f"{tuple(padding)}, stride={tuple(stride)}, expected size of "
                           f"input's dimension 2 to match the calculated number of sliding "
                           f"blocks {rows} * {cols} = {rows * cols}, but got input.size(2)="
                           f"{self._size[-1]}.")


@composite("col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, "
           "int[2] padding, int[2] stride) -> Tensor", python_module="nn")
def col2im(self, output_size, kernel_size, dilation, padding, stride):
    """Sum sliding blocks back into an image: ``(N, C * kh * kw, L)`` to
    ``(N, C, *output_size)`` (see torch.nn.functional.fold; overlaps add up).

    Example::

        >>> torch._C._nn.col2im(torch.ones(1, 2, 2), [1, 3], [1, 2], [1, 1], [0, 0],
        ...                     [1, 1])
        tensor([[[[1., 2., 1.]]]])
    """
    _check_parameters(kernel_size, dilation, padding, stride, "kernel stride dilation padding")
    _check_columns(self, output_size, kernel_size, dilation, padding, stride)
    _refuse_dtype(self, "col2im_out_cpu")
    channels = self._size[-2] // (kernel_size[0] * kernel_size[1])
    batch = self._size[:-2]
    height, width = (output_size[i] + 2 * padding[i] for i in range(2))
    index = _block_index(output_size, kernel_size, dilation, padding, stride, self.device)
    columns = self.reshape(*batch, channels, -1)
    planes = columns.new_zeros((*batch, channels, height * width))
    image = planes.index_add(-1, index, columns).unflatten(-1, (height, width))
    cropped = image[..., padding[0]:padding[0] + output_size[0],
                    padding[1]:padding[1] + output_size[1]]
    return fresh(cropped.contiguous())
