"""OpInfo entries for the losses ATen writes in other operators
(`aten/native/nn/loss_embedding.py`): margin_ranking_loss, hinge_embedding_loss,
cosine_embedding_loss, poisson_nll_loss and triplet_margin_loss. References compute in
float64 from the losses' definitions. Samples pass `reduction` (the Python bindings default
it to 0: Note [The reduction default of the bindings])."""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64)
SHAPES = ((3, 4), (5,), (), (2, 0))


# ----- references --------------------------------------------------------------------
def _reduce(losses, reduction, dtype):
    with np.errstate(all="ignore"):
        if reduction == 1:
            return np.asarray(losses.mean() if losses.size else np.nan).astype(dtype)
        if reduction == 2:
            return np.asarray(losses.sum()).astype(dtype)
    return np.asarray(losses).astype(dtype)


def _f64(*arrays):
    return [a.astype(np.float64) for a in arrays]


def _margin_ranking_ref(x1, x2, target, margin=0.0, reduction=1):
    a, b, y = _f64(x1, x2, target)
    return _reduce(np.maximum(-y * (a - b) + margin, 0), reduction, x1.dtype)


def _hinge_ref(x, target, margin=1.0, reduction=1):
    v, y = _f64(x, target)
    losses = np.where(y != 1, np.maximum(margin - v, 0), 0) + np.where(y != -1, v, 0)
    return _reduce(losses, reduction, x.dtype)


def _cosine_ref(x1, x2, target, margin=0.0, reduction=1):
    a, b, y = _f64(x1, x2, target)
    dim = y.ndim
    cosine = (a * b).sum(dim) / np.sqrt(((a * a).sum(dim) + 1e-12) * ((b * b).sum(dim) + 1e-12))
    losses = np.where(y == 1, 1 - cosine, 0) + np.where(y == -1, np.maximum(cosine - margin, 0), 0)
    return _reduce(losses, reduction, x1.dtype)


def _poisson_ref(x, target, log_input, full, eps, reduction):
    v, t = _f64(x, target)
    with np.errstate(all="ignore"):
        losses = np.exp(v) - t * v if log_input else v - t * np.log(v + eps)
        if full:
            stirling = t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t)
            losses = losses + np.where(t <= 1, 0, stirling)
    return _reduce(losses, reduction, x.dtype)


def _distance(a, b, p, eps):
    gap = np.abs(a - b + eps)
    if p == np.inf:
        return gap.max(-1)
    return (gap ** p).sum(-1) ** (1 / p)


def _triplet_ref(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                 reduction=1):
    a, pos, neg = _f64(anchor, positive, negative)
    near, far = _distance(a, pos, p, eps), _distance(a, neg, p, eps)
    if swap:
        far = np.minimum(far, _distance(pos, neg, p, eps))
    return _reduce(np.maximum(margin + near - far, 0), reduction, anchor.dtype)


# ----- samples -----------------------------------------------------------------------
def _signs(shape, dtype, seed):
    return make_tensor(shape, dtype, low=-1, high=1, seed=seed).sign()


def sample_margin_ranking(dtype):
    for i, shape in enumerate(SHAPES):
        x1, x2 = make_tensor(shape, dtype, seed=1), make_tensor(shape, dtype, seed=2)
        for reduction in (0, 1, 2):
            yield SampleInput(x1, x2, _signs(shape, dtype, 3), 0.5 * i, reduction)
    x = make_tensor((3, 4), dtype)           # broadcast operands
    yield SampleInput(x, make_tensor((4,), dtype, seed=1), _signs((3, 1), dtype, 2), 0.0, 1)


def sample_hinge(dtype):
    for i, shape in enumerate(SHAPES):
        x = make_tensor(shape, dtype, low=-2, high=2)
        for reduction in (0, 1, 2):
            yield SampleInput(x, _signs(shape, dtype, 3), 1.0 - 0.4 * i, reduction)
    yield SampleInput(make_tensor((3,), dtype), gt.tensor([1., -1., 0.5], dtype=dtype), 1.0, 0)


def sample_cosine(dtype):
    for inputs, target in (((4, 3), (4,)), ((3,), ()), ((0, 3), (0,))):
        x1, x2 = make_tensor(inputs, dtype, seed=1), make_tensor(inputs, dtype, seed=2)
        for reduction in (0, 1, 2):
            yield SampleInput(x1, x2, _signs(target, dtype, 3), 0.1 * reduction, reduction)


def sample_poisson(dtype):
    for i, shape in enumerate(SHAPES[:3]):
        rates = make_tensor(shape, dtype, low=0.1, high=3)
        counts = make_tensor(shape, dtype, low=0, high=5, seed=1).round()
        for log_input in (True, False):
            for full in (True, False):
                yield SampleInput(rates, counts, log_input, full, 1e-8, (i + full) % 3)


def sample_triplet(dtype):
    for shape in ((4, 3), (3,)):
        a, p, n = (make_tensor(shape, dtype, seed=seed) for seed in (1, 2, 3))
        for i, (norm, swap) in enumerate(((2.0, False), (1.0, True), (3.0, True))):
            yield SampleInput(a, p, n, 1.0 + i, norm, 1e-6, swap, i)


# ----- errors ------------------------------------------------------------------------
def errors_cosine():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, x, make_tensor((2, 1), gt.float32)), RuntimeError,
                     r"^0D or 1D target tensor expected, multi-target not supported$")
    y = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(y, y, y), RuntimeError,
                     r"^1D target tensor expects 2D input tensors, but found inputs with sizes "
                     r"\[3\] and \[3\]\.$")
    yield ErrorInput(SampleInput(x, x, gt.tensor(1.)), RuntimeError,
                     r"^0D target tensor expects 1D input tensors, but found inputs with sizes "
                     r"\[2, 3\] and \[2, 3\]\.$")


def errors_triplet():
    a, b = make_tensor((2, 3), gt.float32), make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(a, b, b), RuntimeError,
                     r"^The anchor, positive, and negative tensors are expected to have the same "
                     r"number of dimensions, but got: anchor 2D, positive 1D, and negative 1D "
                     r"inputs$")


OPS = [
    OpInfo("margin_ranking_loss", variants=("margin_ranking_loss",), ref=_margin_ranking_ref,
           sample_inputs=sample_margin_ranking, dtypes=DTYPES),
    OpInfo("hinge_embedding_loss", variants=("hinge_embedding_loss",), ref=_hinge_ref,
           sample_inputs=sample_hinge, dtypes=DTYPES),
    OpInfo("cosine_embedding_loss", variants=("cosine_embedding_loss",), ref=_cosine_ref,
           sample_inputs=sample_cosine, error_inputs=errors_cosine, dtypes=DTYPES),
    OpInfo("poisson_nll_loss", variants=("poisson_nll_loss",), ref=_poisson_ref,
           sample_inputs=sample_poisson, dtypes=DTYPES),
    OpInfo("triplet_margin_loss", variants=("triplet_margin_loss",), ref=_triplet_ref,
           sample_inputs=sample_triplet, error_inputs=errors_triplet, dtypes=DTYPES),
]
