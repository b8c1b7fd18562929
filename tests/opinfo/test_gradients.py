"""Gradients of every OpInfo entry against real torch 2.13.

For each functional entry and each float64 sample: the floating point tensor inputs
become leaves that require grad, both libraries run the primary variant and
`autograd.grad` with the same upstream gradients, and the input gradients must agree
(values, and which inputs get None). Comparing with torch rather than with finite
differences checks the convention at kinks too (abs at 0, clamp at its bounds, the
subgradient of max with ties), which is where formulas go wrong.

Skipped when torch is not importable.
"""
import numpy as np
import pytest

import glasstorch as gt

from .convert import assert_values, to_numpy, to_torch
from .core import about, cases, database

torch = pytest.importorskip("torch")

# Entries whose gradients differ from torch's, with the reason (strict xfails: when one
# is fixed the suite says so). Formulas are owned by the declaring family file.
_BATCH_NORM_STATISTICS = ("autograd: torch differentiates native_batch_norm_backward's saved "
                          "and running statistics in some modes and refuses them in others "
                          "(not implemented / not differentiable); glasstorch refuses the "
                          "running ones and leaves the saved ones unimplemented")
KNOWN: dict = {
    **dict.fromkeys(("vander", "linalg_cond", "linalg_cond.p_str"), (
        "linalg: torch's own backward fails here (a saved tensor its decomposition then "
        "modifies in place: 'modified by an inplace operation'); glasstorch differentiates")),
    "geqrf": "autograd: torch's not-implemented derivative raises NotImplementedError, "
             "glasstorch's NotImplemented node a RuntimeError (same words)",
    "native_batch_norm_backward": _BATCH_NORM_STATISTICS,
    "batch_norm_backward": _BATCH_NORM_STATISTICS,
    "view_as_complex_copy": "autograd: torch refuses to record view_as_complex_copy (its "
                            "complex result is not on its list of ops with complex "
                            "gradients); glasstorch records it as view_as_complex",
    "hardsigmoid_backward": "activation: torch leaves hardsigmoid_backward's derivative "
                            "unimplemented (raises); glasstorch declares one, which forward AD "
                            "of hardsigmoid (derived from backward formulas) needs",
    "dist": "autograd engine: torch's p=0 gradient is undefined, so autograd.grad raises (an "
            "input unused); glasstorch's formula returns None and the engine answers None",
}
# The same for tangents (forward AD, derived from the backward formulas in
# autograd/forward_ad.py): where a backward formula has a singularity or a torch quirk
# that torch's own forward formula does not share, the derived tangent differs.
_SINGULAR = ("forward AD: the backward formula is singular at zero spread / zero degrees of "
             "freedom (NaN), torch's forward formula gives 0 there")
_LAST_WRITE = ("forward AD: with duplicate indices the derived tangent sums the writes, torch's "
               "forward formula keeps the last one")
_SRC_SHAPE = ("forward AD: src's backward gradient has the index's shape, so a src larger than "
              "the index gets no derived tangent for its extra elements")
KNOWN_FORWARD: dict = {
    **dict.fromkeys(("linalg_cholesky_ex", "linalg_cholesky", "cholesky"), (
        "linalg: torch's tangent of cholesky reads a non-Hermitian tangent whole; the tangent "
        "derived from the backward formula sees its Hermitian part, as the gradient of a "
        "Hermitian input does (they agree on Hermitian tangents)")),
    "triangular_solve": ("linalg: torch's tangent of triangular_solve multiplies the whole of "
                         "A's tangent, untransposed, into the solution; the tangent derived "
                         "from the backward formula reads the triangle A's values come from"),
    "cholesky_inverse": ("linalg: torch's tangent of cholesky_inverse reads the factor's "
                         "triangle only; the derived one, the adjoint of torch's backward, "
                         "reads the whole tangent"),
    "native_batch_norm_backward": _BATCH_NORM_STATISTICS,
    "batch_norm_backward": _BATCH_NORM_STATISTICS,
    **dict.fromkeys(("var.dim", "var.correction", "std", "std.dim", "std.correction",
                     "var_mean.dim", "var_mean.correction", "std_mean",
                     "std_mean.dim", "std_mean.correction"), _SINGULAR),
    **dict.fromkeys(("index_put", "put", "scatter.src"), _LAST_WRITE),
    **dict.fromkeys(("scatter_add", "scatter_reduce.two"), _SRC_SHAPE),
    **dict.fromkeys(("nll_loss_backward", "nll_loss2d_backward"), (
        "forward AD: torch's forward formula of the nll backward operators follows "
        "total_weight's tangent, which its reverse mode refuses (not differentiable); the "
        "derived tangent has no total_weight term")),
    "polar": "forward AD: torch's backward formula takes the derivative by abs as "
             "sgn(result), which is -e^(i angle) for a negative abs; the derived tangent "
             "inherits that, torch's forward formula does not",
    "narrow_copy": "forward AD: torch's backward formula ignores a negative start (gradient 0) "
                   "and the derived tangent inherits that; torch's forward formula does not",
    "as_strided_scatter": "forward AD: torch's backward for self copies grad into the "
                          "overwritten region; the derived tangent inherits that quirk",
    "native_layer_norm_backward": "forward AD: torch's forward formula ignores tangents of "
                                  "mean and rstd; the derived tangent reaches their "
                                  "not_implemented backward formula",
}
# The same for second derivatives (backward through the formulas).
KNOWN_SECOND: dict = {
    **dict.fromkeys(("quantile", "nanquantile"), (
        "reduction/quantile.py: quantile has one node whose formula differentiates "
        "differently from torch's, which records the ops of its decomposition")),
    "index_reduce": "indexing/scatter.py: the prod reduction's first-order formula "
                    "is not differentiated as torch's (its second derivative differs)",
}
# Single samples: (entry, sample index) -> reason.
KNOWN_SAMPLES = {
    **dict.fromkeys((("logit", 37), ("special_logit", 37)),
                    "torch's vectorized CPU loop gives 0 for a NaN input with eps, its "
                    "scalar loop (and glasstorch) NaN"),
}


def _differentiable(op) -> bool:
    return (gt.float64 in op.dtypes and not op.mutates_input and not op.is_factory
            and op.values_defined)


def _leaves(sample, module):
    """The sample with each floating point tensor replaced by a leaf requiring grad
    (same geometry), and the list of those leaves."""
    leaves = []

    def make_leaf(t):
        if t.dtype.is_floating_point or t.dtype.is_complex:
            t = t.detach().requires_grad_()
            leaves.append(t)
        return t
    args = [_map(a, make_leaf, module) for a in sample.args]
    kwargs = {k: _map(v, make_leaf, module) for k, v in sample.kwargs.items()}
    return args, kwargs, leaves


def _map(value, fn, module):
    if isinstance(value, module.Tensor):
        return fn(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_map(v, fn, module) for v in value)
    return value


def _outputs(result, module) -> list:
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    return [r for r in results if isinstance(r, module.Tensor) and r.requires_grad]


def _random_like(t, rng, module):
    """A seeded standard-normal tensor of `t`'s shape and dtype."""
    return module.from_numpy(rng.standard_normal(tuple(t.shape)).astype(
        to_numpy_dtype(t.dtype)))


def _first_order(op, sample, module, rng, create_graph: bool = False):
    """((input gradients, leaves), None), or (None, why not): the primary variant's
    differentiable outputs back-propagated with seeded upstream gradients."""
    args, kwargs, leaves = _leaves(sample, module)
    if not leaves:
        return None, "no inputs"
    outputs = _outputs(op.call(op.variants[0], _Sample(args, kwargs), module), module)
    if not outputs:
        return None, "no graph"
    upstream = [_random_like(o, rng, module) for o in outputs]
    grads = module.autograd.grad(outputs, leaves, upstream, create_graph=create_graph,
                                 allow_unused=True)
    return (grads, leaves), None


def _gradients(op, sample, module, seed: int):
    """(input gradients, None) or (None, why there are none)."""
    found, reason = _first_order(op, sample, module, np.random.default_rng(seed))
    return (None, reason) if found is None else (found[0], None)


def to_numpy_dtype(dtype):
    return {"float64": np.float64, "float32": np.float32, "complex128": np.complex128,
            "complex64": np.complex64}.get(str(dtype).removeprefix("torch."), np.float64)


class _Sample:
    def __init__(self, args, kwargs):
        self.args, self.kwargs = tuple(args), kwargs


def _entries(known: dict) -> list:
    params = []
    for op in database():
        if _differentiable(op):
            mark = pytest.mark.xfail(strict=True, reason=known[op.name]) \
                if op.name in known else ()
            params.append(pytest.param(op, id=op.name, marks=mark))
    return params


def _outcome(op, sample, module, seed):
    try:
        return _gradients(op, sample, module, seed)
    except Exception as error:          # noqa: BLE001 - the error is the outcome
        return None, type(error).__name__


@pytest.mark.parametrize("op", _entries(KNOWN))
def test_gradients_match_torch(op):
    checked = 0
    for index, (dtype, sample) in enumerate(cases(op, (gt.float64,))):
        if dtype is not gt.float64 or (op.name, index) in KNOWN_SAMPLES:
            continue
        with about(dtype, sample):
            theirs, their_reason = _outcome(op, _Sample(to_torch(sample.args, torch),
                                                        to_torch(sample.kwargs, torch)),
                                            torch, index)
            mine, my_reason = _outcome(op, sample, gt, index)
            assert my_reason == their_reason
            if theirs is None:
                continue
            for a, b in zip(mine, theirs):
                assert (a is None) == (b is None), "an input gets None in one library only"
                if b is not None:
                    assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
                    assert_values(a, to_numpy(b), "float64")
            checked += 1
    if checked == 0:
        pytest.skip("no float64 sample with differentiable inputs")


def _tangent_outcome(op, sample, module, seed: int):
    """The first output's tangent under forward AD, every floating input dual with a
    seeded tangent; or the error's type name."""
    fwAD = module.autograd.forward_ad
    rng = np.random.default_rng(seed)
    try:
        with fwAD.dual_level():
            def dual(t):
                if not (t.dtype.is_floating_point or t.dtype.is_complex):
                    return t
                return fwAD.make_dual(t, _random_like(t, rng, module))
            args = [_map(a, dual, module) for a in sample.args]
            kwargs = {k: _map(v, dual, module) for k, v in sample.kwargs.items()}
            result = op.call(op.variants[0], _Sample(args, kwargs), module)
            first = result[0] if isinstance(result, (list, tuple)) else result
            if not isinstance(first, module.Tensor):
                return None, "no tensor"
            tangent = fwAD.unpack_dual(first).tangent
            return (None if tangent is None else tangent.clone()), None
    except Exception as error:          # noqa: BLE001 - the error is the outcome
        return None, type(error).__name__


def _comparable(sample) -> bool:
    """Finite, non-empty floating inputs (see test_forward_ad_matches_torch)."""
    floats = [t for t in sample.tensors() if t.dtype.is_floating_point or t.dtype.is_complex]
    return all(t.numel() and np.isfinite(to_numpy(t)).all() for t in floats)


@pytest.mark.parametrize("op", _entries(KNOWN_FORWARD))
def test_forward_ad_matches_torch(op):
    """Tangents (forward-mode AD) equal torch's wherever torch supports forward AD.

    glasstorch derives each tangent from the backward formulas (forward_ad.py), torch
    has forward formulas of its own: at infinities and NaN the two roads meet `0 * inf`
    differently, and on empty inputs torch's own tangents are NaN where its values are
    0, so only samples with finite, non-empty inputs are compared.
    """
    checked = 0
    for index, (dtype, sample) in enumerate(cases(op, (gt.float64,))):
        if dtype is not gt.float64 or (op.name, index) in KNOWN_SAMPLES \
                or not _comparable(sample):
            continue
        with about(dtype, sample):
            theirs, their_reason = _tangent_outcome(
                op, _Sample(to_torch(sample.args, torch), to_torch(sample.kwargs, torch)),
                torch, index)
            if their_reason is not None or theirs is None:
                continue                 # torch has no forward formula or no tangent here
            mine, my_reason = _tangent_outcome(op, sample, gt, index)
            assert my_reason is None and mine is not None, my_reason
            assert tuple(mine.shape) == tuple(theirs.shape)
            assert_values(mine, to_numpy(theirs), "float64")
            checked += 1
    if checked == 0:
        pytest.skip("torch computes no tangent for these samples")


def _second_order(op, sample, module, seed: int):
    """Gradients of <first-order gradients, v> with respect to the inputs (double
    backward), or the error's type name."""
    try:
        rng = np.random.default_rng(seed)
        found, reason = _first_order(op, sample, module, rng, create_graph=True)
        if found is None:
            return None, reason
        first, leaves = found
        pairs = [(g, _random_like(g, rng, module)) for g in first
                 if g is not None and g.requires_grad]
        if not pairs:
            return None, "linear"
        total = sum((g * v).sum() for g, v in pairs)
        return module.autograd.grad(total, leaves, allow_unused=True), None
    except Exception as error:          # noqa: BLE001 - the error is the outcome
        return None, type(error).__name__


@pytest.mark.parametrize("op", _entries(KNOWN_SECOND))
def test_double_backward_matches_torch(op):
    """Second derivatives (backward through the formulas, `create_graph=True`) equal
    torch's, on finite non-empty samples."""
    checked = 0
    for index, (dtype, sample) in enumerate(cases(op, (gt.float64,))):
        if dtype is not gt.float64 or (op.name, index) in KNOWN_SAMPLES \
                or not _comparable(sample):
            continue
        with about(dtype, sample):
            theirs, their_reason = _second_order(
                op, _Sample(to_torch(sample.args, torch), to_torch(sample.kwargs, torch)),
                torch, index)
            if theirs is None:
                continue                # torch has no second derivative here, or none needed
            mine, my_reason = _second_order(op, sample, gt, index)
            if my_reason == "linear":            # no graph here, zeros in torch: the same
                assert all(b is None or not to_numpy(b).any() for b in theirs)
                continue
            assert my_reason is None, my_reason
            for a, b in zip(mine, theirs):
                if a is None or b is None:           # a zero and an absent gradient agree
                    present = a if b is None else b
                    assert present is None or not to_numpy(present).any()
                    continue
                assert_values(a, to_numpy(b), "float64")
            checked += 1
    if checked == 0:
        pytest.skip("no second derivative to compare")
