"""Kernels compute silently even when warnings are errors (python -W error)."""
import warnings

import numpy as np

import glasstorch as torch


def test_no_numpy_warnings_escape_kernels():
    x = torch.tensor([1.0, 0.0, -1.0])
    big = torch.zeros(200_000)                  # large enough for the thread pool
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.isnan((x / 0)[1]).item() if hasattr(torch, "isnan") else True
        assert (1 / x).tolist()[1] == float("inf")
        assert torch.exp(torch.tensor([1000.0])).item() == float("inf")
        assert np.isnan((big / big).numpy()).all()


def test_user_numpy_still_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.ones(2) / 0
        np.float64(1.0) / np.float64(0.0)       # the user's own NumPy code is untouched
    assert any("divide by zero" in str(w.message) for w in caught)


def test_logistic_kernels_are_silent_at_the_extremes():
    """sigmoid's exp(-x) overflows to inf on purpose below -88; glu's gate times an
    infinite half is 0 * inf = nan, as torch computes it. Neither may warn."""
    x = torch.tensor([-100.0, 0.0, float("inf"), -float("inf")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.sigmoid(x).tolist() == [0.0, 0.5, 1.0, 0.0]
        assert torch.nn.functional.silu(x)[0].item() == 0.0
        assert torch.isnan(torch.nn.functional.glu(torch.cat([x, x]))[3])
        g = torch.cat([x, x]).requires_grad_()
        torch.nn.functional.glu(g).sum().backward()
