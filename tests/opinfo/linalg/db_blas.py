"""OpInfo entries for the BLAS products (`aten/native/linalg/blas.py`, `addmm.py`): mm, bmm, mv,
dot, vdot and the fused addmm, addmv, addr, addbmm, baddbmm.

References multiply with NumPy in the dtype torch computes in (float32 for float16 and
bfloat16, rounded once), so values agree to the last bit or within the dtype's
tolerance. Operands come in every layout BLAS must take without copies: contiguous,
transposed (F-ordered), strided with gaps, and broadcast (stride 0).
"""
import ml_dtypes
import numpy as np
import pytest

import glasstorch as gt

from ..core import (COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor)

# torch's meta functions (Python, in torch/_meta_registrations.py) word some checks their own
# way, and skip others; glasstorch's meta rules are its CPU checks.
META_WORDING = "torch's meta function words this check differently"
META_UNCHECKED = "torch's meta function does not check this"
PRODUCT_DTYPES = INTEGRAL + FLOATING + COMPLEX        # torch has no bool/uint16+ BLAS loops
_HALF = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def compute(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype in _HALF else array


def product(a, b, dtype=None) -> np.ndarray:
    """``a @ b`` as torch computes it, in the dtype of `a` (or `dtype`)."""
    with np.errstate(over="ignore"):
        return np.matmul(compute(a), compute(b)).astype(dtype or a.dtype)


def fused(self, prod, beta, alpha, dtype) -> np.ndarray:
    """``beta * self + alpha * prod`` with torch's conventions (beta 0 ignores self;
    integer coefficients truncated)."""
    wide = compute(np.zeros((), dtype)).dtype
    kind = wide.kind
    cast = (lambda v: int(v)) if kind in "iu" else (lambda v: v)
    result = compute(prod).astype(wide) * np.array(cast(alpha)).astype(wide)
    if beta != 0:
        result = result + compute(np.broadcast_to(self, result.shape)).astype(wide) * \
            np.array(cast(beta)).astype(wide)
    return result.astype(dtype)


def operand(shape, dtype, layout="contiguous", seed=0):
    return make_tensor(shape, dtype, layout, low=-3, high=4, seed=seed)


MATRIX_PAIRS = (((3, 4), (4, 5)), ((1, 4), (4, 1)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
                ((3, 2), (2, 0)))
LAYOUT_PAIRS = (("contiguous", "contiguous"), ("transposed", "contiguous"),
                ("contiguous", "transposed"), ("transposed", "transposed"),
                ("strided", "strided"), ("expanded", "contiguous"))


def _usable(shape, layout) -> bool:
    if layout == "transposed":
        return len(shape) >= 2 and sorted(shape)[-2] > 1
    if layout in ("strided", "expanded"):
        return 0 not in shape and shape[0] > 1
    return True


def matrix_pairs(dtype, pairs=MATRIX_PAIRS):
    for shape_a, shape_b in pairs:
        for layout_a, layout_b in LAYOUT_PAIRS:
            if _usable(shape_a, layout_a) and _usable(shape_b, layout_b):
                yield (operand(shape_a, dtype, layout_a),
                       operand(shape_b, dtype, layout_b, seed=1))


# ----- mm, bmm, mv, dot, vdot ----------------------------------------------------------
def sample_mm(dtype):
    for a, b in matrix_pairs(dtype):
        yield SampleInput(a, b)


def errors_mm():
    f, d = make_tensor((2, 3), gt.float32), make_tensor((3, 2), gt.float64)
    yield ErrorInput(SampleInput(f, make_tensor((4, 5), gt.float32)), RuntimeError,
                     r"^mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), f), RuntimeError,
                     r"^self must be a matrix$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(f, make_tensor((3,), gt.float32)), RuntimeError,
                     r"^mat2 must be a matrix$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(f, d), RuntimeError,
                     r"^expected m1 and m2 to have the same dtype, but got: float != double$")
    b = make_tensor((2, 3), gt.bool)
    yield ErrorInput(SampleInput(b, make_tensor((3, 2), gt.bool)), NotImplementedError,
                     r"^\"addmm_impl_cpu_\" not implemented for 'Bool'$")


BATCH_PAIRS = (((2, 3, 4), (2, 4, 5)), ((3, 10, 8), (3, 8, 7)), ((0, 2, 3), (0, 3, 2)),
               ((2, 3, 0), (2, 0, 4)), ((1, 1, 1), (1, 1, 1)))


def sample_bmm(dtype):
    for shape_a, shape_b in BATCH_PAIRS:
        for layout_a, layout_b in (("contiguous", "contiguous"), ("transposed", "strided"),
                                   ("expanded", "transposed")):
            if _usable(shape_a, layout_a) and _usable(shape_b, layout_b):
                yield SampleInput(operand(shape_a, dtype, layout_a),
                                  operand(shape_b, dtype, layout_b, seed=1))
    x = operand((4, 3, 2), dtype).transpose(0, 1)            # batch dim not outermost
    yield SampleInput(x, operand((3, 2, 5), dtype, seed=1))


def errors_bmm():
    f = make_tensor((2, 2, 3), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), f), RuntimeError,
                     r"^batch1 must be a 3D tensor$")
    yield ErrorInput(SampleInput(f, make_tensor((3, 2), gt.float32)), RuntimeError,
                     r"^batch2 must be a 3D tensor$")
    yield ErrorInput(SampleInput(f, make_tensor((3, 3, 2), gt.float32)), RuntimeError,
                     r"^Expected size for first two dimensions of batch2 tensor to be: "
                     r"\[2, 3\] but got: \[3, 3\].$")
    yield ErrorInput(SampleInput(f, make_tensor((2, 3, 2), gt.float64)), RuntimeError,
                     r"^expected scalar type Float but found Double$",
                     known_bug_on_meta="torch's meta bmm words it with torch.float32 names")
    yield ErrorInput(SampleInput(make_tensor((2, 20, 30), gt.float32),
                                 make_tensor((2, 30, 20), gt.float64)), RuntimeError,
                     r"^expected scalar type Double but found Float$",
                     known_bug_on_meta="torch's meta bmm words it with torch.float32 names")


def sample_mv(dtype):
    for shape in ((3, 4), (1, 5), (0, 3), (3, 0)):
        for layout in ("contiguous", "transposed", "strided"):
            if _usable(shape, layout):
                yield SampleInput(operand(shape, dtype, layout),
                                  operand(shape[1:], dtype, "strided" if shape[1] else
                                          "contiguous", seed=1))
    yield SampleInput(operand((3, 4), dtype), operand((1,), dtype).expand(4))


def errors_mv():
    m = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(m, make_tensor((4,), gt.float32)), RuntimeError,
                     r"^size mismatch, got input \(2\), mat \(2x3\), vec \(4\)$",
                     known_bug_on_meta="torch's meta mv leaves out the input's size")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), make_tensor((3,), gt.float32)),
                     RuntimeError, r"^vector \+ matrix @ vector expected, got 1, 1, 1$",
                     known_bug_on_meta="torch's meta mv: 'matrix @ vector expected, got 1, 1'")
    yield ErrorInput(SampleInput(m, make_tensor((3,), gt.float64)), RuntimeError,
                     r"^addmv input tensors must have the same dtype, but got Double, Float, "
                     r"and Double$",
                     known_bug_on_meta="torch's meta mv does not compare dtypes")


def sample_dot(dtype):
    for n in (5, 1, 0):
        yield SampleInput(operand((n,), dtype), operand((n,), dtype, seed=1))
    yield SampleInput(operand((4,), dtype, "strided"), operand((1,), dtype).expand(4))


def errors_dot(name="dot"):
    f = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(f, make_tensor((4,), gt.float32)), RuntimeError,
                     r"^inconsistent tensor size, expected tensor \[3\] and src \[4\] to have "
                     r"the same number of elements, but got 3 and 4 elements respectively$",
                     known_bug_on_meta="torch's meta dot says 'thesame'")
    yield ErrorInput(SampleInput(make_tensor((3, 1), gt.float32), f), RuntimeError,
                     r"^1D tensors expected, but got 2D and 1D tensors$")
    yield ErrorInput(SampleInput(f, make_tensor((3,), gt.float64)), RuntimeError,
                     r"^dot : expected both vectors to have same dtype, but found Float and "
                     r"Double$", known_bug_on_meta="torch's meta dot names torch.float32")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.bool), make_tensor((3,), gt.bool)),
                     NotImplementedError, r"^\"dot\" not implemented for 'Bool'$")


def _dot_ref(a, b):
    return np.asarray(np.dot(compute(a), compute(b))).astype(a.dtype)


def _vdot_ref(a, b):
    return np.asarray(np.vdot(compute(a), compute(b))).astype(a.dtype)


# ----- the fused products ---------------------------------------------------------------
COEFFICIENTS = ({}, {"beta": 0}, {"beta": 2, "alpha": 3}, {"alpha": 0})


def _coefficients(dtype, i: int) -> dict:
    """The i-th (cyclically) beta/alpha choice; fractions only for floating dtypes."""
    choices = COEFFICIENTS
    if dtype.is_floating_point or dtype.is_complex:
        choices += ({"beta": 0.5, "alpha": -1.5},)
    return choices[i % len(choices)]


def sample_addmm(dtype):
    for i, (a, b) in enumerate(matrix_pairs(dtype, MATRIX_PAIRS[:3])):
        n, p = a.shape[0], b.shape[1]
        selves = (operand((n, p), dtype, seed=2), operand((p,), dtype, seed=2),
                  operand((n, 1), dtype, "expanded" if n > 1 else "contiguous", seed=2))
        kwargs = _coefficients(dtype, i)
        yield SampleInput(selves[i % 3], a, b, **kwargs)
    nan = operand((3, 5), dtype, seed=2)
    if dtype.is_floating_point or dtype.is_complex:
        nan = gt.full((3, 5), float("nan"), dtype=dtype)
    yield SampleInput(nan, operand((3, 4), dtype), operand((4, 5), dtype, seed=1), beta=0)
    yield SampleInput(operand((2, 3), dtype), operand((2, 0), dtype), operand((0, 3), dtype),
                      beta=3)


def _addmm_ref(self, a, b, beta=1, alpha=1):
    return fused(self, product(a, b, compute(a).dtype), beta, alpha, a.dtype)


def errors_addmm():
    f = make_tensor((2, 3), gt.float32)
    g = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((2, 4), gt.float64), f, g), RuntimeError,
                     r"^self and mat2 must have the same dtype, but got Double and Float$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(make_tensor((2, 4), gt.float32), f, g.double()), RuntimeError,
                     r"^self and mat2 must have the same dtype, but got Float and Double$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(make_tensor((2, 4), gt.float32), make_tensor((3,), gt.float32),
                                 g), RuntimeError, r"^mat1 must be a matrix, got 1-D tensor$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), f, g), RuntimeError,
                     r"^The expanded size of the tensor \(4\) must match the existing size "
                     r"\(3\) at non-singleton dimension 1.  Target sizes: \[2, 4\].  Tensor "
                     r"sizes: \[3\]$",
                     known_bug_on_meta="torch's meta addmm: 'Attempting to broadcast ...'")


def sample_addmv(dtype):
    for i, shape in enumerate(((3, 4), (0, 3), (3, 0), (1, 2))):
        for j, layout in enumerate(("contiguous", "transposed", "strided")):
            if _usable(shape, layout):
                # (a 0-dim self with an empty matrix gives torch a 0-dim result: avoided)
                selves = (operand(shape[:1], dtype, seed=2), operand((1,), dtype, seed=2),
                          operand((), dtype, seed=2) if 0 not in shape else
                          operand(shape[:1], dtype, seed=2))
                kwargs = _coefficients(dtype, (i + j))
                yield SampleInput(selves[(i + j) % 3], operand(shape, dtype, layout),
                                  operand(shape[1:], dtype, seed=1), **kwargs)


def _addmv_ref(self, mat, vec, beta=1, alpha=1):
    return fused(self, product(mat, vec, compute(vec).dtype), beta, alpha, vec.dtype)


def errors_addmv():
    m, v = make_tensor((3, 2), gt.float32), make_tensor((2,), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((1, 3), gt.float32), m, v), RuntimeError,
                     r"^vector \+ matrix @ vector expected, got 2, 2, 1$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(make_tensor((2,), gt.float32), m, v), RuntimeError,
                     r"^size mismatch, got input \(2\), mat \(3x2\), vec \(2\)$",
                     known_bug_on_meta=META_WORDING)


def sample_addr(dtype):
    for i, (n, m) in enumerate(((3, 4), (1, 1), (0, 2), (2, 0))):
        for j, layout in enumerate(("contiguous", "transposed", "expanded")):
            if not _usable((n, m), layout):
                continue
            selves = (operand((n, m), dtype, layout, seed=2), operand((m,), dtype, seed=2))
            kwargs = {} if dtype is gt.bool else _coefficients(dtype, (i + j))
            yield SampleInput(selves[(i + j) % 2], operand((n,), dtype),
                              operand((m,), dtype, "strided" if m else "contiguous", seed=1),
                              **kwargs)
    if dtype is gt.bool:
        x, y = operand((3,), dtype), operand((2,), dtype, seed=1)
        for beta, alpha in ((False, True), (True, False)):
            yield SampleInput(operand((3, 2), dtype, seed=2), x, y, beta=beta, alpha=alpha)


def _addr_ref(self, vec1, vec2, beta=1, alpha=1):
    if vec1.dtype == bool:
        product = np.logical_and(vec1[:, None], vec2) & bool(alpha)
        return product | (np.broadcast_to(self, product.shape) & bool(beta))
    return fused(self, np.multiply.outer(compute(vec1), compute(vec2)), beta, alpha,
                 vec1.dtype)


def errors_addr():
    s, v, w = make_tensor((3, 2), gt.float32), make_tensor((3,), gt.float32), \
        make_tensor((2,), gt.float32)
    yield ErrorInput(SampleInput(s, make_tensor((3, 1), gt.float32), w), RuntimeError,
                     r"^addr: Expected 1-D argument vec1, but got 2-D$")
    yield ErrorInput(SampleInput(s, v, w, beta=True), RuntimeError,
                     r"^Boolean beta only supported for Boolean results.$")
    yield ErrorInput(SampleInput(s.long(), v.long(), w.long(), alpha=0.5), RuntimeError,
                     r"^For integral input tensors, argument alpha must not be a floating "
                     r"point number.$", known_bug_on_meta=META_WORDING)


def sample_addbmm(dtype):
    for i, (shape_a, shape_b) in enumerate(BATCH_PAIRS):
        n, p = shape_a[1], shape_b[2]
        # (torch's in-place addbmm_ resizes a broadcast self: only full-size ones here)
        kwargs = _coefficients(dtype, i)
        layout = ("contiguous", "transposed")[i % 2]
        if _usable(shape_a, layout):
            yield SampleInput(operand((n, p), dtype, seed=2), operand(shape_a, dtype, layout),
                              operand(shape_b, dtype, seed=1), **kwargs)


def _addbmm_ref(self, b1, b2, beta=1, alpha=1):
    prod = product(b1, b2, compute(b1).dtype).sum(0) if len(b1) else \
        np.zeros((b1.shape[1], b2.shape[2]), compute(b1).dtype)
    return fused(self, prod, beta, alpha, self.dtype)


def errors_addbmm():
    s = make_tensor((2, 2), gt.float32)
    yield ErrorInput(SampleInput(s, make_tensor((3, 2, 2), gt.float32),
                                 make_tensor((4, 2, 2), gt.float32)), RuntimeError,
                     r"^batch1 and batch2 must have same number of batches, got 3 and 4$")
    yield ErrorInput(SampleInput(s, make_tensor((3, 2, 3), gt.float32),
                                 make_tensor((3, 2, 2), gt.float32)), RuntimeError,
                     r"^Incompatible matrix sizes for bmm \(2x3 and 2x2\)$")


def sample_baddbmm(dtype):
    for i, (shape_a, shape_b) in enumerate(BATCH_PAIRS):
        b, n, p = shape_a[0], shape_a[1], shape_b[2]
        selves = (operand((b, n, p), dtype, seed=2), operand((n, 1), dtype, seed=2))
        kwargs = _coefficients(dtype, i)
        yield SampleInput(selves[i % 2], operand(shape_a, dtype),
                          operand(shape_b, dtype, ("contiguous", "transposed")[i % 2]
                                  if _usable(shape_b, "transposed") else "contiguous", seed=1),
                          **kwargs)


def _baddbmm_ref(self, b1, b2, beta=1, alpha=1):
    return fused(self, product(b1, b2, compute(b2).dtype), beta, alpha, b2.dtype)


def errors_baddbmm():
    b = make_tensor((3, 2, 2), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((3, 2, 2), gt.float64), b, b), RuntimeError,
                     r"^Input dtypes must be the same, got: input double, batch1: float, "
                     r"batch2: float$", known_bug_on_meta="torch's meta names torch.float64")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), b, b), RuntimeError,
                     r"^The expanded size of the tensor \(2\) must match the existing size "
                     r"\(3\) at non-singleton dimension 2.  Target sizes: \[3, 2, 2\].  Tensor "
                     r"sizes: \[3\]$")


OPS = [
    OpInfo("mm", variants=("mm", "Tensor.mm"), ref=product, sample_inputs=sample_mm,
           error_inputs=errors_mm, dtypes=PRODUCT_DTYPES, out="mm"),
    OpInfo("bmm", variants=("bmm", "Tensor.bmm"), ref=lambda a, b: product(a, b, b.dtype),
           sample_inputs=sample_bmm, error_inputs=errors_bmm, dtypes=PRODUCT_DTYPES, out="bmm"),
    OpInfo("mv", variants=("mv", "Tensor.mv"), ref=lambda m, v: product(m, v, v.dtype),
           sample_inputs=sample_mv, error_inputs=errors_mv, dtypes=PRODUCT_DTYPES, out="mv"),
    OpInfo("dot", variants=("dot", "Tensor.dot"), ref=_dot_ref, sample_inputs=sample_dot,
           error_inputs=errors_dot, dtypes=PRODUCT_DTYPES, out="dot"),
    OpInfo("vdot", variants=("vdot", "Tensor.vdot"), ref=_vdot_ref, sample_inputs=sample_dot,
           dtypes=PRODUCT_DTYPES, out="vdot"),
    OpInfo("addmm", variants=("addmm", "Tensor.addmm"), ref=_addmm_ref,
           sample_inputs=sample_addmm, error_inputs=errors_addmm, dtypes=PRODUCT_DTYPES,
           out="addmm", inplace="Tensor.addmm_"),
    OpInfo("addmv", variants=("addmv", "Tensor.addmv"), ref=_addmv_ref,
           sample_inputs=sample_addmv, error_inputs=errors_addmv, dtypes=PRODUCT_DTYPES,
           out="addmv", inplace="Tensor.addmv_"),
    OpInfo("addr", variants=("addr", "Tensor.addr"), ref=_addr_ref, sample_inputs=sample_addr,
           error_inputs=errors_addr, dtypes=(gt.bool,) + PRODUCT_DTYPES, out="addr",
           inplace="Tensor.addr_"),
    OpInfo("addbmm", variants=("addbmm", "Tensor.addbmm"), ref=_addbmm_ref,
           sample_inputs=sample_addbmm, error_inputs=errors_addbmm, dtypes=PRODUCT_DTYPES,
           out="addbmm", inplace="Tensor.addbmm_",
           marks={"test_out_matches_torch": pytest.mark.xfail(
               strict=True, reason="registry (structured out=): torch's addbmm.out resizes a "
                                   "misshaped out without the deprecation warning")}),
    OpInfo("baddbmm", variants=("baddbmm", "Tensor.baddbmm"), ref=_baddbmm_ref,
           sample_inputs=sample_baddbmm, error_inputs=errors_baddbmm, dtypes=PRODUCT_DTYPES,
           out="baddbmm", inplace="Tensor.baddbmm_"),
]
