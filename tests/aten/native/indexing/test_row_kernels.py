"""The kernels of whole slices along dim 0. Adding at repeated indices in rounds (Note
[Adding at repeated indices]): `add_at` against np.add.at bit for bit, and index_add_ /
index_put_(accumulate=True) through it against torch, on inputs large enough to take
the rounds. Reading rows in chunks over the thread pool: `take_rows` as np.take."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.indexing.advanced import add_at, take_rows

# (dtype, target shape, dim, index count, index bound): every case has more indices
# than `_ROUNDS_FROM` and slices of several elements, so the rounds run
CASES = [
    (np.float32, (50, 7), 0, 3000, 50),            # many repeats: rounds, then np.add.at
    (np.float32, (4000, 3), 0, 4000, 4000),        # random repeats: rounds only
    (np.float16, (3, 300, 2), 1, 1000, 300),       # a middle dim, rounded at every add
    (np.float64, (5, 400), 1, 900, 400),           # the last dim: strided slices
    (np.int64, (600, 2, 2), 0, 700, 600),
    (np.bool_, (500, 4), 0, 600, 500),
    (np.complex64, (300, 2), 0, 500, 300),
    (np.float32, (300, 4), 0, 500, 1),             # one index value: np.add.at at once
]


@pytest.mark.parametrize("dtype, shape, dim, count, bound", CASES)
def test_rounds_add_as_np_add_at(dtype, shape, dim, count, bound):
    rng = np.random.default_rng(len(shape) * count)
    index = rng.integers(0, bound, count)
    values_shape = list(shape)
    values_shape[dim] = count
    target = (rng.standard_normal(shape) * 100).astype(dtype)
    values = (rng.standard_normal(values_shape) * 100).astype(dtype)
    expected = target.copy()
    np.add.at(expected, (slice(None),) * dim + (index,), values)
    add_at(target, dim, index, values)
    assert target.tobytes() == expected.tobytes()


def test_rounds_write_a_strided_target():
    rng = np.random.default_rng(0)
    base = rng.standard_normal((800, 6)).astype(np.float32)
    index = rng.integers(0, 400, 1000)
    values = rng.standard_normal((1000, 3)).astype(np.float32)
    expected = base.copy()
    np.add.at(expected[::2, ::2], index, values)
    add_at(base[::2, ::2], 0, index, values)
    assert base.tobytes() == expected.tobytes()


def test_index_add_and_accumulate_sum_in_torch_order():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    table = (rng.standard_normal((700, 8)) * 1e3).astype(np.float32)
    index = rng.integers(0, 700, 2000)
    values = rng.standard_normal((2000, 8)).astype(np.float32)
    results = []
    for m in (gt, torch):
        added = m.from_numpy(table.copy()).index_add_(0, m.from_numpy(index),
                                                       m.from_numpy(values))
        put = m.from_numpy(table.copy()).index_put_((m.from_numpy(index - 700),),
                                                    m.from_numpy(values), accumulate=True)
        results.append((added.numpy(), put.numpy()))
    for ours, theirs in zip(*results):
        assert ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("threads", [1, 2])
def test_rows_are_taken_in_chunks_as_np_take(threads):
    rng = np.random.default_rng(2)
    table = rng.standard_normal((300, 5, 4)).astype(np.float32)
    index = rng.integers(-300, 300, (40, 100))          # 4000 rows: several chunks
    out = np.empty(index.shape + table.shape[1:], np.float32)
    before = gt.get_num_threads()
    gt.set_num_threads(threads)
    try:
        take_rows(table, index, out)
    finally:
        gt.set_num_threads(before)
    assert out.tobytes() == np.take(table, index, axis=0).tobytes()


@pytest.mark.parametrize("dtype, dim", [("float32", 0), ("float16", 0), ("float64", 1)])
def test_scatter_add_of_an_expanded_index_adds_in_torch_order(dtype, dim):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    index = rng.integers(0, 300, 2000)
    src = (rng.standard_normal((2000, 7)) * 100).astype(dtype)
    base = (rng.standard_normal((300, 9)) * 100).astype(dtype)
    if dim == 1:
        src, base = src.T.copy(), base.T.copy()
    results = []
    for m in (gt, torch):
        at = m.from_numpy(index.copy())
        expanded = at[:, None].expand(-1, 5) if dim == 0 else at[None, :].expand(6, -1)
        results.append(m.from_numpy(base.copy()).scatter_add_(dim, expanded,
                                                               m.from_numpy(src)).numpy())
    assert results[0].tobytes() == results[1].tobytes()


def test_an_expanded_index_out_of_range_is_refused_as_torch():
    torch = pytest.importorskip("torch")
    messages = []
    for m in (gt, torch):
        index = m.tensor([0, 7, 1, 9] * 100)[:, None].expand(-1, 3)
        target = m.zeros(5, 3)
        with pytest.raises(RuntimeError) as caught:
            target.scatter_add_(0, index, m.ones(400, 3))
        messages.append(str(caught.value))
        if m is gt:                     # glasstorch checks before writing (torch may not)
            assert not target.any()
    assert messages[0] == messages[1]


def test_gather_of_an_expanded_index_reads_whole_rows():
    rng = np.random.default_rng(4)
    table = gt.from_numpy(rng.standard_normal((300, 6)).astype(np.float32))
    index = gt.from_numpy(rng.integers(0, 300, 5000))
    expanded = index[:, None].expand(-1, 6)
    assert gt.equal(gt.gather(table, 0, expanded), table.index_select(0, index))
    assert gt.equal(gt.gather(table, 0, expanded.contiguous()), table[index])
