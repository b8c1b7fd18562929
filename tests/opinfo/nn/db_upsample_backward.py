"""OpInfo entries for the gradients of interpolation (`aten/native/nn/upsample_backward.py`):
upsample_linear1d_backward, upsample_bilinear2d_backward, upsample_trilinear3d_backward and
upsample_bicubic2d_backward. The reference is the forward's adjoint, one matrix per dim in
float64; the differential tests hold the kernels' summation order to torch's bits."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.nn import upsample as up

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_upsample import RESIZES

BACKWARDS = (("upsample_linear1d", 1, "linear"), ("upsample_bilinear2d", 2, "linear"),
             ("upsample_trilinear3d", 3, "linear"), ("upsample_bicubic2d", 2, "cubic"))


def _adjoint(grad, output_size, input_size, align_corners, *scales, kind):
    """Each dim's (output x input) tap matrix, transposed and applied innermost first."""
    scales = scales or [None] * len(output_size)
    taps = up._taps(kind, input_size[2:], output_size, scales, align_corners, np.float64)
    result = grad.astype(np.float64)
    for k, dim_taps in enumerate(taps):
        matrix = np.zeros((output_size[k], input_size[2 + k]))
        for positions, weights in dim_taps:
            np.add.at(matrix, (np.arange(output_size[k]), positions), weights)
        result = np.moveaxis(np.tensordot(result, matrix, axes=([2 + k], [0])), -1, 2 + k)
    return result.astype(grad.dtype)


def _samples(k):
    def samples(dtype):
        for seed, (n, m, factor) in enumerate(RESIZES):
            size = m if m is not None else int(n * factor)
            grad = make_tensor((2, 3) + (size,) * k, dtype, seed=seed)
            yield SampleInput(grad, [size] * k, [2, 3] + [n] * k, seed % 2 == 0,
                              *([factor] * k))
        if k > 1:       # a channels-last gradient keeps its layout
            layout = gt.channels_last if k == 2 else gt.channels_last_3d
            grad = make_tensor((1, 4) + (5,) * k, dtype, seed=9)
            yield SampleInput(grad.contiguous(memory_format=layout), [5] * k,
                              [1, 4] + [3] * k, False)
    return samples


def _errors(k):
    def errors():
        grad = make_tensor((1, 2) + (4,) * k, gt.float32)
        yield ErrorInput(SampleInput(grad, [4] * k, [1, 2] + [3] * (k - 1), False),
                         RuntimeError, rf"^It is expected input_size equals to {k + 2}, but "
                                       rf"got size {k + 1}$")
        yield ErrorInput(SampleInput(make_tensor((1,) + (3,) * k, gt.float32), [4] * k,
                                     [1, 2] + [0] * k, False), RuntimeError,
                         r"^Input and output sizes should be greater than 0, but got input ")
        if k == 1:      # the 1-d operator checks the rank and sizes one dim at a time
            yield ErrorInput(SampleInput(grad, [5], [1, 2, 3], False), RuntimeError,
                             r"^Expected a tensor of dimension 3 and tensor.size\[2\] == 5 "
                             r"but got: dimension 3 and tensor.size\[2\] = 4$")
            yield ErrorInput(SampleInput(grad[0], [4], [1, 2, 3], False), RuntimeError,
                             r"^Expected a tensor of dimension 3 and tensor.size\[0\] == 1 "
                             r"but got: dimension 2 and tensor.size\[0\] = 2$")
            return
        yield ErrorInput(SampleInput(grad, [4] * (k - 1) + [5], [1, 2] + [3] * k, False),
                         RuntimeError, rf"^Expected grad_output to have the same shape as "
                                       rf"output; output.size\({k + 1}\) = 5 but got "
                                       rf"grad_output.size\({k + 1}\) = 4$")
        yield ErrorInput(SampleInput(grad[0], [4] * k, [1, 2] + [3] * k, False), RuntimeError,
                         rf"^Expected grad_output to be a tensor of dimension {k + 2} but "
                         rf"got: dimension {k + 1}$")
    return errors


GRAD_INPUT_OUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input "
                                               "(torch.ops.aten only)")
                  for test in ("test_out", "test_out_matches_torch")}

OPS = [OpInfo(f"{name}_backward", variants=(f"ops.aten.{name}_backward",), dtypes=FLOATING,
              ref=lambda *args, kind=kind: _adjoint(*args, kind=kind),
              sample_inputs=_samples(k), error_inputs=_errors(k),
              out=f"ops.aten.{name}_backward", marks=GRAD_INPUT_OUT)
       for name, k, kind in BACKWARDS]
