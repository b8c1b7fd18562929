"""OpInfo entries for padding (`aten/native/padding.py`): constant_pad_nd and pad
(torch.nn.functional.pad: constant, reflect, replicate, circular)."""
import numpy as np

import glasstorch as gt

from .core import ALL_DTYPES, FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

CONSTANT = (((2, 3), (1, 2)), ((2, 3, 4), (-1, 2, 0, -2)), ((3,), (0, 0)), ((2, 0), (1, 1)),
            ((2, 3), (1, 1, 2, 0)))
NON_CONSTANT = (((2, 5), (2, 3)), ((1, 2, 5), (4, 4)), ((2, 3, 4, 5), (1, 2, 2, 1)),
                ((1, 2, 3, 4, 3), (1, 1, 2, 2, 1, 1)))


def _np_pad(x, pad, mode="constant", value=None):
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    crop = tuple(slice(max(-a, 0), x.shape[d] - max(-b, 0)) for d, (a, b) in enumerate(widths))
    x = x[crop]
    widths = [(max(a, 0), max(b, 0)) for a, b in widths]
    if mode == "constant":
        fill = np.array(0 if value is None else value).astype(x.dtype)
        return np.pad(x, widths, constant_values=fill)
    return np.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge",
                                   "circular": "wrap"}[mode])


def sample_constant_pad_nd(dtype):
    for shape, pad in CONSTANT:
        yield SampleInput(make_tensor(shape, dtype), pad, 1)
    yield SampleInput(make_tensor((3, 4), dtype, "transposed"), (1, 1, 1, 1))


def sample_pad(dtype):
    for shape, pad in CONSTANT:
        yield SampleInput(make_tensor(shape, dtype), pad)
    if dtype.is_floating_point:
        yield SampleInput(make_tensor((2, 3), dtype), (1, 1), value=2.5)
        for mode in ("reflect", "replicate", "circular"):
            for shape, pad in NON_CONSTANT:
                yield SampleInput(make_tensor(shape, dtype), pad, mode=mode)


def errors_constant_pad_nd():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, (1, 2, 3)), RuntimeError,
                     r"^Length of pad must be even but instead it equals 3$")
    yield ErrorInput(SampleInput(x, (1, 1, 1, 1, 1, 1)), RuntimeError,
                     r"^Length of pad should be no more than twice the number of dimensions of "
                     r"the input\. Pad length is 6while the input has 2dimensions\.$")


def errors_pad():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, (1, 2, 3)), RuntimeError,
                     r"^Padding length must be divisible by 2$")
    yield ErrorInput(SampleInput(x, (1, 1, 1, 1, 1, 1)), RuntimeError,
                     r"^Padding length should be less than or equal to two times the input "
                     r"dimension but got padding length 6 and input of dimension 2$")
    yield ErrorInput(SampleInput(x, (1, 1), mode="reflect", value=1.0), RuntimeError,
                     r"^Padding mode \"reflect\" doesn't take in value argument$")
    yield ErrorInput(SampleInput(x, (3, 3), mode="reflect"), RuntimeError,
                     r"^Argument #4: Padding size should be less than the corresponding input "
                     r"dimension, but got: padding \(3, 3\) at dimension 1 of input \[2, 3\]$")
    yield ErrorInput(SampleInput(x, (4, 4), mode="circular"), RuntimeError,
                     r"^Padding value causes wrapping around more than once\.$")
    yield ErrorInput(SampleInput(x, (1, 1), mode="foo"), NotImplementedError,
                     r"^Unrecognised padding mode foo$")
    yield ErrorInput(SampleInput(make_tensor((4,), gt.float32), (1, 1), mode="replicate"),
                     NotImplementedError, r"^Padding size 2 is not supported for 1D input "
                     r"tensor\.\nSupported combinations for non-constant padding:\n")


OPS = [
    OpInfo("constant_pad_nd", variants=("constant_pad_nd",),
           ref=lambda x, pad, value=0: _np_pad(x, pad, value=value), dtypes=ALL_DTYPES,
           sample_inputs=sample_constant_pad_nd, error_inputs=errors_constant_pad_nd),
    OpInfo("pad", variants=("nn.functional.pad",), ref=_np_pad, dtypes=FLOATING + (gt.int64,),
           sample_inputs=sample_pad, error_inputs=errors_pad),
]
