"""OpInfo entries for the two-class losses (`aten/native/nn/loss_binary.py`):
binary_cross_entropy and its backward operator, binary_cross_entropy_with_logits,
soft_margin_loss and its backward operator. References compute in float64 with torch's
-100 log floor and 1e-12 gradient clamp, rounding where torch's tensor operations do."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor, tensors

GRAD_INPUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input")
              for test in ("test_out", "test_out_matches_torch")}
META_DATA = ("loss_binary: torch's meta kernels do not read the values (range) nor check "
             "the dtypes that only the CPU kernel refuses")
OUT_QUIRKS = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "loss_binary: torch's out= forms word a refused dtype as 'Expected out tensor to have "
    "dtype c10::BFloat16, but got bool instead' (C++ type names), and the composite "
    "binary_cross_entropy_with_logits.out leaves a misshaped out= unresized"))}
META_REF = ("loss_binary: torch's meta soft_margin_loss(_backward) is its Python "
            "decomposition, which promotes and broadcasts the operands without the CPU "
            "composite's in-place refusals, and words a broadcasting failure 'Attempting to "
            "broadcast...'")
OUT_GROWN = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "loss_binary: torch's soft_margin_loss.out writes -input into out= first, growing a "
    "reduced loss's out= to the input's shape, which the harness's NumPy-backed storage "
    "cannot do; then it resizes out= to the reduced shape"))}
SHAPES = ((3, 4), (5,), (), (2, 0), (2, 3, 2))


# ----- references --------------------------------------------------------------------
def _reduce(losses, reduction, dtype):
    with np.errstate(all="ignore"):
        if reduction == 1:
            losses = losses.astype(dtype).astype(np.float64)
            return np.asarray(losses.mean() if losses.size else np.nan).astype(dtype)
        if reduction == 2:
            losses = losses.astype(dtype).astype(np.float64)
            return np.asarray(losses.sum()).astype(dtype)
    return np.asarray(losses).astype(dtype)


def _weighted(values, weight):
    return values if weight is None else values * weight.astype(np.float64)


def _bce_ref(x, target, weight=None, reduction=1):
    x64, t64 = x.astype(np.float64), np.broadcast_to(target, x.shape).astype(np.float64)
    with np.errstate(all="ignore"):
        losses = (t64 - 1) * np.maximum(np.log1p(-x64), -100) - t64 * np.maximum(np.log(x64),
                                                                                 -100)
    losses = losses.astype(x.dtype).astype(np.float64)
    return _reduce(_weighted(losses, weight), reduction, x.dtype)


def _bce_backward_ref(grad, x, target, weight=None, reduction=1):
    x64 = x.astype(np.float64)
    slope = (x64 - target.astype(np.float64)) / np.maximum((1 - x64) * x64, 1e-12)
    value = _weighted(slope * grad.astype(np.float64), weight)
    if reduction == 1:
        value = value / x.size if x.size else value
    return np.asarray(value).astype(x.dtype)


def _bce_logits_ref(x, target, weight=None, pos_weight=None, reduction=1):
    """torch's composite: each tensor operation rounds to the target's dtype."""
    dtype = target.dtype

    def r(value):
        return np.asarray(value).astype(dtype).astype(np.float64)
    z, t = x.astype(np.float64), target.astype(np.float64)
    log_sigmoid = r(np.minimum(z, 0) - np.log1p(np.exp(-np.abs(z))))
    if pos_weight is not None:
        log_sigmoid = r(log_sigmoid * r(r(r(pos_weight.astype(np.float64) - 1) * t) + 1))
    losses = r(r(r(1 - t) * z) - log_sigmoid)
    return _reduce(_weighted(losses, weight), reduction, dtype)


def _in(dtype):
    """Rounding to `dtype`, read back in float64: one of torch's tensor operations."""
    return lambda value: np.asarray(value).astype(dtype).astype(np.float64)


def _soft_margin_ref(x, target, reduction=1):
    """torch's composite: ``-input``, times target, exp, log1p, each in the input's dtype."""
    r = _in(x.dtype)
    with np.errstate(all="ignore"):
        losses = r(np.log1p(r(np.exp(r(-x.astype(np.float64) * target.astype(np.float64))))))
    return _reduce(losses, reduction, x.dtype)


def _soft_margin_backward_ref(grad, x, target, reduction):
    """``-t e / (1 + e)`` with ``e = exp(-t x)``, step by step in the input's dtype (the
    samples give grad_output that dtype, and targets that dtype or int64)."""
    r = _in(x.dtype)
    t = target.astype(np.float64)
    norm = 1 / x.size if reduction == 1 and x.size else 1
    with np.errstate(all="ignore"):
        e = r(np.exp(r(-t * x.astype(np.float64))))
        gradient = r(r(r(t * e) * r(-norm)) / r(e + 1))
        return (gradient * grad.astype(np.float64)).astype(x.dtype)


# ----- samples -----------------------------------------------------------------------
def _weight(i: int, shape: tuple, dtype):
    """None, a per-element weight, or one broadcast along the last dim, in turn."""
    choice = i % 3
    if choice == 0 or not shape:
        return None
    return make_tensor(shape if choice == 1 else shape[-1:], dtype, low=0.1, high=2, seed=5)


def sample_bce(dtype):
    for i, shape in enumerate(SHAPES * 3):
        x = make_tensor(shape, dtype, low=0.02, high=0.98)
        target = make_tensor(shape, dtype, low=0, high=1, seed=1)
        yield SampleInput(x, target, _weight(i, shape, dtype), i % 3)
    edges = gt.tensor([0., 1., 0., 1., 0.5], dtype=dtype)          # the -100 floor
    yield SampleInput(edges, gt.tensor([0., 1., 1., 0., 0.5], dtype=dtype), None, 0)


def sample_bce_backward(dtype):
    """The forward's samples but the 0 / 1 edges (whose second derivatives torch computes
    with its 1e-12 epsilon, far past float64's resolution)."""
    for sample in list(sample_bce(dtype))[:-1]:
        x, target, weight, reduction = sample.args
        grad = make_tensor(tuple(x.shape) if reduction == 0 else (), dtype, seed=2)
        yield SampleInput(grad, x, target, weight, reduction)


def sample_bce_logits(dtype):
    for i, shape in enumerate(SHAPES * 3):
        x = make_tensor(shape, dtype, low=-4, high=4)
        target = make_tensor(shape, dtype, low=0, high=1, seed=1)
        pos_weight = make_tensor(shape[-1:], dtype, low=0.2, high=3, seed=6) \
            if shape and i % 2 else None
        sample = SampleInput(x, target, _weight(i + 1, shape, dtype), pos_weight, i % 3)
        if 0 in shape and i % 3 == 0:
            sample.known("loss_binary: torch lays an empty unreduced result out with the "
                         "target's strides (0, 0), glasstorch row-major")
        yield sample
    x = gt.tensor([-200., 200., 0.], dtype=dtype)                   # no overflow
    yield SampleInput(x, gt.tensor([1., 0., 1.], dtype=dtype), None, None, 0)


def _signs(shape, dtype, integral: bool = False):
    """A target of signs; int64 ones are no inputs of autograd's (torch refuses a target
    that requires grad), so the gradient tests differentiate the samples that have them."""
    signs = make_tensor(shape, dtype, low=-1, high=1, seed=1).sign()
    return signs.to(gt.int64) if integral else signs


def sample_soft_margin(dtype):
    """Every standard shape and layout against a target of signs (floating, or int64),
    the reductions in turn; a broadcast target, targets of other dtypes, and margins
    whose exp overflows."""
    for i, x in enumerate(tensors(dtype, low=-3, high=3)):
        yield SampleInput(x, _signs(tuple(x.shape), dtype, integral=i % 2 == 1), i % 3)
    x = make_tensor((3, 4), dtype, low=-3, high=3)
    yield SampleInput(x, _signs((4,), dtype), 1)
    yield SampleInput(x, gt.tensor(-1.0, dtype=gt.float64), 0)
    yield SampleInput(x, _signs((3, 4), gt.float64), 2)
    yield SampleInput(gt.tensor([100., -100., 20., 0.], dtype=dtype),
                      gt.tensor([-1., 1., -1., 1.], dtype=dtype), 0)


def sample_soft_margin_backward(dtype):
    for i, shape in enumerate(SHAPES * 3):
        x = make_tensor(shape, dtype, low=-3, high=3)
        reduction = i % 3
        grad = make_tensor(shape if reduction == 0 else (), dtype, seed=2)
        yield SampleInput(grad, x, _signs(shape, dtype, integral=i % 2 == 1), reduction)


# ----- errors ------------------------------------------------------------------------
def errors_bce():
    x = make_tensor((3, 4), gt.float32, low=0.1, high=0.9)
    outside = make_tensor((3, 4), gt.float32, low=1.5, high=2)
    yield ErrorInput(SampleInput(outside, x), RuntimeError,
                     r"^all elements of input should be between 0 and 1$")
    yield ErrorInput(SampleInput(x, outside), RuntimeError,
                     r"^all elements of target should be between 0 and 1$")
    yield ErrorInput(SampleInput(x, x.double()), RuntimeError,
                     r"^Found dtype Double but expected Float$", known_bug_on_meta=META_DATA)
    ints = make_tensor((3,), gt.int64, low=0, high=2)
    yield ErrorInput(SampleInput(ints, ints), NotImplementedError,
                     r"^\"binary_cross_entropy\" not implemented for 'Long'$")


def errors_bce_logits():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, make_tensor((4,), gt.float32)), RuntimeError,
                     r"^output with shape \[4\] doesn't match the broadcast shape \[3, 4\]$",
                     known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(x, x, None, make_tensor((2, 3, 4), gt.float32)), RuntimeError,
                     r"^output with shape \[3, 4\] doesn't match the broadcast shape "
                     r"\[2, 3, 4\]$", known_bug_on_meta=META_DATA)
    ints = make_tensor((3,), gt.int64, low=0, high=2)
    yield ErrorInput(SampleInput(ints, ints), NotImplementedError,
                     r"^\"log_sigmoid_cpu\" not implemented for 'Long'$")


def errors_soft_margin():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, make_tensor((5,), gt.float32), 1), RuntimeError,
                     r"^The size of tensor a \(4\) must match the size of tensor b \(5\) at "
                     r"non-singleton dimension 1$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(x[0], x, 0), RuntimeError,
                     r"^output with shape \[4\] doesn't match the broadcast shape \[3, 4\]$",
                     known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(x.long(), x, 1), RuntimeError,
                     r"^result type Float can't be cast to the desired output type Long$",
                     known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(x, x.to(gt.complex64), 1), RuntimeError,
                     r"^result type ComplexFloat can't be cast to the desired output type "
                     r"Float$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(x > 0, x, 1), RuntimeError,
                     r"^Negation, the `-` operator, on a bool tensor is not supported\. If you "
                     r"are trying to invert a mask, use the `~` or `logical_not\(\)` operator "
                     r"instead\.$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(x, x, 0, out=gt.empty((3, 4), dtype=gt.float64)),
                     RuntimeError, r"^Found dtype Double but expected Float$",
                     known_bug_on_meta=META_REF)


def errors_soft_margin_backward():
    x = make_tensor((3, 4), gt.float32)
    one = gt.ones(())
    yield ErrorInput(SampleInput(one, x, make_tensor((5,), gt.float32), 1), RuntimeError,
                     r"^The size of tensor a \(5\) must match the size of tensor b \(4\) at "
                     r"non-singleton dimension 1$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(gt.ones((2, 3, 4)), x, x, 0), RuntimeError,
                     r"^output with shape \[3, 4\] doesn't match the broadcast shape "
                     r"\[2, 3, 4\]$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(one, x.long(), x, 1), RuntimeError,
                     r"^result type Float can't be cast to the desired output type Long$",
                     known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(one.to(gt.complex64), x, x, 1), RuntimeError,
                     r"^result type ComplexFloat can't be cast to the desired output type "
                     r"Float$", known_bug_on_meta=META_REF)
    yield ErrorInput(SampleInput(one, x, x > 0, 1), RuntimeError,
                     r"^Negation, the `-` operator, on a bool tensor is not supported\. If you "
                     r"are trying to invert a mask, use the `~` or `logical_not\(\)` operator "
                     r"instead\.$", known_bug_on_meta=META_REF)


OPS = [
    OpInfo("binary_cross_entropy", variants=("ops.aten.binary_cross_entropy",), ref=_bce_ref,
           sample_inputs=sample_bce, error_inputs=errors_bce, dtypes=FLOATING,
           out="ops.aten.binary_cross_entropy", marks=OUT_QUIRKS),
    OpInfo("binary_cross_entropy_backward",
           variants=("ops.aten.binary_cross_entropy_backward",), ref=_bce_backward_ref,
           # float16 / bfloat16: torch's scalar loop rounds in ways not reproduced here
           sample_inputs=sample_bce_backward, dtypes=(gt.float32, gt.float64),
           out="ops.aten.binary_cross_entropy_backward", marks=GRAD_INPUT),
    OpInfo("binary_cross_entropy_with_logits", variants=("binary_cross_entropy_with_logits",),
           ref=_bce_logits_ref, sample_inputs=sample_bce_logits, error_inputs=errors_bce_logits,
           dtypes=FLOATING, out="ops.aten.binary_cross_entropy_with_logits", marks=OUT_QUIRKS),
    OpInfo("soft_margin_loss", variants=("ops.aten.soft_margin_loss",), ref=_soft_margin_ref,
           sample_inputs=sample_soft_margin, error_inputs=errors_soft_margin, dtypes=FLOATING,
           out="ops.aten.soft_margin_loss", marks=OUT_GROWN),
    OpInfo("soft_margin_loss_backward", variants=("ops.aten.soft_margin_loss_backward",),
           ref=_soft_margin_backward_ref, sample_inputs=sample_soft_margin_backward,
           error_inputs=errors_soft_margin_backward, dtypes=FLOATING,
           out="ops.aten.soft_margin_loss_backward", marks=GRAD_INPUT),
]
