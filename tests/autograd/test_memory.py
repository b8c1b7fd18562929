"""What the engine keeps alive: saved tensors are released by backward, and long chains
cost no recursion depth. Memory is measured with tracemalloc, which sees NumPy's data
buffers (NumPy reports its allocations to it)."""
import gc
import sys
import tracemalloc

import glasstorch as torch

MB = 1 << 20


def _traced_bytes() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def test_backward_releases_saved_tensors():
    x = torch.randn(1 << 18, requires_grad=True)       # 1 MB of float32
    tracemalloc.start()
    try:
        before = _traced_bytes()
        y = x
        for _ in range(8):
            y = y.sin() * 1.5                            # sin saves its input: 1 MB a step
        loss = y.sum()
        held = _traced_bytes() - before
        loss.backward()
        del y
        after = _traced_bytes() - before
    finally:
        tracemalloc.stop()
    assert held > 8 * MB                                 # the graph holds the 8 saved inputs
    assert after < 2 * MB                                # only x.grad (1 MB) remains
    assert x.grad.shape == x.shape


def test_retain_graph_keeps_them_until_the_graph_goes():
    x = torch.randn(1 << 18, requires_grad=True)
    tracemalloc.start()
    try:
        before = _traced_bytes()
        loss = (x.exp() * 2.0).sum()
        loss.backward(retain_graph=True)
        retained = _traced_bytes() - before
        loss.backward()                                  # the second call may free them
        released = _traced_bytes() - before
    finally:
        tracemalloc.stop()
    assert retained > 2 * MB                             # exp's result is saved, plus .grad
    assert released < retained - 0.9 * MB


def test_hundred_thousand_step_chain():
    assert sys.getrecursionlimit() < 100_000
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y + 1.0
    y.backward()
    assert x.grad.tolist() == [1.0] and y.item() == 100_001.0
