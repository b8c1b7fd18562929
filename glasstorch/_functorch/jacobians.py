"""Jacobians and Hessians: `jacrev` (vmap over vjp), `jacfwd` (vmap over jvp), `hessian`.

Both Jacobians stack one product per basis vector: `jacrev` pulls back every one-hot
cotangent of the outputs through one vjp, `jacfwd` pushes every one-hot tangent of
the inputs through jvp, each under vmap so that the basis is one batch. The result
for output `o` and input `i` has shape ``o.shape + i.shape``, nested as the outputs
are, with the inputs' structure inside (a tuple for a tuple of `argnums`).
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import glasstorch as torch

from ..utils._pytree import tree_flatten, tree_unflatten
from .eager_transforms import _check_argnums, jvp, vjp
from .vmap import vmap


def _with_chosen(func: Callable, args: tuple, positions: tuple) -> Callable:
    """`func` as a function of the arguments at `positions`, the others fixed."""
    def of_chosen(*chosen):
        new = list(args)
        for i, value in zip(positions, chosen):
            new[i] = value
        return func(*new)
    return of_chosen


def _basis(tensors: list) -> list:
    """One-hot rows over all elements of `tensors`: for each tensor, its slice of the
    identity, shaped ``(total, *tensor.shape)``."""
    sizes = [t.numel() for t in tensors]
    total = sum(sizes)
    rows, start = [], 0
    for t, n in zip(tensors, sizes):
        eye = torch.eye(total, dtype=t.dtype, device=t.device)[:, start:start + n]
        rows.append(eye.reshape((total,) + tuple(t.shape)))
        start += n
    return rows


def _blocks(stacked: list, across: list, along: list, stacked_first: bool) -> list:
    """Cut the stacked products into one Jacobian block per (output, input) pair.

    `stacked[j]` holds, for the `along` tensor j, one row per element of all `across`
    tensors (flattened in order). Returns ``blocks[a][j]``.
    """
    blocks, start = [], 0
    for a in across:
        n = a.numel()
        row = []
        for s, b in zip(stacked, along):
            piece = s[start:start + n].reshape(tuple(a.shape) + tuple(b.shape))
            if not stacked_first:        # stacked over inputs: move output dims first
                rank_a = a.dim()
                piece = piece.movedim(tuple(range(rank_a)),
                                      tuple(range(b.dim(), b.dim() + rank_a)))
            row.append(piece)
        blocks.append(row)
        start += n
    return blocks


def _nest(blocks_by_output: list, out_spec, in_spec, argnums) -> Any:
    per_output = [tree_unflatten(row, in_spec) for row in blocks_by_output]
    if isinstance(argnums, int):
        per_output = [p[0] for p in per_output]
    return tree_unflatten(per_output, out_spec)


def jacrev(func: Callable, argnums: Any = 0, *, has_aux: bool = False,
           chunk_size: int | None = None, _preallocate_and_copy: bool = False) -> Callable:
    """The Jacobian of `func` by reverse mode (one vjp per output element, vmapped).

    Args:
        func (Callable): a function of tensors returning tensors (and aux).
        argnums (int or tuple of ints): the inputs to differentiate.
        has_aux (bool): `func` returns ``(output, aux)``.
        chunk_size (int, optional): how many vjps to run at a time.

    Returns:
        A function giving the Jacobian (and aux).

    Example::

        >>> torch.func.jacrev(torch.sin)(torch.zeros(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    @functools.wraps(func)
    def wrapper(*args):
        positions = _check_argnums(argnums, len(args))
        chosen = tuple(args[i] for i in positions)
        output, vjp_fn, *aux = vjp(_with_chosen(func, args, positions), *chosen,
                                   has_aux=has_aux)
        flat_out, out_spec = tree_flatten(output)
        flat_in, in_spec = tree_flatten(chosen)

        def pulled_back(*cotangents):
            return tree_flatten(vjp_fn(tree_unflatten(list(cotangents), out_spec)))[0]
        stacked = vmap(pulled_back, chunk_size=chunk_size)(*_basis(flat_out))
        jacobian = _nest(_blocks(stacked, flat_out, flat_in, True), out_spec, in_spec, argnums)
        return (jacobian, aux[0]) if has_aux else jacobian
    return wrapper


def jacfwd(func: Callable, argnums: Any = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable:
    """The Jacobian of `func` by forward mode (one jvp per input element, vmapped).

    Args:
        func (Callable): a function of tensors returning tensors (and aux).
        argnums (int or tuple of ints): the inputs to differentiate.
        has_aux (bool): `func` returns ``(output, aux)``.
        randomness (str): vmap's randomness for the batch of jvps.

    Returns:
        A function giving the Jacobian (and aux).

    Example::

        >>> torch.func.jacfwd(torch.sin)(torch.zeros(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    @functools.wraps(func)
    def wrapper(*args):
        positions = _check_argnums(argnums, len(args))
        chosen = tuple(args[i] for i in positions)
        flat_in, in_spec = tree_flatten(chosen)
        of_chosen = _with_chosen(func, args, positions)
        found = {}

        def pushed(*tangents):
            _, tangent, *aux = jvp(of_chosen, chosen, tree_unflatten(list(tangents), in_spec),
                                   has_aux=has_aux)
            flat, found["spec"] = tree_flatten(tangent)
            return flat, (aux[0] if has_aux else None)
        stacked, aux = vmap(pushed, out_dims=(0, None), randomness=randomness)(
            *_basis(flat_in))
        by_input = _blocks(stacked, flat_in, [s[0] for s in stacked], False)
        by_output = [[row[o] for row in by_input] for o in range(len(stacked))]
        jacobian = _nest(by_output, found["spec"], in_spec, argnums)
        return (jacobian, aux) if has_aux else jacobian
    return wrapper


def hessian(func: Callable, argnums: Any = 0) -> Callable:
    """The Hessian of a scalar function: `jacfwd` of `jacrev`.

    Example::

        >>> torch.func.hessian(lambda x: (x ** 3).sum())(torch.ones(2))
        tensor([[6., 0.],
                [0., 6.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)
