"""OpInfo entries for the CTC loss (`aten/native/nn/loss_ctc.py`): ctc_loss (both
overloads), _ctc_loss and _ctc_loss_backward."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64)
TWO_RESULT_OUT = pytest.mark.skip(reason="out= of two results: tests/nn/test_loss_ctc.py")
TWO_OUT = {"test_out": TWO_RESULT_OUT, "test_out_matches_torch": TWO_RESULT_OUT}
NO_META = {"test_meta": pytest.mark.skip(reason="torch has no Meta kernel for _ctc_loss.Tensor; "
                                                "the error inputs check glasstorch refuses alike")}
LENGTHS_READ = {"test_meta": pytest.mark.skip(reason="_ctc_loss_backward.Tensor reads the "
                                                     "lengths' values, on meta too (torch's "
                                                     "refusal: no data)")}
ALPHA_UNDEFINED = ("_ctc_loss: torch leaves log_alpha unwritten outside each sample's "
                   "states and steps, so only metadata is compared here; "
                   "tests/nn/test_loss_ctc.py compares the defined part")
# (T, N, C, input lengths, target lengths, padded target width, blank)
CASES = (
    (6, 3, 5, [6, 5, 4], [3, 2, 0], 3, 0),
    (4, 2, 4, [4, 4], [1, 2], 2, 3),
    (3, 2, 5, [3, 2], [3, 1], 4, 0),          # the first sample cannot be aligned: inf
    (5, 1, 3, [0], [0], 1, 0),
)


# ----- reference ---------------------------------------------------------------------
def _np_nll(log_probs, target, steps: int, blank: int) -> float:
    """One sample's loss by the textbook recursion, in float64."""
    extended = [blank]
    for label in target:
        extended += [int(label), blank]
    alpha = np.full(len(extended), -np.inf)
    if steps == 0:
        return 0.0 if len(target) == 0 else np.inf
    alpha[0] = log_probs[0, blank]
    if len(extended) > 1:
        alpha[1] = log_probs[0, extended[1]]
    for t in range(1, steps):
        previous = alpha.copy()
        for s, label in enumerate(extended):
            terms = [previous[s]] + ([previous[s - 1]] if s > 0 else []) + \
                ([previous[s - 2]] if s > 1 and extended[s - 2] != label else [])
            alpha[s] = np.logaddexp.reduce(terms) + log_probs[t, label]
    return -np.logaddexp.reduce(alpha[-2:] if len(target) else alpha[-1:])


def _targets_of(targets, target_lengths):
    start, found = 0, []
    for b, length in enumerate(target_lengths):
        found.append(targets[b, :length] if targets.ndim == 2 else
                     targets[start:start + length])
        start += length
    return found


def _np_losses(log_probs, targets, input_lengths, target_lengths, blank):
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim == 2:
        lp = lp[:, None]
    lengths = list(np.asarray(input_lengths).reshape(-1))
    wanted = list(np.asarray(target_lengths).reshape(-1))
    return np.array([_np_nll(lp[:, b], target, lengths[b], blank)
                     for b, target in enumerate(_targets_of(np.asarray(targets), wanted))])


def _np_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
                 zero_infinity=False):
    losses = _np_losses(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:
        losses = np.where(losses == np.inf, 0.0, losses)
    lengths = np.maximum(np.asarray(target_lengths, dtype=np.float64).reshape(-1), 1)
    found = {0: losses if log_probs.ndim == 3 else losses[0],
             1: (losses / lengths).mean(), 2: losses.sum()}[reduction]
    return np.asarray(found).astype(log_probs.dtype)


def _np_ctc_backward(grad, log_probs, targets, input_lengths, target_lengths, nll, alpha,
                     blank, zero_infinity=False):
    """torch's gradient: ``exp(log_probs)`` plus the loss's derivative (central differences
    of the float64 reference), times the incoming gradient, zero past each input's length
    (the ``exp`` term is the one log_softmax's backward cancels: torch's formula is the
    gradient of the logits behind the log probabilities)."""
    lp = np.asarray(log_probs, dtype=np.float64)
    g = np.asarray(grad, dtype=np.float64)
    losses = _np_losses(lp, targets, input_lengths, target_lengths, blank)
    found = np.zeros_like(lp)
    step = 1e-6
    for index in np.ndindex(*lp.shape):
        up, down = lp.copy(), lp.copy()
        up[index] += step
        down[index] -= step
        b = index[1]
        diff = (_np_losses(up, targets, input_lengths, target_lengths, blank)[b]
                - _np_losses(down, targets, input_lengths, target_lengths, blank)[b])
        found[index] = (np.exp(lp[index]) + diff / (2 * step)) * g[b]
    steps = np.arange(lp.shape[0])[:, None]
    keep = steps < np.asarray(input_lengths).reshape(-1)[None, :]
    if zero_infinity:
        keep &= (losses != np.inf)[None, :]
    return np.where(keep[:, :, None], found, 0).astype(log_probs.dtype)


def _np_ctc_outputs(log_probs, targets, input_lengths, target_lengths, blank=0,
                    zero_infinity=False):
    """The losses, and a log_alpha of the right shape (its values are not compared)."""
    wanted = np.asarray(target_lengths).reshape(-1)
    losses = _np_losses(log_probs, targets, input_lengths, wanted, blank)
    states = 2 * int(wanted.max(initial=0)) + 1
    alpha = np.full((log_probs.shape[1], log_probs.shape[0], states), -np.inf)
    return [losses.astype(log_probs.dtype), alpha.astype(log_probs.dtype)]


# ----- samples -----------------------------------------------------------------------
def _log_probs(steps, batch, labels, dtype, seed=0):
    return make_tensor((steps, batch, labels), dtype, seed=seed, low=-2, high=2).log_softmax(2)


def _targets(batch, width, labels, blank, seed=1):
    values = make_tensor((batch, width), gt.int64, seed=seed, low=0, high=labels - 1)
    return values + (values >= blank).long()       # never the blank


def _case(dtype, case):
    steps, batch, labels, input_lengths, target_lengths, width, blank = case
    return (_log_probs(steps, batch, labels, dtype), _targets(batch, width, labels, blank),
            input_lengths, target_lengths, blank)


def _concatenated(targets, target_lengths):
    return gt.cat([targets[b, :length] for b, length in enumerate(target_lengths)])


def sample_ctc_loss(dtype):
    for case in CASES:
        lp, targets, input_lengths, target_lengths, blank = _case(dtype, case)
        for reduction in (0, 1, 2):
            yield SampleInput(lp, targets, input_lengths, target_lengths, blank, reduction)
        yield SampleInput(lp, targets.int(), input_lengths, target_lengths, blank, 1, True)
    lp, targets, _, _, _ = _case(dtype, CASES[0])
    # unbatched, the reduction given (Note [The reduction default of the bindings])
    yield SampleInput(lp[:, 0], targets[0], [6], [3], 0, 1)


def sample_ctc_loss_tensor(dtype):
    for case in CASES:
        lp, targets, input_lengths, target_lengths, blank = _case(dtype, case)
        yield SampleInput(lp, _concatenated(targets, target_lengths), gt.tensor(input_lengths),
                          gt.tensor(target_lengths, dtype=gt.int32), blank, 0, True)
    lp, targets, _, _, _ = _case(dtype, CASES[0])
    yield SampleInput(lp[:, 0], targets[0, :2], gt.tensor(5), gt.tensor(2), 0, 0)


def errors_ctc_loss():
    lp, targets, input_lengths, target_lengths, _ = _case(gt.float32, CASES[0])

    def refused(args, message, error=RuntimeError):
        return ErrorInput(SampleInput(*args), error, message)
    il, tl = gt.tensor(input_lengths), gt.tensor(target_lengths)
    checked = r" \(while checking arguments for ctc_loss_allocate_outputs\)$"
    yield refused((lp, targets, il, tl, 5), r"^blank must be in label range$")
    yield refused((lp, targets, il, tl, -1), r"^blank must be in label range$")
    yield refused((lp, targets, il.float(), tl), r"^input_lengths must be integral$")
    yield refused((lp, targets, il, tl.double()), r"^target_lengths must be integral$")
    yield refused((lp, targets, [7, 5, 4], target_lengths), r"^Expected input_lengths to have value at "
                  r"most 6, but got value 7" + checked)
    yield refused((lp, targets, [6, -1, 0], target_lengths), r"^Expected input_lengths to have value at "
                  r"least 0, but got value -1" + checked)
    yield refused((lp, targets, [6, 5], target_lengths), r"^input_lengths must be of size batch_size$")
    yield refused((lp, targets, input_lengths, [3, 2]), r"^target_lengths must be of size batch_size$")
    yield refused((lp, targets, input_lengths, [4, 2, 0]), r"^Expected tensor to have size at least 4 at "
                  r"dimension 1, but got size 3 for argument #2 'targets'" + checked)
    yield refused((lp, targets, input_lengths, [3, -1, 0]), r"^Expected target_lengths to have value at "
                  r"least 0, but got value -1" + checked)
    yield refused((lp, targets[:2], il, tl), r"^Expected tensor to have size 3 at dimension 0, "
                  r"but got size 2 for argument #2 'targets'" + checked)
    yield refused((lp, targets.reshape(-1)[:4], il, tl), r"^Expected tensor to have size 5 at "
                  r"dimension 0, but got size 4 for argument #2 'targets'" + checked)
    yield refused((lp, targets[None], il, tl), r"^Expected 1 to 2 dimensions, but got "
                  r"3-dimensional tensor for argument #2 'targets'" + checked)
    yield refused((lp.half(), targets, il, tl), r"^\"ctc_loss_cpu\" not implemented for "
                  r"'Half'$", NotImplementedError)
    yield refused((lp.int(), targets, il, tl), r"^\"ctc_loss_cpu\" not implemented for "
                  r"'Int'$", NotImplementedError)


def sample__ctc_loss(dtype):
    for case in CASES:
        lp, targets, input_lengths, target_lengths, blank = _case(dtype, case)
        yield SampleInput(lp, targets, input_lengths, target_lengths, blank)
        yield SampleInput(lp, _concatenated(targets, target_lengths).int(), input_lengths,
                          target_lengths, blank, True)


def sample__ctc_loss_tensor(dtype):
    for sample in sample__ctc_loss(dtype):
        lp, targets, input_lengths, target_lengths, *rest = sample.args
        yield SampleInput(lp, targets, gt.tensor(input_lengths), gt.tensor(target_lengths),
                          *rest)


def errors__ctc_loss():
    lp, targets, input_lengths, target_lengths, _ = _case(gt.float32, CASES[0])
    yield ErrorInput(SampleInput(lp, targets.float(), input_lengths, target_lengths),
                     RuntimeError, r"^Expected tensor for argument #2 'targets' to have scalar "
                     r"type Int; but got torch\.FloatTensor instead \(while checking arguments "
                     r"for ctc_loss_allocate_outputs\)$")
    yield ErrorInput(SampleInput(lp[0], targets, input_lengths, target_lengths), RuntimeError,
                     r"^Expected 3-dimensional tensor, but got 2-dimensional tensor for argument "
                     r"#1 'log_probs' \(while checking arguments for ctc_loss_allocate_outputs\)$")


def sample__ctc_loss_backward(dtype):
    for case in CASES[:2]:
        lp, targets, input_lengths, target_lengths, blank = _case(dtype, case)
        for zero_infinity in (False, True):
            nll, alpha = gt._ctc_loss(lp, targets, input_lengths, target_lengths, blank)
            grad = make_tensor(tuple(nll.shape), dtype, seed=5)
            yield SampleInput(grad, lp, targets, input_lengths, target_lengths, nll, alpha,
                              blank, zero_infinity)
    lp, targets, input_lengths, target_lengths, blank = _case(dtype, CASES[2])
    nll, alpha = gt._ctc_loss(lp, targets, input_lengths, target_lengths, blank)
    yield SampleInput(gt.ones(2, dtype=dtype), lp, targets, input_lengths, target_lengths,
                      nll, alpha, blank, True)


def sample__ctc_loss_backward_tensor(dtype):
    for sample in sample__ctc_loss_backward(dtype):
        grad, lp, targets, input_lengths, target_lengths, *rest = sample.args
        yield SampleInput(grad, lp, targets, gt.tensor(input_lengths),
                          gt.tensor(target_lengths, dtype=gt.int32), *rest)


OPS = [
    OpInfo("ctc_loss.IntList", variants=("ctc_loss",), ref=_np_ctc_loss, dtypes=DTYPES,
           sample_inputs=sample_ctc_loss, error_inputs=errors_ctc_loss),
    OpInfo("ctc_loss.Tensor", variants=("ctc_loss",), ref=_np_ctc_loss, dtypes=DTYPES,
           sample_inputs=sample_ctc_loss_tensor, marks=NO_META),
    OpInfo("_ctc_loss", variants=("_ctc_loss",), ref=_np_ctc_outputs, dtypes=DTYPES,
           sample_inputs=sample__ctc_loss, error_inputs=errors__ctc_loss,
           values_defined=False, out="ops.aten._ctc_loss", marks=TWO_OUT),
    OpInfo("_ctc_loss.Tensor", variants=("_ctc_loss",), ref=_np_ctc_outputs, dtypes=DTYPES,
           sample_inputs=sample__ctc_loss_tensor, values_defined=False,
           out="ops.aten._ctc_loss", marks={**TWO_OUT, **NO_META}),
    OpInfo("_ctc_loss_backward", variants=("ops.aten._ctc_loss_backward",),
           ref=_np_ctc_backward, dtypes=(gt.float64,), sample_inputs=sample__ctc_loss_backward,
           out="ops.aten._ctc_loss_backward"),
    OpInfo("_ctc_loss_backward.Tensor", variants=("ops.aten._ctc_loss_backward",),
           ref=_np_ctc_backward, dtypes=(gt.float64,),
           sample_inputs=sample__ctc_loss_backward_tensor, marks=LENGTHS_READ),
]
