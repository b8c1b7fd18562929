"""The connectionist temporal classification loss: `_ctc_loss` (the forward algorithm),
`_ctc_loss_backward` (the backward algorithm and the gradient), and the `ctc_loss`
composites that reduce it.

Note [CTC in log space]
    A target ``l`` of length L is extended to ``l'`` of length 2L + 1 by putting the
    blank before, between and after its labels. ``alpha[t, s]`` is the log probability
    of all alignments of the first t + 1 inputs that end in state s:
    ``alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2]) +
    log_probs[t, l'[s]]``, the last term only when ``l'[s-2] != l'[s]`` (a skip over a
    blank between two different labels). The loss is ``-logsumexp`` of the last two
    states at the input's last step. ``beta`` runs the same recursion backwards; the
    gradient with respect to ``log_probs[t, c]`` is
    ``exp(log_probs[t, c]) - exp(logsumexp_{s: l'[s] = c}(alpha + beta)[t, s] + nll -
    log_probs[t, c])``, times the incoming gradient. Every sum of three is formed as
    torch's kernel forms it (the maximum subtracted, 0 for an all -inf triple), one
    time step at a time over all batch elements and states together; states beyond a
    sample's 2L + 1 and steps beyond its input length are masked out (-inf in
    ``log_alpha``, zero in the gradient).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.tensor_impl import wrap_array
from ... import functions as at
from ...backends import no_meta_kernel, register_meta
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse
from .batch_norm import _NOT_FLOATING

_REFUSED = _NOT_FLOATING | {np.dtype(np.float16), np.dtype(dtypes.bfloat16._np)}
_CHECKED = "while checking arguments for ctc_loss_allocate_outputs"
_INTEGRAL = frozenset({dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64})


# ----------------------------------------------------------------------------------
# Argument checks (torch's meta kernel runs them too)
# ----------------------------------------------------------------------------------
def _refuse_dtype(log_probs, kernel: str) -> None:
    dtype = log_probs._dtype
    if not dtype.is_floating_point or dtype.itemsize == 2:
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{scalar_type_name(dtype)}'")


def _check_arguments(log_probs, targets, input_lengths, target_lengths, blank: int,
                     on_meta: bool) -> int:
    """torch's checks of `_ctc_loss`, in its order; returns the longest target."""
    if targets._dtype not in (dtypes.int64, dtypes.int32):
        name = scalar_type_name(targets._dtype)
        legacy = f"Meta{name}Type" if on_meta else f"torch.{name}Tensor"
        raise RuntimeError(f"Expected tensor for argument #2 'targets' to have scalar type Int; "
                           f"but got {legacy} instead ({_CHECKED})")
    if len(log_probs._size) != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {len(log_probs._size)}-"
                           f"dimensional tensor for argument #1 'log_probs' ({_CHECKED})")
    if not 1 <= len(targets._size) < 3:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {len(targets._size)}-"
                           f"dimensional tensor for argument #2 'targets' ({_CHECKED})")
    steps, batch, labels = log_probs._size
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if len(lengths) != batch:
            raise RuntimeError(f"{name} must be of size batch_size")
    longest = _check_targets(targets, target_lengths, batch)
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {length} ({_CHECKED})")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got "
                               f"value {length} ({_CHECKED})")
    return longest


def _check_targets(targets, target_lengths, batch: int) -> int:
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {length} ({_CHECKED})")
    longest = max(target_lengths, default=0)
    if len(targets._size) == 1:
        expected = sum(target_lengths)
        if targets._size[0] != expected:
            raise RuntimeError(f"Expected tensor to have size {expected} at dimension 0, but got "
                               f"size {targets._size[0]} for argument #2 'targets' ({_CHECKED})")
        return longest
    if targets._size[0] != batch:
        raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size "
                           f"{targets._size[0]} for argument #2 'targets' ({_CHECKED})")
    if targets._size[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, "
                           f"but got size {targets._size[1]} for argument #2 'targets' "
                           f"({_CHECKED})")
    return longest


def _ctc_meta_rule(on_meta: bool):
    """`_ctc_loss`'s meta rule: the CPU kernel's checks, or (`on_meta`) those of torch's
    Meta kernel, worded for its own dtype loop and legacy type names."""
    def meta(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
        _refuse_dtype(log_probs, "ctc_loss_meta" if on_meta else "ctc_loss_cpu")
        longest = _check_arguments(log_probs, targets, list(input_lengths),
                                   list(target_lengths), blank, on_meta)
        steps, batch, _ = log_probs._size
        return (TensorMeta((batch,), log_probs._dtype),
                TensorMeta((batch, steps, 2 * longest + 1), log_probs._dtype))
    return meta


_ctc_meta = _ctc_meta_rule(on_meta=False)


def _checked_lengths(input_lengths, target_lengths) -> tuple:
    """The lengths of the ``.Tensor`` overloads, as lists (torch's integral checks). Their
    values are read first: lengths without data (meta) raise NotImplementedError."""
    found = [lengths.reshape(-1).tolist() for lengths in (input_lengths, target_lengths)]
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if lengths._dtype not in _INTEGRAL:
            raise RuntimeError(f"{name} must be integral")
    return tuple([int(v) for v in values] for values in found)


# ----------------------------------------------------------------------------------
# The forward and backward algorithms (Note [CTC in log space])
# ----------------------------------------------------------------------------------
def _extended_targets(targets: np.ndarray, target_lengths, blank: int, states: int):
    """``l'`` per sample, ``(N, states)``: the blank at even positions, the labels at odd
    ones, the blank again past the sample's own 2L + 1 states; and where a skip from
    ``s - 2`` is allowed."""
    batch = len(target_lengths)
    labels = np.full((batch, max(states // 2, 0)), blank, dtype=np.int64)
    start = 0
    for b, length in enumerate(target_lengths):
        row = targets[b, :length] if targets.ndim == 2 else targets[start:start + length]
        labels[b, :length] = row
        start += length
    extended = np.full((batch, states), blank, dtype=np.int64)
    extended[:, 1::2] = labels
    skip = np.zeros((batch, states), dtype=bool)
    skip[:, 2:] = extended[:, 2:] != extended[:, :-2]
    valid = np.arange(states)[None, :] < 2 * np.asarray(target_lengths)[:, None] + 1
    return extended, skip, valid


def _log_add3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """log(e^a + e^b + e^c) formed as torch's kernel forms it."""
    top = np.maximum(np.maximum(a, b), c)
    top = np.where(top == -np.inf, 0, top)
    with np.errstate(invalid="ignore"):
        return np.log(np.exp(a - top) + np.exp(b - top) + np.exp(c - top)) + top


def _shifted(values: np.ndarray, by: int, allowed=None) -> np.ndarray:
    """`values` (..., S) moved right by `by` states, -inf where nothing comes from."""
    found = np.full_like(values, -np.inf)
    found[..., by:] = values[..., :-by] if by else values
    return found if allowed is None else np.where(allowed, found, -np.inf)


def _emissions(log_probs: np.ndarray, extended: np.ndarray) -> np.ndarray:
    """``log_probs[t, b, l'[b, s]]`` as ``(T, N, S)``."""
    batch = np.arange(extended.shape[0])[:, None]
    return log_probs[:, batch, extended]


def _forward(log_probs, extended, skip, valid, input_lengths) -> tuple:
    """``log_alpha`` as ``(N, T, S)`` (-inf outside each sample's states and steps) and
    the negative log likelihoods."""
    steps = log_probs.shape[0]
    emit = _emissions(log_probs, extended)
    alpha = np.full((steps,) + extended.shape, -np.inf, dtype=log_probs.dtype)
    if steps:
        alpha[0, :, :2] = emit[0, :, :2]
        alpha[0] = np.where(valid, alpha[0], -np.inf)
    for t in range(1, steps):
        previous = alpha[t - 1]
        found = _log_add3(previous, _shifted(previous, 1), _shifted(previous, 2, skip))
        alpha[t] = np.where(valid, found + emit[t], -np.inf)
    lengths = np.asarray(input_lengths, dtype=np.int64)
    alpha[np.arange(steps)[:, None] >= lengths[None, :]] = -np.inf
    return alpha.transpose(1, 0, 2)


def _likelihoods(alpha: np.ndarray, input_lengths, target_lengths) -> np.ndarray:
    nll = np.empty(alpha.shape[0], dtype=alpha.dtype)
    for b, (steps, length) in enumerate(zip(input_lengths, target_lengths)):
        if steps == 0:
            nll[b] = -0.0 if length == 0 else np.inf      # minus a log likelihood of 0
        elif length == 0:
            nll[b] = -alpha[b, steps - 1, 0]
        else:
            last, before = alpha[b, steps - 1, 2 * length], alpha[b, steps - 1, 2 * length - 1]
            nll[b] = -_log_add3(last, before, np.array(-np.inf, alpha.dtype))
    return nll


def _run_ctc(log_probs, targets, input_lengths, target_lengths, blank, out) -> None:
    refuse(log_probs, "ctc_loss_cpu", _REFUSED)
    nll_out, alpha_out = out
    extended, skip, valid = _extended_targets(targets, target_lengths, blank,
                                              alpha_out.shape[2])
    alpha = _forward(log_probs, extended, skip, valid, input_lengths)
    alpha_out[...] = alpha
    nll_out[...] = _likelihoods(alpha, input_lengths, target_lengths)


def _backward_states(log_probs, extended, skip, valid, input_lengths) -> np.ndarray:
    """``log_beta`` as ``(T, N, S)``, started at each sample's last input step."""
    steps = log_probs.shape[0]
    emit = _emissions(log_probs, extended)
    lengths = np.asarray(input_lengths, dtype=np.int64)
    last = valid.sum(1) - 1          # state 2L; the recursion starts in 2L and 2L - 1
    last_two = (np.arange(valid.shape[1])[None, :] >= last[:, None] - 1) & valid
    beta = np.full((steps,) + extended.shape, -np.inf, dtype=log_probs.dtype)
    skip_back = np.zeros_like(skip)
    skip_back[:, :-2] = skip[:, 2:] & valid[:, 2:]
    for t in range(steps - 1, -1, -1):
        start = np.where(last_two, emit[t], -np.inf)
        if t + 1 < steps:
            following = beta[t + 1]
            found = _log_add3(following, _shifted_left(following, 1),
                              _shifted_left(following, 2, skip_back))
            recurred = np.where(valid, found + emit[t], -np.inf)
        else:
            recurred = start
        here = lengths - 1
        beta[t] = np.where((t == here)[:, None], start,
                           np.where((t < here)[:, None], recurred, -np.inf))
    return beta


def _shifted_left(values: np.ndarray, by: int, allowed=None) -> np.ndarray:
    """`values` (..., S) moved left by `by` states, -inf where nothing comes from."""
    found = np.full_like(values, -np.inf)
    found[..., :-by] = values[..., by:]
    return found if allowed is None else np.where(allowed, found, -np.inf)


def _collect(alpha_beta: np.ndarray, extended: np.ndarray, labels: int) -> np.ndarray:
    """``log Σ exp(alpha + beta)`` over the states of each label, ``(T, N, C)``, added in
    torch's order (states descending)."""
    steps, batch, states = alpha_beta.shape
    collected = np.full((steps, batch, labels), -np.inf, dtype=alpha_beta.dtype)
    rows = np.arange(batch)
    for s in range(states - 1, -1, -1):
        current = collected[:, rows, extended[:, s]]
        adding = alpha_beta[:, :, s]
        top = np.maximum(current, adding)
        with np.errstate(invalid="ignore"):
            added = np.log(np.exp(current - top) + np.exp(adding - top)) + top
        collected[:, rows, extended[:, s]] = np.where(current == -np.inf, adding,
                                                      np.where(adding == -np.inf, current, added))
    return collected


def _run_ctc_backward(grad, log_probs, targets, input_lengths, target_lengths, nll, log_alpha,
                      blank, zero_infinity, out) -> None:
    refuse(log_probs, "ctc_loss_backward_cpu", _REFUSED)
    extended, skip, valid = _extended_targets(targets, target_lengths, blank,
                                              log_alpha.shape[2])
    beta = _backward_states(log_probs, extended, skip, valid, input_lengths)
    collected = _collect(log_alpha.transpose(1, 0, 2) + beta, extended, log_probs.shape[2])
    with np.errstate(over="ignore", invalid="ignore"):
        found = (np.exp(log_probs) - np.exp(collected + nll[None, :, None] - log_probs)) \
            * grad[None, :, None]
    steps = np.arange(log_probs.shape[0])[:, None]
    keep = steps < np.asarray(input_lengths, dtype=np.int64)[None, :]
    if zero_infinity:
        keep = keep & (nll != np.inf)[None, :]
    out[...] = np.where(keep[:, :, None], found, 0)


# ----------------------------------------------------------------------------------
# The operators
# ----------------------------------------------------------------------------------
_GRAD = {"log_probs": "_ctc_loss_backward(grads[0], log_probs, targets, input_lengths, "
                      "target_lengths, result0, result1, blank, zero_infinity)",
         "output_differentiability": (True, False),
         "result0": "forward_ad_not_implemented('_ctc_loss')"}


@op("_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, "
    "int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)", meta=_ctc_meta, out=True,
    out_names=("out0", "out1"), bind_out=False, grad=_GRAD)
def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity, *, out):
    """The CTC loss of each sample and the forward variables ``log_alpha`` (Note [CTC in
    log space]).

    Args:
        log_probs (Tensor): ``(T, N, C)`` log probabilities, float32 or float64.
        targets (Tensor): int64 or int32, ``(N, S)`` padded or 1-D concatenated.
        input_lengths, target_lengths (list of int): per sample.
        blank (int): the blank label (default 0).
        zero_infinity (bool): the backward zeroes the gradient of infinite losses.

    Example::

        >>> lp = torch.full((2, 1, 2), 0.5).log()
        >>> torch._ctc_loss(lp, torch.tensor([[1]]), [2], [1])[0]
        tensor([0.2877])
    """
    _run_ctc(log_probs, targets, input_lengths, target_lengths, blank, out)


def _ctc_tensor_meta(log_probs, targets, input_lengths, target_lengths, blank=0,
                     zero_infinity=False):
    lengths = _checked_lengths(input_lengths, target_lengths)
    return _ctc_meta(log_probs, targets, *lengths, blank, zero_infinity)


@op("_ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, "
    "Tensor target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)",
    meta=_ctc_tensor_meta, out=True, out_overload="Tensor_out", out_names=("out0", "out1"),
    bind_out=False, grad=_GRAD)
def _ctc_loss_tensor(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity,
                     *, out):
    """`_ctc_loss` with the lengths as integral tensors."""
    _run_ctc(log_probs, targets, input_lengths.reshape(-1).tolist(),
             target_lengths.reshape(-1).tolist(), blank, out)


def _backward_meta(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood,
                   log_alpha, blank, zero_infinity=False, out=None, kernel="ctc_loss_backward_cpu"):
    _refuse_dtype(log_probs, kernel)
    if out is not None and out._dtype != log_probs._dtype:       # not a structured kernel
        raise RuntimeError(f"Expected out tensor to have dtype "
                           f"{type_meta_name(log_probs._dtype)}, but got "
                           f"{type_meta_name(out._dtype)} instead")
    return TensorMeta(log_probs._size, log_probs._dtype)


@op("_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, "
    "int[] target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, "
    "bool zero_infinity=False) -> Tensor", meta=_backward_meta, out=True, bind_out=False,
    function=False)
def _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths,
                       neg_log_likelihood, log_alpha, blank, zero_infinity, *, out):
    """The gradient of `_ctc_loss` for `log_probs` (Note [CTC in log space]), zero past
    each input's length (and for infinite losses, with `zero_infinity`)."""
    _run_ctc_backward(grad, log_probs, targets, input_lengths, target_lengths,
                      neg_log_likelihood, log_alpha, blank, zero_infinity, out)


def _backward_meta_on_meta(*args, **kwargs):
    """`_backward_meta` worded as torch's Meta kernel."""
    return _backward_meta(*args, **kwargs, kernel="ctc_loss_backward_meta")


def _backward_tensor_meta(grad, log_probs, targets, input_lengths, target_lengths,
                          neg_log_likelihood, log_alpha, blank, zero_infinity=False):
    _checked_lengths(input_lengths, target_lengths)
    return _backward_meta(grad, log_probs, targets, [], [], neg_log_likelihood, log_alpha,
                          blank)


@op("_ctc_loss_backward.Tensor(Tensor grad, Tensor log_probs, Tensor targets, "
    "Tensor input_lengths, Tensor target_lengths, Tensor neg_log_likelihood, "
    "Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor",
    meta=_backward_tensor_meta, function=False)
def _ctc_loss_backward_tensor(grad, log_probs, targets, input_lengths, target_lengths,
                              neg_log_likelihood, log_alpha, blank, zero_infinity, *, out):
    """`_ctc_loss_backward` with the lengths as integral tensors."""
    _run_ctc_backward(grad, log_probs, targets, input_lengths.reshape(-1).tolist(),
                      target_lengths.reshape(-1).tolist(), neg_log_likelihood, log_alpha,
                      blank, zero_infinity, out)


def _reduced(losses, target_lengths: list, reduction: int, batched: bool,
             zero_infinity: bool):
    """The `ctc_loss` composites' tail: infinite losses zeroed on request, then the mean
    of the losses divided by their target lengths (at least 1), the sum, or each."""
    if zero_infinity:
        losses = at.where(losses == float("inf"), at.zeros((), dtype=losses.dtype), losses)
    if reduction == 1:
        lengths = wrap_array(np.array(target_lengths, dtype=np.int64),
                             dtypes.int64).to(losses.dtype).clamp_min(1)
        return (losses / lengths).mean()
    if reduction == 2:
        return losses.sum()
    return losses if batched else losses.squeeze(0)


@composite("ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, "
           "int[] target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) "
           "-> Tensor")
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
             zero_infinity=False):
    """The CTC loss (Note [CTC in log space]), reduced: mean of the per-sample losses
    divided by their target lengths (``reduction=1``), sum (2) or none (0). An
    unbatched ``(T, C)`` input is one sample.

    Args:
        log_probs (Tensor): ``(T, N, C)`` or ``(T, C)`` log probabilities.
        targets (Tensor): ``(N, S)`` padded or 1-D concatenated labels.
        input_lengths, target_lengths (list of int or Tensor): per sample.
        blank (int): the blank label (default 0).
        reduction (int): 0 none, 1 mean, 2 sum.
        zero_infinity (bool): infinite losses (impossible alignments) and their
            gradients become 0.

    Example::

        >>> lp = torch.full((2, 1, 2), 0.5).log()
        >>> torch.ctc_loss(lp, torch.tensor([[1]]), [2], [1])
        tensor(0.2877)
    """
    batched = log_probs.dim() == 3
    log_probs = log_probs if batched else log_probs.unsqueeze(1)
    losses = _ctc_loss.call(log_probs, targets.to(dtypes.int64), list(input_lengths),
                            list(target_lengths), blank, zero_infinity)[0]
    return _reduced(losses, list(target_lengths), reduction, batched, zero_infinity)


@composite("ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, "
           "Tensor target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) "
           "-> Tensor")
def ctc_loss_tensor(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
                    zero_infinity=False):
    """`ctc_loss` with the lengths as integral tensors."""
    try:
        lengths = _checked_lengths(input_lengths, target_lengths)
    except NotImplementedError:     # lengths without data (meta): torch's composite reaches
        batched = log_probs.dim() == 3              # _ctc_loss.Tensor, which refuses them
        log_probs = log_probs if batched else log_probs.unsqueeze(1)
        _ctc_loss_tensor.call(log_probs, targets.to(dtypes.int64), input_lengths,
                              target_lengths, blank, zero_infinity)
        raise
    return ctc_loss(log_probs, targets, *lengths, blank, reduction, zero_infinity)


# torch's Meta kernels: `_ctc_loss`'s checks in their meta wording; none for the overloads
# taking lengths as tensors
register_meta(_ctc_loss, _ctc_meta_rule(on_meta=True))
register_meta(_ctc_loss_backward, _backward_meta_on_meta)
no_meta_kernel(_ctc_loss_tensor)
