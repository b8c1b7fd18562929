"""Shared helpers of the nn tests: move tensors between glasstorch and real torch, run
the same module in both, and compare values and gradients.

Import it as ``from nn_compare import ...`` (pytest puts this folder on sys.path).
Tests using torch call ``pytest.importorskip("torch")`` first.
"""
from __future__ import annotations

import numpy as np

import glasstorch as gt


def numpy_of(t) -> np.ndarray:
    """The values of a glasstorch or torch tensor (detached, copied)."""
    t = t.detach()
    if "bfloat16" in str(t.dtype) or "float16" in str(t.dtype):
        t = t.float()
    return np.array(t.cpu().numpy() if hasattr(t, "cpu") else t.numpy(), copy=True)


def to_torch(t, requires_grad: bool | None = None):
    """A torch tensor with `t`'s values and dtype (`requires_grad` defaults to t's)."""
    import torch
    out = torch.from_numpy(numpy_of(t)).to(getattr(torch, str(t.dtype).split(".")[-1]))
    return out.requires_grad_(t.requires_grad if requires_grad is None else requires_grad)


def to_glass(t, requires_grad: bool | None = None):
    """A glasstorch tensor with torch tensor `t`'s values and dtype."""
    out = gt.from_numpy(numpy_of(t)).to(getattr(gt, str(t.dtype).split(".")[-1]))
    return out.requires_grad_(t.requires_grad if requires_grad is None else requires_grad)


def assert_close(actual, expected, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Values (NaN where NaN), shape and dtype of a glasstorch result vs torch's."""
    assert tuple(actual.shape) == tuple(expected.shape), (actual.shape, expected.shape)
    assert str(actual.dtype) == str(expected.dtype), (actual.dtype, expected.dtype)
    np.testing.assert_allclose(numpy_of(actual), numpy_of(expected), rtol=rtol, atol=atol,
                               equal_nan=True)


def copy_parameters(glass_module, torch_module) -> None:
    """Give `glass_module` torch_module's parameter and buffer values, name by name."""
    theirs = torch_module.state_dict()
    mine = glass_module.state_dict()
    assert sorted(mine) == sorted(theirs), (sorted(mine), sorted(theirs))
    with gt.no_grad():
        for name, value in mine.items():
            value.copy_(to_glass(theirs[name], requires_grad=False))
