"""A later gradient summed into a leaf's `.grad` (AccumulateGrad's in-place add, done
directly with NumPy when nothing could see the call): values, layout and the version
bump as torch gives them, for every layout `.grad` may have."""
import pytest

import glasstorch as gt


def _accumulate(lib, layout: str, dtype: str):
    x = lib.arange(12.0, dtype=getattr(lib, dtype)).reshape(3, 4).requires_grad_()
    if layout == "transposed":         # dense, not row-major
        x.grad = lib.ones(4, 3, dtype=x.dtype).t()
    elif layout == "strided":          # not dense: the operator's way
        x.grad = lib.ones(3, 8, dtype=x.dtype)[:, ::2]
    elif layout == "row-major":
        x.grad = lib.ones(3, 4, dtype=x.dtype)
    held = x.grad
    (x * x).sum().backward()
    (x * 3).sum().backward()
    return (x.grad.tolist(), x.grad.stride(), x.grad is held, held._version)


@pytest.mark.filterwarnings("ignore:grad and param do not obey")   # torch warns once
@pytest.mark.parametrize("layout", ["row-major", "transposed", "strided"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_later_gradients_add_into_grad_as_torch_adds_them(layout, dtype):
    torch = pytest.importorskip("torch")
    assert _accumulate(gt, layout, dtype) == _accumulate(torch, layout, dtype)
