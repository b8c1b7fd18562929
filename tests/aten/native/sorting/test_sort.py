"""Sorting, selection, unique and histograms beyond the OpInfo entries: the sort's
stability and NaN order on long rows (every key path), topk's linear-time path, the
out= forms of operators with two results, and the Python-level torch.unique /
torch.unique_consecutive. Comparisons with torch run when it is importable."""
import warnings

import numpy as np
import pytest

import glasstorch as gt

RNG = np.random.default_rng(0)
NAN = float("nan")


def _stable(array: np.ndarray, descending: bool) -> np.ndarray:
    """torch's stable order (NaN largest) from NumPy's stable argsort."""
    if not descending:
        return np.argsort(array, axis=-1, kind="stable")
    reverse = np.argsort(array[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return array.shape[-1] - 1 - reverse


# One array per key path of sort.py: 32-bit floats, narrow ints, 64-bit floats, wide
# ints, float16 widened, bool; all with many repeats so that stability shows.
ARRAYS = {
    "float32": RNG.integers(-20, 20, (3, 500)).astype(np.float32) / 4,
    "int16": RNG.integers(-300, 300, (3, 500)).astype(np.int16),
    "float64": RNG.integers(-20, 20, (3, 500)) / 8.0,
    "int64 wide": RNG.integers(-2 ** 40, 2 ** 40, (3, 500)) // 2 ** 36 * 2 ** 36,
    "uint8": RNG.integers(0, 256, (3, 500)).astype(np.uint8),
    "float16": (RNG.integers(-20, 20, (3, 500)) / 4).astype(np.float16),
    "bool": RNG.integers(0, 2, (3, 500)).astype(bool),
}
ARRAYS["float32"][:, ::7] = NAN
ARRAYS["float64"][:, 3::11] = NAN
ARRAYS["float32"][:, 1::13] = -0.0


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_sort_is_stable_with_nan_largest(name, descending):
    array = ARRAYS[name]
    values, indices = gt.sort(gt.from_numpy(array.copy()), descending=descending)
    expected = _stable(array, descending)
    np.testing.assert_array_equal(indices.numpy(), expected)
    # bit for bit: -0.0 keeps its sign, NaN its payload
    np.testing.assert_array_equal(values.numpy().view(f"u{array.itemsize}"),
                                  np.take_along_axis(array, expected, -1)
                                  .view(f"u{array.itemsize}"))


@pytest.mark.parametrize("largest", [True, False])
def test_topk_partition_path_matches_sort(largest):
    array = RNG.standard_normal((4, 1000)).astype(np.float32)
    array[:, ::50] = NAN
    values, indices = gt.topk(gt.from_numpy(array), 7, largest=largest)
    order = _stable(array, largest)[:, :7]
    np.testing.assert_array_equal(indices.numpy(), order)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(array, order, -1))


def _long_rows() -> dict:
    """Single rows long enough for topk's candidate path (with and without elements
    left over beyond its blocks), each a trap for a bound taken from block extremes."""
    n = 65536 + 37
    rising = np.arange(n, dtype=np.float64)                  # every block's head at its end
    few = RNG.integers(-3, 4, n).astype(np.int32)            # ties: too many candidates
    zeros = RNG.standard_normal(n).astype(np.float32)
    zeros[RNG.integers(0, n, 2000)] = 0.0
    zeros[RNG.integers(0, n, 2000)] = -0.0                   # equal to 0.0, order kept
    nan = RNG.standard_normal(n).astype(np.float32)
    nan[n - 5] = NAN                                         # in the leftover elements
    tied_head = RNG.standard_normal(n).astype(np.float32)
    tied_head[::4096] = 9.0                                  # the head of many blocks
    return {"rising": rising, "few values": few, "signed zeros": zeros, "nan": nan,
            "tied head": tied_head, "descending, no leftover": -rising[:65536]}


LONG_ROWS = _long_rows()


@pytest.mark.parametrize("k", [1, 10, 257])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("name", sorted(LONG_ROWS))
def test_topk_of_a_long_row_matches_sort(name, largest, k):
    array = LONG_ROWS[name]
    values, indices = gt.topk(gt.from_numpy(array.reshape(1, -1)), k, largest=largest)
    order = _stable(array, largest)[:k]
    np.testing.assert_array_equal(indices.numpy()[0], order)
    np.testing.assert_array_equal(values.numpy()[0].view(f"u{array.itemsize}"),
                                  array[order].view(f"u{array.itemsize}"))


# ----- out= of two results, against torch -----------------------------------------
TWO_RESULTS = [
    ("sort", lambda m, x, **o: m.sort(x, 0, True, **o)),
    ("topk", lambda m, x, **o: m.topk(x, 2, **o)),
    ("kthvalue", lambda m, x, **o: m.kthvalue(x, 2, 0, True, **o)),
    ("median", lambda m, x, **o: m.median(x, 1, **o)),
    ("nanmedian", lambda m, x, **o: m.nanmedian(x, 0, **o)),
    ("mode", lambda m, x, **o: m.mode(x, -1, True, **o)),
    ("histogram", lambda m, x, **o: m.histogram(x, 3, **o)),
]


@pytest.mark.parametrize("name,call", TWO_RESULTS, ids=[n for n, _ in TWO_RESULTS])
def test_two_result_out_matches_torch(name, call):
    torch = pytest.importorskip("torch")
    x = RNG.permutation(12).reshape(3, 4).astype(np.float32)
    index_dtype = "float32" if name == "histogram" else "int64"
    for size in (0, 5):                     # resized quietly, resized with warnings
        outcomes = []
        for module in (gt, torch):
            outs = (module.zeros(size), module.zeros(size, dtype=getattr(module, index_dtype)))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = call(module, module.from_numpy(x.copy()), out=outs)
            assert result[0] is outs[0] and result[1] is outs[1]
            outcomes.append((type(result).__name__, [o.numpy().tolist() for o in outs],
                             [o.shape for o in outs], len(caught)))
        mine, theirs = outcomes
        assert mine[0] == theirs[0] and mine[1] == theirs[1] and mine[3] == theirs[3]
        assert [tuple(s) for s in mine[2]] == [tuple(s) for s in theirs[2]]


@pytest.mark.parametrize("name,call", TWO_RESULTS[:-1], ids=[n for n, _ in TWO_RESULTS[:-1]])
def test_two_result_out_refuses_wrong_dtypes_as_torch(name, call):
    """Same message; glasstorch checks both outs before writing either (torch's sort,
    topk and kthvalue resize `values` before refusing `indices`)."""
    torch = pytest.importorskip("torch")
    x = RNG.permutation(12).reshape(3, 4).astype(np.float32)
    for dtypes in (("float64", "int64"), ("float32", "int32")):
        messages = []
        for module in (gt, torch):
            outs = tuple(module.zeros(0, dtype=getattr(module, d)) for d in dtypes)
            with pytest.raises(RuntimeError) as caught:
                call(module, module.from_numpy(x.copy()), out=outs)
            messages.append(str(caught.value))
            if module is gt:
                assert [o.numel() for o in outs] == [0, 0]
        assert messages[0] == messages[1]


# ----- torch.unique / torch.unique_consecutive --------------------------------------
FLAGS = [dict(), dict(return_inverse=True), dict(return_counts=True),
         dict(return_inverse=True, return_counts=True), dict(sorted=False)]


@pytest.mark.parametrize("dim", [None, 0, 1])
@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: ",".join(f) or "plain")
def test_unique_matches_torch(flags, dim):
    torch = pytest.importorskip("torch")
    x = RNG.integers(0, 3, (6, 2)).astype(np.float32)
    if dim is None:        # torch orders slices holding NaN by a comparison NaN breaks
        x[2, 1] = NAN
    for function in ("unique", "unique_consecutive"):
        if function == "unique_consecutive" and "sorted" in flags:
            continue
        mine = getattr(gt, function)(gt.from_numpy(x.copy()), dim=dim, **flags)
        theirs = getattr(torch, function)(torch.from_numpy(x.copy()), dim=dim, **flags)
        _same_results(mine, theirs, torch)
        _same_results(getattr(gt.from_numpy(x.copy()), function)(dim=dim, **flags), theirs,
                      torch)


def _same_results(mine, theirs, torch) -> None:
    if isinstance(theirs, torch.Tensor):
        mine, theirs = (mine,), (theirs,)
    assert type(mine) is tuple and len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_unique_without_torch():
    values, inverse, counts = gt.unique(gt.tensor([3.0, NAN, 1.0, 3.0, -0.0, 0.0, NAN]),
                                        return_inverse=True, return_counts=True)
    assert values.tolist()[:3] == [-0.0, 1.0, 3.0] and np.isnan(values.tolist()[3:]).all()
    assert inverse.tolist() == [2, 3, 1, 2, 0, 0, 4] and counts.tolist() == [2, 1, 2, 1, 1]
    assert gt.unique_consecutive(gt.tensor([1, 1, 2, 1])).tolist() == [1, 2, 1]
