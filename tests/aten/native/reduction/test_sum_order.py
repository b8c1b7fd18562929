"""sum / mean / nansum of float32 and float64 bit for bit as torch's CPU kernel adds them
(Note [Cascade sum order]): random shapes, dims, layouts and thread counts."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import glasstorch as gt
from glasstorch.aten.native.reduction import cascade

torch = pytest.importorskip("torch")
# the order was read off torch 2.13's wheel on an AVX-512 CPU (32-byte vectors there);
# on another CPU torch's kernel may be another build, so the bits are compared only here
pytestmark = pytest.mark.skipif(torch.backends.cpu.get_cpu_capability() != "AVX512",
                                reason="the sum order was measured on torch's AVX-512 build")


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request):
    before = (gt.get_num_threads(), torch.get_num_threads())
    gt.set_num_threads(request.param)
    torch.set_num_threads(request.param)
    yield request.param
    gt.set_num_threads(before[0])
    torch.set_num_threads(before[1])


def _same_bits(mine, theirs):
    assert str(mine.dtype) == str(theirs.dtype) and tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(mine.numpy().reshape(-1).view(np.uint8),
                                  theirs.numpy().reshape(-1).view(np.uint8))


def _both(values: np.ndarray, layout: str):
    """The same view of `values` in both libraries: as is, transposed, sliced or its
    first row broadcast."""
    pair = gt.from_numpy(values.copy()), torch.from_numpy(values.copy())
    if layout == "transposed" and values.ndim >= 2:
        return [t.transpose(0, -1) for t in pair]
    if layout == "sliced":
        return [t[..., ::2] for t in pair]
    if layout == "broadcast":
        return [t[:1].expand(t.shape) for t in pair]
    return list(pair)


shapes = st.lists(st.integers(1, 40), min_size=1, max_size=4).filter(
    lambda s: np.prod(s) <= 40000)


# the thread count is set once for all examples, which is what is wanted
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, data=st.data(), dtype=st.sampled_from(["float32", "float64"]),
       layout=st.sampled_from(["contiguous", "transposed", "sliced", "broadcast"]),
       op=st.sampled_from(["sum", "mean", "nansum", "nanmean"]), keepdim=st.booleans())
def test_sum_over_dims_matches_torch(threads, shape, data, dtype, layout, op, keepdim):
    values = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
    if op.startswith("nan"):
        values[values > 1.5] = np.nan
    mine, theirs = _both(values, layout)
    dims = data.draw(st.none() | st.lists(st.integers(0, mine.dim() - 1), min_size=1,
                                          unique=True).map(tuple))
    if dims is None:
        _same_bits(getattr(mine, op)(), getattr(theirs, op)())
    else:
        _same_bits(getattr(mine, op)(dims, keepdim), getattr(theirs, op)(dims, keepdim))


@pytest.mark.parametrize("count", list(range(1, 40)) + [63, 64, 65, 1000, 32768, 32769,
                                                          40001, 65536])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_sum_matches_torch(threads, count, dtype):
    """Every length of the short cases (the four-way start, the tail before the lanes)
    and the threads' split just past 32768 elements."""
    values = np.random.default_rng(count).standard_normal(count).astype(dtype)
    mine, theirs = _both(values, "contiguous")
    _same_bits(mine.sum(), theirs.sum())
    _same_bits(mine.mean(), theirs.mean())


@pytest.mark.parametrize("shape,dim", [((4200, 520), 0), ((300, 9000), 0), ((40, 3, 700), 0),
                                       ((50, 70, 600), (0, 1))])
def test_wide_columns_match_torch_at_any_size(threads, shape, dim):
    """Sums down long contiguous columns keep torch's order past `EXACT_SIZE`: the
    cascade's deeper levels, and column ranges split over threads at 128 bytes."""
    values = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    mine, theirs = _both(values, "contiguous")
    _same_bits(mine.sum(dim), theirs.sum(dim))


@pytest.mark.parametrize("shape,layout", [((5, 11, 18, 34), "broadcast"),
                                          ((9, 9, 9, 9, 18), "sliced"),
                                          ((64, 40, 25), "transposed")])
def test_whole_sum_of_a_layout_of_several_dims_matches_torch(threads, shape, layout):
    """Past 32768 elements each thread sums a stretch of the iteration order, cut
    into blocks as torch's iterator cuts it (partial rows, whole rows)."""
    values = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    mine, theirs = _both(values, layout)
    _same_bits(mine.sum(), theirs.sum())
    _same_bits(mine.mean(), theirs.mean())


def test_float16_mean_sums_in_float32_as_torch():
    values = np.random.default_rng(2).standard_normal((37, 45)).astype(np.float16)
    mine, theirs = _both(values, "contiguous")
    for dim in (0, 1):
        _same_bits(mine.mean(dim), theirs.mean(dim))


@pytest.mark.parametrize("shape", [(2, 100), (3, 517), (5, 1000), (2, 4100), (3, 8200),
                                   (130, 5), (600, 3), (1000, 40), (70, 33), (17, 64)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_short_sums_along_a_dim_match_torch(threads, shape, dtype):
    """The planned short cases (`_short_rows`, `_short_columns`) past the shapes the
    random test draws: rows long enough for the cascade's first level, leftover
    vectors, tails."""
    values = np.random.default_rng(shape[1]).standard_normal(shape).astype(dtype)
    mine, theirs = _both(values, "contiguous")
    for dim in (0, 1):
        _same_bits(mine.sum(dim), theirs.sum(dim))
        _same_bits(mine.mean(dim, keepdim=True), theirs.mean(dim, keepdim=True))
    _same_bits(mine.sum(), theirs.sum())


def test_short_sums_keep_torch_signed_zeros():
    """Sums of zeros only: torch's are +0.0 whatever the terms' signs."""
    for shape in [(4, 40), (40, 4), (3, 9), (70, 2), (64, 100), (65, 100), (17, 64), (5, 1000)]:
        values = -np.zeros(shape, np.float32)
        mine, theirs = _both(values, "contiguous")
        for dim in (0, 1):
            _same_bits(mine.sum(dim), theirs.sum(dim))
        _same_bits(mine.sum(), theirs.sum())


@pytest.mark.parametrize("columns", [33, 100, 130])
def test_short_sums_over_columns_of_two_kinds_match_torch(columns):
    """A bias gradient whose width is not a whole number of four vectors: its first
    columns are summed as cascades side by side and the rest four-way, in one short plan
    (64 and 65 rows: both kinds leave as many partials and share the last reduction)."""
    rng = np.random.default_rng(columns)
    for rows in (3, 9, 17, 64, 65, 200):
        for dtype in (np.float32, np.float64):
            values = (rng.standard_normal((rows, columns)) * 10).astype(dtype)
            mine = gt.tensor(values).sum(0).numpy()
            theirs = torch.tensor(values).sum(0).numpy()
            assert mine.tobytes() == theirs.tobytes(), (rows, dtype)


@pytest.mark.parametrize("shape", [(64, 1024), (40, 1000), (1000, 40), (33, 1030), (8, 8, 600)])
def test_sums_split_over_threads_keep_torch_order_and_the_short_plans(threads, shape):
    """Past 32768 elements torch splits a sum over a dim among its threads by ranges of
    the kept dim; where that leaves each result's order as on one thread (ranges start
    at whole groups of vectors), the one-thread plan serves, on the calling thread."""
    values = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    mine, theirs = _both(values, "contiguous")
    for dim in (0, len(shape) - 1):
        _same_bits(mine.sum(dim), theirs.sum(dim))
        geometry = (values.shape, values.strides, values.dtype, dim)
        out = np.empty(mine.sum(dim).shape, np.float32)
        plans = [cascade._plan(*geometry, out.shape, out.strides, count, False)
                 for count in (1, threads)]
        names = [getattr(plan, "func", plan).__qualname__ for plan in plans]
        assert names[0] == names[1] != "_general"
