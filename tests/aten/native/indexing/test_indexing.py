"""Python indexing (`x[...]`, `x[...] = v`) with basic and advanced indices, as torch.

Two kinds of checks:
  * differential (skipped without torch): every expression of `GETITEM` on every input
    of `INPUTS`, in glasstorch and in torch: values, dtype, shape, strides, whether the
    result aliases the input, and the exact error; every `SETITEM` statement likewise,
    comparing the written tensor and its version counter, and that a failed write
    changes nothing;
  * torch-free: the same expressions where NumPy's fancy indexing is torch's (no
    integer next to an advanced index), against NumPy; duplicate-index semantics;
    a failing in-place write leaves the tensor as it was.
"""
import re
import warnings

import numpy as np
import pytest

import glasstorch as gt

_CUBE = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
INPUTS = {                           # name -> how to make x from a fresh module tensor r
    "contiguous": "r",
    "transposed": "r.permute(2, 1, 0).contiguous().permute(2, 1, 0)",
    "strided": "r.unsqueeze(-1).expand(2, 3, 4, 2).contiguous()[..., 1]",
}

GETITEM = """
x[[0, 1]] | x[[1, 0, 1]] | x[[-1]] | x[[[0, 1], [1, 0]]] | x[m.tensor([1, 0])]
x[:, [2, 0]] | x[:, :, [3, 0, -4]] | x[..., [1]] | x[[0, 1], ...] | x[None, [1, 0]]
x[[0, 1], [1, 2]] | x[[0, 1], :, [1, 2]] | x[:, [0, 1], [1, 2]] | x[[0], :, [[1], [2]]]
x[[0, 1], None, [1, 2]] | x[None, [0, 1], None, [1, 2]] | x[0, :, [1, 2]] | x[:, 0, [1, 2]]
x[[0, 1], 1] | x[1, [0, 2], [1, 3]] | x[[[0], [1]], [[0, 1, 2]]] | x[[[0], [1]], :, [[0, 1]]]
x[m.tensor([[0, 1], [1, 0]]), m.tensor([2, 1])] | x[m.tensor([1, 0], dtype=m.int32)]
x[m.tensor(1), [0, 2]] | x[[1, 0], m.tensor(2)] | x[m.tensor([0, 1]), 1:, ::2]
x[x > 5] | x[x[:, :, 0] > 3] | x[x[0] > 5] | x[:, x[0, :, 0] > 3] | x[..., x[0, 0] > 1]
x[x[:, 0, 0] > 3, 1] | x[x[:, :, 0] > 3, 1:] | x[x[:, :, 0] > 3, None] | x[x[:, :, 0] > 3, [0]]
x[[True, False]] | x[[1, True]] | x[m.tensor([True, False])] | x[:, m.tensor([0, 1, 1]) > 0]
x[True] | x[False] | x[True, [0, 1]] | x[[0, 1], True] | x[[0, 1], :, True] | x[None, True]
x[m.tensor(True)] | x[m.tensor(False), 0] | x[0, True, [1]] | x[True, False]
x[(0, 1),] | x[[0.5]] | x[[]] | x[m.tensor([], dtype=m.int64)] | x[:, []] | x[[], []]
x[m.tensor([1, 0], dtype=m.uint8)] | x[[[0, 1]]]
x[[2]] | x[[-3]] | x[:, [3]] | x[:, :, m.tensor([5, -7])] | x[[0, 1], [0, 1, 2]]
x[m.tensor([0.5])] | x[m.tensor([1], dtype=m.int16)] | x[m.tensor([True, False, True])]
x[m.ones(2, 4, dtype=m.bool)] | x[[0], [0], [0], [0]] | x[m.tensor([[[[0]]]]), 0, 0]
x[0, 0, [0], None, None] | x[..., [0], ...] | x[[0, 1], ..., [1, 2]]
x[np.array([0, 1])] | x[np.array([[0], [1]]), 1] | x[:, np.array([True, False, True])]
x[np.int64(1), [0]] | x[[0] * 40] | x[list(range(2)) * 20, 0] | x[[[0, 1]] * 33]
x[m.tensor([[True, False, True], [False, True, True]])] | x[..., None, [0, 1]]
x[[0, 1], [[0], [1]], [[[0]], [[1]]]] | x[-1, [-1, -2], -1] | x[m.tensor([[0, 1]]).t()]
x[m.arange(2).expand(3, 2)] | x[None][[0]] | x[[0, 1]][:, [0]] | x[0][[0, 2], 1:3]
x.permute(2, 0, 1)[[1, 3]] | x.permute(2, 0, 1)[:, [1, 0], [2, 0]] | x[:, :, ::2][[1, 0]]
x.permute(1, 2, 0)[[0, 2], :, [1, 0]] | x.permute(2, 0, 1)[[]]
"""

SETITEM = """
x[[0, 1]] = 5 | x[[0, 1]] = m.ones(4) | x[[0, 1]] = m.ones(1, 1, 3, 4) | x[[0, 0]] = m.ones(2, 3, 4)
x[:, [2, 0]] = -1.5 | x[:, [0, 0, 0], 1] = m.tensor([1., 2., 3.]) | x[[1, 0], :, [3, 0]] = 7
x[x > 5] = 0 | x[x > 20] = m.tensor([7., 8., 9.]) | x[x > 5] = m.tensor(2.) | x[x[:, :, 0] > 3] = 1
x[True] = 3 | x[False] = 3 | x[[0, 1], True] = m.ones(3, 4) | x[m.tensor(True)] = 9
x[[0, 1]] = m.ones(3) | x[[0, 1]] = m.ones(4, dtype=m.float64) | x[[5]] = 1 | x[[0]] = 1e40
x[[0]] = 'a' | x[[0]] = [1] | x[x > 5] = m.ones(3) | x[[0, 1], [0, 1, 2]] = 1
x[[0], [1], [2]] = m.tensor(4.) | x[..., [0]] = m.arange(3.).reshape(3, 1) | x[[0]] = True
x[m.tensor([1, 0], dtype=m.int32), 0] = m.ones(4) | x[[], 0] = 1 | x[[-1]] = 2
x[[0, 1]] = x[[1, 0]] | x[0, [0, 1]] = x[1, [1, 2]] | x[[0]] = x[1] | x[[0, 1]] = x
x[x > 3] = x[x > 3] * 2 | x[m.tensor([1, 0], dtype=m.uint8)] = 5 | x[x > 3] = m.tensor(2)
x[x > 3] = m.tensor([2]) | x[(m.tensor([True, False]), 0)] = m.tensor(2) | x[x > 3] = 2 + 1j
x[m.tensor([1, 0], dtype=m.uint8)] = m.tensor([2.]) | x[m.tensor([0]), 1:, None] = 4
x[[0, 0, 1], [1, 1, 2]] = m.arange(12.).reshape(3, 4) | x[True] = m.ones(1, 2, 3, 4)
"""


def _exprs(table: str) -> list:
    return [e.strip() for line in table.strip().splitlines() for e in line.split(" | ")]


def _make(module, layout: str):
    r = module.tensor(_CUBE.tolist())
    return eval(INPUTS[layout], {"r": r, "m": module})


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as error:             # noqa: BLE001 - we compare errors too
            return None, error


def _describe(t, base) -> tuple:
    same_storage = t.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    return (tuple(t.shape), str(t.dtype).replace("glasstorch", "torch"), t.stride(),
            same_storage, np.asarray(t.tolist()).tolist())


def _same_error(expected, actual) -> None:
    assert actual is not None, f"expected {expected!r}, glasstorch succeeded"
    assert type(actual).__name__ == type(expected).__name__, (expected, actual)
    first = str(expected).split("\n")[0]
    first = re.sub(r" \(Triggered internally at .*\)$", "", first)
    assert str(actual).split("\n")[0] == first


# ----------------------------------------------------------------------------------
# Differential: glasstorch vs torch
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", list(INPUTS))
@pytest.mark.parametrize("expr", _exprs(GETITEM))
def test_getitem_matches_torch(expr: str, layout: str) -> None:
    torch = pytest.importorskip("torch")
    results = []
    for module in (torch, gt):
        x = _make(module, layout)
        results.append((_outcome(lambda: eval(expr, {"x": x, "m": module, "np": np})), x))
    ((expected, expected_error), tx), ((actual, error), gx) = results
    if expected_error is not None:
        _same_error(expected_error, error)
        return
    assert error is None, f"torch gave a result, glasstorch raised {error!r}"
    assert _describe(actual, gx) == _describe(expected, tx)


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("statement", _exprs(SETITEM))
def test_setitem_matches_torch(statement: str, layout: str) -> None:
    torch = pytest.importorskip("torch")
    results = []
    for module in (torch, gt):
        x = _make(module, layout)
        _, error = _outcome(lambda: exec(statement, {"x": x, "m": module}))
        results.append((x.tolist(), x._version, x.stride(), error))
    (values, version, stride, expected_error), (got, got_version, got_stride, error) = results
    if expected_error is not None:
        _same_error(expected_error, error)
    else:
        assert error is None, f"torch wrote, glasstorch raised {error!r}"
    assert (got, got_stride) == (values, stride)
    assert got_version == version


# ----------------------------------------------------------------------------------
# Torch-free: NumPy's fancy indexing is torch's where no integer sits next to an
# advanced index (torch selects integers first; NumPy treats them as advanced)
# ----------------------------------------------------------------------------------
NUMPY_SAME = """
x[[0, 1]] | x[[1, 0, 1]] | x[:, [2, 0]] | x[:, :, [3, 0, -4]] | x[..., [1]] | x[None, [1, 0]]
x[[0, 1], [1, 2]] | x[[0, 1], :, [1, 2]] | x[:, [0, 1], [1, 2]] | x[[0], :, [[1], [2]]]
x[[0, 1], None, [1, 2]] | x[[[0], [1]], [[0, 1, 2]]] | x[x > 5] | x[x[:, :, 0] > 3]
x[:, x[0, :, 0] > 3] | x[x[:, :, 0] > 3, 1:] | x[[], []] | x[..., [0], 1:3]
"""


@pytest.mark.parametrize("expr", _exprs(NUMPY_SAME))
def test_getitem_matches_numpy(expr: str) -> None:
    reference = eval(expr, {"x": _CUBE})
    for layout in INPUTS:
        x = _make(gt, layout)
        result = eval(expr, {"x": x, "m": gt})
        assert tuple(result.shape) == reference.shape
        np.testing.assert_array_equal(result.numpy(), reference)
        assert result._base is None                   # advanced indexing copies


def test_setitem_matches_numpy() -> None:
    x, reference = _make(gt, "transposed"), _CUBE.copy()
    mask = reference > 10
    x[gt.from_numpy(mask)] = -1.0
    reference[mask] = -1.0
    x[[0, 1], :, [3, 0]] = gt.tensor([5.0, 6.0, 7.0])         # broadcast to (2, 3)
    reference[[0, 1], :, [3, 0]] = np.array([5.0, 6.0, 7.0])
    np.testing.assert_array_equal(x.numpy(), reference)


def test_duplicates_last_write_wins_and_accumulate_sums() -> None:
    x = gt.zeros(4)
    x[[0, 0, 0]] = gt.tensor([1.0, 2.0, 3.0])
    assert x.tolist() == [3.0, 0.0, 0.0, 0.0]
    x.index_put_((gt.tensor([1, 1, 3]),), gt.tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert x.tolist() == [3.0, 3.0, 0.0, 3.0]
    y = gt.zeros(3, dtype=gt.bool)
    y.index_put_((gt.tensor([0, 0]),), gt.tensor([True, True]), accumulate=True)
    assert y.tolist() == [True, False, False]


@pytest.mark.parametrize("call", [
    "x.index_add_(0, m.tensor([0, 5]), m.ones(2, 4))",
    "x.index_copy_(0, m.tensor([0, 5]), m.ones(2, 4))",
    "x.index_fill_(0, m.tensor([0, 5]), 1.)",
    "x.scatter_(0, m.tensor([[0, 5]]), m.ones(1, 2))",
    "x.scatter_add_(0, m.tensor([[0, 5]]), m.ones(1, 2))",
    "x.index_put_((m.tensor([0, 5]),), m.tensor(1.))",
    "x.put_(m.tensor([0, 50]), m.ones(2))",
    "x.masked_scatter_(x > 2, m.ones(3))",
    "x.index_reduce_(0, m.tensor([0, 5]), m.ones(2, 4), 'prod')",
    "x.__setitem__(([0, 1], [0, 9]), 1.)",
])
def test_failed_inplace_write_changes_nothing(call: str) -> None:
    x = gt.arange(12.0).reshape(3, 4)
    before, version = x.tolist(), x._version
    with pytest.raises((IndexError, RuntimeError)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(call, {"x": x, "m": gt})
    assert x.tolist() == before and x._version == version


def test_basic_indexing_stays_a_view_advanced_copies() -> None:
    x = gt.zeros(2, 3, 4)
    assert x[1, ::2, None]._base is x
    y = x[[1, 0]]
    assert y._base is None and y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    y[0, 0, 0] = 100.0
    assert x[1, 0, 0].item() == 0.0


EXPANDED_WRITES = """
x.index_put_((m.tensor([0, 1]),), m.tensor(1.)) | x.put_(m.tensor([0, 1]), m.ones(2))
x.scatter_(0, m.tensor([[0, 1]]), m.ones(1, 2)) | x.scatter_(0, m.tensor([[0, 1]]), 1.)
x.scatter_add_(0, m.tensor([[0, 1]]), m.ones(1, 2)) | x.index_fill_(0, m.tensor([0]), 1.)
x.scatter_reduce_(0, m.tensor([[0, 1]]), m.ones(1, 2), 'sum') | x.masked_fill_(x > 0, 1.)
x.index_add_(0, m.tensor([0]), m.ones(1, 4)) | x.index_copy_(0, m.tensor([0]), m.ones(1, 4))
x.masked_scatter_(x > -1, m.ones(12)) | x.__setitem__([0, 1], 2.)
"""


@pytest.mark.parametrize("statement", _exprs(EXPANDED_WRITES))
def test_writes_into_expanded_tensors_match_torch(statement: str) -> None:
    """torch refuses the scatter-like writes into a tensor whose elements share memory,
    and lets index_put_ / index_fill_ / masked_fill_ write through."""
    torch = pytest.importorskip("torch")
    results = []
    for module in (torch, gt):
        x = module.zeros(1, 4).expand(3, 4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(statement, {"x": x, "m": module})
                error = None
            except RuntimeError as failure:
                error = str(failure)
        texts = [re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)) for w in caught]
        results.append((x.tolist(), error, texts))
    assert results[1] == results[0]


def test_gradient_through_advanced_indexing() -> None:
    """index's backward sums the gradient into the rows read (a Tensor?[] list with None
    entries is saved for backward as it is)."""
    x = gt.arange(12.0, dtype=gt.float64).reshape(3, 4).requires_grad_()
    gt.ops.aten.index(x, [gt.tensor([1, 1]), None]).sum().backward()
    assert x.grad.tolist() == [[0.0] * 4, [2.0] * 4, [0.0] * 4]
    x.grad = None
    x[:, [0, 0, 3]].sum().backward()
    assert x.grad.tolist() == [[2.0, 0.0, 0.0, 1.0]] * 3


def _random_index(rng: np.random.Generator, shape: tuple) -> list:
    """A random index tuple description for a tensor of `shape`: ints, slices, None,
    bools, long tensors (broadcasting shapes, negative values) and masks, with at most
    one Ellipsis."""
    items, dim, ellipsis = [], 0, False
    for _ in range(int(rng.integers(1, 4))):
        size = shape[dim] if dim < len(shape) else 1
        kind = rng.choice(["int", "slice", "none", "bool", "long", "long", "mask"])
        if kind == "int":
            items.append(("int", int(rng.integers(-size, max(size, 1)))))
        elif kind == "slice":
            items.append(("slice", (rng.choice([None, 0, 1, -1]), rng.choice([None, 2, -1, 5]),
                                    rng.choice([None, 1, 2]))))
        elif kind in ("none", "bool"):
            items.append((kind, bool(rng.random() < 0.7)))
        elif kind == "long":
            index_shape = [(2,), (2, 1), (1, 3), ()][int(rng.integers(0, 4))]
            values = rng.integers(-max(size, 1), max(size, 1), index_shape)
            items.append(("long", values.tolist()))
        else:
            span = shape[dim:dim + int(rng.integers(1, 3))] or (1,)
            items.append(("mask", (rng.random(span) < 0.5).tolist()))
        if not ellipsis and rng.random() < 0.1:
            items.append(("ellipsis", None))
            ellipsis = True
        dim += 0 if kind in ("none", "bool") else 1
    return items


def _index_from(items: list, module) -> tuple:
    built = []
    for kind, value in items:
        built.append({"int": lambda v: v, "slice": lambda v: slice(*v), "none": lambda v: None,
                      "bool": lambda v: v, "ellipsis": lambda v: Ellipsis,
                      "long": lambda v: module.tensor(v, dtype=module.int64),
                      "mask": lambda v: module.tensor(v, dtype=module.bool)}[kind](value))
    return tuple(built)


def _fuzz_outcome(module, shape: tuple, layout: str, items: list) -> tuple:
    data = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = module.from_numpy(data.copy())
    if layout == "transposed" and x.dim() >= 2:
        x = x.transpose(0, -1).contiguous().transpose(0, -1)
    index = _index_from(items, module)
    read, error = _outcome(lambda: x[index])
    seen = [(type(error).__name__, str(error).split("\n")[0]) if error is not None else
            # strides of empty results are a known deviation (see the report)
            (tuple(read.shape), read.stride() if read.numel() else None, read.tolist())]
    written = x.clone()
    _, error = _outcome(lambda: written.__setitem__(index, -1.0))
    seen.append(written.tolist() if error is None else type(error).__name__)
    return seen


@pytest.mark.parametrize("seed", range(8))
def test_random_index_expressions_match_torch(seed: int) -> None:
    """Seeded random index tuples on random shapes (empty dims included), read and
    written, in both libraries."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    for _ in range(40):
        shape = tuple(int(n) for n in rng.integers(0, 4, int(rng.integers(1, 4))))
        items = _random_index(rng, shape)
        layout = "transposed" if rng.random() < 0.5 else "contiguous"
        expected = _fuzz_outcome(torch, shape, layout, items)
        assert _fuzz_outcome(gt, shape, layout, items) == expected, (shape, layout, items)


def test_gather_out_may_be_its_index_but_not_part_of_it():
    """torch's gather checks out= against its index for partial overlap only: the index
    itself may receive the result (torch 2.13's behaviour), a part of it may not."""
    index = gt.tensor([0, 1])
    assert gt.gather(gt.arange(3) * 5, 0, index, out=index) is index
    assert index.tolist() == [0, 5]
    shared = gt.tensor([1, 0, 2])
    with pytest.raises(RuntimeError, match="^unsupported operation: some elements of the "
                                           "input tensor and the written-to tensor"):
        gt.gather(gt.arange(3), 0, shared[1:], out=shared[:2])
    source = gt.arange(3.0)
    with pytest.raises(RuntimeError, match="^unsupported operation"):
        gt.gather(source, 0, gt.tensor([0, 1, 2]), out=source)
