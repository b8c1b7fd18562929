"""torch.nn.utils.rnn against torch: packing and padding both ways, the PackedSequence
type, gradients through a pack, and torch's refusals."""
import numpy as np
import pytest

import glasstorch as gt

from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")
R, G = torch.nn.utils.rnn, gt.nn.utils.rnn


def _same(mine, theirs):
    if theirs is None:
        assert mine is None
    else:
        assert np.array_equal(mine.detach().numpy(), theirs.detach().numpy())
        assert str(mine.dtype) == str(theirs.dtype)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths, enforce_sorted", [([5, 3, 1], True), ([2, 5, 3], False)])
def test_pack_and_pad_round_trip(batch_first, lengths, enforce_sorted):
    x = torch.randn(3, 5, 2) if batch_first else torch.randn(5, 3, 2)
    theirs = R.pack_padded_sequence(x, torch.tensor(lengths), batch_first, enforce_sorted)
    mine = G.pack_padded_sequence(to_glass(x), gt.tensor(lengths), batch_first,
                                  enforce_sorted)
    assert type(mine) is G.PackedSequence and isinstance(mine, tuple)
    for a, b in zip(mine, theirs):
        _same(a, b)
    for total_length in (None, 7):
        expected = R.pad_packed_sequence(theirs, batch_first, -1.5, total_length)
        actual = G.pad_packed_sequence(mine, batch_first, -1.5, total_length)
        for a, b in zip(actual, expected):
            _same(a, b)
        assert actual[0].stride() == expected[0].stride()


def test_sequences_in_and_out():
    sequences = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)]
    mine = [to_glass(s) for s in sequences]
    for batch_first in (False, True):
        for side in ("right", "left"):
            _same(G.pad_sequence(mine, batch_first, 9.0, side),
                  R.pad_sequence(sequences, batch_first, 9.0, side))
    packed = G.pack_sequence(mine, enforce_sorted=False)
    for a, b in zip(packed, R.pack_sequence(sequences, enforce_sorted=False)):
        _same(a, b)
    for a, b in zip(G.unpack_sequence(packed), sequences):
        _same(a, b)
    padded = G.pad_sequence(mine)
    for a, b in zip(G.unpad_sequence(padded, gt.tensor([2, 4, 1])), sequences):
        _same(a, b)


def test_gradient_reaches_only_the_packed_rows():
    x = torch.randn(4, 3, 2, requires_grad=True)
    gx = to_glass(x)
    R.pack_padded_sequence(x, [1, 4, 3], enforce_sorted=False).data.pow(2).sum().backward()
    G.pack_padded_sequence(gx, [1, 4, 3], enforce_sorted=False).data.pow(2).sum().backward()
    assert_close(gx.grad, x.grad)


def test_packed_sequence_type():
    packed = G.pack_sequence([gt.tensor([1, 2, 3]), gt.tensor([4])])
    assert repr(packed) == repr(R.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])]))
    as_double = packed.double()
    assert as_double.data.dtype is gt.float64 and as_double.batch_sizes is packed.batch_sizes
    assert packed.to(gt.int64) is packed
    assert not packed.is_cuda and not packed.is_pinned()
    data, batch_sizes, sorted_indices, unsorted_indices = packed
    assert G.PackedSequence((data, batch_sizes)).data is data
    _same(G.invert_permutation(gt.tensor([2, 0, 1])),
          R.invert_permutation(torch.tensor([2, 0, 1])))


def _refusal(call):
    try:
        call()
    except Exception as error:                  # noqa: BLE001 (compared with torch's)
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("case", [
    lambda r, t: r.pack_padded_sequence(t.zeros(4, 3, 2), [2, 3, 1]),
    lambda r, t: r.pack_padded_sequence(t.zeros(4, 3, 2), [4, 3, 0]),
    lambda r, t: r.pack_padded_sequence(t.zeros(4, 3, 2), [4, 3]),
    lambda r, t: r.pack_padded_sequence(t.zeros(4, 3, 2), [[4, 3, 1]]),
    lambda r, t: r.pad_packed_sequence(r.pack_sequence([t.ones(3), t.ones(2)]),
                                       total_length=2),
    lambda r, t: r.pad_sequence(5),
    lambda r, t: r.pad_sequence([]),
    lambda r, t: r.pad_sequence([t.ones(2)], padding_side="up"),
    lambda r, t: r.pad_sequence([t.ones(2, 3), t.ones(3, 2)]),
])
def test_refusals_are_torchs(case):
    expected = _refusal(lambda: case(R, torch))
    assert expected is not None and _refusal(lambda: case(G, gt)) == expected
