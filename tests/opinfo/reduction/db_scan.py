"""OpInfo entries for the scans (`aten/native/reduction/scan.py`): cumsum, cumprod, cummax,
cummin, logcumsumexp, and count_nonzero. The references walk each lane in order, as
torch's CPU kernels do (Note [Scan accumulation] in scan.py)."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensors)
from .db_reduction import (META_REF, META_REPEATED, _dtype_np, long_if_integral, np_axes,
                           special_values)

ALL = BOOL + INTEGRAL + FLOATING + COMPLEX
REAL = BOOL + INTEGRAL + FLOATING
INEXACT = FLOATING + COMPLEX
TWO_RESULT_OUT = pytest.mark.skip(reason="out= of two results: tests/test_scan.py")
TWO_OUT = {"test_out": TWO_RESULT_OUT, "test_out_matches_torch": TWO_RESULT_OUT}
OUT_OF_RANGE = (r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                r"but got 2\)$")


# ----- references --------------------------------------------------------------------
def _accumulation(result: np.dtype) -> np.dtype:
    """torch's CPU scans run in double for float32, float for 16-bit floats."""
    if result.kind in "fV" and result.itemsize < 8:
        return np.dtype(np.float64) if result.itemsize == 4 else np.dtype(np.float32)
    if result == np.complex64:
        return np.dtype(np.complex128)
    return result


def _lanes_first(x: np.ndarray, dim: int) -> np.ndarray:
    return np.moveaxis(x.reshape(1) if x.ndim == 0 else x, dim if x.ndim else 0, 0)


def _walk(step, x: np.ndarray, dim: int, acc: np.dtype) -> np.ndarray:
    """Apply ``running = step(running, x[i])`` along `dim`, element by element."""
    lanes = _lanes_first(x.astype(acc), dim)
    result = np.empty(lanes.shape, acc)
    with np.errstate(all="ignore"):
        for i in range(lanes.shape[0]):
            result[i] = lanes[i] if i == 0 else step(result[i - 1], lanes[i])
    return np.moveaxis(result, 0, dim if x.ndim else 0).reshape(x.shape)


def _cumulative(step):
    def ref(x, dim, dtype=None):
        result = _dtype_np(dtype) or long_if_integral(x)
        with np.errstate(all="ignore"):
            x = x.astype(result)
        return _walk(step, x, dim, _accumulation(result)).astype(result)
    return ref


def _log_add_exp(running, new):
    """torch's step: the operand with the larger real part factors out (the running
    value counts as the lower of two with equal real parts)."""
    if new.dtype.kind != "c":
        return np.logaddexp(running, new)
    low = np.where(new.real < running.real, new, running)
    high = np.where(new.real < running.real, running, new)
    return high + np.log1p(np.exp(low - high))


def ref_logcumsumexp(x, dim):
    return _walk(_log_add_exp, x, dim, _accumulation(x.dtype)).astype(x.dtype)


def _ref_extreme(replaces):
    """cummax / cummin by torch's rule: the new element replaces the running extreme
    when ``replaces(new, best)`` or it is NaN, unless the running extreme is NaN."""
    def ref(x, dim):
        lanes = _lanes_first(x, dim)
        values, indices = lanes.copy(), np.zeros(lanes.shape, np.int64)
        with np.errstate(all="ignore"):
            for i in range(1, lanes.shape[0]):
                best, new = values[i - 1], lanes[i]
                if x.dtype.kind in "biu":
                    take = replaces(new, best)
                else:
                    wide_best, wide_new = best.astype(np.float64), new.astype(np.float64)
                    take = np.isnan(wide_new) | (~np.isnan(wide_best) &
                                                 replaces(wide_new, wide_best))
                values[i] = np.where(take, new, best)
                indices[i] = np.where(take, i, indices[i - 1])
        back = dim if x.ndim else 0
        return [np.moveaxis(values, 0, back).reshape(x.shape),
                np.moveaxis(indices, 0, back).reshape(x.shape)]
    return ref


def ref_count_nonzero(x, dim=None):
    return np.asarray(np.count_nonzero(x.astype(np.complex128), axis=np_axes(x, dim)),
                      dtype=np.int64)


# ----- samples -------------------------------------------------------------------------
def _no_bool_empties(dtype, x) -> bool:
    """cumsum_/cumprod_ of a bool tensor: torch refuses it (bool results have no scan
    kernel) except where there is nothing to scan, which the in-place test can't tell."""
    return dtype is gt.bool and (x.dim() == 0 or x.numel() == 0)


def sample_cumulative(low=None, high=None):
    def samples(dtype):
        for x in tensors(dtype, low=low, high=high):
            if _no_bool_empties(dtype, x):
                continue
            for dim in ((0, -1) if x.dim() > 1 else (0,)):
                yield SampleInput(x, dim)
        x = make_tensor((3, 4), dtype, low=low, high=high)
        if dtype is not gt.bool:        # other dtype= values: tests/test_scan.py
            yield SampleInput(x, 1, dtype=dtype)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), 0)
            yield SampleInput(special_values(dtype), 1)
        if not dtype.is_complex and dtype is not gt.bool:
            yield SampleInput(make_tensor((4, 70), dtype, low=low, high=high), 0)
    return samples


def sample_extreme(dtype):
    for x in tensors(dtype, low=-3, high=3):
        for dim in ((0, -1) if x.dim() > 1 else (0,)):
            yield SampleInput(x, dim)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 0)
        yield SampleInput(special_values(dtype), 1)
        yield SampleInput(gt.tensor([0.0, -0.0, 0.0, -1.0, -0.0]).to(dtype), 0)
    yield SampleInput(make_tensor((80, 3), dtype, low=-3, high=3), 0)


def sample_logcumsumexp(dtype):
    for x in tensors(dtype, low=-5, high=5):
        for dim in ((0, -1) if x.dim() > 1 else (0,)):
            yield SampleInput(x, dim)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 0)
        yield SampleInput(special_values(dtype), 1)
        yield SampleInput(make_tensor((70, 3), dtype, low=-5, high=5), 0)


def sample_count_nonzero(dims: bool):
    def samples(dtype):
        for x in tensors(dtype, low=-1, high=2):
            if dims:
                yield SampleInput(x, (0, -1) if x.dim() > 1 else (0,))
                yield SampleInput(x, ())
            else:
                yield SampleInput(x)
                yield SampleInput(x, -1)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), (1,) if dims else 0)
    return samples


# ----- error inputs ----------------------------------------------------------------------
def _bad_dim(*extra, **kwargs):
    return ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), 2, *extra, **kwargs),
                      IndexError, OUT_OF_RANGE)


def errors_cumulative(name):
    def errors():
        yield _bad_dim()
        ints = make_tensor((3,), gt.int32)
        yield ErrorInput(SampleInput(ints, 0, dtype=gt.bool), NotImplementedError,
                         rf'^"{name}_out_cpu" not implemented for \'Bool\'$')
        yield ErrorInput(SampleInput(ints, 0, dtype=gt.int32, out=gt.empty(3, dtype=gt.int64)),
                         RuntimeError, r"^Expected out tensor to have dtype int, but got "
                         r"long int instead$", known_bug_on_meta=META_REF + "'dtype argument "
                         "and out dtype must match in reduction'")
    return errors


def errors_logcumsumexp():
    yield _bad_dim()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), 0), NotImplementedError,
                     r'^"logcumsumexp_out_cpu" not implemented for \'Long\'$')
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, 0, out=gt.empty(3, dtype=gt.float64)), RuntimeError,
                     r"^expected scalar_type Float but found Double$",
                     known_bug_on_meta="scan: torch's meta function does not check out='s dtype")


def errors_extreme(name):
    def errors():
        yield _bad_dim()
        yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64), 0), NotImplementedError,
                         rf'^"{name}_cpu" not implemented for \'ComplexFloat\'$')
        yield ErrorInput(SampleInput(make_tensor((), gt.float32), 1), IndexError,
                         rf"^{name}\(\): Expected reduction dim -1 or 0 for scalar but got 1$")
    return errors


def errors_count_nonzero():
    yield _bad_dim()
    yield ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), (0, -2)), RuntimeError,
                     r"^dim 0 appears multiple times in the list of dims$",
                     known_bug_on_meta=META_REPEATED)


# ----- diff, gradient, trapezoid, cumulative_trapezoid (`aten/native/reduction/integration.py`) -----
def _float_of(x) -> np.dtype:
    """torch's integrals of integer samples (an array or a dtype) are float32."""
    dtype = np.dtype(getattr(x, "dtype", x))
    return np.dtype(np.float32) if dtype.kind in "biu" else dtype


def ref_diff(x, n=1, dim=-1, prepend=None, append=None):
    """Samples give prepend / append of x's dtype (promotion: tests/test_scan.py)."""
    if n == 0:
        return x.copy()
    joined = np.concatenate([t for t in (prepend, x, append) if t is not None], axis=dim)
    with np.errstate(all="ignore"):
        return np.diff(joined, min(n, joined.shape[dim]), axis=dim)


def ref_gradient(x, spacing=None, dim=None, edge_order=1):
    axes = list(range(x.ndim)) if dim is None else [dim] if isinstance(dim, int) else dim
    if spacing is None:
        spacing = [1.0] * len(axes)
    elif not isinstance(spacing, (list, tuple)):
        spacing = [spacing] * len(axes)
    dtype = _float_of(x)
    for where in spacing:       # coordinate tensors take part in the promotion
        if isinstance(where, np.ndarray):
            dtype = np.result_type(dtype, where.dtype)
    with np.errstate(all="ignore"):
        results = np.gradient(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64),
                              *spacing, axis=tuple(axes),
                              edge_order=edge_order)
    results = [results] if len(axes) == 1 else results
    return [r.astype(dtype) for r in results]


def _integral_dtype(y: np.ndarray, x) -> np.dtype:
    """y's float dtype; with `x`, torch's promotion of the two first (an integer x
    does not widen a floating y, as NumPy's promotion would)."""
    if x is None or (x.dtype.kind in "biu" and y.dtype.kind not in "biu"):
        return _float_of(y)
    return _float_of(np.result_type(y.dtype, x.dtype))


def _heights(y: np.ndarray, dim: int) -> np.ndarray:
    """``y[i] + y[i + 1]`` along `dim`, added in y's dtype as torch does, then widened."""
    count = y.shape[dim]
    with np.errstate(all="ignore"):
        pairs = np.take(y, range(1, count), axis=dim) + np.take(y, range(count - 1), axis=dim)
    return pairs.astype(np.complex128 if y.dtype.kind == "c" else np.float64)


def _widths(y: np.ndarray, x, dx, dim: int):
    """``x[i + 1] - x[i]`` along `dim`, placed as torch places a 1-D `x`."""
    if x is None:
        return dx
    if x.ndim == 1:
        return np.diff(x).reshape([-1 if d == dim % y.ndim else 1 for d in range(y.ndim)])
    return np.diff(x.reshape((1,) * (y.ndim - x.ndim) + x.shape), axis=dim)


def ref_trapezoid(y, x=None, dx=1, dim=-1):
    if y.shape[dim] == 0:
        return np.zeros(np.delete(y.shape, dim % y.ndim), y.dtype)
    total = np.sum(_heights(y, dim) * _widths(y, x, dx, dim), axis=dim) / 2
    return np.asarray(total).astype(_integral_dtype(y, x))


def ref_cumulative_trapezoid(y, x=None, dx=1, dim=-1):
    steps = _heights(y, dim) * _widths(y, x, dx, dim) / 2
    return np.cumsum(steps, axis=dim).astype(_integral_dtype(y, x))


def sample_diff(dtype):
    """Every standard tensor with a few orders (out= of an empty dim fails in torch too:
    there is no last step to write it)."""
    for x in tensors(dtype):
        for n, dim in ((1, -1), (2, 0), (0, -1)):
            if x.dim() and x.shape[dim] > n:
                yield SampleInput(x, n, dim)
    yield SampleInput(make_tensor((5,), dtype), 7, 0)
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, 1, 1, make_tensor((3, 2), dtype, seed=1), make_tensor((3, 1), dtype))
    yield SampleInput(x, 2, 0, None, make_tensor((2, 4), dtype, seed=2))


def _sixteen_bits(dtype) -> bool:
    """float16 / bfloat16: torch rounds every step of the edge_order=2 formula."""
    return dtype in (gt.float16, gt.bfloat16)


def _gradient_tensors(dtype):
    return tensors(dtype, shapes=((5,), (3, 4), (2, 3, 4)))


def sample_gradient(overload: str):
    """Samples the `overload` of gradient takes (each is called directly too)."""
    def samples(dtype):
        if dtype is gt.uint8:
            return
        second = 1 if _sixteen_bits(dtype) else 2
        for x in _gradient_tensors(dtype):
            if overload == "scalarint":
                yield SampleInput(x)
                yield SampleInput(x, spacing=2.0, dim=-1, edge_order=second)
            elif overload == "array":
                dims = [0, -1] if x.dim() > 1 else [0]
                yield SampleInput(x, dim=dims, edge_order=second if min(
                    x.shape[d] for d in dims) > 2 else 1)
            elif overload == "scalararray":
                yield SampleInput(x, spacing=0.5, dim=[-1])
            elif overload == "scalarrayint":
                yield SampleInput(x, spacing=[0.5 + d for d in range(x.dim())])
            elif overload == "tensorarrayint":
                yield SampleInput(x, spacing=(_coordinates(x.shape[-1], dtype),), dim=-1,
                                  edge_order=second)
    return samples


def _coordinates(count: int, dtype):
    """Sample positions in x's own floating dtype (mixed dtypes: tests/test_scan.py)."""
    own = dtype.to_real() if dtype.is_complex else dtype
    return gt.tensor([0.0, 0.5, 2.0, 2.5, 4.0][:count],
                     dtype=own if own.is_floating_point else gt.float64)


def sample_trapezoid(with_x: bool, cumulative: bool = False):
    def samples(dtype):
        for y in tensors(dtype, shapes=((5,), (3, 4), (2, 3, 4), (1, 3, 1))):
            if with_x:
                yield SampleInput(y, make_tensor((y.shape[-1],), gt.float64, low=0, high=5))
                yield SampleInput(y, make_tensor(y.shape, gt.int64, seed=3), dim=0)
            else:
                yield SampleInput(y)
                yield SampleInput(y, dx=0.5, dim=0)
        if not (cumulative or with_x):
            yield SampleInput(make_tensor((4, 0), dtype), dim=1)
    return samples


def errors_diff():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((), gt.float32)), RuntimeError,
                     r"^diff expects input to be at least one-dimensional$")
    yield ErrorInput(SampleInput(x, -1), RuntimeError, r"^order must be non-negative but got -1$")
    yield ErrorInput(SampleInput(x, 1, -1, make_tensor((3,), gt.float32)), RuntimeError,
                     r"^diff expects prepend or append to be the same dimension as input$")
    yield ErrorInput(SampleInput(x, 1, -1, None, make_tensor((3, 1), gt.float32)), RuntimeError,
                     r"^diff expects the shape of tensor to prepend or append to match that of "
                     r"input except along the differencing dimension; input.size\(0\) = 2, but "
                     r"got tensor.size\(0\) = 3$")
    yield ErrorInput(SampleInput(x, 1, 2), IndexError, r"^Dimension out of range")


def errors_gradient():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((3,), gt.uint8)), RuntimeError,
                     r"^torch.gradient does not support uint8 input.$")
    yield ErrorInput(SampleInput(x, spacing=[1.0]), RuntimeError,
                     r"^torch.gradient expected spacing to be unspecified, a scalar, or a list "
                     r"of length equal to 'self.dim\(\) = 2', since dim argument was not given, "
                     r"but got a list of length 1$")
    yield ErrorInput(SampleInput(x, spacing=[1.0, 2.0], dim=[0]), RuntimeError,
                     r"^torch.gradient expected spacing to be unspecified, a scalar or it's "
                     r"spacing and dim arguments to have the same length, but got a spacing "
                     r"argument of length 2 and a dim argument of length 1.$")
    yield ErrorInput(SampleInput(x, edge_order=3), RuntimeError,
                     r"^torch.gradient only supports edge_order=1 and edge_order=2.$")
    yield ErrorInput(SampleInput(make_tensor((2, 4), gt.float32), edge_order=2), RuntimeError,
                     r"^torch.gradient expected each dimension size to be at least edge_order\+1$")
    yield ErrorInput(SampleInput(x, dim=2), IndexError, r"^Dimension out of range")
    yield ErrorInput(SampleInput(x, spacing=(gt.tensor(1.0),), dim=0), RuntimeError,
                     r"^torch.gradient expected each element of spacing to have one dimension, "
                     r"but got an element with 0 dimensions!$")


def errors_trapezoid(name: str, with_x: bool, number: bool = True):
    def errors():
        y = make_tensor((3, 4), gt.float32)
        if with_x:
            yield ErrorInput(SampleInput(y, make_tensor((3,), gt.float32)), RuntimeError,
                             rf"^{name}: There must be one `x` value for each sample point$")
            yield ErrorInput(SampleInput(y, make_tensor((4,), gt.bool)), RuntimeError,
                             rf"^{name}: received a bool input for `x` or `y`, but bool is not "
                             rf"supported$")
            return
        yield ErrorInput(SampleInput(make_tensor((3,), gt.bool)), RuntimeError,
                         rf"^{name}: received a bool input for `y`, but bool is not supported$")
        yield ErrorInput(SampleInput(y, dim=2), IndexError, r"^Dimension out of range")
        if number:
            yield ErrorInput(SampleInput(y, dx=1j), RuntimeError,
                             rf"^{name}: Currently, we only support dx as a real number.$")
    return errors


# float16 / bfloat16 round every step of these composites (a sum, edge weights): the
# float64 references are too exact for them there; tests/test_scan.py compares with torch.
NOT_16_BITS = INTEGRAL + (gt.float32, gt.float64) + COMPLEX


def _integral(name: str, overload: str, ref, errors_name: str, **flags):
    with_x = overload == "x"
    return OpInfo(f"{name}.{overload}", variants=(name,), ref=ref,
                  sample_inputs=sample_trapezoid(with_x, name.startswith("cumulative")),
                  error_inputs=errors_trapezoid(errors_name, with_x, **flags),
                  dtypes=INTEGRAL + INEXACT if with_x else NOT_16_BITS)


def _gradient(overload: str, **flags):
    dtypes = NOT_16_BITS if overload.startswith("tensor") else INTEGRAL + INEXACT
    return OpInfo(f"gradient.{overload}", variants=("gradient",), ref=ref_gradient,
                  sample_inputs=sample_gradient(overload), dtypes=dtypes, **flags)


OPS = [
    OpInfo("cumsum", variants=("cumsum", "Tensor.cumsum"), ref=_cumulative(np.add),
           sample_inputs=sample_cumulative(), error_inputs=errors_cumulative("cumsum"),
           out="cumsum", inplace="Tensor.cumsum_", out_sets_dtype=True, dtypes=ALL),
    OpInfo("cumprod", variants=("cumprod", "Tensor.cumprod"), ref=_cumulative(np.multiply),
           sample_inputs=sample_cumulative(low=-2, high=3),
           error_inputs=errors_cumulative("cumprod"), out="cumprod",
           inplace="Tensor.cumprod_", out_sets_dtype=True, dtypes=ALL),
    OpInfo("logcumsumexp", variants=("logcumsumexp", "Tensor.logcumsumexp"),
           ref=ref_logcumsumexp, sample_inputs=sample_logcumsumexp,
           error_inputs=errors_logcumsumexp, out="logcumsumexp", dtypes=INEXACT),
    OpInfo("cummax", variants=("cummax", "Tensor.cummax"), ref=_ref_extreme(np.greater_equal),
           sample_inputs=sample_extreme, error_inputs=errors_extreme("cummax"),
           out="cummax", marks=TWO_OUT, dtypes=REAL),
    OpInfo("cummin", variants=("cummin", "Tensor.cummin"), ref=_ref_extreme(np.less_equal),
           sample_inputs=sample_extreme, error_inputs=errors_extreme("cummin"),
           out="cummin", marks=TWO_OUT, dtypes=REAL),
    OpInfo("count_nonzero", variants=("count_nonzero", "Tensor.count_nonzero"),
           ref=ref_count_nonzero, sample_inputs=sample_count_nonzero(False),
           error_inputs=errors_count_nonzero, dtypes=ALL),
    OpInfo("count_nonzero.dim_IntList", variants=("count_nonzero", "Tensor.count_nonzero"),
           ref=ref_count_nonzero, sample_inputs=sample_count_nonzero(True), dtypes=ALL),
    OpInfo("diff", variants=("diff", "Tensor.diff"), ref=ref_diff, sample_inputs=sample_diff,
           error_inputs=errors_diff, out="diff", dtypes=ALL),
    _gradient("scalarint", error_inputs=errors_gradient),
    _gradient("array"),
    _gradient("scalararray", covers=("gradient.scalarrayarray",)),
    _gradient("scalarrayint"),
    _gradient("tensorarrayint", covers=("gradient.tensorarray",)),
    _integral("trapezoid", "x", ref_trapezoid, "trapezoid"),
    _integral("trapezoid", "dx", ref_trapezoid, "trapezoid"),
    _integral("trapz", "x", ref_trapezoid, "trapezoid"),
    _integral("trapz", "dx", ref_trapezoid, "trapezoid", number=False),
    _integral("cumulative_trapezoid", "x", ref_cumulative_trapezoid, "cumulative_trapezoid"),
    _integral("cumulative_trapezoid", "dx", ref_cumulative_trapezoid, "cumulative_trapezoid"),
]
