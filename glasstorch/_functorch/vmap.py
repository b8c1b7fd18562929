"""`torch.vmap`: a function of one sample, run on a batch.

vmap wraps each mapped input as a `BatchedTensor` of a new level (batched_tensor.py),
calls the function once, and turns each result back into a tensor with the batch where
`out_dims` says. The operators the function calls meet the FuncTorchBatched key and run
their batching rules (batching_rules.py). `chunk_size` splits the batch into pieces
run one after another; `randomness` is Note [Randomness under vmap].
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from ..aten.dispatcher import operator_entry
from ..aten.meta.shape import wrap_dim
from ..c10.dispatch_key import VMAP_MODE, local_keys
from ..c10.tensor_impl import TensorBase
from ..utils._pytree import tree_flatten, tree_unflatten
from . import batching_rules
from .batched_tensor import BatchedTensor, VmapLevel, add_batch_dim, levels, new_level

batching_rules.install()
_RANDOMNESS = ("error", "different", "same")


def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """Vectorize `func` over a dimension of its inputs.

    Args:
        func (Callable): a function of one sample; its inputs and outputs are tensors,
            or (nested) tuples, lists and dicts of them.
        in_dims (int, None or nested tuple): the dimension of each input to map over
            (None: the input is the same for every sample); a tuple matches the
            structure of the positional inputs.
        out_dims (int, None or tuple): where the mapped dimension goes in each output.
        randomness (str): "error" (random operators refuse), "different" (each sample
            draws its own) or "same" (every sample gets the same draws).
        chunk_size (int, optional): run at most this many samples at a time.

    Returns:
        A function taking what `func` takes, each mapped input with the extra dimension.

    Example::

        >>> x, y = torch.randn(5, 3), torch.randn(5, 3)
        >>> torch.vmap(torch.dot)(x, y).shape
        torch.Size([5])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                         f"{chunk_size})")

    @functools.wraps(func)
    def vmapped(*args, **kwargs):
        call = _Call(func, in_dims, out_dims, randomness)
        flat, spec, dims = call.flat_inputs(args)
        size = call.batch_size(flat, dims)
        if chunk_size is None or chunk_size >= size:
            return call.run(flat, spec, dims, size, kwargs)
        return call.chunked(flat, spec, dims, size, chunk_size, kwargs)
    return vmapped


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


class _Call:
    """One call of a vmapped function: checks, wrapping, running and unwrapping."""

    def __init__(self, func, in_dims, out_dims, randomness: str) -> None:
        self.func, self.in_dims, self.out_dims, self.randomness = \
            func, in_dims, out_dims, randomness
        self.where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"

    def flat_inputs(self, args: tuple):
        if not args:
            raise ValueError(f"vmap({_name(self.func)})(<inputs>): got no inputs. Maybe you "
                             f"forgot to add inputs, or you are trying to vmap over a function "
                             f"with no inputs. The latter is unsupported.")
        if not isinstance(self.in_dims, (int, tuple)) or isinstance(self.in_dims, bool):
            if self.in_dims is not None:
                raise ValueError(f"{self.where}: expected `in_dims` to be int or a "
                                 f"(potentially nested) tuple matching the structure of "
                                 f"inputs, got: {type(self.in_dims)}.")
        flat, spec = tree_flatten(args)
        dims = _broadcast(self.in_dims, args, flat, spec, self.where, "in_dims", "inputs")
        for value, dim in zip(flat, dims):
            self._check_in_dim(value, dim)
        return flat, spec, dims

    def _check_in_dim(self, value, dim) -> None:
        if dim is None:
            return
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise ValueError(f"{self.where}: Got in_dim={dim} for an input but in_dim must be "
                             f"either an integer dimension or None.")
        if not isinstance(value, TensorBase):
            raise ValueError(f"{self.where}: Got in_dim={dim} for an input but the input is of "
                             f"type {type(value)}. We cannot vmap over non-Tensor arguments, "
                             f"please use None as the respective in_dim")
        rank = value.dim()
        if not -rank <= dim < rank:
            raise ValueError(f"{self.where}: Got in_dim={dim} for some input, but that input "
                             f"is a Tensor of dimensionality {rank} so expected in_dim to "
                             f"satisfy -{rank} <= in_dim < {rank}.")

    @staticmethod
    def batch_size(flat: list, dims: list) -> int:
        sizes = [value.size(dim) for value, dim in zip(flat, dims) if dim is not None]
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if any(s != sizes[0] for s in sizes):
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        return sizes[0]

    def run(self, flat: list, spec, dims: list, size: int, kwargs: dict):
        level = new_level()
        batched = [value if dim is None else add_batch_dim(value, dim % value.dim(), level)
                   for value, dim in zip(flat, dims)]
        levels.stack.append(VmapLevel(level, size, self.randomness))
        included, excluded = local_keys.included, local_keys.excluded
        local_keys.set(included | VMAP_MODE, excluded)
        try:
            outputs = self.func(*tree_unflatten(batched, spec), **kwargs)
        finally:
            local_keys.set(included, excluded)
            levels.stack.pop()
        return self.unwrap(outputs, level, size)

    def unwrap(self, outputs, level: int, size: int):
        flat, spec = tree_flatten(outputs)
        where = f"vmap({_name(self.func)}, ..., out_dims={self.out_dims})(<inputs>)"
        if not (self.out_dims is None or isinstance(self.out_dims, (int, tuple, list))):
            raise ValueError(f"vmap({_name(self.func)}, ..., out_dims={self.out_dims}): "
                             f"`out_dims` must be an int, None or a python collection of ints "
                             f"representing where in the outputs the vmapped dimension should "
                             f"appear.")
        dims = _broadcast(self.out_dims, outputs, flat, spec, where, "out_dims", "outputs")
        return tree_unflatten([self._unwrap_one(v, d, level, size) for v, d in zip(flat, dims)],
                              spec)

    def _unwrap_one(self, value, dim, level: int, size: int):
        name = _name(self.func)
        batched = type(value) is BatchedTensor and value._level == level
        if dim is None:
            if batched:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                 f"when out_dim is None")
            return value
        if not isinstance(value, TensorBase):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(value)}. Did you mean to set out_dims= to None for "
                             f"output?")
        dim = wrap_dim(dim, value.dim() + 1)
        if batched:
            return operator_entry("movedim", "int")(value._value, value._bdim, dim)
        expanded = operator_entry("unsqueeze", "default")(value, dim)
        shape = list(value._size)
        shape.insert(dim, size)
        return operator_entry("expand", "default")(expanded, shape, False)

    def chunked(self, flat, spec, dims, size: int, chunk_size: int, kwargs: dict):
        """Run the batch in pieces of `chunk_size` and join each output along its out dim."""
        pieces = []
        for start in range(0, size, chunk_size):
            length = min(chunk_size, size - start)
            part = [v if d is None else operator_entry("narrow", "default")(v, d, start, length)
                    for v, d in zip(flat, dims)]
            pieces.append(self.run(part, spec, dims, length, kwargs))
        flat_pieces = [tree_flatten(p)[0] for p in pieces]
        out_spec = tree_flatten(pieces[0])[1]
        out_dims = _broadcast(self.out_dims, pieces[0], flat_pieces[0], out_spec, "", "out_dims",
                              "outputs")
        joined = [parts[0] if d is None else operator_entry("cat", "default")(
                      list(parts), wrap_dim(d, parts[0].dim()))
                  for d, parts in zip(out_dims, zip(*flat_pieces))]
        return tree_unflatten(joined, out_spec)


def _broadcast(prefix, tree, flat: list, spec, where: str, what: str, of: str) -> list:
    """One dim per leaf of `tree`: `prefix` (an int / None, or a tuple matching the tree's
    structure down to where ints stand for whole subtrees)."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(flat)
    prefix_leaves, prefix_spec = tree_flatten(prefix)
    try:
        subtrees = prefix_spec.flatten_up_to(tree)
    except (ValueError, TypeError, KeyError, IndexError):
        raise ValueError(f"{where}: {what} is not compatible with the structure of `{of}`. "
                         f"{what} has structure {prefix_spec!r} but {of} has structure "
                         f"{spec!r}.") from None
    dims = []
    for dim, subtree in zip(prefix_leaves, subtrees):
        dims.extend([dim] * len(tree_flatten(subtree)[0]))
    return dims
