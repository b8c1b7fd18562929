"""Upsampling: upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d,
upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d and upsample_bicubic2d,
each with its ``.vec`` overload (sizes or scale factors: F.interpolate's call).

Note [Upsampling source positions]
    Each output position along a resized dim reads a few input positions ("taps"),
    each with a weight: nearest reads one, linear two, cubic four (clamped to the
    edge). torch derives them from a per-dim scale in a precise arithmetic that the
    results depend on, bit for bit:
    - the scale is ``1 / scale_factor`` when a positive scale factor was given, else
      ``in / out``; with ``align_corners`` it is ``(in - 1) / (out - 1)`` instead
      (0 for one output); computed in float32 for nearest, and in the computation
      dtype (float32 or float64) for the interpolating modes;
    - nearest reads ``floor(o * scale)`` (float32), except that equal sizes read
      ``o`` and a doubled size reads ``o // 2``; nearest-exact reads
      ``floor((o + 0.5) * scale)`` (the product in double);
    - linear and cubic read about ``scale * (o + 0.5) - 0.5`` (``scale * o`` with
      align_corners; linear clamps negatives to 0), whose integer part picks the
      taps and whose fraction their weights (cubic: Keys' kernel with A = -0.75, its
      polynomials' inner multiply-adds fused as torch's compiled kernel fuses them);
      torch floors the position in float32 whatever the computation dtype.
    The dims are resampled one after the other, the innermost first: each output is
    then the same sum of products as torch's kernel forms (weights times the inner
    dims' results, outer taps in order; torch's FMA contraction of that sum can
    differ in the last bit, its source positions are matched exactly). Each step is
    index_select and multiplies, so meta shapes (and the nearest modes' gradients)
    follow from those operators; the linear and cubic modes' gradients are backward
    operators of their own (Note [Resampling gradients in torch's order] in
    ``upsample_backward.py``). float16 / bfloat16 follow torch's kernels to the bit (Note
    [Reduced-precision resampling]), and uint8 images its fixed-point passes (Note
    [uint8 resampling]).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.layout import channels_last, channels_last_3d
from ....c10.tensor_impl import wrap_array
from ...meta.shape import holds_data
from ...registry import composite
from . import upsample_reduced, upsample_uint8

_AXES = ("D", "H", "W")
_REDUCED = (dtypes.float16, dtypes.bfloat16)
_CUBIC_A = -0.75


def _scale(in_size: int, out_size: int, scale, align_corners: bool, real) -> np.floating:
    """The per-dim scale of Note [Upsampling source positions], in dtype `real`."""
    if align_corners:
        return real(in_size - 1) / real(out_size - 1) if out_size > 1 else real(0)
    if scale is not None and scale > 0:
        return real(1.0 / scale)
    return real(in_size) / real(out_size)


def nearest_sources(in_size: int, out_size: int, scale, exact: bool) -> np.ndarray:
    """The input position each output position copies."""
    positions = np.arange(out_size)
    factor = _scale(in_size, out_size, scale, False, np.float32)
    if exact:
        sources = np.floor((positions + 0.5) * np.float64(factor))
    elif out_size == in_size:
        return positions
    elif out_size == 2 * in_size:
        return positions >> 1
    else:
        sources = np.floor(positions.astype(np.float32) * factor)
    return np.minimum(sources.astype(np.int64), in_size - 1)


def _fused_multiply_add(a, b, c, real) -> np.ndarray:
    """``a * b + c`` rounded once to `real`, as torch's kernels (built with FMA
    contraction) compute source positions and cubic weights: exact in float64 for
    float32 operands, exact in rationals for float64 ones (one value per output
    position)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, real) for v in (a, b, c)))
    if real is np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    exact = [Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
             for x, y, z in zip(a.ravel(), b.ravel(), c.ravel())]
    return np.array([float(v) for v in exact], np.float64).reshape(a.shape)


def source_positions(in_size, out_size, scale, align_corners, real, cubic,
                     fused: bool = True) -> np.ndarray:
    """The fractional source position of each output position, in dtype `real` (its
    multiply-add fused unless `fused` is false)."""
    factor = _scale(in_size, out_size, scale, align_corners, real)
    positions = np.arange(out_size).astype(real)
    if align_corners:
        return factor * positions
    if fused:
        sources = _fused_multiply_add(factor, positions + real(0.5), -0.5, real)
    else:
        sources = factor * (positions + real(0.5)) - real(0.5)
    return sources if cubic else np.maximum(sources, real(0))


def _real_sources(in_size, out_size, scale, align_corners, real, cubic, fused=True):
    """The fractional source positions and their floors (clamped as torch guards them;
    torch floors in float32 whatever the computation dtype)."""
    sources = source_positions(in_size, out_size, scale, align_corners, real, cubic, fused)
    floors = np.minimum(np.floor(sources.astype(np.float32)).astype(np.int64), in_size - 1)
    fractions = np.clip(sources - floors.astype(real), real(0), real(1)).astype(real)
    return floors, fractions


def _stored(weights: np.ndarray, stored) -> np.ndarray:
    """`weights` rounded to the dtype torch keeps them in (`stored`: None keeps them)."""
    return weights if stored is None else weights.astype(stored).astype(weights.dtype)


def linear_taps(in_size, out_size, scale, align_corners, real, stored=None) -> list:
    """Two (positions, weights) taps: the floor and the next position (the floor again
    at the last one); an unchanged size copies. With `stored`, the fraction is rounded
    to it first and its complement computed from the rounded value."""
    if in_size == out_size:
        positions = np.arange(out_size)
        return [(positions, np.ones(out_size, real)), (positions, np.zeros(out_size, real))]
    floors, fractions = _real_sources(in_size, out_size, scale, align_corners, real, False)
    nexts = floors + (floors < in_size - 1)
    fractions = _stored(fractions, stored)
    return [(floors, _stored(real(1) - fractions, stored)), (nexts, fractions)]


def cubic_taps(in_size, out_size, scale, align_corners, real, stored=None,
               fused: bool = True) -> list:
    """Four (positions, weights) taps around the source position, clamped to the edges
    (the weights rounded to `stored` when given; computed with no fused step unless
    `fused`, as torch's kernels built for the baseline CPU compute them)."""
    floors, t = _real_sources(in_size, out_size, scale, align_corners, real, True, fused)
    a = real(_CUBIC_A)

    def multiply_add(x, y, z):
        return _fused_multiply_add(x, y, z, real) if fused else x * y + real(z)

    def near(x):        # |x| <= 1: ((a + 2) x - (a + 3)) x x + 1, its first step fused
        return multiply_add(a + real(2), x, -(a + real(3))) * x * x + real(1)

    def far(x):         # 1 < |x| < 2: ((a x - 5 a) x + 8 a) x - 4 a, two steps fused
        inner = multiply_add(a, x, -real(5) * a)
        return multiply_add(inner, x, real(8) * a) * x - real(4) * a
    rest = real(1) - t
    weights = (far(t + real(1)), near(t), near(rest), far(rest + real(1)))
    return [(np.clip(floors - 1 + j, 0, in_size - 1), _stored(w, stored))
            for j, w in enumerate(weights)]


# the antialiasing filters' half-widths (at scale 1)
_SUPPORT = {"linear": 1.0, "cubic": 2.0, "lanczos": 3.0}


def _antialias_filter(x: np.ndarray, kind: str) -> np.ndarray:
    """The antialiasing filters: the triangle, Keys' cubic with A = -0.5, or Lanczos-3
    (a sinc windowed by a sinc three times wider)."""
    x = np.abs(x)
    if kind == "linear":
        return np.where(x < 1, 1 - x, 0.0)
    if kind == "lanczos":
        return np.where(x < 3, np.sinc(x) * np.sinc(x / 3), 0.0)
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = (((x - 5) * x + 8) * x - 4) * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def antialias_taps(in_size, out_size, scale, align_corners, kind: str) -> list:
    """Taps of the antialiased modes (filter `kind`: linear, cubic or lanczos): when
    shrinking, the filter widens by the scale and covers every input position it
    overlaps; each output's weights sum to 1. Outputs with fewer positions than the
    widest get zero weights for the rest (computed in float64, as torch computes them)."""
    factor = float(_scale(in_size, out_size, scale, align_corners, np.float64))
    reach = _SUPPORT[kind] * max(factor, 1.0)
    stretch = 1.0 / factor if factor >= 1.0 else 1.0
    centres = factor * (np.arange(out_size) + 0.5)
    starts = np.maximum((centres - reach + 0.5).astype(np.int64), 0)
    counts = np.minimum((centres + reach + 0.5).astype(np.int64), in_size) - starts
    offsets = np.arange(int(math.ceil(reach)) * 2 + 1)[:, None]
    weights = _antialias_filter((offsets + starts - centres + 0.5) * stretch, kind)
    weights = np.where(offsets < counts, weights, 0.0)
    totals = weights.sum(axis=0)
    weights = np.divide(weights, totals, out=np.zeros_like(weights), where=totals != 0)
    positions = np.minimum(starts + offsets, in_size - 1)
    return list(zip(positions, weights))


def _resample(self, dim_taps: list):
    """Resample the trailing dims, innermost first: ``dim_taps[k]`` lists the taps of
    spatial dim k (Note [Upsampling source positions])."""
    if self._dtype in _REDUCED:
        # torch sums in float32 and rounds once, at the end
        return _resample(self.float(), dim_taps).to(self._dtype)
    result = self
    first = self.dim() - len(dim_taps)
    for k in reversed(range(len(dim_taps))):
        dim, total = first + k, None
        trailing = [1] * (self.dim() - 1 - dim)
        for positions, weights in dim_taps[k]:
            index = wrap_array(np.asarray(positions, dtype=np.int64), dtypes.int64)
            term = result.index_select(dim, index.to(self.device))
            if weights is not None:
                weight = wrap_array(np.asarray(weights).reshape([-1] + trailing), dtypes.float64)
                term = term * weight.to(self.device, self._dtype)
            total = term if total is None else total + term
        result = total
    return result


def _resample_reduced(self, kind: str, output_size, scales, align_corners: bool):
    """float16 / bfloat16 through torch's float32 kernels (Note [Reduced-precision
    resampling]): the channels-last one keeps float32 weights, the generic one rounds
    them to the input's dtype."""
    joint = upsample_reduced.uses_channels_last_kernel(self, kind, output_size)
    stored = None if joint else self._dtype._np
    taps = _taps(kind, self._size[2:], output_size, scales, align_corners, np.float32, stored)
    if joint:
        result = upsample_reduced.resample_channels_last(self.float(), taps, self._dtype)
    else:
        result = upsample_reduced.resample_generic(self.float(), taps)
    return result.to(self._dtype)


def _resample_uint8(self, kind: str, output_size, scales, align_corners: bool):
    """uint8 images through torch's fixed-point passes (Note [uint8 resampling])."""
    image = self._np
    antialias, filter_kind = kind.endswith("-aa"), kind.removesuffix("-aa")
    first = image.ndim - len(output_size)
    for axis in reversed(range(first, image.ndim)):
        in_size, out_size = image.shape[axis], output_size[axis - first]
        if in_size == out_size:
            continue
        scale = scales[axis - first]
        sources = source_positions(in_size, out_size, scale, align_corners, np.float64,
                                   filter_kind != "linear")
        factor = float(_scale(in_size, out_size, scale, align_corners, np.float64))
        image = upsample_uint8.resample_pass(image, axis, *upsample_uint8.pass_weights(
            in_size, out_size, factor, filter_kind, antialias, align_corners, sources))
    return wrap_array(np.array(image, order="C"), dtypes.uint8)


def _in_layout_of(self, result):
    """torch lays the result out as the input: channels last stays channels last."""
    formats = {4: channels_last, 5: channels_last_3d}
    layout = formats.get(self.dim())
    if layout is not None and not self.is_contiguous() and self.is_contiguous(
            memory_format=layout):
        return result.contiguous(memory_format=layout)
    return result


def _check(self, output_size, k: int) -> None:
    """torch's checks of the sizes (upsample_{k}d_common_check) and of the input."""
    if len(output_size) != k:
        raise RuntimeError(f"It is expected output_size equals to {k}, but got size "
                           f"{len(output_size)}")
    if self.dim() != k + 2:
        raise RuntimeError(f"It is expected input_size equals to {k + 2}, but got size "
                           f"{self.dim()}")
    spatial = self._size[2:]
    if min(spatial) <= 0 or min(output_size) <= 0:
        axes = _AXES[3 - k:]
        inputs = ", ".join(f"{a}: {n}" for a, n in zip(axes, spatial))
        outputs = ", ".join(f"{a}: {n}" for a, n in zip(axes, output_size))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({inputs}) output ({outputs})")
    if self.numel() == 0 and math.prod(self._size[1:]) == 0:
        raise RuntimeError(f"Non-empty {k + 2}D data tensor expected but got a tensor with "
                           f"sizes {list(self._size)}")


def _refuse_dtype(self, kernel: str, uint8: bool, reduced: bool = True) -> None:
    """The CPU kernels loop over floating dtypes (float16 and bfloat16 unless `reduced`
    is false), and uint8 for some; meta calls pass."""
    if not holds_data(self) or (self._dtype.is_floating_point
                                and (reduced or self._dtype not in _REDUCED)):
        return
    if uint8 and self._dtype is dtypes.uint8:
        return
    raise NotImplementedError(f"\"{kernel}\" not implemented for "
                              f"'{scalar_type_name(self._dtype)}'")


def vec_output_size(input, output_size, scale_factors) -> tuple:
    """The ``.vec`` overloads' sizes and per-dim scales: exactly one of `output_size`
    (scales None) and `scale_factors` (sizes ``int(in * factor)``)."""
    spatial = input.dim() - 2
    if output_size is not None and scale_factors is None:
        if len(output_size) != spatial:
            _internal_check("static_cast<int64_t>(output_size->size()) == spatial_dimensions")
        return list(output_size), [None] * spatial
    if scale_factors is not None and output_size is None:
        if len(scale_factors) != spatial:
            _internal_check("static_cast<int64_t>(scale_factors->size()) == spatial_dimensions")
        sizes = [int(input._size[2 + i] * scale_factors[i]) for i in range(spatial)]
        return sizes, list(scale_factors)
    raise RuntimeError("Must specify exactly one of output_size and scale_factors")


def _internal_check(condition: str) -> None:
    raise RuntimeError(f"Expected {condition} to be true, but got false.  (Could this error "
                       f"message be improved?  If so, please report an enhancement request "
                       f"to PyTorch.)")


_SCALES = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}
# the name of torch's CPU loop that refuses a dtype, per operator family
_KERNELS = {"nearest": "compute_indices_weights_nearest",
            "linear-aa": "compute_index_ranges_weights",
            "cubic-aa": "compute_index_ranges_weights",
            "lanczos-aa": "compute_index_ranges_weights",
            "linear": "compute_indices_weights_linear",
            "cubic": "compute_indices_weights_cubic"}


def _taps(kind: str, sizes, output_size, scales, align_corners, real, stored=None) -> list:
    """Each spatial dim's taps for resampling mode `kind` (interpolation weights rounded
    to `stored` when given)."""
    if kind in ("nearest", "nearest-exact"):
        return [[(nearest_sources(n, m, s, kind == "nearest-exact"), None)]
                for n, m, s in zip(sizes, output_size, scales)]
    if kind.endswith("-aa"):
        return [antialias_taps(n, m, s, align_corners, kind[:-3])
                for n, m, s in zip(sizes, output_size, scales)]
    taps = linear_taps if kind == "linear" else cubic_taps
    return [taps(n, m, s, align_corners, real, stored)
            for n, m, s in zip(sizes, output_size, scales)]


def _gradient(name: str, k: int, kind: str) -> dict | None:
    """The linear and cubic modes' derivative: their backward operator, which adds the
    terms in torch's order (Note [Resampling gradients in torch's order]); the others
    differentiate through the operators they are written in."""
    if kind not in ("linear", "cubic"):
        return None
    scales = ", ".join(_SCALES[k])
    return {"self": f"{name}_backward(grad, output_size, self_sym_sizes, align_corners, "
                    f"{scales})"}


def _declare(name: str, k: int, kind: str) -> tuple:
    """The operator `name` resampling the last `k` dims in mode `kind`, and its .vec."""
    interpolating = not kind.startswith("nearest")
    corners = "bool align_corners, " if interpolating else ""
    scales = ", ".join(f"float? {s}=None" for s in _SCALES[k])
    family = "nearest" if kind.startswith("nearest") else kind
    kernel = (f"{name}_channels_last" if k == 2 and kind in ("nearest", "linear")
              else _KERNELS[family])

    def forward(self, output_size, *rest):
        align_corners, scales = (rest[0], rest[1:]) if interpolating else (False, rest)
        _check(self, output_size, k)
        # the antialiased kernels copy an unchanged size before computing weights,
        # which they do in float32 and float64 only
        unchanged = tuple(output_size) == tuple(self._size[2:])
        _refuse_dtype(self, kernel, uint8=not interpolating or k == 2,
                      reduced=not kind.endswith("-aa") or unchanged)
        if interpolating and self._dtype is dtypes.uint8 and holds_data(self):
            return _in_layout_of(self, _resample_uint8(self, kind, output_size, scales,
                                                       align_corners))
        real = np.float64 if self._dtype is dtypes.float64 else np.float32
        if self._dtype in _REDUCED and kind in ("linear", "cubic"):
            return _in_layout_of(self, _resample_reduced(self, kind, output_size, scales,
                                                         align_corners))
        taps = _taps(kind, self._size[2:], output_size, scales, align_corners, real)
        return _in_layout_of(self, _resample(self, taps))
    forward.__name__ = name
    forward.__doc__ = (f"Resize the last {k} dim(s) of `self` to `output_size` ({kind} "
                       f"interpolation; Note [Upsampling source positions]).")
    functional = composite(f"{name}(Tensor self, SymInt[{k}] output_size, {corners}{scales}) "
                           f"-> Tensor", python_module="nn", grad=_gradient(name, k, kind))(forward)

    def vec(input, output_size, *rest):
        align_corners, scale_factors = ((rest[0],), rest[1]) if interpolating else ((), rest[0])
        sizes, per_dim = vec_output_size(input, output_size, scale_factors)
        return functional.call(input, sizes, *align_corners, *per_dim)
    vec.__name__ = f"{name}_vec"
    vec.__doc__ = f"`{name}` to the sizes given, or scaled by `scale_factors`."
    vectorised = composite(f"{name}.vec(Tensor input, SymInt[]? output_size, {corners}"
                           f"float[]? scale_factors) -> Tensor", python_module="nn")(vec)
    return functional, vectorised


upsample_nearest1d, upsample_nearest1d_vec = _declare("upsample_nearest1d", 1, "nearest")
upsample_nearest2d, upsample_nearest2d_vec = _declare("upsample_nearest2d", 2, "nearest")
upsample_nearest3d, upsample_nearest3d_vec = _declare("upsample_nearest3d", 3, "nearest")
_upsample_nearest_exact1d, _upsample_nearest_exact1d_vec = _declare(
    "_upsample_nearest_exact1d", 1, "nearest-exact")
_upsample_nearest_exact2d, _upsample_nearest_exact2d_vec = _declare(
    "_upsample_nearest_exact2d", 2, "nearest-exact")
_upsample_nearest_exact3d, _upsample_nearest_exact3d_vec = _declare(
    "_upsample_nearest_exact3d", 3, "nearest-exact")
upsample_linear1d, upsample_linear1d_vec = _declare("upsample_linear1d", 1, "linear")
upsample_bilinear2d, upsample_bilinear2d_vec = _declare("upsample_bilinear2d", 2, "linear")
upsample_trilinear3d, upsample_trilinear3d_vec = _declare("upsample_trilinear3d", 3, "linear")
upsample_bicubic2d, upsample_bicubic2d_vec = _declare("upsample_bicubic2d", 2, "cubic")
_upsample_bilinear2d_aa, _upsample_bilinear2d_aa_vec = _declare(
    "_upsample_bilinear2d_aa", 2, "linear-aa")
_upsample_bicubic2d_aa, _upsample_bicubic2d_aa_vec = _declare(
    "_upsample_bicubic2d_aa", 2, "cubic-aa")
_upsample_lanczos2d_aa, _upsample_lanczos2d_aa_vec = _declare(
    "_upsample_lanczos2d_aa", 2, "lanczos-aa")
