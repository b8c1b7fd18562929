"""Batched tensors: what a function under `vmap` sees in place of each mapped input.

Note [vmap under autograd]
    A `BatchedTensor` holds a `value` with one more dimension than the tensor it
    stands for (`bdim`, the batch), and the `level` of the vmap that made it. Its own
    sizes and strides are those of one sample (the *logical* tensor); its key set holds
    `FuncTorchBatched`, whose kernel (batching_rules.py) unwraps the batched arguments
    of a call, runs the operator once on the values with the batch dimension moved
    where the operator's rule needs it, and wraps the results.

    torch places FuncTorchBatched above Autograd and reaches the transforms' own
    autograd through its DynamicLayer keys, which wrap tensors once per level. This
    build has one wrapper, so the key sits under Autograd instead: a batched tensor
    that requires grad (a `grad` inside a `vmap`) has its per-sample graph recorded by
    the Autograd kernel before the batched kernel runs, and a value that requires grad
    (a `grad` outside the `vmap`) has its graph recorded on the values, by the calls
    the batched kernel makes. Both compositions hold at any depth; a nested vmap's
    value is itself a batched tensor of the level outside.

    The wrapper's own memory is never read: kernels never receive it (the batched
    kernel runs first), and the readers outside the dispatcher (`item`, `bool`,
    `tolist`, `numpy()`) refuse with torch's vmap errors.
"""
from __future__ import annotations

import itertools
import threading

from .._tensor import Tensor
from ..aten.dispatcher import operator_entry
from ..aten.meta.shape import wrap_dim
from ..c10.dispatch_key import BATCHED, DispatchKey, KEYS_BY_DEVICE_TYPE
from ..c10.tensor_impl import set_batched_alias

_PLAIN_KEYS = int(DispatchKey.ADInplaceOrView | DispatchKey.CPU | DispatchKey.Meta)

CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
                "control flow. We don't support that yet, please file an issue at "
                "https://github.com/pytorch/pytorch/issues .")
ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
        "calling .item() on a Tensor, please try to rewrite what you're doing with other "
        "operations. If error is occurring somewhere inside PyTorch internals, please file a "
        "bug report.")


class BatchedTensor(Tensor):
    """One sample's view of `value`, batched along `bdim` by the vmap of `level`."""

    __slots__ = ("_value", "_bdim", "_level")

    @property
    def _np(self):
        raise RuntimeError(CONTROL_FLOW)

    def __bool__(self) -> bool:
        raise RuntimeError(CONTROL_FLOW)

    def tolist(self):
        raise RuntimeError(CONTROL_FLOW)

    def numpy(self, *args, force: bool = False):
        raise RuntimeError(CONTROL_FLOW)

    def __repr__(self, *, tensor_contents=None) -> str:
        inner = "\n".join("    " + line for line in repr(self._value).splitlines())
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n{inner}\n)"


def add_batch_dim(value: Tensor, bdim: int, level: int) -> BatchedTensor:
    """Wrap `value` (already checked) as a batched tensor mapped along `bdim`."""
    t = object.__new__(BatchedTensor)
    t._value = value
    t._bdim = bdim
    t._level = level
    t._storage = value._storage
    t._size = value._size[:bdim] + value._size[bdim + 1:]
    t._stride = value._stride[:bdim] + value._stride[bdim + 1:]
    t._offset = value._offset
    t._dtype = value._dtype
    t._device = value._device
    t._arr = None
    t._vc = value._version_counter()       # writes through the wrapper bump the value's
    t._base = None
    t._keys = BATCHED | (value._keys & _PLAIN_KEYS or KEYS_BY_DEVICE_TYPE[value._device.type])
    t._autograd = None
    return t


def _alias(source: BatchedTensor, alias) -> BatchedTensor:
    """`make_view` of a batched tensor with its own geometry (autograd's saved values,
    `unpack_dual`'s primal): a batched tensor over the same value. Any other geometry
    has no meaning for a batched tensor, whose memory is not its own."""
    if (alias._size, alias._stride, alias._offset, alias._dtype) != \
            (source._size, source._stride, source._offset, source._dtype):
        raise RuntimeError("vmap: a view of a batched tensor was made from its memory; "
                           "views of batched tensors go through their operators")
    result = add_batch_dim(source._value, source._bdim, source._level)
    result._base = alias._base
    result._keys |= alias._keys
    return result


set_batched_alias(_alias)


def batch_level(value) -> int:
    """The vmap level `value` is batched at (0: not a batched tensor)."""
    return value._level if type(value) is BatchedTensor else 0


def front(value, level: int):
    """`value`'s tensor at `level` with the batch in front, or None when `value` is not
    batched at `level` (a tensor of an outer vmap is an unbatched one here)."""
    if type(value) is not BatchedTensor or value._level != level:
        return None
    if value._bdim == 0:
        return value._value
    return operator_entry("movedim", "int")(value._value, value._bdim, 0)


def wrap(result, level: int):
    """Results of a call on batch-in-front values, wrapped as batched tensors of `level`."""
    if isinstance(result, Tensor):
        return add_batch_dim(result, 0, level)
    if isinstance(result, tuple):          # torch.return_types take one sequence
        return type(result)([wrap(r, level) for r in result])
    if isinstance(result, list):
        return [wrap(r, level) for r in result]
    return result


def shift_dim(dim: int, rank: int) -> int:
    """A sample's `dim` (wrapped against its `rank`) as a dim of the batch-in-front value."""
    return wrap_dim(dim, rank) + 1


def align(value, rank: int):
    """A batch-in-front `value` with size-1 dims after the batch up to `rank` + 1 dims,
    so that it broadcasts, sample by sample, against tensors of logical rank `rank`."""
    unsqueeze = operator_entry("unsqueeze", "default")
    for _ in range(rank + 1 - value.dim()):
        value = unsqueeze(value, 1)
    return value


def materialise(value, level: int, batch_size: int):
    """`value` with the batch of `level` in front: expanded when it is not batched."""
    moved = front(value, level)
    if moved is not None:
        return moved
    expanded = operator_entry("unsqueeze", "default")(value, 0)
    return operator_entry("expand", "default")(expanded, (batch_size,) + tuple(value._size),
                                               False)


# ----------------------------------------------------------------------------------
# The vmaps running on this thread, innermost last
# ----------------------------------------------------------------------------------
class VmapLevel:
    """One running vmap: its level, batch size and randomness mode."""

    __slots__ = ("level", "batch_size", "randomness")

    def __init__(self, level: int, batch_size: int, randomness: str) -> None:
        self.level = level
        self.batch_size = batch_size
        self.randomness = randomness


class _Levels(threading.local):
    def __init__(self) -> None:
        self.stack: list = []


levels = _Levels()
# Levels only grow, so that a tensor escaping a vmap never passes for one of a later vmap.
_next_level = itertools.count(1)


def new_level() -> int:
    return next(_next_level)


def current_level(level: int) -> VmapLevel:
    """The running vmap of `level`; a tensor of a vmap that has returned is refused."""
    for entry in reversed(levels.stack):
        if entry.level == level:
            return entry
    raise RuntimeError(
        "Either your tensor may have escaped from inside a function being vmapped and this "
        "is a user error (see https://pytorch.org/functorch/stable/ux_limitations.html), or "
        "there is an internal functorch error in `gen_vmap_plumbing` Please file an issue "
        "if it looks like the latter")


def debug_unwrap(tensor, *, recurse: bool = True):
    """The tensor a batched tensor wraps (all levels down with `recurse`); any other
    tensor as it is. For looking at values while debugging a vmapped function.

    Example::

        >>> def f(t):
        ...     print(torch.func.debug_unwrap(t).shape)
        ...     return t
        >>> _ = torch.func.vmap(f)(torch.zeros(3, 2))
        torch.Size([3, 2])
    """
    while type(tensor) is BatchedTensor:
        tensor = tensor._value
        if not recurse:
            break
    return tensor
