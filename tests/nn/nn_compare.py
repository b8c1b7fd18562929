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


def outcome(scenario, lib):
    """Run ``scenario(lib)`` (lib: glasstorch or torch) and describe what happened in
    library-neutral terms: ``('ok', value)`` with tensors as (class name, shape, dtype,
    values) and modules as their repr, or ``('raise', exception type, message)``."""
    try:
        return "ok", _neutral(scenario(lib))
    except Exception as error:          # the comparison is the point
        # glasstorch's own classes name their real module (glasstorch.nn...), torch's torch.nn...
        return "raise", type(error).__name__, str(error).replace("glasstorch.", "torch.")


def same_outcome(scenario) -> None:
    """Assert that ``scenario(glasstorch)`` and ``scenario(torch)`` return equal
    (neutral) values or raise the same exception type with the same message."""
    import torch
    ours, theirs = outcome(scenario, gt), outcome(scenario, torch)
    assert ours == theirs, f"\nglasstorch: {ours}\ntorch:      {theirs}"


def _neutral(value):
    if hasattr(value, "grad_fn") and hasattr(value, "dtype"):    # a tensor of either library
        kind = "Parameter" if type(value).__name__ == "Parameter" else "Tensor"
        return kind, tuple(value.shape), str(value.dtype), numpy_of(value).tolist(), \
            value.requires_grad
    if isinstance(value, dict):
        return type(value).__name__, [(k, _neutral(v)) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_neutral(v) for v in value]
    if type(value).__module__.split(".")[0] in ("torch", "glasstorch"):
        return type(value).__name__, repr(value)
    return value
