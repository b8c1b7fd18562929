"""nn.RNN / LSTM / GRU and their cells against torch: seeded initial weights, outputs and
gradients in training mode (dropout masks included), packed and unbatched inputs, the
bookkeeping of the flat weights, and torch's refusals."""
import copy
import pickle

import numpy as np
import pytest

import glasstorch as gt

from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")

LAYERS = [("LSTM", dict(num_layers=2, dropout=0.4, bidirectional=True)),
          ("LSTM", dict(proj_size=3, batch_first=True)),
          ("GRU", dict(num_layers=2, dropout=0.25, batch_first=True)),
          ("RNN", dict(nonlinearity="relu", bias=False, bidirectional=True))]


def _pair(name, kwargs, seed=7):
    torch.manual_seed(seed)
    gt.manual_seed(seed)
    return getattr(torch.nn, name)(5, 4, **kwargs), getattr(gt.nn, name)(5, 4, **kwargs)


def _hidden(name, kwargs, batch):
    layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    h = torch.randn(layers, batch, kwargs.get("proj_size") or 4)
    return (h, torch.randn(layers, batch, 4)) if name == "LSTM" else h


def _glass(value):
    return tuple(map(to_glass, value)) if isinstance(value, tuple) else to_glass(value)


def _flat(result):
    """The tensors of ``(output, h)`` or ``(output, (h, c))``."""
    output, hidden = result
    output = output.data if hasattr(output, "batch_sizes") else output
    return [output, *(hidden if isinstance(hidden, tuple) else (hidden,))]


@pytest.mark.parametrize("name, kwargs", LAYERS, ids=lambda v: str(v))
def test_training_step_matches_torch(name, kwargs):
    """Same seed: same weights, same dropout masks, same outputs and gradients."""
    theirs, mine = _pair(name, kwargs)
    assert repr(mine) == repr(theirs)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    for p, q in zip(mine.parameters(), theirs.parameters()):
        assert np.array_equal(p.detach().numpy(), q.detach().numpy())
    x = torch.randn(3, 6, 5) if kwargs.get("batch_first") else torch.randn(6, 3, 5)
    x.requires_grad_()
    h0 = _hidden(name, kwargs, 3)
    gx = to_glass(x)
    torch.manual_seed(3)
    gt.manual_seed(3)
    expected, actual = _flat(theirs(x, h0)), _flat(mine(gx, _glass(h0)))
    for a, e in zip(actual, expected):
        assert_close(a, e, rtol=1e-5, atol=1e-5)
    sum(t.sum() for t in expected).backward()
    sum(t.sum() for t in actual).backward()
    assert_close(gx.grad, x.grad, rtol=1e-4, atol=1e-5)
    for p, q in zip(mine.parameters(), theirs.parameters()):
        assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name, kwargs", LAYERS, ids=lambda v: str(v))
def test_packed_unsorted_input(name, kwargs):
    """A PackedSequence in the caller's order: outputs and final states in that order."""
    theirs, mine = _pair(name, kwargs)
    theirs.eval(), mine.eval()
    batch_first = kwargs.get("batch_first", False)
    x = torch.randn(3, 6, 5) if batch_first else torch.randn(6, 3, 5)
    lengths = [2, 6, 4]
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first,
                                                     enforce_sorted=False)
    ours = gt.nn.utils.rnn.pack_padded_sequence(to_glass(x), lengths, batch_first,
                                                enforce_sorted=False)
    h0 = _hidden(name, kwargs, 3)
    expected, actual = theirs(packed, h0), mine(ours, _glass(h0))
    assert type(actual[0]).__name__ == "PackedSequence"
    assert np.array_equal(actual[0].unsorted_indices.numpy(), expected[0].unsorted_indices)
    for a, e in zip(_flat(actual), _flat(expected)):
        assert_close(a, e, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, kwargs", LAYERS[:3], ids=lambda v: str(v))
def test_unbatched_input(name, kwargs):
    theirs, mine = _pair(name, kwargs)
    x = torch.randn(4, 5)
    h0 = _hidden(name, kwargs, 1)
    h0 = tuple(h[:, 0] for h in h0) if name == "LSTM" else h0[:, 0]
    torch.manual_seed(2)                        # the same dropout masks
    gt.manual_seed(2)
    for a, e in zip(_flat(mine(to_glass(x), _glass(h0))), _flat(theirs(x, h0))):
        assert_close(a, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_match_torch(name):
    torch.manual_seed(1)
    gt.manual_seed(1)
    theirs, mine = getattr(torch.nn, name)(5, 4), getattr(gt.nn, name)(5, 4)
    assert repr(mine) == repr(theirs)
    for x in (torch.randn(3, 5, requires_grad=True), torch.randn(5, requires_grad=True)):
        gx = to_glass(x)
        expected, actual = theirs(x), mine(gx)
        expected = expected if isinstance(expected, tuple) else (expected,)
        actual = actual if isinstance(actual, tuple) else (actual,)
        for a, e in zip(actual, expected):
            assert_close(a, e)
        sum(t.sum() for t in expected).backward()
        sum(t.sum() for t in actual).backward()
        assert_close(gx.grad, x.grad)


def test_reassigned_weight_is_used_and_copies_keep_working():
    lstm = gt.nn.LSTM(2, 3)
    x = gt.randn(4, 1, 2)
    lstm.weight_hh_l0 = gt.nn.Parameter(gt.zeros(12, 3))
    assert lstm._flat_weights[1] is lstm.weight_hh_l0
    lstm.flatten_parameters()
    output, _ = lstm(x)
    for clone in (copy.deepcopy(lstm), pickle.loads(pickle.dumps(lstm)), lstm.double().float()):
        assert_close(clone(x)[0], output)
    assert [len(w) for w in lstm.all_weights] == [4]


def _refusal(call):
    try:
        call()
    except Exception as error:                  # noqa: BLE001 (compared with torch's)
        return type(error), str(error)
    return None


@pytest.mark.parametrize("case", [
    lambda nn, t: nn.LSTM(5, 4)(t.randn(3, 2, 6)),
    lambda nn, t: nn.LSTM(5, 4)(t.randn(3, 2, 5), (t.randn(1, 3, 4), t.randn(1, 3, 4))),
    lambda nn, t: nn.LSTM(5, 4)(t.randn(3, 2, 5), (t.randn(1, 2, 4), t.randn(1, 2, 3))),
    lambda nn, t: nn.LSTM(5, 4)(t.randn(3, 2, 5), (t.randn(2, 4), t.randn(2, 4))),
    lambda nn, t: nn.GRU(5, 4)(t.randn(3, 2, 5), t.randn(2, 4)),
    lambda nn, t: nn.GRU(5, 4)(t.randn(3, 5), t.randn(1, 1, 4)),
    lambda nn, t: nn.RNN(5, 4)(t.randn(3, 2, 5, 1)),
    lambda nn, t: nn.LSTM(5, 4, batch_first=True)(t.randn(2, 0, 5)),
    lambda nn, t: nn.RNN(5, 4)(t.randn(3, 2, 5, dtype=t.float64)),
    lambda nn, t: nn.RNN(5, 4, nonlinearity="gelu"),
    lambda nn, t: nn.GRU(5, 4, proj_size=2),
    lambda nn, t: nn.LSTM(5, 4, proj_size=4),
    lambda nn, t: nn.LSTM(5, 4, dropout=1.5),
    lambda nn, t: nn.LSTM(5, 0),
    lambda nn, t: nn.LSTM(5.0, 4),
    lambda nn, t: nn.LSTMCell(5, 4)(t.randn(2, 5), (t.randn(2, 4, 1), t.randn(2, 4))),
    lambda nn, t: nn.GRUCell(5, 4)(t.randn(2, 5), t.randn(3, 4)),
    lambda nn, t: nn.RNNCell(5, 4)(t.randn(2, 2, 5)),
])
def test_refusals_are_torchs(case):
    expected = _refusal(lambda: case(torch.nn, torch))
    assert expected is not None
    actual = _refusal(lambda: case(gt.nn, gt))
    assert actual[0].__name__ == expected[0].__name__ and actual[1] == expected[1]


def test_one_layer_dropout_warns_as_torch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        gt.nn.GRU(3, 3, dropout=0.5)


def test_functional_forms_match_torch():
    torch.manual_seed(0)
    weights = [torch.randn(8, 3), torch.randn(8, 2), torch.randn(8), torch.randn(8)]
    x, h, c = torch.randn(4, 3), torch.randn(4, 2), torch.randn(4, 2)
    expected = torch.lstm_cell(x, [h, c], *weights)
    actual = gt.lstm_cell(to_glass(x), [to_glass(h), to_glass(c)], *map(to_glass, weights))
    for a, e in zip(actual, expected):
        assert_close(a, e)
    assert type(actual[0].grad_fn).__name__ == "MulBackward0" or not actual[0].requires_grad
