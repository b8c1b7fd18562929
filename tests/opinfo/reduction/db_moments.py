"""OpInfo entries for the moments and norms (`aten/native/reduction/moments.py`, `norms.py`): var,
std, var_mean, std_mean (each overload), logsumexp, linalg_vector_norm, the aten norm
overloads, linalg_matrix_norm (torch.norm's 'nuc') and dist."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import (COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensor_pairs, tensors)
from .db_reduction import (INEXACT, META_REF, OUT_OF_RANGE, REPEATED, accumulate_dtype,
                           bad_dims, dim_choices, np_axes, special_values)

INF = float("inf")
META_WORDING = META_REF + "other words (or no check) on meta"
SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of two results: tests/test_reduction.py")
                   for test in ("test_out", "test_out_matches_torch")}
COMPLEX_OUT_WARNINGS = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "reduction (structured op): torch computes a complex input's spread through a "
    "temporary and warns twice when it resizes out=; the registry's structured out= "
    "warns once"))}
FILLED_DTYPE = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "reduction: the registry fills a missing dtype= from out=, so a float16 input with a "
    "float32 out= is read as dtype=torch.float32 (computed; torch refuses the out=)"))}


# ----- references --------------------------------------------------------------------
def _moment(x, dim, correction, keepdim, root, with_mean):
    """var / std (and the mean) with torch's correction, accumulated as torch does."""
    correction = 1 if correction is None else correction
    wide = x.astype(accumulate_dtype(x.dtype))
    axis = np_axes(x, dim)
    keep = keepdim and x.ndim > 0
    with np.errstate(all="ignore"):
        count = wide.size if axis is None else int(np.prod([x.shape[a] for a in
                                                              np.atleast_1d(axis)]))
        mean = np.sum(wide, axis=axis, keepdims=True) / count
        squares = np.abs(wide - mean) ** 2
        spread = np.sum(squares, axis=axis, keepdims=keep) / max(0, count - correction)
        spread = np.sqrt(spread) if root else spread
    real = x.real.dtype if x.dtype.kind == "c" else x.dtype
    spread = np.asarray(spread).astype(real)
    if not with_mean:
        return spread
    shape = np.sum(squares, axis=axis, keepdims=keep).shape
    return [spread, np.asarray(mean).reshape(shape).astype(x.dtype)]


def _moment_refs(root, with_mean):
    def correction_form(x, dim=None, correction=None, keepdim=False):
        return _moment(x, dim, correction, keepdim, root, with_mean)

    def dim_form(x, dim, unbiased=True, keepdim=False):
        return _moment(x, dim, 1 if unbiased else 0, keepdim, root, with_mean)

    def plain_form(x, unbiased=True):
        return _moment(x, None, 1 if unbiased else 0, False, root, with_mean)
    return dim_form, correction_form, plain_form


def _logsumexp(x, dim, keepdim=False):
    if x.dtype.kind in "biu":
        x = x.astype(np.float32)
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    axis, keep = np_axes(x, dim), keepdim and x.ndim > 0
    with np.errstate(all="ignore"):
        shift = np.max(wide.real, axis=axis, keepdims=True, initial=-np.inf)
        shift = np.where(np.isfinite(shift), shift, 0)
        total = np.log(np.sum(np.exp(wide - shift), axis=axis, keepdims=keep))
        total = total + (shift if keep else shift.reshape(np.shape(total)))
    return np.asarray(total).astype(x.dtype)


def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    real = (x.real.dtype if x.dtype.kind == "c" else x.dtype) if dtype is None else \
        np.dtype(str(dtype).removeprefix("torch.")).type(0).real.dtype
    magnitude = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    axis = np_axes(x, dim)
    keep = keepdim and x.ndim > 0
    ord = 2.0 if ord is None else ord
    with np.errstate(all="ignore"):
        if ord == INF:
            value = np.max(magnitude, axis=axis, keepdims=keep)
        elif ord == -INF:
            value = np.min(magnitude, axis=axis, keepdims=keep)
        elif ord == 0:
            value = np.sum(magnitude != 0, axis=axis, keepdims=keep)
        else:
            value = np.sum(magnitude ** ord, axis=axis, keepdims=keep) ** (1.0 / ord)
    return np.asarray(value).astype(real)


def _norm_refs():
    def whole(x, p=2):
        return _vector_norm(x, p)

    def with_dim(x, p, dim, keepdim=False):
        return _vector_norm(x, p, dim, keepdim)

    def with_dim_dtype(x, p, dim, keepdim, dtype):
        return _vector_norm(x.astype(_np_dtype(dtype)), p, dim, keepdim)

    def whole_dtype(x, p, dtype):
        return _vector_norm(x.astype(_np_dtype(dtype)), p)
    return whole, with_dim, with_dim_dtype, whole_dtype


def _matrix_norm(x, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    values = x if dtype is None else x.astype(_np_dtype(dtype))
    real = values.real.dtype if values.dtype.kind == "c" else values.dtype
    dims = [d % x.ndim for d in dim]
    wide = values.astype(np.complex128 if values.dtype.kind == "c" else np.float64)
    moved = np.moveaxis(wide, dims, (-2, -1))
    if ord == "nuc":
        value = np.linalg.svd(moved, compute_uv=False).sum(-1)
    else:
        value = np.sqrt(np.sum(np.abs(moved) ** 2, axis=(-2, -1)))
    if keepdim:
        value = np.expand_dims(value, tuple(sorted(dims)))
    return np.asarray(value).astype(real)


def _np_dtype(dtype):
    return np.dtype(str(dtype).removeprefix("torch."))


def _dist(x, y, p=2):
    common = np.result_type(x, y)
    return _vector_norm((x.astype(np.complex128 if common.kind == "c" else np.float64) - y),
                        p).astype(common.type(0).real.dtype if common.kind != "V" else common)


# ----- samples -------------------------------------------------------------------------
def sample_moment(form: str):
    """The three overloads' arguments: `dim` + `unbiased`, `correction`, `unbiased`."""
    def samples(dtype):
        for x in tensors(dtype):
            if form == "plain":
                yield SampleInput(x)
                yield SampleInput(x, False)
                continue
            for dim, keepdim in dim_choices(x):
                if form == "dim":
                    yield SampleInput(x, dim, dim is not None, keepdim)
                else:
                    yield SampleInput(x, dim, correction=0 if keepdim else None,
                                      keepdim=keepdim)
        x = make_tensor((3, 4), dtype)
        if form == "correction":
            yield SampleInput(x, 1, correction=2.5)
            yield SampleInput(x, 0, correction=3)        # no degrees of freedom: inf
            yield SampleInput(x, (0, 1), correction=-1)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), *(() if form == "plain" else (1,)))
    return samples


def sample_logsumexp(dtype):
    for x in tensors(dtype):
        for dim, keepdim in dim_choices(x, none=False):
            if dim != ():
                yield SampleInput(x, dim, keepdim)
    if dtype.is_floating_point:
        yield SampleInput(gt.tensor([[1000., 1000.], [-INF, -INF]]).to(dtype), 1)
        yield SampleInput(special_values(dtype), 0)


ORDERS = (2, 1, INF, -INF, 0, 3.5, -1.5)


def _norm_dims(x):
    for dim, keepdim in dim_choices(x, none=False):
        yield list(dim) if isinstance(dim, tuple) else [dim], keepdim


def sample_vector_norm(dtype):
    for x in tensors(dtype, low=-4, high=5):
        for dim, keepdim in dim_choices(x):
            if not (x.numel() == 0 and dim in (None, ())):
                yield SampleInput(x, 2, dim, keepdim)
    x = make_tensor((3, 4), dtype, low=-4, high=5)
    for ord in ORDERS:
        yield SampleInput(x, ord, 1, False)
        yield SampleInput(x, ord)
    wider = {gt.float16: gt.float32, gt.bfloat16: gt.float32, gt.float32: gt.float64,
             gt.complex64: gt.complex128}.get(dtype)
    if wider is not None:
        yield SampleInput(x, 2, dtype=wider)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), INF, 1)
        yield SampleInput(gt.tensor([0., 1., 0.]).to(dtype), -1)


def sample_norm(form: str):
    def samples(dtype):
        x = make_tensor((3, 4), dtype, low=-4, high=5)
        for ord in ORDERS:
            if form == "whole":
                yield SampleInput(x, ord)
            elif form == "dim":
                yield SampleInput(x, ord, [1], ord == 2)
            elif form == "dim_dtype":
                yield SampleInput(x, ord, [0, 1], False, dtype=dtype)
            else:
                yield SampleInput(x, ord, dtype=dtype)
        if form == "dim":
            for t in tensors(dtype):
                for dims, keepdim in _norm_dims(t):
                    yield SampleInput(t, None, dims, keepdim)
    return samples


def sample_matrix_norm(dtype):
    orders = ("fro",) if dtype.itemsize == 2 else ("fro", "nuc")   # no SVD in half precision
    matrix, batch = make_tensor((3, 4), dtype, low=-4, high=5), make_tensor((2, 3, 4), dtype)
    for ord in orders:
        yield SampleInput(matrix, ord)
        yield SampleInput(matrix, ord, [1, 0], True)
        yield SampleInput(batch, ord)
        yield SampleInput(batch, ord, [0, -1], False)
        yield SampleInput(make_tensor((2, 0, 3), dtype), ord, [0, 2], True)
    if dtype is gt.float32:
        yield SampleInput(matrix, "nuc", dtype=gt.float64)


def sample_dist(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    a, b = make_tensor((3, 4), dtype), make_tensor((4,), dtype, seed=2)
    for p in ORDERS:
        yield SampleInput(a, b, p)


# ----- error inputs ----------------------------------------------------------------------
def _errors_moment(name, form):
    checked = "std and var" if name in ("std", "var") else name

    def errors():
        if form != "plain":
            yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
        leading = () if form == "plain" else (0,)
        yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), *leading), RuntimeError,
                         rf"^{checked} only support floating point and complex dtypes$",
                         known_bug_on_meta=META_WORDING)
    return errors


def _errors_logsumexp():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 0,
                                 out=gt.empty(0, dtype=gt.int64)), RuntimeError,
                     r"^logsumexp\(\): Expected floating point type for result tensor, but "
                     r"got: Long$", known_bug_on_meta=META_WORDING)


def _errors_vector_norm():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64)), RuntimeError,
                     r"^linalg.vector_norm: Expected a floating point or complex tensor as "
                     r"input. Got Long$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, 2, dtype=gt.float16), RuntimeError,
                     r"^linalg.vector_norm: the dtype of the input \(Float\) should be "
                     r"convertible without narrowing to the specified dtype \(Half\)$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, 2, dtype=gt.complex64), RuntimeError,
                     r"^linalg.vector_norm: dtype should be real for real inputs, but got "
                     r"ComplexFloat$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, 2, dtype=gt.int64), RuntimeError,
                     r"^linalg.vector_norm: dtype should be floating point or complex, but "
                     r"got Long$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(make_tensor((0, 3), gt.float32), INF), RuntimeError,
                     r"^linalg.vector_norm cannot compute the inf norm on an empty tensor "
                     r"because the operation does not have an identity$")
    yield ErrorInput(SampleInput(make_tensor((0, 3), gt.float32), -INF, 0), RuntimeError,
                     r"^linalg.vector_norm cannot compute the -inf norm on the dimension "
                     r"0because this dimension is empty and the operation does not have an "
                     r"identity$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, 2, [0, 0]), RuntimeError,
                     r"^dim 0 appears multiple times in the list of dims$", known_bug_on_meta=META_WORDING)


def _errors_matrix_norm():
    x = make_tensor((3, 4), gt.float32)
    where = "^linalg.matrix_norm: "
    for sample, message in [
            (SampleInput(x, "abc"), "Order abc not supported."),
            (SampleInput(make_tensor((3,), gt.float32), "nuc"),
             "The input tensor A must have at least 2 dimensions."),
            (SampleInput(make_tensor((3, 4), gt.int64), "fro"),
             "Expected a floating point or complex tensor as input. Got Long"),
            (SampleInput(make_tensor((3, 4), gt.float16), "nuc"),
             "Low precision dtypes not supported. Got Half"),
            (SampleInput(x, "nuc", [0]), "dim must be a 2-tuple. Got 0"),
            (SampleInput(x, "nuc", [1, -1]), r"dims must be different. Got \(1, 1\)"),
            (SampleInput(x, "nuc", dtype=gt.int64),
             "dtype should be floating point or complex, but got Long")]:
        yield ErrorInput(sample, RuntimeError, where + message + "$")


def _errors_norm(form):
    arguments = {"whole": ((), {}), "dim": ((2, [0]), {}),
                 "dim_dtype": ((2, [0], False), {"dtype": gt.float32}),
                 "dtype": ((2,), {"dtype": gt.float32})}[form]

    message = (r"^norm\(\): input dtype should be either floating point or complex. Got Long "
               r"instead.$") if "dtype" not in form else (
        r"^linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long$")

    def errors():
        yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), *arguments[0],
                                     **arguments[1]), RuntimeError, message,
                         known_bug_on_meta=META_WORDING)
    return errors


def _errors_dist():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), make_tensor((3,), gt.int64)),
                     RuntimeError, r"^norm\(\): input dtype should be either floating point "
                     r"or complex. Got Long instead.$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), make_tensor((5,), gt.float32)),
                     RuntimeError, r"^The size of tensor a \(4\) must match the size of tensor "
                     r"b \(5\) at non-singleton dimension 1$", known_bug_on_meta=META_WORDING)


def _moment_entries(name, root, with_mean):
    dim_ref, correction_ref, plain_ref = _moment_refs(root, with_mean)
    variants = (name, f"Tensor.{name}") if not with_mean else (name,)
    out = None if with_mean else name
    entries = [
        OpInfo(f"{name}.dim", variants=variants, ref=dim_ref, dtypes=INEXACT, out=out,
               sample_inputs=sample_moment("dim"), error_inputs=_errors_moment(name, "dim"),
               marks=COMPLEX_OUT_WARNINGS if out else {}),
        OpInfo(f"{name}.correction", variants=variants, ref=correction_ref, dtypes=INEXACT,
               out=out or f"ops.aten.{name}.correction_out",
               sample_inputs=sample_moment("correction"),
               marks=COMPLEX_OUT_WARNINGS if out else SEVERAL_RESULTS,
               error_inputs=_errors_moment(name, "correction")),
        OpInfo(name, variants=variants, ref=plain_ref, dtypes=INEXACT,
               sample_inputs=sample_moment("plain"), error_inputs=_errors_moment(name, "plain")),
    ]
    return entries


def _norm_entries():
    whole, with_dim, with_dim_dtype, whole_dtype = _norm_refs()
    return [
        OpInfo("norm.Scalar", variants=("ops.aten.norm.Scalar",), ref=whole, dtypes=INEXACT,
               sample_inputs=sample_norm("whole"), out="ops.aten.norm.Scalar_out",
               error_inputs=_errors_norm("whole")),
        OpInfo("norm.ScalarOpt_dim", variants=("ops.aten.norm.ScalarOpt_dim",), ref=with_dim,
               sample_inputs=sample_norm("dim"), out="ops.aten.norm.out", dtypes=INEXACT,
               error_inputs=_errors_norm("dim")),
        OpInfo("norm.ScalarOpt_dim_dtype", variants=("ops.aten.norm.ScalarOpt_dim_dtype",),
               ref=with_dim_dtype, sample_inputs=sample_norm("dim_dtype"), dtypes=FLOATING,
               out="ops.aten.norm.dtype_out", error_inputs=_errors_norm("dim_dtype")),
        OpInfo("norm.ScalarOpt_dtype", variants=("ops.aten.norm.ScalarOpt_dtype",),
               ref=whole_dtype, sample_inputs=sample_norm("dtype"), dtypes=FLOATING,
               out="ops.aten.norm.ScalarOpt_dtype_out", error_inputs=_errors_norm("dtype")),
    ]


OPS = [
    *_moment_entries("var", False, False),
    *_moment_entries("std", True, False),
    *_moment_entries("var_mean", False, True),
    *_moment_entries("std_mean", True, True),
    OpInfo("logsumexp", variants=("logsumexp", "Tensor.logsumexp"), ref=_logsumexp,
           dtypes=FLOATING + INTEGRAL + COMPLEX, sample_inputs=sample_logsumexp,
           error_inputs=_errors_logsumexp, out="logsumexp", out_sets_dtype=True),
    OpInfo("linalg_vector_norm", variants=("linalg.vector_norm", "ops.aten.linalg_vector_norm"),
           ref=_vector_norm,
           dtypes=INEXACT, sample_inputs=sample_vector_norm, error_inputs=_errors_vector_norm,
           out="linalg.vector_norm", marks=FILLED_DTYPE),
    *_norm_entries(),
    OpInfo("linalg_matrix_norm.str_ord", variants=("ops.aten.linalg_matrix_norm.str_ord",),
           ref=_matrix_norm, dtypes=INEXACT, sample_inputs=sample_matrix_norm,
           error_inputs=_errors_matrix_norm, out="ops.aten.linalg_matrix_norm.str_ord_out",
           marks=FILLED_DTYPE),
    OpInfo("dist", variants=("dist", "Tensor.dist"), ref=_dist, dtypes=INEXACT,
           sample_inputs=sample_dist, error_inputs=_errors_dist, out="ops.aten.dist.out"),
]
