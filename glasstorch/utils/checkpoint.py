"""`torch.utils.checkpoint`: trade compute for memory by recomputing a block in backward.

Note [Checkpointing two ways]
A checkpointed block keeps none of the tensors its operators would save for backward;
backward runs the block again to get them. torch has two ways, and so has this module:

- *Reentrant* (``use_reentrant=True``): the block is one custom autograd Function. Its
  forward runs the block under no_grad (nothing recorded, nothing saved but the
  inputs); its backward runs the block again with grad on, from detached copies of
  the inputs, and calls ``autograd.backward`` on that fresh graph: a backward inside
  the backward, hence the name. Gradients reach the inputs only, so it cannot serve
  ``autograd.grad`` or ``backward(inputs=...)``.
- *Non-reentrant* (``use_reentrant=False``): the block runs with grad on and records its
  graph as usual, under saved-tensor hooks (`saved_tensors_hooks`) whose pack hook
  keeps a small handle instead of each tensor. The first unpack in backward runs the
  block again under hooks that collect what it saves, in order; the n-th handle is
  the n-th tensor saved. The recomputation stops as soon as every handle has its
  tensor (early stop), and its tensors' shapes, dtypes and devices are checked against
  the first run's (the determinism check).

Both run the recomputation from the random state the forward started with (when
``preserve_rng_state``), so dropout inside the block draws the same mask twice.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Callable, ContextManager, Iterable

from ..autograd.graph_task import is_checkpoint_valid
from ..autograd.function import Function
from ..autograd.gradients import backward as autograd_backward
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.saved import SavedTensor  # noqa: F401  (torch's module re-exports these)
from ..c10.tensor_impl import TensorBase
from ..random import fork_rng, get_rng_state, set_rng_state
from ._checkpoint_selective import (SAC_IGNORED_OPS, CheckpointPolicy,  # noqa: F401
                                    SelectiveCheckpointContext,
                                    create_selective_checkpoint_contexts)
from ._python_dispatch import TorchDispatchMode  # noqa: F401
from ._pytree import tree_map  # noqa: F401
from ._checkpoint_recompute import (CheckpointError, checkpoint_without_reentrant,  # noqa: F401
                                    set_checkpoint_debug_enabled, set_checkpoint_early_stop)

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "get_device_states",
           "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "DefaultDeviceType", "set_checkpoint_debug_enabled", "CheckpointPolicy",
           "SelectiveCheckpointContext", "create_selective_checkpoint_contexts",
           "SAC_IGNORED_OPS", "GraphExecGroup"]

_PASS_USE_REENTRANT = (
    "the use_reentrant parameter should be passed explicitly. {when} use_reentrant=False "
    "is recommended, but if you need to preserve the current default behavior, you can "
    "pass use_reentrant=True. Refer to docs for more details on the differences between "
    "the two variants.")


def detach_variable(inputs: tuple) -> tuple:
    """`inputs` with each tensor replaced by a detached alias that requires grad as the
    tensor did (the leaves of a recomputation).

    Raises:
        RuntimeError: when `inputs` is not a tuple.
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for value in inputs:
        if isinstance(value, TensorBase):
            detached = value.detach()
            detached.requires_grad = value.requires_grad
            value = detached
        out.append(value)
    return tuple(out)


def check_backward_validity(inputs: Iterable[Any]) -> None:
    """Warn when no tensor of `inputs` requires grad: the block's gradients will be None."""
    if not any(isinstance(value, TensorBase) and value.requires_grad for value in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


def get_device_states(*args) -> tuple:
    """The random states of the accelerator devices the tensors of `args` are on: none
    here (CPU tensors only), so ``([], [])``."""
    return [], []


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restore accelerator random states made by `get_device_states` (there are none)."""


class DefaultDeviceType:
    """The device type whose random state a checkpoint saves besides the CPU's."""

    _default_device_type = "cpu"

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        """Set the device type."""
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        """The device type."""
        return DefaultDeviceType._default_device_type


class GraphExecGroup:
    """Groups backward calls that may share one recomputation of a checkpoint (a
    context manager; each backward here recomputes on its own)."""

    def __enter__(self) -> "GraphExecGroup":
        return self

    def __exit__(self, *exc) -> None:
        return None


def noop_context_fn() -> tuple:
    """The default `context_fn`: two contexts that do nothing."""
    return contextlib.nullcontext(), contextlib.nullcontext()


class CheckpointFunction(Function):
    """The reentrant checkpoint as an autograd Function (Note [Checkpointing two ways])."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = get_rng_state()
        ctx.inputs = [None if isinstance(a, TensorBase) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, TensorBase)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, TensorBase)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for index, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[index] = tensor
        with fork_rng(devices=[], enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                set_rng_state(ctx.fwd_cpu_state)
            detached = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(out, grad) for out, grad in zip(outputs, grads)
                 if isinstance(out, TensorBase) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        autograd_backward([out for out, _ in pairs], [grad for _, grad in pairs])
        return (None, None) + tuple(value.grad if isinstance(value, TensorBase) else None
                                    for value in detached)


def checkpoint(function: Callable, *args, use_reentrant: bool | None = None,
               context_fn: Callable[[], tuple[ContextManager, ContextManager]] = noop_context_fn,
               determinism_check: str = "default", debug: bool = False,
               early_stop: bool = True, **kwargs):
    """Run ``function(*args, **kwargs)`` keeping none of its intermediate tensors; backward
    runs it again to get them (Note [Checkpointing two ways]).

    Args:
        function: the block to run.
        args, kwargs: its arguments (keywords only without `use_reentrant`).
        use_reentrant: which way (the note); pass it: a warning says so when it is
            left out, and then it is True.
        preserve_rng_state: (keyword) recompute from the forward's random state;
            default True.
        context_fn: returns two context managers, one around the forward, one around
            the recomputation (non-reentrant only).
        determinism_check: ``'default'`` compares the recomputed tensors' shapes,
            dtypes and devices with the forward's; ``'none'`` does not.
        debug: name the operators each run executed when the check fails.
        early_stop: stop the recomputation once every saved tensor is back.

    Returns:
        What `function` returns.

    Example::

        >>> y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
        >>> y.sum().backward()
    """
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: " + _PASS_USE_REENTRANT.format(
            when="Starting in PyTorch 2.9, calling checkpoint without use_reentrant will "
                 "raise an exception."), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve, *args)
    return checkpoint_without_reentrant(function, preserve, context_fn, determinism_check,
                                        debug, early_stop, *args, **kwargs)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs):
    """Run a sequence of modules (or functions) in `segments` chunks, checkpointing every
    chunk but the last.

    Args:
        functions: a `torch.nn.Sequential` or a list of callables run in order.
        segments: the number of chunks.
        input: the first callable's input.
        use_reentrant: as for `checkpoint`.
        preserve_rng_state: (keyword) as for `checkpoint`.

    Returns:
        The last callable's output.
    """
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: " + _PASS_USE_REENTRANT
                      .format(when="In version 2.9 we will raise an exception if "
                                   "use_reentrant is not passed."), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children") and callable(functions.children):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        chunk = _run_chunk(functions, start, end)
        input = checkpoint(chunk, input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return _run_chunk(functions, end + 1, len(functions) - 1)(input)


def _run_chunk(functions: list, start: int, end: int) -> Callable:
    def forward(input):
        for index in range(start, end + 1):
            input = functions[index](input)
        return input
    return forward

