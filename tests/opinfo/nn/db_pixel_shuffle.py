"""OpInfo entries for `aten/native/nn/pixel_shuffle.py`: pixel_shuffle, pixel_unshuffle,
channel_shuffle and native_channel_shuffle."""
import dataclasses

import numpy as np

import glasstorch as gt

from ..core import ALL_DTYPES, ErrorInput, OpInfo, SampleInput, make_tensor


def _np_pixel_shuffle(x, r):
    *batch, c, h, w = x.shape
    out = np.empty((*batch, c // (r * r), h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i::r, j::r] = x[..., i * r + j::r * r, :, :]
    return out


def _np_pixel_unshuffle(x, r):
    *batch, c, h, w = x.shape
    out = np.empty((*batch, c * r * r, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i * r + j::r * r, :, :] = x[..., i::r, j::r]
    return out


def _np_channel_shuffle(x, groups):
    per_group = x.shape[1] // groups
    order = [g * per_group + i for i in range(per_group) for g in range(groups)]
    return x[:, order]


def sample_pixel_shuffle(dtype):
    yield SampleInput(make_tensor((2, 8, 3, 4), dtype), 2)
    yield SampleInput(make_tensor((9, 2, 2), dtype), 3)
    yield SampleInput(make_tensor((2, 1, 4, 2, 3), dtype), 2)
    yield SampleInput(make_tensor((1, 5, 2, 2), dtype), 1)


def sample_pixel_unshuffle(dtype):
    yield SampleInput(make_tensor((2, 2, 4, 6), dtype), 2)
    yield SampleInput(make_tensor((1, 6, 3), dtype), 3)
    yield SampleInput(make_tensor((2, 1, 3, 4, 4), dtype), 2)


def sample_channel_shuffle(dtype):
    yield SampleInput(make_tensor((2, 6, 3), dtype), 3)
    yield SampleInput(make_tensor((1, 4, 2, 2), dtype), 2)
    yield SampleInput(make_tensor((2, 6, 1, 2, 2), dtype), 6)


META = ("torch's meta functions word these refusals differently (\"Invalid input shape for "
        "pixel_shuffle\", a ZeroDivisionError); glasstorch raises the CPU kernel's message")


def _meta_differs(errors):
    """The error inputs, each marked as worded differently by torch's meta function."""
    return lambda: (dataclasses.replace(e, known_bug_on_meta=META) for e in errors())


def errors_pixel_shuffle():
    x = make_tensor((2, 8, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 3), RuntimeError,
                     r"^pixel_shuffle expects its input's 'channel' dimension to be divisible "
                     r"by the square of upscale_factor, but input\.size\(-3\)=8 is not "
                     r"divisible by 9$")
    yield ErrorInput(SampleInput(x, 0), RuntimeError,
                     r"^pixel_shuffle expects a positive upscale_factor, but got 0$")
    yield ErrorInput(SampleInput(make_tensor((8,), gt.float32), 2), RuntimeError,
                     r"^pixel_shuffle expects input to have at least 3 dimensions, but got "
                     r"input with 1 dimension\(s\)$")


def errors_pixel_unshuffle():
    yield ErrorInput(SampleInput(make_tensor((2, 8, 3, 4), gt.float32), 2), RuntimeError,
                     r"^pixel_unshuffle expects height to be divisible by downscale_factor, "
                     r"but input\.size\(-2\)=3 is not divisible by 2$")
    yield ErrorInput(SampleInput(make_tensor((2, 8, 4, 3), gt.float32), 2), RuntimeError,
                     r"^pixel_unshuffle expects width to be divisible by downscale_factor, "
                     r"but input\.size\(-1\)=3 is not divisible by 2$")
    yield ErrorInput(SampleInput(make_tensor((2, 8, 4, 4), gt.float32), -1), RuntimeError,
                     r"^pixel_unshuffle expects a positive downscale_factor, but got -1$")


def errors_channel_shuffle():
    yield ErrorInput(SampleInput(make_tensor((2, 8), gt.float32), 2), RuntimeError,
                     r"^channel_shuffle expects input with > 2 dims, but got input with sizes "
                     r"\[2, 8\]$")
    yield ErrorInput(SampleInput(make_tensor((2, 8, 3), gt.float32), 0), RuntimeError,
                     r"^Number of groups to divide channels in must be positive\. Value of "
                     r"groups:0$")
    yield ErrorInput(SampleInput(make_tensor((2, 8, 3), gt.float32), 3), RuntimeError,
                     r"^Number of channels must be divisible by groups\. Got 8 channels and 3 "
                     r"groups\.$")


OPS = [
    OpInfo("pixel_shuffle", variants=("pixel_shuffle", "nn.functional.pixel_shuffle"),
           ref=_np_pixel_shuffle, dtypes=ALL_DTYPES, sample_inputs=sample_pixel_shuffle,
           error_inputs=_meta_differs(errors_pixel_shuffle)),
    OpInfo("pixel_unshuffle", variants=("pixel_unshuffle", "nn.functional.pixel_unshuffle"),
           ref=_np_pixel_unshuffle, dtypes=ALL_DTYPES, sample_inputs=sample_pixel_unshuffle,
           error_inputs=_meta_differs(errors_pixel_unshuffle)),
    OpInfo("channel_shuffle", variants=("channel_shuffle", "nn.functional.channel_shuffle"),
           ref=_np_channel_shuffle, dtypes=ALL_DTYPES, sample_inputs=sample_channel_shuffle,
           error_inputs=errors_channel_shuffle),
    OpInfo("native_channel_shuffle", variants=("native_channel_shuffle",),
           ref=_np_channel_shuffle, dtypes=ALL_DTYPES, sample_inputs=sample_channel_shuffle,
           error_inputs=errors_channel_shuffle),
]
