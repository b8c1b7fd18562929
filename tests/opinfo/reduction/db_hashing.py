"""OpInfo entry for `hash_tensor` (`aten/native/reduction/hashing.py`)."""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensors
from .db_reduction import OUT_OF_RANGE, REAL, REPEATED, bad_dims, dim_choices, np_axes
from .db_extrema import _reduces_empty, special_values


def sample_hash_tensor(dtype):
    for x in tensors(dtype):
        if x.numel():
            yield SampleInput(x)
        for dim, keep in dim_choices(x, none=False):
            if not _reduces_empty(x, dim):
                yield SampleInput(x, dim, keepdim=keep)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 1)


def _hash(x, dim=(), keepdim=False, mode=0):
    """The xor of the elements' 64-bit words (floats as float64, integers as int64)."""
    wide = np.float64 if x.dtype.kind in "fV" else np.int64
    words = np.array(x, dtype=wide, order="C").view(np.uint64)
    return np.asarray(np.bitwise_xor.reduce(words, axis=np_axes(words, dim),
                                            keepdims=keepdim and x.ndim > 0))


def errors_hash_tensor():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED[:3]))()   # meta words it alike
    empty = make_tensor((0, 3), gt.float32)
    yield ErrorInput(SampleInput(empty), RuntimeError,
                     r"^hash_tensor: Expected reduction dim to be specified for "
                     r"input.numel\(\) == 0. Specify the reduction dim with the 'dim' argument.$")
    yield ErrorInput(SampleInput(empty, 0), IndexError,
                     r"^hash_tensor: Expected reduction dim 0 to have non-zero size.$")
    x = make_tensor((2, 2), gt.float32)
    yield ErrorInput(SampleInput(x, mode=1), RuntimeError, r"^Unknown hash_tensor mode: 1$")
    yield ErrorInput(SampleInput(x, 0, out=gt.empty(0, dtype=gt.int64)), RuntimeError,
                     r"^Expected result to be of dtype uint64, but got Long$")
    yield ErrorInput(SampleInput(make_tensor((2,), gt.complex64)), NotImplementedError,
                     r"^\"xor_sum_cpu\" not implemented for 'ComplexFloat'$")


OPS = [
    OpInfo("hash_tensor", variants=("hash_tensor", "Tensor.hash_tensor"), ref=_hash,
           dtypes=REAL, sample_inputs=sample_hash_tensor, error_inputs=errors_hash_tensor,
           out="hash_tensor"),
]
