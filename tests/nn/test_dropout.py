"""Dropout against torch 2.13: after equal seeds the functional forms, the modules and the
aten operators drop the same elements and give the same values bit for bit (float32,
float64, float16, bfloat16; contiguous and transposed inputs), with torch's node names,
gradients, in-place behaviour, pass-through identity, warnings and errors. Torch-free
tests check the statistics and the modules' bookkeeping."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn as nn
import glasstorch.nn.functional as F

from nn_compare import numpy_of

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="needs torch")
DTYPES = ["float32", "float64", "float16", "bfloat16"]


def _input(shape, dtype="float32", transposed=False, seed=0):
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    mine = gt.from_numpy(array).to(getattr(gt, dtype))
    return mine.transpose(0, -1) if transposed else mine


def _twin(t):
    """torch's copy of `t`: same values, dtype and strides."""
    base = torch.from_numpy(numpy_of(t.contiguous() if t.is_contiguous()
                                     else t.transpose(0, -1).contiguous()))
    base = base.to(getattr(torch, str(t.dtype).split(".")[-1]))
    return base if t.is_contiguous() else base.transpose(0, -1)


def _same_bits(mine, theirs) -> None:
    assert tuple(mine.shape) == tuple(theirs.shape) and str(mine.dtype) == str(theirs.dtype)
    assert mine.stride() == theirs.stride()
    np.testing.assert_array_equal(numpy_of(mine), numpy_of(theirs))


def _seeded(module, call, seed=11):
    module.manual_seed(seed)
    return call(module)


# ----- functional forms: bit for bit ----------------------------------------------------
_FUNCTIONS = [("dropout", (4, 6)), ("alpha_dropout", (4, 6)), ("dropout1d", (3, 4, 6)),
              ("dropout2d", (2, 3, 4, 5)), ("dropout3d", (2, 3, 2, 2, 3)),
              ("feature_alpha_dropout", (3, 4, 5))]


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,shape", _FUNCTIONS)
@pytest.mark.parametrize("inplace", [False, True])
def test_functional_bit_for_bit(name, shape, dtype, inplace):
    x = _input(shape, dtype, transposed=name == "dropout")
    for p in (0.2, 0.5):
        mine = _seeded(gt, lambda m: getattr(F, name)(x.clone(), p, True, inplace))
        theirs = _seeded(torch, lambda m: getattr(torch.nn.functional, name)(
            _twin(x).clone(), p, True, inplace))
        _same_bits(mine, theirs)
        assert gt.rand(2).tolist() == torch.rand(2).tolist()     # same draws consumed


@needs_torch
@pytest.mark.parametrize("name", ["dropout", "feature_dropout", "alpha_dropout",
                                  "feature_alpha_dropout"])
def test_aten_composites_and_node_names(name):
    x = _input((3, 4, 5), "float32").requires_grad_()
    tx = _twin(x).requires_grad_()
    mine = _seeded(gt, lambda m: getattr(gt, name)(x, 0.3, True))
    theirs = _seeded(torch, lambda m: getattr(torch, name)(tx, 0.3, True))
    _same_bits(mine, theirs)
    assert type(mine.grad_fn).__name__ == type(theirs.grad_fn).__name__
    upstream = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(np.float32)
    mine.backward(gt.from_numpy(upstream))
    theirs.backward(torch.from_numpy(upstream))
    _same_bits(x.grad, tx.grad)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("train", [True, False, None])
def test_native_dropout(dtype, train):
    x = _input((4, 6), dtype, transposed=True).requires_grad_()
    tx = _twin(x).requires_grad_()
    output, mask = _seeded(gt, lambda m: gt.native_dropout(x, 0.3, train))
    their_output, their_mask = _seeded(torch, lambda m: torch.native_dropout(tx, 0.3, train))
    _same_bits(output, their_output)
    _same_bits(mask, their_mask)
    assert type(output.grad_fn).__name__ == "NativeDropoutBackward0"
    output.sum().backward()
    their_output.sum().backward()
    _same_bits(x.grad, tx.grad)          # train=None back-propagates unscaled, as torch


@needs_torch
@pytest.mark.parametrize("name,shape", [("dropout", (4, 6)), ("alpha_dropout", (4, 6)),
                                        ("dropout2d", (2, 3, 4, 5))])
def test_pass_through_is_the_input(name, shape):
    for module in (gt, torch):
        x = module.ones(*shape)
        functional = module.nn.functional
        assert getattr(functional, name)(x, 0.0, True) is x
        assert getattr(functional, name)(x, 0.5, False) is x
        assert (getattr(functional, name)(x, 1.0, True) == 0).all()


@needs_torch
@pytest.mark.parametrize("name,shape,message", [
    ("dropout2d", (2, 3), "dropout2d: Received a 2-D input to dropout2d"),
    ("dropout2d", (2, 3, 4), "dropout2d: Received a 3D input to dropout2d"),
    ("dropout3d", (2, 3, 4), "dropout3d: Received a 3-D input to dropout3d")])
def test_warnings_as_torchs(name, shape, message):
    texts = []
    for module in (gt, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(module.nn.functional, name)(module.ones(*shape), 0.5)
        texts.append([str(w.message) for w in caught])
        assert texts[-1] and texts[-1][0].startswith(message)
    assert texts[0] == texts[1]


_ERRORS = [
    (lambda m: m.nn.functional.dropout(m.ones(3), 1.5), ValueError),
    (lambda m: m.nn.functional.alpha_dropout(m.ones(3), -0.1), ValueError),
    (lambda m: m.dropout(m.ones(3), 1.5, True), RuntimeError),
    (lambda m: m.nn.functional.dropout1d(m.ones(3), 0.5), RuntimeError),
    (lambda m: m.feature_dropout(m.ones(3), 0.5, True), RuntimeError),
    (lambda m: m.dropout(m.ones(3, dtype=m.int64), 0.5, True), RuntimeError),
    (lambda m: m.native_dropout(m.ones(3), 1.5, True), RuntimeError),
    (lambda m: m.nn.Dropout(2), ValueError),
]


@needs_torch
@pytest.mark.parametrize("case", range(len(_ERRORS)))
def test_errors_as_torchs(case):
    make, kind = _ERRORS[case]
    messages = []
    for module in (gt, torch):
        with pytest.raises(kind) as caught:
            make(module)
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


# ----- modules -----------------------------------------------------------------------------
_MODULES = [("Dropout", (4, 6)), ("Dropout1d", (3, 4, 5)), ("Dropout2d", (2, 3, 4, 5)),
            ("Dropout3d", (2, 3, 2, 2, 3)), ("AlphaDropout", (4, 6)),
            ("FeatureAlphaDropout", (3, 4, 5))]


@needs_torch
@pytest.mark.parametrize("name,shape", _MODULES)
def test_modules_as_torchs(name, shape):
    mine, theirs = getattr(nn, name)(0.4), getattr(torch.nn, name)(0.4)
    assert repr(mine) == repr(theirs)
    x = _input(shape)
    _same_bits(_seeded(gt, lambda m: mine(x)), _seeded(torch, lambda m: theirs(_twin(x))))
    mine.eval()
    assert mine(x) is x


def test_module_bookkeeping():
    layer = nn.Dropout(0.25, inplace=True)
    assert (layer.p, layer.inplace, repr(layer)) == (0.25, True, "Dropout(p=0.25, inplace=True)")
    assert list(layer.parameters()) == [] and layer.state_dict() == {}
    with pytest.raises(ValueError, match="^dropout probability has to be between 0 and 1, "
                                         "but got -1$"):
        nn.Dropout(-1)


def test_dropout_statistics():
    """Without torch: the kept fraction is 1 - p and the kept values are scaled."""
    gt.manual_seed(0)
    out = numpy_of(F.dropout(gt.ones(200, 500), 0.3))
    assert abs((out == 0).mean() - 0.3) < 0.01
    np.testing.assert_allclose(out[out != 0], np.float32(1) / np.float32(0.7))


def test_alpha_dropout_keeps_mean_and_variance():
    gt.manual_seed(0)
    out = numpy_of(F.alpha_dropout(gt.randn(400, 500), 0.2, training=True))
    assert abs(out.mean()) < 0.02 and abs(out.std() - 1) < 0.02
