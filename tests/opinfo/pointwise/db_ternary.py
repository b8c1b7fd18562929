"""OpInfo entries for the ternary elementwise operators (`aten/native/pointwise/ternary.py`): lerp,
addcmul, addcdiv, where (three arguments and one)."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (ALL_DTYPES, BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo,
                   SampleInput, make_tensor, tensor_pairs)
from .db_binary import META_REFS, WRITING_MARKS, _broadcast_error, as_glasstorch

INEXACT = FLOATING + COMPLEX
NOT_BOOL = INTEGRAL + FLOATING + COMPLEX


# ----- references --------------------------------------------------------------------
def _compute(dtype: np.dtype) -> np.dtype:
    """torch's compute dtype: float16 / bfloat16 in float32."""
    return np.dtype(np.float32) if dtype == np.float16 or dtype.kind == "V" else dtype


def ref_lerp(a, end, weight):
    result = numpy_dtype(gt.result_type(as_glasstorch(a), as_glasstorch(weight)))
    compute = _compute(result)
    x, y = a.astype(compute), end.astype(compute)
    w = np.asarray(weight).astype(compute)
    return (x + w * (y - x)).astype(result)


def ref_addc(divide: bool):
    def ref(a, t1, t2, value=1):
        result = a.dtype
        compute = _compute(result)
        x, y, z = (np.asarray(v).astype(compute) for v in (a, t1, t2))
        scale = np.asarray(int(value) if compute.kind in "iu" else value).astype(compute)
        with np.errstate(all="ignore"):
            quotient = scale * y / z if divide else scale * y * z
            return (x + quotient).astype(result)
    return ref


def ref_where(condition, a, b):
    result = numpy_dtype(gt.result_type(as_glasstorch(a), as_glasstorch(b)))
    return np.where(condition, np.asarray(a).astype(result), np.asarray(b).astype(result))


def ref_nonzero(condition):
    return [i.astype(np.int64) for i in np.nonzero(np.atleast_1d(condition))]


# ----- samples -----------------------------------------------------------------------
def sample_lerp(dtype):
    """Weights below and above 0.5 (torch computes them from opposite ends), as numbers,
    tensors and 0-dim tensors (of a wider dtype too)."""
    for a, b in tensor_pairs(dtype):
        for weight in (0.25, 0.75):
            yield SampleInput(a, b, weight)
    start, end = make_tensor((3, 4), dtype), make_tensor((3, 4), dtype, seed=1)
    for weight in (0, 1, 2, -0.5, 0.5):
        yield SampleInput(start, end, weight)
    yield SampleInput(start, end, make_tensor((3, 4), dtype, seed=2, low=-1, high=2))
    yield SampleInput(start, end, make_tensor((4,), dtype, seed=2, low=0, high=1))
    yield SampleInput(start, end, gt.tensor(0.3, dtype=gt.float64))
    if dtype.is_complex:
        yield SampleInput(start, end, 0.25 + 0.5j)


def _tensor_weight(sample) -> bool:
    return isinstance(sample.args[2], gt.Tensor)


def sample_addc(divide: bool):
    def samples(dtype):
        low = {"low": 1} if divide and not (dtype.is_floating_point or dtype.is_complex) \
            else {}
        for a, b in tensor_pairs(dtype):
            yield SampleInput(a, b, make_tensor(tuple(b.shape), dtype, seed=2, **low))
        x = make_tensor((3, 4), dtype)
        t1, t2 = make_tensor((4,), dtype, seed=1), make_tensor((3, 1), dtype, seed=2, **low)
        inexact = dtype.is_floating_point or dtype.is_complex
        for value in (2, -1, 0) + ((0.5, 1e-3) if inexact else (2.5,)) + \
                ((1 - 1j,) if dtype.is_complex else ()):
            yield SampleInput(x, t1, t2, value=value)
    return samples


def sample_where(dtype):
    for a, b in tensor_pairs(dtype):
        shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        mask = (np.arange(int(np.prod(shape))) % 3 == 0).reshape(shape)
        yield SampleInput(gt.from_numpy(mask), a, b)
    condition = gt.tensor([[True, False, True, False]])
    x = make_tensor((3, 4), dtype)
    for value in (2, 2.5, True, 1 + 1j):
        yield SampleInput(condition, x, value)
        yield SampleInput(condition, value, x)
    yield SampleInput(condition, 1, 2.5)
    yield SampleInput(condition, x, gt.tensor(1.5, dtype=gt.float64))


def sample_nonzero(dtype):
    for shape in ((), (0,), (5,), (3, 4), (2, 3, 4)):
        yield SampleInput(make_tensor(shape, dtype))
    yield SampleInput(make_tensor((3, 4), dtype, "transposed"))


# ----- error inputs --------------------------------------------------------------------
def errors_lerp():
    f, d = make_tensor((3,), gt.float32), make_tensor((3,), gt.float64)
    yield ErrorInput(SampleInput(f, d, 0.5), RuntimeError,
                     r"^expected dtype float for `end` but got dtype double$",
                     known_bug_on_meta=META_REFS)
    yield ErrorInput(SampleInput(f, f, d), RuntimeError,
                     r"^expected dtype float for `weight` but got dtype double$",
                     known_bug_on_meta=META_REFS)
    i = make_tensor((3,), gt.int64)
    yield ErrorInput(SampleInput(i, i, 0.5), NotImplementedError,
                     r"^\"lerp_kernel_scalar\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(i, i, i), NotImplementedError,
                     r"^\"lerp_kernel_tensor\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(f, f, 1j), RuntimeError,
                     r"^value cannot be converted to type float without overflow$")
    yield ErrorInput(SampleInput(f, 2, 0.5), TypeError, r"^lerp\(\) received an invalid")


def errors_addcmul():
    b = make_tensor((3,), gt.bool)
    yield ErrorInput(SampleInput(b, b, b), NotImplementedError,
                     r"^\"addcmul_cpu_out\" not implemented for 'Bool'$")
    f = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(f, f, f, value=1j), RuntimeError,
                     r"^value cannot be converted to type float without overflow$")
    i = make_tensor((3,), gt.int64)
    yield ErrorInput(SampleInput(i, i, i, value=1j), RuntimeError,
                     r"^value cannot be converted to type int64_t without overflow$")
    yield ErrorInput(SampleInput(f, 2, f), TypeError,
                     r"^addcmul\(\): argument 'tensor1' \(position 2\) must be Tensor, not int$")


def errors_addcdiv():
    i, f = make_tensor((3,), gt.int64), make_tensor((3,), gt.float32)
    for args in ((i, i, i), (f, i, i)):
        yield ErrorInput(SampleInput(*args), RuntimeError,
                         r"^Integer division with addcdiv is no longer supported, and in a "
                         r"future  release addcdiv will perform a true division",
                         known_bug_on_meta=META_REFS)


def errors_where():
    f = make_tensor((3,), gt.float32)
    for dtype, name in ((gt.int64, "Long"), (gt.float32, "Float")):
        yield ErrorInput(SampleInput(make_tensor((3,), dtype), f, f), RuntimeError,
                         f"^where expected condition to be a boolean tensor, but got a tensor "
                         f"with dtype {name}$", known_bug_on_meta=META_REFS)
    yield ErrorInput(SampleInput(gt.tensor([True, False]), f, f), RuntimeError,
                     r"^The size of tensor a \(2\) must match the size of tensor b \(3\) at "
                     r"non-singleton dimension 0$",
                     known_bug_on_meta=META_REFS)


# ----- the entries -------------------------------------------------------------------
OPS = [
    OpInfo("lerp.Tensor", variants=("lerp", "Tensor.lerp"), ref=ref_lerp,
           sample_inputs=lambda d: (s for s in sample_lerp(d) if _tensor_weight(s)),
           dtypes=INEXACT, error_inputs=errors_lerp, out="lerp", inplace="Tensor.lerp_",
           marks={"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
               "binary owner: with a 0-dim weight of another dtype, torch's lerp out= "
               "refuses as 'result type ... can't be cast', glasstorch as 'Found dtype ... "
               "but expected ...' (the check cannot see the operands)"))}),
    OpInfo("lerp.Scalar", variants=("lerp", "Tensor.lerp"), ref=ref_lerp,
           sample_inputs=lambda d: (s for s in sample_lerp(d) if not _tensor_weight(s)),
           dtypes=INEXACT, out="lerp", inplace="Tensor.lerp_", marks=WRITING_MARKS),
    OpInfo("addcmul", variants=("addcmul", "Tensor.addcmul"), ref=ref_addc(False),
           sample_inputs=sample_addc(False), dtypes=NOT_BOOL, error_inputs=errors_addcmul,
           out="addcmul", inplace="Tensor.addcmul_", marks=WRITING_MARKS),
    OpInfo("addcdiv", variants=("addcdiv", "Tensor.addcdiv"), ref=ref_addc(True),
           sample_inputs=sample_addc(True), dtypes=INEXACT, error_inputs=errors_addcdiv,
           out="addcdiv", inplace="Tensor.addcdiv_", marks=WRITING_MARKS),
    OpInfo("where.self", variants=("where",), ref=ref_where, sample_inputs=sample_where,
           dtypes=ALL_DTYPES, error_inputs=errors_where, out="where",
           marks={"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
               "binary owner: torch's where overloads taking numbers have no out= "
               "(TypeError); glasstorch's where.self takes numbers and out= together"))}),
    OpInfo("where", variants=("where",), ref=ref_nonzero, sample_inputs=sample_nonzero,
           dtypes=BOOL + (gt.int64, gt.float32), marks={"test_meta": pytest.mark.skip(
               reason="nonzero has no meta implementation (torch raises on meta too)")}),
]
