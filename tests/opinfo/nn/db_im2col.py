"""OpInfo entries for `aten/native/nn/im2col.py`: im2col (F.unfold) and col2im (F.fold),
with references that walk the blocks one by one."""
import dataclasses

import numpy as np

import glasstorch as gt

from ..core import BOOL, COMPLEX, FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

# (image size, kernel_size, dilation, padding, stride)
GEOMETRIES = (((5, 6), [2, 2], [1, 1], [0, 0], [1, 1]),
              ((5, 6), [2, 3], [2, 1], [1, 0], [2, 1]),
              ((7, 7), [3, 3], [1, 1], [1, 1], [2, 2]),
              ((3, 4), [1, 1], [1, 1], [0, 0], [1, 1]),
              ((4, 4), [4, 4], [1, 1], [0, 0], [1, 1]))
DTYPES = FLOATING + COMPLEX + BOOL


def _block_slices(size, kernel, dilation, padding, stride):
    """(kernel position, block index, rows slice, cols slice) over the padded image."""
    rows, cols = ((size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                  for i in range(2))
    for ki in range(kernel[0]):
        for kj in range(kernel[1]):
            r0, c0 = ki * dilation[0], kj * dilation[1]
            yield (ki * kernel[1] + kj, slice(r0, r0 + (rows - 1) * stride[0] + 1, stride[0]),
                   slice(c0, c0 + (cols - 1) * stride[1] + 1, stride[1]), rows * cols)


def _np_im2col(x, kernel, dilation, padding, stride):
    widths = [(0, 0)] * (x.ndim - 2) + [(padding[0],) * 2, (padding[1],) * 2]
    padded = np.pad(x, widths)
    pieces = [padded[..., rows, cols].reshape(*x.shape[:-2], 1, count)
              for _, rows, cols, count in _block_slices(x.shape[-2:], kernel, dilation,
                                                        padding, stride)]
    blocks = np.concatenate(pieces, axis=-2)            # (*, C, kh * kw, L)
    return blocks.reshape(*x.shape[:-3], -1, blocks.shape[-1])


def _np_col2im(cols, output_size, kernel, dilation, padding, stride):
    per_block = kernel[0] * kernel[1]
    batch = cols.shape[:-2]
    channels = cols.shape[-2] // per_block
    image = np.zeros((*batch, channels, output_size[0] + 2 * padding[0],
                      output_size[1] + 2 * padding[1]), cols.dtype)
    grouped = cols.reshape(*batch, channels, per_block, *image.shape[-2:][:0], -1)
    for k, rows, columns, _ in _block_slices(output_size, kernel, dilation, padding, stride):
        target = image[..., rows, columns]
        image[..., rows, columns] = target + grouped[..., k, :].reshape(target.shape)
    return image[..., padding[0]:padding[0] + output_size[0],
                 padding[1]:padding[1] + output_size[1]]


def sample_im2col(dtype):
    for seed, (size, *rest) in enumerate(GEOMETRIES):
        batch = (2,) if seed % 2 == 0 else ()
        yield SampleInput(make_tensor((*batch, 3, *size), dtype, seed=seed), *rest)


def sample_col2im(dtype):
    for seed, (size, kernel, dilation, padding, stride) in enumerate(GEOMETRIES):
        rows, cols = ((size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1)
                      // stride[i] + 1 for i in range(2))
        batch = (2,) if seed % 2 == 0 else ()
        columns = make_tensor((*batch, 2 * kernel[0] * kernel[1], rows * cols), dtype, seed=seed)
        yield SampleInput(columns, list(size), kernel, dilation, padding, stride)


def errors_im2col():
    x = make_tensor((2, 3, 5, 6), gt.float32)
    yield ErrorInput(SampleInput(x, [0, 0], [0, 0], [-1, -1], [0, 0]), RuntimeError,
                     r"^kernel size should be greater than zero, but got kernel_height: 0 "
                     r"kernel_width: 0$")
    yield ErrorInput(SampleInput(x, [2, 2], [1, 1], [-1, -1], [0, 0]), RuntimeError,
                     r"^padding should be non-negative, but got pad_height: -1 pad_width: -1$")
    yield ErrorInput(SampleInput(x, [7, 7], [1, 1], [0, 0], [1, 1]), RuntimeError,
                     r"^Given input with spatial size \(5, 6\), kernel_size=\(7, 7\), "
                     r"dilation=\(1, 1\), padding=\(0, 0\), calculated shape of the array of "
                     r"sliding blocks as \(-1, 0\), but its components must be at least one\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 0, 4, 4), gt.float32), [2, 2], [1, 1],
                                 [0, 0], [1, 1]), RuntimeError,
                     r"^Expected 3D or 4D \(batch mode\) tensor with possibly 0 batch size and "
                     r"other non-zero dimensions for input, but got: \[2, 0, 4, 4\]$")
    yield ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), [2, 2], [1, 1], [0, 0],
                                 [1, 1]), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], but "
                     r"got 2\)$")
    yield ErrorInput(SampleInput(x.to(gt.int64), [2, 2], [1, 1], [0, 0], [1, 1]),
                     NotImplementedError, r"^\"im2col_out_cpu\" not implemented for 'Long'$")


def errors_col2im():
    c = make_tensor((2, 12, 20), gt.float32)
    yield ErrorInput(SampleInput(c, [5, 6], [2, 2], [0, 0], [-1, -1], [0, 0]), RuntimeError,
                     r"^stride should be greater than zero, but got stride_height: 0 "
                     r"stride_width: 0$")
    yield ErrorInput(SampleInput(c, [5, 6], [3, 3], [1, 1], [0, 0], [1, 1]), RuntimeError,
                     r"^Expected size of input's dimension 1 to be divisible by the product of "
                     r"kernel_size, but got input\.size\(1\)=12 and kernel_size=\(3, 3\)\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 12, 7), gt.float32), [5, 6], [2, 2], [1, 1],
                                 [0, 0], [1, 1]), RuntimeError,
                     r"^Given output_size=\(5, 6\), kernel_size=\(2, 2\), dilation=\(1, 1\), "
                     r"padding=\(0, 0\), stride=\(1, 1\), expected size of input's dimension 2 "
                     r"to match the calculated number of sliding blocks 4 \* 5 = 20, but got "
                     r"input\.size\(2\)=7\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 3, 4, 5), gt.float32), [5, 6], [2, 2],
                                 [1, 1], [0, 0], [1, 1]), RuntimeError,
                     r"^Expected 2D or 3D \(batch mode\) tensor for input with possibly 0 batch "
                     r"size and non-zero dimensions for input, but got: \[2, 3, 4, 5\]$")
    yield ErrorInput(SampleInput(c.to(gt.int64), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]),
                     NotImplementedError, r"^\"col2im_out_cpu\" not implemented for 'Long'$")


META = ("im2col/col2im: torch's meta functions word these shape refusals their own way; "
        "glasstorch raises the CPU kernel's message on meta too")


def _meta_differs(errors):
    """The shape refusals marked (the dtype ones are the kernels', and pass on meta)."""
    return lambda: (e if e.error_type is NotImplementedError
                    else dataclasses.replace(e, known_bug_on_meta=META) for e in errors())


OPS = [
    OpInfo("im2col", variants=("ops.aten.im2col",), ref=_np_im2col, dtypes=DTYPES,
           sample_inputs=sample_im2col, error_inputs=_meta_differs(errors_im2col)),
    OpInfo("col2im", variants=("ops.aten.col2im",), ref=_np_col2im, dtypes=DTYPES,
           sample_inputs=sample_col2im, error_inputs=_meta_differs(errors_col2im)),
]
