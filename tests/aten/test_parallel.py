"""Intra-op parallelism (glasstorch/aten/parallel.py): same results on any thread count,
torch's set_num_threads / get_num_threads contract, ATen's parallel_for semantics.

Large elementwise results are split over the thread pool (Note [Splitting an
elementwise kernel]): these tests run each large case with 1 thread and with 2 and
require bit-identical results that also equal NumPy's. Sizes sit just above the split
threshold so the suite stays fast. No timings are asserted (bench/ measures them).
"""
import queue
import threading
import warnings

import numpy as np
import pytest

import glasstorch as torch
from glasstorch.aten import parallel

LARGE = parallel.SPLIT_SIZE + 4000          # the smallest kind of result that splits
RNG = np.random.default_rng(0)


@pytest.fixture
def threads():
    """Restore the thread count whatever the test does."""
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def _array(shape, dtype=np.float32):
    if np.dtype(dtype).kind == "i":
        return RNG.integers(-2 ** 40, 2 ** 40, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


def _on_each_thread_count(compute):
    """compute() with 1 thread, then 2: both results as ndarrays (copied)."""
    results = []
    for n in (1, 2):
        torch.set_num_threads(n)
        results.append(np.array(compute().numpy()))
    return results


# ----------------------------------------------------------------------------------
# Same results with one and two threads, equal to NumPy's
# ----------------------------------------------------------------------------------
A = _array((300, 240))                                     # 72000 elements
B = _array((300, 240))
CASES = {
    "contiguous 1-D add": (lambda a, b: a.reshape(-1) + b.reshape(-1),
                           lambda a, b: a.reshape(-1) + b.reshape(-1)),
    "contiguous exp": (lambda a, b: torch.exp(a), lambda a, b: np.exp(a)),
    "neg of a row": (lambda a, b: torch.neg(a.reshape(1, -1)), lambda a, b: -a.reshape(1, -1)),
    "broadcast a row": (lambda a, b: a + b[:1], lambda a, b: a + b[:1]),
    "broadcast a column": (lambda a, b: a * b[:, :1], lambda a, b: a * b[:, :1]),
    "broadcast both": (lambda a, b: a[:, :1] - b[:1], lambda a, b: a[:, :1] - b[:1]),
    "number operand": (lambda a, b: a * 2.5, lambda a, b: a * np.float32(2.5)),
    "transposed + row-major": (lambda a, b: a.t() + b.reshape(240, 300),
                               lambda a, b: a.T + b.reshape(240, 300)),
    "row-major + transposed": (lambda a, b: b.reshape(240, 300) + a.t(),
                               lambda a, b: b.reshape(240, 300) + a.T),
    "strided slices": (lambda a, b: a[:, ::2] / b[::1, 1::2],
                       lambda a, b: a[:, ::2] / b[:, 1::2]),
    "permuted 3-D": (lambda a, b: a.reshape(30, 10, 240).permute(2, 0, 1)
                     + b.reshape(240, 30, 10),
                     lambda a, b: a.reshape(30, 10, 240).transpose(2, 0, 1)
                     + b.reshape(240, 30, 10)),
    "3 x N": (lambda a, b: torch.exp(a.reshape(3, -1)), lambda a, b: np.exp(a.reshape(3, -1))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_with_one_or_two_threads(threads, name):
    op, reference = CASES[name]
    a, b = torch.from_numpy(A), torch.from_numpy(B)
    one, two = _on_each_thread_count(lambda: op(a, b))
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, reference(A, B))


def test_layout_follows_the_operands(threads):
    """Splitting changes nothing about the result's strides (TensorIterator's layout)."""
    a, b = torch.from_numpy(A), torch.from_numpy(B).reshape(240, 300)
    for n in (1, 2):
        torch.set_num_threads(n)
        assert (a.t() + b).stride() == (1, 240)
        assert (b + a.t()).stride() == (300, 1)


def test_float16_is_computed_in_float32_and_rounded_once(threads):
    a = _array(LARGE, np.float16)
    b = _array(LARGE, np.float16)
    x, y = torch.from_numpy(a), torch.from_numpy(b)
    expected = (a.astype(np.float32) * b.astype(np.float32) + np.float32(0)).astype(np.float16)
    one, two = _on_each_thread_count(lambda: x * y)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, expected)
    one, two = _on_each_thread_count(lambda: torch.exp(x[::2]))
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, np.exp(a[::2].astype(np.float32)).astype(np.float16))


def test_int64_wraps_around_on_any_thread_count(threads):
    a = _array(LARGE, np.int64)
    x = torch.from_numpy(a)
    one, two = _on_each_thread_count(lambda: x * (2 ** 40))
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, a * np.int64(2 ** 40))


def test_promotion_to_a_wider_result(threads):
    """int64 + float32 -> float32 (the operand is cast, then split with the result)."""
    a = _array((300, 240), np.int64) % 1000
    x, y = torch.from_numpy(a), torch.from_numpy(B)
    one, two = _on_each_thread_count(lambda: x + y)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, a.astype(np.float32) + B)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_in_place_on_any_thread_count(threads, layout):
    results = []
    for n in (1, 2):
        torch.set_num_threads(n)
        base = torch.from_numpy(A.copy())
        target = {"contiguous": base, "transposed": base.t(), "strided": base[:, ::2]}[layout]
        other = torch.from_numpy(B)
        other = {"contiguous": other, "transposed": other.t(), "strided": other[:, :120]}[layout]
        version = target._version
        assert target.add_(other, alpha=2) is target
        assert target._version == version + 1
        results.append(np.array(base.numpy()))
    expected = A.copy()
    view = {"contiguous": expected, "transposed": expected.T, "strided": expected[:, ::2]}[layout]
    other = {"contiguous": B, "transposed": B.T, "strided": B[:, :120]}[layout]
    view += np.float32(2) * other
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], expected)


def test_out_of_any_layout_on_any_thread_count(threads):
    a, b = torch.from_numpy(A), torch.from_numpy(B)
    results = []
    for n in (1, 2):
        torch.set_num_threads(n)
        out = torch.empty(240, 300).t()                    # a transposed out=
        assert torch.mul(a, b, out=out) is out
        assert out.stride() == (1, 300)
        results.append(np.array(out.numpy()))
        wide = torch.empty(300, 240, dtype=torch.float64)  # computed in float32, cast
        torch.add(a, b, out=wide)
        np.testing.assert_array_equal(wide.numpy(), (A + B).astype(np.float64))
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], A * B)


# ----------------------------------------------------------------------------------
# parallel_for: ATen's semantics
# ----------------------------------------------------------------------------------
def _chunks_seen(begin, end, grain):
    seen = []
    lock = threading.Lock()

    def body(start, stop):
        with lock:
            seen.append((start, stop, threading.get_ident()))
    parallel.parallel_for(begin, end, grain, body)
    return sorted(seen)


def test_parallel_for_uses_every_thread_for_large_ranges(threads):
    torch.set_num_threads(2)
    seen = _chunks_seen(0, 100, 10)
    assert [(s, e) for s, e, _ in seen] == [(0, 50), (50, 100)]
    assert len({ident for *_, ident in seen}) == 2


@pytest.mark.parametrize("n, begin, end, grain, expected", [
    (2, 0, 50, 60, [(0, 50)]),              # within one grain: one chunk
    (2, 0, 100, 60, [(0, 60), (60, 100)]),  # no chunk shorter than a grain
    (1, 0, 100, 10, [(0, 100)]),            # one thread: one chunk
    (3, 5, 12, 1, [(5, 8), (8, 11), (11, 12)]),
    (2, 0, 0, 1, []),                       # an empty range: body is not called
])
def test_parallel_for_chunks(threads, n, begin, end, grain, expected):
    torch.set_num_threads(n)
    assert [(s, e) for s, e, _ in _chunks_seen(begin, end, grain)] == expected


def test_nested_parallel_for_runs_inline(threads):
    torch.set_num_threads(2)
    inner = []

    def body(start, stop):
        assert parallel.in_parallel_region()
        parallel.parallel_for(0, 100, 1, lambda s, e: inner.append((s, e)))
    parallel.parallel_for(0, 2, 1, body)
    assert sorted(inner) == [(0, 100), (0, 100)]
    assert not parallel.in_parallel_region()


def test_parallel_for_raises_after_every_chunk_ended(threads):
    torch.set_num_threads(2)
    finished = []

    def body(start, stop):
        if start == 0:
            raise ValueError("first chunk failed")
        threading.Event().wait(0.05)
        finished.append(start)
    with pytest.raises(ValueError, match="first chunk failed"):
        parallel.parallel_for(0, 2, 1, body)
    assert finished == [1]


# ----------------------------------------------------------------------------------
# parallel_share: items taken as threads come free (Note [Sharing items as they come])
# ----------------------------------------------------------------------------------
def _items_seen(count):
    seen = []
    lock = threading.Lock()

    def body(item):
        threading.Event().wait(0.002)            # long enough for a worker to take some
        with lock:
            seen.append((item, threading.get_ident()))
    parallel.parallel_share(count, body)
    return seen


@pytest.mark.parametrize("n, count", [(1, 5), (2, 0), (2, 1), (2, 8), (3, 7)])
def test_parallel_share_runs_every_item_once(threads, n, count):
    torch.set_num_threads(n)
    assert sorted(item for item, _ in _items_seen(count)) == list(range(count))
    assert not parallel.in_parallel_region()


def test_parallel_share_does_not_wait_for_a_busy_worker(threads):
    """Workers held by other work find nothing left when they come free: the calling
    thread takes every item and returns without waiting for them."""
    torch.set_num_threads(2)
    release, busy = threading.Event(), queue.SimpleQueue()
    parallel.parallel_for(0, 2, 1, lambda start, stop: None)      # a worker exists
    workers = len(parallel._pool.workers)
    for _ in range(workers):
        parallel._pool.submit(lambda start, stop: (busy.put(1), release.wait(10)), 0, 0,
                              queue.SimpleQueue())
    for _ in range(workers):
        busy.get(timeout=10)                    # every worker is now held
    try:
        seen = _items_seen(4)
    finally:
        release.set()
    assert sorted(seen) == [(item, threading.get_ident()) for item in range(4)]


def test_parallel_share_raises_after_every_item_ended(threads):
    torch.set_num_threads(2)
    finished = []

    def body(item):
        threading.Event().wait(0.01)
        if item == 1:
            raise ValueError("item 1 failed")
        finished.append(item)
    with pytest.raises(ValueError, match="item 1 failed"):
        parallel.parallel_share(4, body)
    assert sorted(finished) == [0, 2, 3]


def test_nested_parallel_share_runs_inline(threads):
    torch.set_num_threads(2)
    inner = []

    def body(start, stop):
        caller = threading.get_ident()
        parallel.parallel_share(3, lambda item: inner.append(threading.get_ident() == caller))
    parallel.parallel_for(0, 2, 1, body)
    assert inner == [True] * 6


# ----------------------------------------------------------------------------------
# set_num_threads / get_num_threads as torch's
# ----------------------------------------------------------------------------------
class _Index:
    def __index__(self):
        return 2


# (argument, exception type, message), recorded from torch 2.13
BAD_THREAD_COUNTS = [
    (0, RuntimeError, "set_num_threads expects a positive integer"),
    (-1, RuntimeError, "set_num_threads expects a positive integer"),
    (1.5, RuntimeError, "set_num_threads expects an int, but got float"),
    (True, RuntimeError, "set_num_threads expects an int, but got bool"),
    ("2", RuntimeError, "set_num_threads expects an int, but got str"),
    (None, RuntimeError, "set_num_threads expects an int, but got NoneType"),
    (np.float64(2.0), RuntimeError, "set_num_threads expects an int, but got numpy.float64"),
    (np.bool_(True), RuntimeError, "set_num_threads expects an int, but got numpy.bool"),
    (_Index(), RuntimeError, "set_num_threads expects an int, but got _Index"),
    (2 ** 31, ValueError, "Overflow when unpacking long"),
    (-2 ** 63, ValueError, "Overflow when unpacking long"),
    (2 ** 63, ValueError, "Overflow when unpacking long long"),
    (np.uint64(2 ** 63), ValueError, "Overflow when unpacking long long"),
]


@pytest.mark.parametrize("value, kind, message", BAD_THREAD_COUNTS,
                         ids=[repr(v) for v, *_ in BAD_THREAD_COUNTS])
def test_set_num_threads_refuses(threads, value, kind, message):
    before = torch.get_num_threads()
    with pytest.raises(kind) as error:
        torch.set_num_threads(value)
    assert str(error.value) == message
    assert torch.get_num_threads() == before


@pytest.mark.parametrize("value, kind, message", BAD_THREAD_COUNTS,
                         ids=[repr(v) for v, *_ in BAD_THREAD_COUNTS])
def test_torch_refuses_the_same(value, kind, message):
    real = pytest.importorskip("torch")
    before = real.get_num_threads()
    try:
        with pytest.raises(kind) as error:
            real.set_num_threads(value)
        assert str(error.value) == message
    finally:
        real.set_num_threads(before)


def test_set_and_get_num_threads(threads):
    torch.set_num_threads(3)
    assert torch.get_num_threads() == 3
    torch.set_num_threads(np.int64(1))                   # NumPy integers are ints
    assert torch.get_num_threads() == 1
    assert type(torch.get_num_threads()) is int
    with pytest.raises(TypeError):
        torch.get_num_threads(1)
    with pytest.raises(TypeError):
        torch.set_num_threads()
    with pytest.raises(TypeError):
        torch.set_num_threads(n=2)                       # torch takes no keywords


def test_default_is_every_usable_core():
    import os
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count()
    assert parallel._Pool().threads == expected


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_pool_works_in_a_forked_child(threads):
    """The child of a fork has none of the parent's worker threads: the pool starts
    afresh there instead of waiting forever on workers that do not exist."""
    import os
    import signal
    torch.set_num_threads(2)
    parallel.parallel_for(0, 2, 1, lambda s, e: None)      # the parent's workers exist
    with warnings.catch_warnings():        # Python 3.12 warns about forking with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:                                            # the child
        signal.alarm(20)                                    # a hang ends the child
        seen = []
        parallel.parallel_for(0, 2, 1, lambda s, e: seen.append(s))
        os._exit(0 if sorted(seen) == [0, 1] else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
