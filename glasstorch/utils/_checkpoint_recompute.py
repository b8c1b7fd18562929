"""The non-reentrant checkpoint: saved-tensor hooks that keep handles in forward and
recompute the block on the first unpack (Note [Checkpointing two ways] in checkpoint.py).
"""
from __future__ import annotations

import contextlib
import weakref
from typing import Callable, Iterator

from ..aten.observers import DispatchObserver, Region, add_observer, remove_observer
from ..autograd.grad_mode import enable_grad
from ..autograd.saved import saved_tensors_hooks
from ..random import fork_rng, get_rng_state, set_rng_state

_TIP = ("\n\nTip: To see a more detailed error message, either pass `debug=True` to\n"
        "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
        "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
        "enable checkpoint\u2011debug mode globally.\n\n"
        "If this error occurs under torch.compile with automatic_dynamic_shapes enabled,\n"
        "it may be because the recomputation selected a different compiled graph than the\n"
        "forward pass (e.g., a dynamic graph instead of the original static graph).\n"
        "To fix this, either:\n"
        "  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as\n"
        "    dynamic upfront, avoiding the static-to-dynamic transition.\n"
        "  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache\n"
        "    reordering, which can change which graph is checked first between forward\n"
        "    and recompute.\n"
        "See https://github.com/pytorch/pytorch/issues/166926 for more details and\n"
        "workaround examples.\n")
_CHECKS = ("default", "none")


class CheckpointError(RuntimeError):
    """A checkpoint's recomputation did not save what its forward saved."""


class _Settings:
    debug = None            # set_checkpoint_debug_enabled: None defers to `debug=`
    early_stop = True


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None) -> Iterator[None]:
    """Within the block, every non-reentrant checkpoint runs with ``debug=enabled``
    (None: as each call says)."""
    previous, _Settings.debug = _Settings.debug, enabled
    try:
        yield
    finally:
        _Settings.debug = previous


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Within the block, non-reentrant checkpoints stop recomputing as soon as every
    saved tensor is back (`enable`), or run the whole block again."""
    previous, _Settings.early_stop = _Settings.early_stop, enable
    try:
        yield
    finally:
        _Settings.early_stop = previous


class _StopRecomputation(Exception):
    """Raised from a pack hook once every saved tensor is recomputed (early stop)."""


class _Handle:
    """What the forward's pack hook keeps in place of a tensor: its position."""

    __slots__ = ("index", "__weakref__")

    def __init__(self, index: int) -> None:
        self.index = index


def _metadata(tensor) -> dict:
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


class _OpNames(DispatchObserver):
    """Notes the operators a run executed, for a debug message."""

    def __init__(self) -> None:
        self.names: list = []

    def enter(self, op, name: str, args: tuple, keyset: int = 0):
        if not isinstance(op, Region):
            self.names.append(f"aten::{op.name}")


class _Frame:
    """One checkpointed call: the handles its forward gave out and the tensors a
    recomputation brought back for them."""

    def __init__(self, recompute: Callable, check: bool, early_stop: bool,
                 debug: bool) -> None:
        self.run = recompute
        self.check = check
        self.early_stop = early_stop
        self.debug = debug
        self.saved_metadata: list = []
        self.handles = weakref.WeakValueDictionary()    # index -> handle still held
        self.recomputed: dict = {}                      # index -> tensor
        self.recomputed_metadata: list = []
        self.forward_ops = self.recompute_ops = None

    def pack(self, tensor) -> _Handle:
        handle = _Handle(len(self.saved_metadata))
        self.saved_metadata.append(_metadata(tensor))
        self.handles[handle.index] = handle
        # a node that released its saved tensors drops the handle: its tensor goes too
        weakref.finalize(handle, self.recomputed.pop, handle.index, None)
        return handle

    def unpack(self, handle: _Handle):
        if handle.index not in self.recomputed:
            self._recompute()
        return self.recomputed[handle.index]

    def collect(self, tensor):
        index = len(self.recomputed_metadata)
        if index == len(self.saved_metadata):
            self._fail("torch.utils.checkpoint: trying to save more tensors during "
                       "recomputation than during the original forward pass.")
        self.recomputed_metadata.append(_metadata(tensor))
        if index in self.handles:                # a node still holds this one's handle
            self.recomputed[index] = tensor.detach()
        if self.early_stop and index + 1 == len(self.saved_metadata):
            raise _StopRecomputation
        return None

    def _recompute(self) -> None:
        self.recomputed_metadata = []
        observer = _OpNames() if self.debug else None
        try:
            with _observing(observer), saved_tensors_hooks(self.collect, _no_unpack):
                self.run()
        except _StopRecomputation:
            pass
        self.recompute_ops = observer.names if observer is not None else None
        if self.check:
            self._check()

    def _check(self) -> None:
        saved, recomputed = self.saved_metadata, self.recomputed_metadata
        if len(saved) != len(recomputed):
            self._fail("torch.utils.checkpoint: A different number of tensors was saved "
                       "during the original forward and recomputation.\nNumber of tensors "
                       f"saved during forward: {len(saved)}\nNumber of tensors saved during "
                       f"recomputation: {len(recomputed)}.")
        lines = []
        for index, (before, after) in enumerate(zip(saved, recomputed)):
            if before != after:
                lines.append(f"tensor at position {index}:\nsaved metadata: "
                             f"{_show(before)}\nrecomputed metadata: {_show(after)}\n")
        if lines:
            self._fail("torch.utils.checkpoint: Recomputed values for the following tensors "
                       "have different metadata than during the forward pass.\n"
                       + "".join(lines) + ".")

    def _fail(self, message: str):
        if not self.debug:
            raise CheckpointError(message + _TIP)
        raise CheckpointError(
            "An error happened while unpacking tensors; dumping logs of latest computation\n"
            "because you passed `debug=True` to `torch.utils.checkpoint.checkpoint()`.\n\n"
            "Operators that ran in the original forward:\n  "
            + "\n  ".join(self.forward_ops or ()) + "\n\nOperators that ran in the "
            "recomputation:\n  " + "\n  ".join(self.recompute_ops or ()) + "\n\n" + message)


def _show(metadata: dict) -> str:
    return "{" + ", ".join(f"'{k}': {v!r}" for k, v in metadata.items()) + "}"


def _no_unpack(value):
    """The recomputation's unpack hook: its graph is never run backward."""
    return value


@contextlib.contextmanager
def _observing(observer) -> Iterator[None]:
    if observer is None:
        yield
        return
    add_observer(observer)
    try:
        yield
    finally:
        remove_observer(observer)


def checkpoint_without_reentrant(function: Callable, preserve_rng_state: bool, context_fn,
                                 determinism_check: str, debug: bool, early_stop: bool,
                                 *args, **kwargs):
    """Run `function` under hooks that keep handles, recomputing it in backward."""
    if determinism_check not in _CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_CHECKS)}, but got "
                         f"{determinism_check}")
    debug = debug if _Settings.debug is None else _Settings.debug
    forward_context, recompute_context = context_fn()
    rng_state = get_rng_state() if preserve_rng_state else None

    def recompute() -> None:
        with fork_rng(devices=[], enabled=preserve_rng_state):
            if preserve_rng_state:
                set_rng_state(rng_state)
            with enable_grad(), recompute_context:
                function(*args, **kwargs)

    frame = _Frame(recompute, determinism_check == "default",
                   early_stop and _Settings.early_stop, debug)
    observer = _OpNames() if debug else None
    with _observing(observer), saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        result = function(*args, **kwargs)
    frame.forward_ops = observer.names if observer is not None else None
    return result
