"""`hash_tensor`: a cheap fingerprint of a tensor's values, by xor-reduction.

Each element is widened to its 64-bit kind (floats to float64, integers and bools to
int64, sign extended), its 64 bits read as a uint64, and the words of each reduced
row combined by xor (mode 0, the only mode torch has). Equal values give equal hashes
whatever the dtype width: ``1.0`` hashes alike in float16 and float64.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...meta.reduction import check_nonempty_dims, reduction_meta
from ...registry import op
from ..pointwise.unary import COMPLEX, refuse
from .sum import axes


def _hash_meta(self, dim=(), keepdim=False, mode=0, out=None):
    check_nonempty_dims("hash_tensor", self, dim, separator=":", whole_error=RuntimeError(
        "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. "
        "Specify the reduction dim with the 'dim' argument."))
    if out is not None and out._dtype is not dtypes.uint64:
        raise RuntimeError("Expected result to be of dtype uint64, but got "
                           f"{scalar_type_name(out._dtype)}")
    return reduction_meta(self, dim, keepdim, dtypes.uint64)


@op("hash_tensor(Tensor self, int[1] dim=[], *, bool keepdim=False, int mode=0) -> Tensor",
    meta=_hash_meta, method=True, out=True)
def hash_tensor(self, dim, keepdim, mode, *, out):
    """The xor of the 64-bit words of `input`'s elements over `dim` (every dim when
    empty), as uint64.

    Args:
        input (Tensor): the values (complex ones are refused).
        dim (int or tuple of ints): the dims to reduce; ``()`` reduces every dim.
        keepdim (bool): keep the reduced dims, with size 1.
        mode (int): the hash; 0 (xor-reduction) is the only one.

    Example::

        >>> torch.hash_tensor(torch.tensor([[1, 2], [3, 4]]), 1)
        tensor([3, 7], dtype=torch.uint64)
    """
    if mode != 0:                   # the kernel's check: meta tensors take any mode
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    refuse(self, "xor_sum_cpu", COMPLEX)
    # ml_dtypes' floats (bfloat16, float8) are of NumPy kind "V"
    wide = np.float64 if self.dtype.kind in "fV" else np.int64
    words = np.array(self, dtype=wide, order="C").view(np.uint64)
    np.bitwise_xor.reduce(words, axis=axes(words, dim), out=out, keepdims=keepdim)
