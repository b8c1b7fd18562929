"""OpInfo entry for `slice_inverse` (`aten/native/shape/slice_inverse.py`).

Samples are whole slices (the slice covers `src` along `dim`), so that `self` has the
slice's shape and the gradient formula applies; `src` contiguous or transposed, so the
result shows `src`'s geometry over `self`'s storage.
"""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor


def sample_slice_inverse(dtype):
    for shape, layout, dim, start, end in (((5,), "contiguous", 0, None, None),
                                           ((3, 4), "contiguous", 1, 0, 4),
                                           ((3, 4), "transposed", 0, -3, None),
                                           ((2, 3, 4), "transposed", 2, None, 10)):
        yield SampleInput(make_tensor(shape, dtype), make_tensor(shape, dtype, layout), dim,
                          start, end)


def _slice_inverse(a, src, dim=0, start=None, end=None, step=1):
    """`src`'s geometry over the elements of `a` in memory order."""
    flat = np.ascontiguousarray(a).ravel()
    strides = tuple(s // src.itemsize * flat.itemsize for s in src.strides)
    return np.lib.stride_tricks.as_strided(flat, src.shape, strides).copy()


def errors_slice_inverse():
    yield ErrorInput(SampleInput(make_tensor((6,), gt.float32), make_tensor((3, 4), gt.float32)),
                     RuntimeError, r"^setStorage: sizes \[3, 4\], strides \[4, 1\], storage "
                                   r"offset 0, and itemsize 4 requiring a storage size of 48 "
                                   r"are out of bounds for storage of size 24$")


OPS = [
    OpInfo("slice_inverse", variants=("slice_inverse", "Tensor.slice_inverse"),
           sample_inputs=sample_slice_inverse, ref=_slice_inverse,
           error_inputs=errors_slice_inverse, is_view=True, layout_sensitive=True),
]
