"""Helpers of the optimizer tests: the same parameters and gradients in glasstorch and
torch, stepped side by side.

Gradients are drawn from a seeded NumPy stream, not computed from the parameters, so
that a trajectory compares the optimizers' arithmetic alone (a model's backward could
round differently and feed the two optimizers different gradients).
"""
from __future__ import annotations

import numpy as np

import glasstorch as gt

SHAPES = [(5, 4), (4,), (3, 7)]


def make_params(lib, dtype: str = "float32", seed: int = 0, shapes=SHAPES) -> list:
    """Leaf tensors requiring grad, the same values for a given seed in either library."""
    rng = np.random.default_rng(seed)
    return [lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype),
                       requires_grad=True) for shape in shapes]


def gradient_stream(params: list, seed: int = 1, steps: int = 20):
    """For each step, one float64 NumPy gradient per parameter."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield [rng.standard_normal(tuple(p.shape)) for p in params]


def set_grads(lib, params: list, grads: list) -> None:
    for param, grad in zip(params, grads):
        param.grad = lib.tensor(grad, dtype=param.dtype)


def values(tensors: list) -> list:
    return [np.array(t.detach().numpy(), copy=True) for t in tensors]


def trajectories(make_optimizer, torch, steps: int = 20, dtype: str = "float32",
                 groups=None) -> tuple[list, list]:
    """Step a glasstorch and a torch optimizer (``make_optimizer(lib, params)``) on the
    same gradients; the parameters' values after every step, for each library."""
    runs = []
    for lib in (gt, torch):
        params = make_params(lib, dtype)
        optimizer = make_optimizer(lib, params if groups is None else groups(params))
        history = []
        for grads in gradient_stream(params, steps=steps):
            set_grads(lib, params, grads)
            optimizer.step()
            history.append(values(params))
        runs.append(history)
    return runs[0], runs[1]


def to_glass_state(state_dict):
    """A torch optimizer state dict with its tensors made glasstorch tensors."""
    import torch
    if isinstance(state_dict, torch.Tensor):
        return gt.tensor(state_dict.numpy(), dtype=getattr(gt, str(state_dict.dtype)[6:]))
    if isinstance(state_dict, dict):
        return {key: to_glass_state(value) for key, value in state_dict.items()}
    if isinstance(state_dict, list):
        return [to_glass_state(value) for value in state_dict]
    return state_dict
