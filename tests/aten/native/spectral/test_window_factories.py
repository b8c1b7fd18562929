"""The top-level window factories (hann_window, hamming_window, blackman_window,
bartlett_window, kaiser_window) against real torch in every floating dtype and every
overload, and their refusals. Differential tests skip without torch.
"""
import numpy as np
import pytest

import glasstorch as gt

_OVERLOADS = {
    "hann_window": ((), (False,), (True,)),
    "hamming_window": ((), (False,), (True, 0.3), (False, 0.3, 0.2)),
    "blackman_window": ((), (False,)),
    "bartlett_window": ((), (False,), (True,)),
    "kaiser_window": ((), (False,), (True, 3.0)),
}


@pytest.mark.parametrize("name", sorted(_OVERLOADS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_windows_match_torch(name, dtype):
    torch = pytest.importorskip("torch")
    exact = name != "kaiser_window" and dtype == "float64"
    for length in (0, 1, 2, 5, 12):
        for args in _OVERLOADS[name]:
            theirs = getattr(torch, name)(length, *args, dtype=getattr(torch, dtype))
            mine = getattr(gt, name)(length, *args, dtype=getattr(gt, dtype))
            assert str(mine.dtype) == str(theirs.dtype) and tuple(mine.shape) == theirs.shape
            tolerance = 0 if exact else {"float16": 2e-3, "bfloat16": 1.6e-2}.get(dtype, 1e-6)
            np.testing.assert_allclose(mine.float().numpy(), theirs.float().numpy(),
                                       atol=tolerance, rtol=0)


def test_a_periodic_window_drops_the_last_sample_of_a_longer_symmetric_one():
    periodic = gt.hann_window(8, dtype=gt.float64)
    symmetric = gt.hann_window(9, periodic=False, dtype=gt.float64)
    np.testing.assert_array_equal(periodic.numpy(), symmetric.numpy()[:8])


def test_requires_grad_and_options():
    window = gt.kaiser_window(6, requires_grad=True, dtype=gt.float64)
    assert window.requires_grad and window.dtype == gt.float64


@pytest.mark.parametrize("call", [lambda m: m.hann_window(-1),
                                  lambda m: m.hamming_window(4, dtype=m.int64),
                                  lambda m: m.kaiser_window(3, dtype=m.int32),
                                  lambda m: m.blackman_window(4, dtype=m.complex64)])
def test_refusals_match_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt)
    assert str(mine.value) == str(theirs.value)
