"""OpInfo entries for upsampling (`aten/native/nn/upsample.py`): upsample_nearest{1,2,3}d,
_upsample_nearest_exact{1,2,3}d, upsample_linear1d, upsample_bilinear2d,
upsample_trilinear3d, upsample_bicubic2d, the antialiased _upsample_bilinear2d_aa,
_upsample_bicubic2d_aa and _upsample_lanczos2d_aa, and their .vec overloads. The reference applies
the taps with NumPy; the differential tests hold them to torch's results."""
import numpy as np

import glasstorch as gt
from glasstorch.aten.native.nn import upsample as up

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

OPS_BY_KIND = (("upsample_nearest", "nearest"), ("_upsample_nearest_exact", "nearest-exact"))
INTERPOLATING = (("upsample_linear1d", 1, "linear"), ("upsample_bilinear2d", 2, "linear"),
                 ("upsample_trilinear3d", 3, "linear"), ("upsample_bicubic2d", 2, "cubic"),
                 ("_upsample_bilinear2d_aa", 2, "linear-aa"),
                 ("_upsample_bicubic2d_aa", 2, "cubic-aa"),
                 ("_upsample_lanczos2d_aa", 2, "lanczos-aa"))
# (input spatial size, output size or scale factor): up, down, equal, doubled, fractional
RESIZES = ((4, 7, None), (6, 3, None), (3, 3, None), (3, 6, None), (5, None, 1.7),
           (7, None, 0.6))


def _reference(x, output_size, scales, kind, align_corners=False):
    real = np.float64 if x.dtype == np.float64 else np.float32
    taps = up._taps(kind, x.shape[2:], output_size, scales, align_corners, real)
    result = x.astype(np.float64)
    for k in reversed(range(len(taps))):
        axis = 2 + k
        total = 0
        for positions, weights in taps[k]:
            term = np.take(result, positions, axis=axis)
            if weights is not None:
                shape = [-1] + [1] * (x.ndim - 1 - axis)
                term = term * np.asarray(weights, np.float64).reshape(shape)
            total = total + term
        result = total
    return result.astype(x.dtype)


def _vec_reference(kind, align=False):
    def ref(x, output_size, *rest):
        corners, factors = rest if align else (False, rest[0])
        if output_size is None:
            output_size = [int(n * f) for n, f in zip(x.shape[2:], factors)]
        scales = factors if factors is not None else [None] * len(output_size)
        return _reference(x, output_size, scales, kind, corners)
    return ref


def _samples(k, align, vec):
    def samples(dtype):
        for seed, (n, m, factor) in enumerate(RESIZES):
            x = make_tensor((2, 3) + (n,) * k, dtype, seed=seed)
            corners = ((seed % 2 == 0),) if align else ()
            if vec:
                sizes = None if m is None else [m] * k
                yield SampleInput(x, sizes, *corners, None if factor is None else [factor] * k)
            else:
                size = m if m is not None else int(n * factor)
                yield SampleInput(x, [size] * k, *corners, *([factor] * k))
    return samples


META = ("upsampling: torch's meta functions skip these size checks; glasstorch raises the "
        "CPU kernel's message on meta too")


def _errors(name, k, align):
    corners = (False,) if align else ()

    def errors():
        x = make_tensor((1, 2) + (3,) * k, gt.float32)
        yield ErrorInput(SampleInput(x, [2] * k, *corners, [2.0] * k), RuntimeError,
                         r"^Must specify exactly one of output_size and scale_factors$")
        if k > 1:     # torch's 1-d check of a zero size fails on its own (a TypeError)
            yield ErrorInput(SampleInput(x, [0] * k, *corners, None), RuntimeError,
                             r"^Input and output sizes should be greater than 0, but got "
                             r"input ", known_bug_on_meta=META)
        yield ErrorInput(SampleInput(make_tensor((1, 0) + (3,) * k, gt.float32), [2] * k,
                                     *corners, None), RuntimeError,
                         rf"^Non-empty {k + 2}D data tensor expected but got a tensor with sizes",
                         known_bug_on_meta=META)
    return errors


def _entries(name, k, kind, align):
    # float16/bfloat16 interpolation: torch rounds its terms in a way not matched yet
    dtypes = (gt.float32, gt.float64) if align else FLOATING + (gt.uint8,)
    scale_names = up._SCALES[k]
    functional = OpInfo(
        name, variants=(f"ops.aten.{name}",), dtypes=dtypes,
        ref=lambda x, size, *rest: _reference(
            x, size, rest[-len(scale_names):], kind, rest[0] if align else False),
        sample_inputs=_samples(k, align, vec=False))
    vec = OpInfo(f"{name}.vec", variants=(f"ops.aten.{name}.vec",), dtypes=dtypes,
                 ref=_vec_reference(kind, align), sample_inputs=_samples(k, align, vec=True),
                 error_inputs=_errors(name, k, align))
    return [functional, vec]


OPS = [entry for prefix, kind in OPS_BY_KIND for k in (1, 2, 3)
       for entry in _entries(f"{prefix}{k}d", k, kind, False)]
OPS += [entry for name, k, kind in INTERPOLATING for entry in _entries(name, k, kind, True)]
