"""OpInfo entries for the negative log likelihood and cross entropy losses
(`aten/native/nn/loss_nll.py`, `loss_cross_entropy.py`): nll_loss_forward / nll_loss_backward,
nll_loss2d_forward / nll_loss2d_backward, the composites nll_loss, nll_loss2d, nll_loss_nd
and cross_entropy_loss. References pick each position's entry with NumPy fancy indexing
and reduce in float64."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_softmax import _np_softmax

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of two results (output, total_weight): "
                                                 "tests/nn/test_loss.py reaches the kernel")
                   for test in ("test_out", "test_out_matches_torch")}
GRAD_INPUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input")
              for test in ("test_out", "test_out_matches_torch")}
META_DATA = ("loss_nll: torch's meta kernels do not read the targets (range) nor check "
             "dtypes that only the CPU kernel refuses")
META_WORDS = "loss_nll: torch's meta registrations of the nll kernels word their checks differently"
OUT_EXACT = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "loss_nll: torch's nll_loss.out wants an out= of the input's exact dtype (its own "
    "message); glasstorch's composite hands out= to nll_loss_forward, which casts"))}
# ((input shape, target shape), ...) per operator family
FLAT_SHAPES = (((4, 5), (4,)), ((5,), ()), ((0, 3), (0,)), ((6, 3), (6,)))
SPATIAL_SHAPES = (((2, 3, 4, 2), (2, 4, 2)), ((1, 4, 1, 3), (1, 1, 3)), ((0, 3, 2, 2), (0, 2, 2)))
ND_SHAPES = FLAT_SHAPES + SPATIAL_SHAPES + (((2, 3, 5), (2, 5)), ((2, 3, 2, 2, 2), (2, 2, 2, 2)))


# ----- references --------------------------------------------------------------------
def _picked(x, target, weight, ignore_index):
    """(losses, weights) per position in float64; 0 where ignored."""
    x64 = x.astype(np.float64)
    axis = 0 if x.ndim == 1 else 1
    t = target.reshape(()) if x.ndim == 1 else target
    ignored = t == ignore_index
    safe = np.where(ignored, 0, t)
    picked = x64[safe] if x.ndim == 1 else np.take_along_axis(
        x64, np.expand_dims(safe, axis), axis).squeeze(axis)
    weights = np.ones_like(picked) if weight is None else weight.astype(np.float64)[safe]
    weights = np.where(ignored, 0.0, weights)
    return np.where(ignored, 0.0, -picked * weights), weights


def _nll_forward_ref(x, target, weight, reduction, ignore_index):
    losses, weights = _picked(x, target, weight, ignore_index)
    if reduction == 0 and x.ndim != 1:
        return [losses.astype(x.dtype), np.zeros((), x.dtype)]
    total = weights.sum()
    with np.errstate(all="ignore"):
        loss = losses.sum() / total if reduction == 1 and losses.size else (
            np.nan if reduction == 1 else losses.sum())
    return [np.asarray(loss).astype(x.dtype), np.asarray(total).astype(x.dtype)]


def _nll_ref(x, target, weight=None, reduction=1, ignore_index=-100):
    return _nll_forward_ref(x, target, weight, reduction, ignore_index)[0]


def _nll_nd_ref(x, target, weight=None, reduction=1, ignore_index=-100):
    if x.ndim <= 2 or x.ndim == 4:
        return _nll_ref(x, target, weight, reduction, ignore_index)
    folded = x.reshape(x.shape[0], x.shape[1], 1, -1)
    result = _nll_ref(folded, target.reshape(target.shape[0], 1, -1), weight, reduction,
                      ignore_index)
    return result.reshape(target.shape) if reduction == 0 else result


def _nll_backward_ref(grad, x, target, weight, reduction, ignore_index, total_weight):
    axis = 0 if x.ndim == 1 else 1
    t = target.reshape(()) if x.ndim == 1 else target
    ignored = t == ignore_index
    safe = np.where(ignored, 0, t)
    scale = np.ones(safe.shape) if weight is None else weight.astype(np.float64)[safe]
    upstream = grad.astype(np.float64)
    if not (reduction == 0 and x.ndim != 1):
        upstream = upstream.reshape(())
        if reduction == 1:
            upstream = upstream / total_weight.astype(np.float64).reshape(())
    values = np.where(ignored, 0.0, -scale * upstream)
    out = np.zeros(x.shape)
    if x.ndim == 1:
        out[safe] = values
    else:
        np.put_along_axis(out, np.expand_dims(safe, axis), np.expand_dims(values, axis), axis)
    return out.astype(x.dtype)


def _cross_entropy_ref(x, target, weight=None, reduction=1, ignore_index=-100,
                       label_smoothing=0.0):
    axis = 0 if x.ndim == 1 else 1
    logs = _np_softmax(x, axis, log=True).astype(np.float64)     # torch's roundings
    classes = x.shape[axis]
    shape = [1] * x.ndim
    shape[axis] = classes
    w = np.ones(classes) if weight is None else weight.astype(np.float64)
    with np.errstate(all="ignore"):
        if target.shape == x.shape:
            t = target.astype(np.float64) * (1 - label_smoothing) + label_smoothing / classes
            losses = -(logs * t * w.reshape(shape)).sum(axis)
            if reduction == 1:
                value = losses.sum() / (x.size // classes) if x.size else np.nan
            else:
                value = losses.sum() if reduction == 2 else losses
            return np.asarray(value).astype(x.dtype)
        # each operator of the composite rounds to the dtype (float16 / bfloat16 show it)
        def r(value):
            return np.asarray(value).astype(x.dtype).astype(np.float64)
        nll = r(_nll_nd_ref(logs, target, weight, reduction, ignore_index))
        ignored = target == ignore_index
        smooth = np.where(ignored, 0.0, -r(r(logs * w.reshape(shape)).sum(axis)))
        kept = w[np.where(ignored, 0, target)][~ignored].sum()
        if reduction == 1:
            smooth = r(r(smooth.sum()) / r(kept))
        elif reduction == 2:
            smooth = r(smooth.sum())
        value = r(r((1 - label_smoothing) * nll) + r(smooth * (label_smoothing / classes)))
    return np.asarray(value).astype(x.dtype)


# ----- samples -----------------------------------------------------------------------
def _targets(shape: tuple, classes: int, seed: int, ignore=None):
    values = make_tensor(shape, gt.int64, low=0, high=max(classes, 1), seed=seed)
    if ignore is not None and values.numel():
        values.view(-1)[::3] = ignore
    return values


def _options(i: int, classes: int, dtype):
    """(weight, reduction, ignore_index) in turn: weights on every other sample, each
    reduction, ignore_index -100 (the default) or class 1."""
    weight = make_tensor((classes,), dtype, low=0.1, high=2, seed=4) if i % 2 else None
    return weight, i % 3, (-100, 1)[(i // 2) % 2]


def sample_forward(shapes):
    def samples(dtype):
        for i, (shape, target_shape) in enumerate(shapes * 3):
            classes = shape[0] if len(shape) == 1 else shape[1]
            x = make_tensor(shape, dtype, low=-3, high=0)
            weight, reduction, ignore = _options(i, classes, dtype)
            target = _targets(target_shape, classes, i, ignore if ignore >= 0 else None)
            yield SampleInput(x, target, weight, reduction, ignore)
        if len(shapes[0][0]) == 2:                                 # a uint8 target
            yield SampleInput(make_tensor((3, 4), dtype), _targets((3,), 4, 9).to(gt.uint8),
                              None, 1, -100)
    return samples


def sample_composite(shapes):
    def samples(dtype):
        for sample in sample_forward(shapes)(dtype):
            yield sample
        x = make_tensor((3, 4), dtype, low=-3, high=0).t()        # non-contiguous
        yield SampleInput(x, _targets((4,), 3, 5))
    return samples


def sample_backward(shapes):
    """The forward samples with an upstream gradient and the forward's total_weight."""
    def samples(dtype):
        forward = gt.ops.aten.nll_loss_forward if len(shapes[0][0]) <= 2 else \
            gt.ops.aten.nll_loss2d_forward
        for sample in sample_forward(shapes)(dtype):
            x, target, weight, reduction, ignore = sample.args
            output, total = forward(x, target, weight, reduction, ignore)
            grad = make_tensor(tuple(output.shape), dtype, seed=6)
            sample = SampleInput(grad, x, target, weight, reduction, ignore, total)
            if x.dim() == 4 and x.numel() == 0:
                sample.known("loss_nll: torch's nll_loss2d_backward gives an empty input's "
                             "gradient the input's strides, glasstorch row-major ones")
            yield sample
    return samples


def sample_cross_entropy(dtype):
    for i, (shape, target_shape) in enumerate(ND_SHAPES):
        classes = shape[0] if len(shape) == 1 else shape[1]
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, reduction, ignore = _options(i, classes, dtype)
        target = _targets(target_shape, classes, i, ignore if ignore >= 0 else None)
        yield SampleInput(x, target, weight, reduction, ignore, (0.0, 0.2)[i % 2])
        probabilities = make_tensor(shape, dtype, low=0, high=1, seed=7)
        yield SampleInput(x, probabilities, weight, (i + 1) % 3, -100, (0.1, 0.0)[i % 2])


# ----- errors ------------------------------------------------------------------------
def errors_forward():
    x = make_tensor((3, 5), gt.float32)
    target = gt.tensor([1, 0, 4])
    yield ErrorInput(SampleInput(x, gt.tensor([1, 0, 5]), None, 1, -100), IndexError,
                     r"^Target 5 is out of bounds\.$")
    yield ErrorInput(SampleInput(x, target.int(), None, 1, -100), RuntimeError,
                     r"^expected target dtype to be Long or Byte, but got Int$")
    yield ErrorInput(SampleInput(x, target, gt.ones(4), 1, -100), RuntimeError,
                     r"^weight tensor should be defined either for all 5 classes or no classes "
                     r"but got weight tensor of shape: \[4\]$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(x, target, gt.ones(5, dtype=gt.float64), 1, -100),
                     RuntimeError, r"^expected scalar type Float but found Double$",
                     known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(x, target.view(3, 1), None, 1, -100), RuntimeError,
                     r"^0D or 1D target tensor expected, multi-target not supported$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(make_tensor((2, 3, 4), gt.float32), target, None, 1, -100),
                     RuntimeError, r"^input tensor should be 1D or 2D$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(x, gt.tensor([1, 0]), None, 1, -100), RuntimeError,
                     r"^size mismatch \(got input: \[3, 5\], target: \[2\]\)$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(x[0], gt.tensor([1, 0]), None, 1, -100), ValueError,
                     r"^For 1D input, 1D target must have size 1, but got target size: 2$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(make_tensor((3, 5), gt.int64), target, None, 1, -100),
                     NotImplementedError, r"^\"nll_loss_out_frame\" not implemented for "
                                          r"'Long'$", known_bug_on_meta=META_DATA)


def errors_forward_2d():
    x = make_tensor((2, 3, 4, 5), gt.float32)
    yield ErrorInput(SampleInput(x, gt.full((2, 4, 5), 7), None, 1, -100), IndexError,
                     r"^Target 7 is out of bounds\.$")
    yield ErrorInput(SampleInput(x, gt.zeros(2, 4, dtype=gt.long), None, 1, -100),
                     RuntimeError, r"^only batches of spatial targets supported \(3D tensors\) "
                                   r"but got targets of dimension: 2$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(x, gt.zeros(2, 4, 6, dtype=gt.long), None, 1, -100),
                     RuntimeError, r"^size mismatch \(got input: \[2, 3, 4, 5\] , target: "
                                   r"\[2, 4, 6\]$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(x, gt.zeros(2, 4, 5, dtype=gt.long), gt.ones(4), 1, -100),
                     RuntimeError, r"^weight tensor should be defined either for all or no "
                                   r"classes$",
                     known_bug_on_meta=META_WORDS)


def errors_backward():
    x = make_tensor((2, 3), gt.float32)
    target = gt.tensor([0, 2])
    yield ErrorInput(SampleInput(gt.ones(2), x, target, None, 1, -100, gt.tensor(1.)),
                     RuntimeError, r"^Expected a single element grad_output tensor, but got: "
                                   r"\[2\]$",
                     known_bug_on_meta=META_WORDS)
    yield ErrorInput(SampleInput(gt.ones(()), x, target, None, 1, -100, gt.ones(2)),
                     RuntimeError, r"^expected total_weight to be a  single element tensor, "
                                   r"got: \[2\] \(2 elements\)$",
                     known_bug_on_meta=META_WORDS)


def errors_nll_nd():
    yield ErrorInput(SampleInput(make_tensor((3, 5), gt.float32), gt.tensor([1, 0, 4, 1])),
                     ValueError, r"^Expected input batch_size \(3\) to match target "
                                 r"batch_size \(4\)\.$")
    yield ErrorInput(SampleInput(make_tensor((), gt.float32), gt.tensor(1)), ValueError,
                     r"^Expected 1 or more dimensions \(got 0\)$")
    yield ErrorInput(SampleInput(make_tensor((2, 3, 4), gt.float32),
                                 gt.zeros(2, 5, dtype=gt.long)), RuntimeError,
                     r"^Expected target size \[2, 4\], got \[2, 5\]$")


def errors_cross_entropy():
    x = make_tensor((3, 5), gt.float32)
    probabilities = make_tensor((3, 5), gt.float32, low=0, high=1)
    yield ErrorInput(SampleInput(x, gt.zeros(3, 5, dtype=gt.long)), RuntimeError,
                     r"^Expected floating point type for target with class probabilities, "
                     r"got Long$")
    yield ErrorInput(SampleInput(x, probabilities, None, 1, 1), RuntimeError,
                     r"^ignore_index is not supported for floating point target$")
    yield ErrorInput(SampleInput(x, gt.tensor([1, 0, 4]), None, 1, -100, 1.5), RuntimeError,
                     r"^label_smoothing must be between 0\.0 and 1\.0\. Got: 1\.5$")
    yield ErrorInput(SampleInput(x, probabilities, gt.ones(4)), RuntimeError,
                     r"^cross_entropy: weight tensor should be defined either for all 5 "
                     r"classes or no classes but got weight tensor of shape: \[4\]$")
    yield ErrorInput(SampleInput(x, gt.tensor([1.5, 0., 4.])), RuntimeError,
                     r"^expected target dtype to be Long or Byte, but got Float$",
                     known_bug_on_meta=META_DATA)


OPS = [
    OpInfo("nll_loss_forward", variants=("ops.aten.nll_loss_forward",), ref=_nll_forward_ref,
           sample_inputs=sample_forward(FLAT_SHAPES), error_inputs=errors_forward,
           dtypes=FLOATING, out="ops.aten.nll_loss_forward", marks=SEVERAL_RESULTS),
    OpInfo("nll_loss_backward", variants=("ops.aten.nll_loss_backward",),
           ref=_nll_backward_ref, sample_inputs=sample_backward(FLAT_SHAPES),
           error_inputs=errors_backward, dtypes=FLOATING, out="ops.aten.nll_loss_backward",
           marks=GRAD_INPUT),
    OpInfo("nll_loss2d_forward", variants=("ops.aten.nll_loss2d_forward",),
           ref=_nll_forward_ref, sample_inputs=sample_forward(SPATIAL_SHAPES),
           error_inputs=errors_forward_2d, dtypes=FLOATING, out="ops.aten.nll_loss2d_forward",
           marks=SEVERAL_RESULTS),
    OpInfo("nll_loss2d_backward", variants=("ops.aten.nll_loss2d_backward",),
           ref=_nll_backward_ref, sample_inputs=sample_backward(SPATIAL_SHAPES),
           dtypes=FLOATING, out="ops.aten.nll_loss2d_backward", marks=GRAD_INPUT),
    OpInfo("nll_loss", variants=("ops.aten.nll_loss",), ref=_nll_ref,
           sample_inputs=sample_composite(FLAT_SHAPES), dtypes=FLOATING,
           out="ops.aten.nll_loss", marks=OUT_EXACT),
    OpInfo("nll_loss2d", variants=("ops.aten.nll_loss2d",), ref=_nll_ref,
           sample_inputs=sample_forward(SPATIAL_SHAPES), dtypes=FLOATING,
           out="ops.aten.nll_loss2d", marks=OUT_EXACT),
    OpInfo("nll_loss_nd", variants=("ops.aten.nll_loss_nd",), ref=_nll_nd_ref,
           sample_inputs=sample_forward(ND_SHAPES), error_inputs=errors_nll_nd,
           dtypes=FLOATING),
    OpInfo("cross_entropy_loss", variants=("ops.aten.cross_entropy_loss",),
           ref=_cross_entropy_ref, sample_inputs=sample_cross_entropy,
           error_inputs=errors_cross_entropy, dtypes=FLOATING),
]
