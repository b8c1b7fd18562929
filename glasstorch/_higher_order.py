"""torch.cond and torch.while_loop, run eagerly.

torch traces both branches (or the loop body) into graphs so that export can keep the
control flow; run eagerly, they reduce to Python's `if` and `while` around the calls,
after torch's checks of the arguments. (Without a tracer, the branch not taken is not
run, so its outputs are not compared with the taken one's as torch's tracing does.)
"""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch


def _leaves(value: Any):
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    else:
        yield value


def cond(pred: bool | int | float | torch.Tensor, true_fn: Callable, false_fn: Callable,
         operands: tuple | list = ()) -> Any:
    """``true_fn(*operands)`` if `pred` holds, else ``false_fn(*operands)``.

    Args:
        pred (bool or Tensor): a Python condition, or a one-element tensor.
        true_fn, false_fn (Callable): the branches, taking the operands.
        operands (tuple or list of Tensors): the branches' arguments. Default: ``()``

    Example::

        >>> x = torch.ones(2)
        >>> torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x - 1, (x,))
        tensor([2., 2.])
    """
    if isinstance(pred, (bool, int, float)):
        return true_fn(*operands) if pred else false_fn(*operands)
    if not isinstance(pred, torch.Tensor):
        raise RuntimeError(f"Expected pred to be bool or tensor, but got {pred}.")
    if pred.numel() != 1:
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    if not callable(true_fn) or not callable(false_fn):
        raise RuntimeError("Expect both branches to be callable.")
    if not isinstance(operands, (tuple, list)) or not all(
            isinstance(leaf, torch.Tensor) for leaf in _leaves(operands)):
        raise RuntimeError("Expect operands to be a tuple of possibly nested dict/list/tuple that "
                           f"only consists of tensor leaves, but got {operands}.")
    return true_fn(*operands) if bool(pred) else false_fn(*operands)


def _check_predicate(pred: Any) -> None:
    scalar_bool = isinstance(pred, torch.Tensor) and pred.shape == () and pred.dtype == torch.bool
    if not (scalar_bool or isinstance(pred, bool)):
        raise RuntimeError(f"cond_fn must return a boolean scalar tensor or a boolean but got {pred}")


def while_loop(cond_fn: Callable, body_fn: Callable, carried_inputs: tuple | list) -> tuple:
    """Run ``carried = body_fn(*carried)`` while ``cond_fn(*carried)`` holds; return `carried`.

    Args:
        cond_fn (Callable): returns a bool or a boolean 0-dim tensor.
        body_fn (Callable): returns a tuple as long as `carried_inputs`.
        carried_inputs (tuple or list of Tensors or ints): the loop's state.

    Returns:
        the final state as a tuple (tensors cloned if the body never ran).

    Example::

        >>> torch.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2),
        ...                  (torch.tensor(0), torch.ones(2)))
        (tensor(3), tensor([8., 8.]))
    """
    if not callable(cond_fn) or not callable(body_fn):
        raise RuntimeError("Expect cond_fn and body_fn to be callable.")
    leaves = list(_leaves(carried_inputs))
    if not all(isinstance(leaf, (torch.Tensor, int)) for leaf in leaves):
        allowed = "(<class 'torch.Tensor'>, <class 'int'>, <class 'torch.SymInt'>)"
        raise AssertionError(f"{leaves} can only be of {allowed} but got "
                             f"{tuple(type(leaf) for leaf in leaves)}")
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list but got {type(carried_inputs)}")
    carried = carried_inputs
    should_loop = cond_fn(*carried)
    _check_predicate(should_loop)
    if not should_loop:
        return tuple(v.clone() if isinstance(v, torch.Tensor) else v for v in carried)
    while should_loop:
        out = body_fn(*carried)
        if not isinstance(out, tuple):
            raise AssertionError(f"body_fn should return a tuple but got {type(out)}")
        if len(out) != len(carried_inputs):
            raise AssertionError("body_fn should return the same number of elements as "
                                 f"carried_inputs, got {len(out)} vs {len(carried_inputs)}")
        carried = out
        should_loop = cond_fn(*carried)
        _check_predicate(should_loop)
    return carried
