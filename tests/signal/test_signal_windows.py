"""torch.signal.windows against real torch: all 11 windows, symmetric and periodic, in
float32 and float64, their parameters and their refusals. Skips without torch."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

_PARAMETERS = {"exponential": ({"tau": 2.0}, {"center": 1.5, "sym": False}),
               "gaussian": ({"std": 0.7},), "kaiser": ({"beta": 4.0},),
               "general_cosine": ({"a": [0.46, 0.23, 0.31]},), "general_hamming": ({"alpha": 0.6},)}
NAMES = ("bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
         "general_hamming", "hamming", "hann", "kaiser", "nuttall")


@pytest.mark.parametrize("name", NAMES)
def test_window_matches_torch(name):
    for options in _PARAMETERS.get(name, ({},)):
        if name == "general_cosine" or "sym" in options:
            symmetries = (options.pop("sym", True),)
        else:
            symmetries = (True, False)
        for sym in symmetries:
            for length in (0, 1, 2, 7, 10):
                for dtype in ("float32", "float64"):
                    theirs = getattr(torch.signal.windows, name)(
                        length, sym=sym, dtype=getattr(torch, dtype), **options)
                    mine = getattr(gt.signal.windows, name)(
                        length, sym=sym, dtype=getattr(gt, dtype), **options)
                    assert str(mine.dtype) == str(theirs.dtype)
                    np.testing.assert_allclose(mine.detach().numpy(), theirs.numpy(),
                                               atol=1e-6, rtol=1e-6)


def test_namespace_has_torch_s_names():
    assert set(torch.signal.windows.__all__) == set(gt.signal.windows.__all__)


@pytest.mark.parametrize("call", [
    lambda m: m.signal.windows.hann(-1),
    lambda m: m.signal.windows.hann(3, dtype=m.float16),
    lambda m: m.signal.windows.gaussian(3, std=0),
    lambda m: m.signal.windows.kaiser(3, beta=-1),
    lambda m: m.signal.windows.exponential(3, center=1.0),
    lambda m: m.signal.windows.exponential(3, tau=0),
    lambda m: m.signal.windows.general_cosine(3, a=[]),
    lambda m: m.signal.windows.general_cosine(3, a=None),
])
def test_refusals_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt)
    assert str(mine.value) == str(theirs.value)
