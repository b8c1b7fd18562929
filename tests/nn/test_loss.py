"""The losses: torch.nn.functional's loss functions and the loss modules, run on
glasstorch and on torch alike (values, dtypes, shapes, node names, gradients, errors,
warnings, module attributes); without torch, NumPy-computed values and the torch-free
behaviour (reductions, legacy flags, module options)."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, numpy_of, same_outcome

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")
REDUCTIONS = ("none", "mean", "sum")


# ----------------------------------------------------------------------------------
# Scenarios: (lib) -> (result, leaves); the same numbers reach both libraries
# ----------------------------------------------------------------------------------
def _values(seed: int, shape: tuple, kind: str = "normal", classes: int = 0):
    rng = np.random.default_rng([seed, *shape])
    if kind == "normal":
        return rng.standard_normal(shape)
    if kind == "unit":
        return rng.uniform(0.02, 0.98, shape)
    return rng.integers(0, classes, shape)


def _leaf(lib, array, dtype: str = "float64"):
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=True)


def _pointwise_case(name: str, shapes: tuple, reduction: str, dtype: str = "float64",
                    weighted: bool = False, **options):
    def scenario(lib):
        F = lib.nn.functional
        x = _leaf(lib, _values(1, shapes[0]), dtype)
        y = _leaf(lib, _values(2, shapes[1]), dtype)
        extra = {"weight": lib.tensor(_values(3, shapes[0], "unit"), dtype=getattr(lib, dtype))}
        result = getattr(F, name)(x, y, reduction=reduction, **(extra if weighted else {}),
                                  **options)
        return result, [x, y]
    return scenario


def _class_case(name: str, shape: tuple, reduction: str, *, weight=False, ignore=None,
                smoothing=0.0, probabilities=False, dtype="float64"):
    """cross_entropy / nll_loss on ``shape`` = (C,) or (N, C, d1, ...)."""
    classes = shape[0] if len(shape) == 1 else shape[1]
    target_shape = shape if probabilities else (() if len(shape) == 1 else
                                                (shape[0],) + shape[2:])

    def scenario(lib):
        F = lib.nn.functional
        x = _leaf(lib, _values(4, shape), dtype)
        if probabilities:
            target = lib.tensor(_values(5, target_shape, "unit"), dtype=getattr(lib, dtype))
        else:
            indices = _values(5, target_shape, "classes", classes)
            if ignore is not None and indices.ndim:
                indices.flat[::3] = ignore
            target = lib.tensor(indices)
        options = {"reduction": reduction}
        if weight:
            options["weight"] = lib.tensor(_values(6, (classes,), "unit"),
                                           dtype=getattr(lib, dtype))
        if ignore is not None:
            options["ignore_index"] = ignore
        if name == "nll_loss":
            return F.nll_loss(F.log_softmax(x, 0 if len(shape) == 1 else 1), target,
                              **options), [x]
        return F.cross_entropy(x, target, label_smoothing=smoothing, **options), [x]
    return scenario


def _binary_case(name: str, reduction: str, weight_shape=None, pos_weight=False,
                 dtype="float64"):
    def scenario(lib):
        F = lib.nn.functional
        x = _leaf(lib, _values(7, (3, 5), "unit" if name == "binary_cross_entropy"
                               else "normal"), dtype)
        y = _leaf(lib, _values(8, (3, 5), "unit"), dtype)
        options = {"reduction": reduction}
        if weight_shape:
            options["weight"] = lib.tensor(_values(9, weight_shape, "unit"),
                                           dtype=getattr(lib, dtype))
        if pos_weight:
            options["pos_weight"] = lib.tensor(_values(10, (5,), "unit") * 3,
                                               dtype=getattr(lib, dtype))
        return getattr(F, name)(x, y, **options), [x, y]
    return scenario


def _kl_case(reduction: str, log_target: bool):
    def scenario(lib):
        F = lib.nn.functional
        x = _leaf(lib, np.log(_values(11, (4, 5), "unit")))
        y = _leaf(lib, _values(12, (4, 5), "unit"))
        target = y.log() if log_target else y
        return F.kl_div(x, target, reduction=reduction, log_target=log_target), [x, y]
    return scenario


def _soft_margin_case(shapes: tuple, reduction: str, target_dtype: str = "float64"):
    """Logits against signs: the target requires no grad (torch refuses one that does)."""
    def scenario(lib):
        x = _leaf(lib, _values(13, shapes[0]))
        target = lib.tensor(np.sign(_values(14, shapes[1])), dtype=getattr(lib, target_dtype))
        return lib.nn.functional.soft_margin_loss(x, target, reduction=reduction), [x]
    return scenario


def _scenarios() -> dict:
    found = {}
    same, broadcast = ((3, 5), (3, 5)), ((3, 5), (5,))
    for reduction in REDUCTIONS:
        for name, options in (("mse_loss", {}), ("l1_loss", {}),
                              ("smooth_l1_loss", {"beta": 0.5}), ("smooth_l1_loss", {}),
                              ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {"delta": 0.3}),
                              ("huber_loss", {})):
            tag = f"{name}-{reduction}-{options}"
            found[tag] = _pointwise_case(name, same, reduction, **options)
            found[tag + "-broadcast"] = _pointwise_case(name, broadcast, reduction, **options)
            if name != "smooth_l1_loss":
                found[tag + "-weighted"] = _pointwise_case(name, same, reduction, weighted=True,
                                                           **options)
        found[f"mse_loss-{reduction}-float32"] = _pointwise_case("mse_loss", same, reduction,
                                                                 "float32")
        for shape in ((4, 6), (6,), (2, 6, 5), (2, 6, 3, 4), (2, 6, 2, 2, 3), (0, 6)):
            for name in ("cross_entropy", "nll_loss"):
                found[f"{name}-{shape}-{reduction}"] = _class_case(name, shape, reduction)
                found[f"{name}-{shape}-{reduction}-weight-ignore"] = _class_case(
                    name, shape, reduction, weight=True, ignore=2)
                found[f"{name}-{shape}-{reduction}-ignore-default"] = _class_case(
                    name, shape, reduction, ignore=-100)
            for weight in (False, True):
                found[f"ce-smoothing-{shape}-{reduction}-{weight}"] = _class_case(
                    "cross_entropy", shape, reduction, weight=weight, ignore=1, smoothing=0.2)
                found[f"ce-probs-{shape}-{reduction}-{weight}"] = _class_case(
                    "cross_entropy", shape, reduction, weight=weight, probabilities=True,
                    smoothing=0.1 if weight else 0.0)
        found[f"ce-float32-{reduction}"] = _class_case("cross_entropy", (8, 10), reduction,
                                                       dtype="float32", weight=True, ignore=3)
        for weight_shape in (None, (5,), (3, 5)):
            found[f"bce-{reduction}-{weight_shape}"] = _binary_case(
                "binary_cross_entropy", reduction, weight_shape)
            for pos_weight in (False, True):
                found[f"bce_logits-{reduction}-{weight_shape}-{pos_weight}"] = _binary_case(
                    "binary_cross_entropy_with_logits", reduction, weight_shape, pos_weight)
        found[f"bce-float32-{reduction}"] = _binary_case("binary_cross_entropy", reduction,
                                                         dtype="float32")
        for shapes in (((3, 5), (3, 5)), ((3, 5), (5,)), ((), ())):
            found[f"soft_margin-{reduction}-{shapes}"] = _soft_margin_case(shapes, reduction)
        found[f"soft_margin-{reduction}-int64-target"] = _soft_margin_case(
            ((4, 2), (4, 2)), reduction, "int64")
    for reduction in REDUCTIONS + ("batchmean",):
        for log_target in (False, True):
            found[f"kl_div-{reduction}-{log_target}"] = _kl_case(reduction, log_target)
    return found


SCENARIOS = _scenarios()


def _run(scenario, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result, leaves = scenario(lib)
    rng = np.random.default_rng(0)
    upstream = lib.tensor(rng.standard_normal(tuple(result.shape)), dtype=result.dtype)
    grads = lib.autograd.grad(result, leaves, upstream, allow_unused=True) \
        if result.requires_grad else [None] * len(leaves)
    return result, grads


@needs_torch
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_functional_matches_torch(name):
    ours, our_grads = _run(SCENARIOS[name], gt)
    theirs, their_grads = _run(SCENARIOS[name], torch)
    loose = "float32" in name
    tolerance = {"rtol": 1e-5, "atol": 1e-6} if loose else {"rtol": 1e-10, "atol": 1e-12}
    assert_close(ours, theirs, **tolerance)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__
    for mine, ref in zip(our_grads, their_grads, strict=True):
        assert (mine is None) == (ref is None)
        if ref is not None:
            assert_close(mine, ref, **tolerance)


def _second_order(lib, reduction: str):
    """soft_margin_loss differentiated twice: through SoftMarginLossBackwardBackward0,
    whose helpers divide by the count (mean) and contract grad_output (mean, sum)."""
    x = _leaf(lib, _values(15, (3, 4)))
    target = lib.tensor(np.sign(_values(16, (3, 4))))
    loss = lib.nn.functional.soft_margin_loss(x, target, reduction=reduction)
    upstream = _leaf(lib, _values(17, tuple(loss.shape)))
    gradient, = lib.autograd.grad(loss, x, upstream, create_graph=True)
    weights = lib.tensor(_values(18, (3, 4)))
    second = lib.autograd.grad((gradient * weights).sum(), (x, upstream))
    return type(gradient.grad_fn).__name__, second


@needs_torch
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_soft_margin_loss_second_order_matches_torch(reduction):
    ours, theirs = _second_order(gt, reduction), _second_order(torch, reduction)
    assert ours[0] == theirs[0] == "SoftMarginLossBackwardBackward0"
    for mine, ref in zip(ours[1], theirs[1], strict=True):
        assert_close(mine, ref, rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------------------
# Errors and warnings: the same type and message as torch
# ----------------------------------------------------------------------------------
def _logits(lib, *shape):
    return lib.tensor(_values(20, shape))


ERRORS = {
    "nll-out-of-bounds": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, 0, 5])),
    "nll-negative": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, -1, 0]), reduction="none"),
    "nll-batch": lambda lib: lib.nn.functional.nll_loss(_logits(lib, 3, 5),
                                                        lib.tensor([1, 0, 4, 1])),
    "nll-0d": lambda lib: lib.nn.functional.nll_loss(lib.tensor(1.), lib.tensor(1)),
    "nll-int32-target": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4], dtype=lib.int32)),
    "nll-float-target": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1., 0., 4.])),
    "nll-int-input": lambda lib: lib.nn.functional.nll_loss(lib.ones(3, 2, dtype=lib.long),
                                                            lib.tensor([0, 0, 0])),
    "nll-weight-size": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), lib.ones(4)),
    "nll-weight-dtype": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5).float(), lib.tensor([1, 0, 4]), lib.ones(5, dtype=lib.float64)),
    "nll-2d-target": lambda lib: lib.nn.functional.nll_loss(_logits(lib, 3, 5),
                                                            lib.tensor([[1], [0], [4]])),
    "nll-kdim-target": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 2, 3, 4), lib.zeros(2, 5, dtype=lib.long)),
    "nll-4d-target": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 2, 3, 4, 5), lib.zeros(2, 4, 6, dtype=lib.long)),
    "nll-4d-target-dims": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 2, 3, 4, 5), lib.zeros(2, 4, dtype=lib.long)),
    "nll-spatial-out-of-bounds": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 2, 3, 4, 5), lib.full((2, 4, 5), 7)),
    "nll-bad-reduction": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), reduction="avg"),
    "ce-float-target-shape": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.tensor([0.5, 0.2, 0.1])),
    "ce-int-probabilities": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.zeros(3, 5, dtype=lib.long)),
    "ce-probabilities-ignore": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), _logits(lib, 3, 5).softmax(1), ignore_index=1),
    "ce-smoothing-range": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), label_smoothing=1.5),
    "ce-probabilities-smoothing-range": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), _logits(lib, 3, 5).softmax(1), label_smoothing=1.5),
    "ce-probabilities-weight": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), _logits(lib, 3, 5).softmax(1), lib.ones(4)),
    "ce-0d": lambda lib: lib.nn.functional.cross_entropy(lib.tensor(1.), lib.tensor(0)),
    "ce-smoothing-out-of-bounds": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.tensor([1, 0, 5]), label_smoothing=0.1),
    "ce-ignore-type": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), ignore_index=1.5),
    "mse-mismatch": lambda lib: lib.nn.functional.mse_loss(_logits(lib, 3, 5), _logits(lib, 4)),
    "mse-int": lambda lib: lib.nn.functional.mse_loss(lib.ones(3, dtype=lib.long),
                                                      lib.ones(3, dtype=lib.long)),
    "mse-weight-size": lambda lib: lib.nn.functional.mse_loss(
        _logits(lib, 3, 5), _logits(lib, 3, 5), weight=lib.ones(5)),
    "mse-weight-reduction": lambda lib: lib.nn.functional.mse_loss(
        _logits(lib, 3, 5), _logits(lib, 3, 5), weight=lib.ones(3, 5), reduction="x"),
    "mse-reduction": lambda lib: lib.nn.functional.mse_loss(
        _logits(lib, 3, 5), _logits(lib, 3, 5), reduction="x"),
    "l1-int": lambda lib: lib.nn.functional.l1_loss(lib.ones(3, dtype=lib.long),
                                                    lib.ones(3, dtype=lib.long)),
    "smooth-l1-beta": lambda lib: lib.nn.functional.smooth_l1_loss(
        _logits(lib, 3), _logits(lib, 3), beta=-1.),
    "smooth-l1-int": lambda lib: lib.nn.functional.smooth_l1_loss(
        lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)),
    "huber-delta": lambda lib: lib.nn.functional.huber_loss(_logits(lib, 3), _logits(lib, 3),
                                                            delta=0.),
    "huber-int": lambda lib: lib.nn.functional.huber_loss(lib.ones(3, dtype=lib.long),
                                                          lib.ones(3, dtype=lib.long)),
    "bce-input-range": lambda lib: lib.nn.functional.binary_cross_entropy(
        _logits(lib, 3, 5), _logits(lib, 3, 5).sigmoid()),
    "bce-target-range": lambda lib: lib.nn.functional.binary_cross_entropy(
        _logits(lib, 3, 5).sigmoid(), _logits(lib, 3, 5)),
    "bce-nan": lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.tensor([float("nan")]), lib.tensor([0.])),
    "bce-size": lambda lib: lib.nn.functional.binary_cross_entropy(
        _logits(lib, 3, 5).sigmoid(), _logits(lib, 5).sigmoid()),
    "bce-dtype": lambda lib: lib.nn.functional.binary_cross_entropy(
        _logits(lib, 3).float().sigmoid(), _logits(lib, 3).sigmoid()),
    "bce-int": lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)),
    "bce-logits-size": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        _logits(lib, 3, 5), _logits(lib, 5)),
    "bce-logits-pos-weight": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        _logits(lib, 3, 5), _logits(lib, 3, 5), pos_weight=lib.ones(2, 3, 5)),
    "bce-logits-int": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)),
    "kl-int": lambda lib: lib.nn.functional.kl_div(lib.ones(3, dtype=lib.long),
                                                   lib.ones(3, dtype=lib.long),
                                                   reduction="sum"),
    "kl-complex": lambda lib: lib.nn.functional.kl_div(lib.ones(3, dtype=lib.complex64),
                                                       lib.ones(3, dtype=lib.complex64),
                                                       reduction="sum"),
    "kl-reduction": lambda lib: lib.nn.functional.kl_div(_logits(lib, 3), _logits(lib, 3),
                                                         reduction="bad"),
    "huber-module-delta": lambda lib: lib.nn.HuberLoss(delta="1"),
    "soft-margin-target-grad": lambda lib: lib.nn.functional.soft_margin_loss(
        _logits(lib, 3), _logits(lib, 3).requires_grad_()),
    "soft-margin-size": lambda lib: lib.nn.functional.soft_margin_loss(_logits(lib, 3, 5),
                                                                       _logits(lib, 4)),
    "soft-margin-target-larger": lambda lib: lib.nn.functional.soft_margin_loss(
        _logits(lib, 5), _logits(lib, 3, 5)),
    "soft-margin-int": lambda lib: lib.nn.functional.soft_margin_loss(
        lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)),
    "soft-margin-reduction": lambda lib: lib.nn.functional.soft_margin_loss(
        _logits(lib, 3), _logits(lib, 3), reduction="avg"),
}


@needs_torch
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    same_outcome(ERRORS[name])


def _rounded(value):
    """A tensor as (shape, dtype, values to 9 decimals): last-bit differences of the
    summation order aside; other values as they are."""
    if not hasattr(value, "grad_fn"):
        return value
    return tuple(value.shape), str(value.dtype), np.round(numpy_of(value), 9).tolist()


def _warned(call):
    def scenario(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = _rounded(call(lib))
        return result, [(w.category.__name__, str(w.message), w.filename == __file__)
                        for w in caught]
    return scenario


WARNINGS = {
    "mse-broadcast": lambda lib: lib.nn.functional.mse_loss(_logits(lib, 3, 5), _logits(lib, 5)),
    "l1-broadcast": lambda lib: lib.nn.functional.l1_loss(_logits(lib, 5), _logits(lib, 3, 5)),
    "smooth-l1-broadcast": lambda lib: lib.nn.functional.smooth_l1_loss(_logits(lib, 3, 1),
                                                                        _logits(lib, 3)),
    "huber-broadcast": lambda lib: lib.nn.functional.huber_loss(_logits(lib, 3, 5),
                                                                _logits(lib, 5)),
    "legacy-size-average": lambda lib: lib.nn.functional.nll_loss(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), size_average=False),
    "legacy-reduce": lambda lib: lib.nn.functional.mse_loss(_logits(lib, 3), _logits(lib, 3),
                                                            reduce=False),
    "legacy-bce": lambda lib: lib.nn.functional.binary_cross_entropy(
        _logits(lib, 3).sigmoid(), _logits(lib, 3).sigmoid(), size_average=True),
    "legacy-kl": lambda lib: lib.nn.functional.kl_div(_logits(lib, 3), _logits(lib, 3).exp(),
                                                      reduce=False),
    "elementwise-mean": lambda lib: lib.nn.functional.cross_entropy(
        _logits(lib, 3, 5), lib.tensor([1, 0, 4]), reduction="elementwise_mean"),
    "kl-mean": lambda lib: lib.nn.functional.kl_div(_logits(lib, 3), _logits(lib, 3).exp()),
    "kl-batchmean-0d": lambda lib: lib.nn.functional.kl_div(
        lib.tensor(0.5), lib.tensor(0.2), reduction="batchmean"),
    "module-legacy": lambda lib: lib.nn.CrossEntropyLoss(reduce=False).reduction,
    "legacy-soft-margin": lambda lib: lib.nn.functional.soft_margin_loss(
        _logits(lib, 3), _logits(lib, 3), size_average=False),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_warnings_match_torch(name):
    same_outcome(_warned(WARNINGS[name]))


# ----------------------------------------------------------------------------------
# Modules
# ----------------------------------------------------------------------------------
def _module_case(cls: str, kwargs: dict, data: str):
    """(lib) -> (repr, options, state_dict names, loss, input gradient)."""
    def scenario(lib):
        options = {k: (lib.tensor(v) if isinstance(v, list) else v) for k, v in kwargs.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = getattr(lib.nn, cls)(**options)
        x = _leaf(lib, _values(30, (4, 3), "unit" if cls == "BCELoss" else "normal"))
        if data == "classes":
            target = lib.tensor([0, 2, 1, 2])
        else:
            target = lib.tensor(_values(31, (4, 3), "unit"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loss = module(x.log_softmax(1) if cls == "NLLLoss" else x, target)
        grad = lib.autograd.grad(loss.sum(), x)[0]
        public = {k: v for k, v in vars(module).items() if not k.startswith("_")}
        return repr(module), public, list(module.state_dict()), _rounded(loss), _rounded(grad)
    return scenario


MODULES = {
    "L1Loss": ("L1Loss", {}, "values"),
    "MSELoss-sum": ("MSELoss", {"reduction": "sum"}, "values"),
    "MSELoss-legacy": ("MSELoss", {"size_average": False}, "values"),
    "SmoothL1Loss": ("SmoothL1Loss", {"beta": 0.3, "reduction": "none"}, "values"),
    "HuberLoss": ("HuberLoss", {"delta": 2}, "values"),
    "KLDivLoss": ("KLDivLoss", {"reduction": "batchmean", "log_target": True}, "values"),
    "NLLLoss": ("NLLLoss", {"weight": [1.0, 2.0, 0.5], "ignore_index": 1}, "classes"),
    "CrossEntropyLoss": ("CrossEntropyLoss", {"weight": [1.0, 2.0, 0.5],
                                              "label_smoothing": 0.1}, "classes"),
    "CrossEntropyLoss-probs": ("CrossEntropyLoss", {"reduction": "sum"}, "values"),
    "BCELoss": ("BCELoss", {"weight": [1.0, 2.0, 0.5]}, "values"),
    "BCEWithLogitsLoss": ("BCEWithLogitsLoss", {"pos_weight": [1.0, 2.0, 0.5]}, "values"),
    "BCEWithLogitsLoss-plain": ("BCEWithLogitsLoss", {"reduce": False}, "values"),
    "SoftMarginLoss": ("SoftMarginLoss", {"reduction": "sum"}, "values"),
    "SoftMarginLoss-legacy": ("SoftMarginLoss", {"reduce": False}, "values"),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_match_torch(name):
    same_outcome(_module_case(*MODULES[name]))


# ----------------------------------------------------------------------------------
# Without torch: values against NumPy, the reduction helpers, module options
# ----------------------------------------------------------------------------------
def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def test_cross_entropy_values():
    x = _values(40, (6, 4))
    t = np.array([0, 3, 1, 2, 2, 1])
    w = np.array([0.5, 1.0, 2.0, 1.5])
    picked = -_log_softmax(x, 1)[np.arange(6), t] * w[t]
    loss = gt.nn.functional.cross_entropy(gt.tensor(x), gt.tensor(t), gt.tensor(w))
    np.testing.assert_allclose(numpy_of(loss), picked.sum() / w[t].sum(), rtol=1e-12)
    kept = gt.nn.functional.cross_entropy(gt.tensor(x), gt.tensor(t), reduction="none",
                                          ignore_index=2)
    expected = np.where(t == 2, 0.0, -_log_softmax(x, 1)[np.arange(6), t])
    np.testing.assert_allclose(numpy_of(kept), expected, rtol=1e-12)


def test_cross_entropy_gradient_is_softmax_minus_onehot():
    x = gt.tensor(_values(41, (5, 3)), requires_grad=True)
    t = np.array([0, 1, 2, 1, 0])
    gt.nn.functional.cross_entropy(x, gt.tensor(t), reduction="sum").backward()
    probabilities = np.exp(_log_softmax(numpy_of(x), 1))
    np.testing.assert_allclose(numpy_of(x.grad), probabilities - np.eye(3)[t], rtol=1e-12)


def test_regression_values():
    x, y = _values(42, (4, 3)), _values(43, (4, 3))
    F = gt.nn.functional
    gap = np.abs(x - y)
    np.testing.assert_allclose(numpy_of(F.mse_loss(gt.tensor(x), gt.tensor(y))),
                               (gap ** 2).mean(), rtol=1e-12)
    np.testing.assert_allclose(numpy_of(F.smooth_l1_loss(gt.tensor(x), gt.tensor(y), beta=0.5,
                                                         reduction="sum")),
                               np.where(gap < 0.5, gap ** 2, gap - 0.25).sum(), rtol=1e-12)
    np.testing.assert_allclose(numpy_of(F.huber_loss(gt.tensor(x), gt.tensor(y), delta=0.5,
                                                     reduction="none")),
                               np.where(gap < 0.5, 0.5 * gap ** 2, 0.5 * (gap - 0.25)),
                               rtol=1e-12)


def test_binary_cross_entropy_clamps_logs_at_minus_100():
    loss = gt.nn.functional.binary_cross_entropy(gt.tensor([0., 1., 0.5]),
                                                 gt.tensor([1., 0., 1.]), reduction="none")
    np.testing.assert_allclose(numpy_of(loss), [100., 100., np.log(2)], rtol=1e-6)


def test_nll_loss_mean_of_nothing_is_nan():
    F = gt.nn.functional
    assert np.isnan(numpy_of(F.nll_loss(gt.zeros(0, 3), gt.zeros(0, dtype=gt.long))))
    assert numpy_of(F.nll_loss(gt.zeros(0, 3), gt.zeros(0, dtype=gt.long),
                               reduction="sum")) == 0
    with pytest.raises(IndexError, match=r"^Target 5 is out of bounds\.$"):
        F.nll_loss(gt.zeros(2, 3), gt.tensor([0, 5]))


def test_reduction_helpers():
    from glasstorch.nn import _reduction
    assert [_reduction.get_enum(r) for r in ("none", "mean", "sum")] == [0, 1, 2]
    with pytest.warns(UserWarning, match="reduction='sum'"):
        assert _reduction.legacy_get_string(False, None) == "sum"
    assert _reduction.legacy_get_string(None, False, emit_warning=False) == "none"
    with pytest.raises(ValueError, match="^bad is not a valid value for reduction$"):
        _reduction.get_enum("bad")


def test_module_options_and_buffers():
    nn = gt.nn
    loss = nn.CrossEntropyLoss(weight=gt.ones(3), ignore_index=4, label_smoothing=0.2)
    assert (loss.ignore_index, loss.label_smoothing, loss.reduction) == (4, 0.2, "mean")
    assert list(loss.state_dict()) == ["weight"] and repr(loss) == "CrossEntropyLoss()"
    assert nn.BCEWithLogitsLoss().weight is None and nn.NLLLoss().weight is None
    assert list(nn.BCEWithLogitsLoss(pos_weight=gt.ones(2)).state_dict()) == ["pos_weight"]
    assert nn.HuberLoss(delta=0.5).delta == 0.5 and nn.SmoothL1Loss(beta=2.0).beta == 2.0
    with pytest.warns(UserWarning, match="please use reduction='none'"):
        assert nn.L1Loss(reduce=False).reduction == "none"
