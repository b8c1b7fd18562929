"""torch.utils.hooks: the handle hook registrations return, and the machinery behind
Module's full backward hooks.

Note [Module backward hooks]
    A Module has no node of its own in the autograd graph, so torch makes one on each
    side of the call: the tensors going in and the tensors coming out each pass through
    an identity autograd Function (``BackwardHookFunction``). When backward reaches the
    outputs' identity node, its hook sees the gradients with respect to the outputs
    (``grad_output``) and runs the backward pre-hooks; when it reaches the inputs'
    identity node, its hook sees the gradients with respect to the inputs
    (``grad_input``) and runs the full backward hooks with both, and their result may
    replace the gradients that flow on to the inputs.
"""
from __future__ import annotations

import functools
import warnings
import weakref
from typing import Any

from ..c10.tensor_impl import TensorBase

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks", "BackwardHook"]


class RemovableHandle:
    """What registering a hook returns: ``remove()`` takes the hook out again.

    The handle holds its dicts weakly (a handle kept around does not keep a dead
    module's hooks alive). `extra_dict` (one dict or a list of them) are dicts keyed
    by the same id that must forget the hook too, e.g. the "takes kwargs" markers.
    """

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self.extra_dict_ref: tuple = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        """Unregister the hook (a no-op when it is already gone)."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None:
                table.pop(self.id, None)

    def __getstate__(self):
        extra = tuple(ref() for ref in self.extra_dict_ref)
        return (self.hooks_dict_ref(), self.id, extra)

    def __setstate__(self, state) -> None:
        # A pickled handle whose dict was gone points at a fresh empty dict.
        from collections import OrderedDict
        self.hooks_dict_ref = weakref.ref(OrderedDict() if state[0] is None else state[0])
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in state[2]) if len(state) > 2 else ()

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def unserializable_hook(f):
    """Mark `f` as a hook that is not meant to be saved with its tensor: saving the
    tensor then gives no warning about it (see `warn_if_has_hooks`). Returns `f`."""
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor) -> None:
    """Warn about each backward hook on `tensor` that serialization would drop, unless
    it is marked with `unserializable_hook`."""
    from ..autograd.graph import tensor_hooks
    for hook in tensor_hooks(tensor).values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this "
                          "is expected, you can decorate the function with "
                          "@torch.utils.hooks.unserializable_hook to suppress this warning",
                          stacklevel=2)


def _pack_with_none(indices: list, values, size: int) -> tuple:
    """`values` placed at `indices` of a tuple of `size` Nones."""
    result = [None] * size
    for index, value in zip(indices, values):
        result[index] = value
    return tuple(result)


class BackwardHook:
    """One Module call's backward hooks; see Note [Module backward hooks].

    Args:
        module: the module called.
        user_hooks: the full backward hooks, ``hook(module, grad_input, grad_output)``.
        user_pre_hooks: the backward pre-hooks, ``hook(module, grad_output)``.
    """

    def __init__(self, module, user_hooks: list, user_pre_hooks: list) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    def setup_input_hook(self, args: tuple) -> tuple:
        """Route the tensor arguments through an identity node that calls the full
        backward hooks once their gradients are known."""
        result, self.input_tensors_index = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        return result

    def setup_output_hook(self, result):
        """Route the module's output tensors through an identity node that records
        grad_output and calls the backward pre-hooks."""
        is_tuple = isinstance(result, tuple)
        outputs = result if is_tuple else (result,)
        wrapped, self.output_tensors_index = self._apply_on_tensors(self._set_output_hook,
                                                                    outputs)
        self.n_outputs = len(outputs)
        return wrapped if is_tuple else wrapped[0]

    def _apply_on_tensors(self, register, args: tuple) -> tuple:
        """`args` with its tensors replaced by identity-Function outputs (and the
        positions of those tensors), or `args` and None when nothing requires grad."""
        from ..autograd.grad_mode import is_grad_enabled
        positions = [i for i, arg in enumerate(args) if isinstance(arg, TensorBase)]
        tensors = [args[i] for i in positions]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new_tensors = _backward_hook_function().apply(*tensors)
        if not isinstance(new_tensors, tuple):
            new_tensors = (new_tensors,)
        register(next(t.grad_fn for t in new_tensors if t.grad_fn is not None))
        values = list(args)
        for index, tensor in zip(positions, new_tensors):
            values[index] = tensor
        return (tuple(values) if type(args) is tuple else type(args)(*values)), positions

    def _set_user_hook(self, grad_fn) -> None:
        def hook(grad_input, _):
            if self.grad_outputs is None:        # the outputs' gradients never arrived
                return None
            result = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, result, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(result):
                    raise RuntimeError(f"Backward hook returned an invalid number of "
                                       f"grad_input, got {len(out)}, but expected "
                                       f"{len(result)}")
                result = out
            self.grad_outputs = None
            return tuple(result[i] for i in self.input_tensors_index)
        grad_fn.register_hook(hook)

    def _set_output_hook(self, grad_fn) -> None:
        def hook(_, grad_output):
            self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output,
                                                self.n_outputs)
            self._run_pre_hooks()
            local_grad_outputs = self.grad_outputs
            if self.input_tensors_index is None:
                self._run_hooks_without_inputs()
            return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
        grad_fn.register_hook(hook)

    def _run_pre_hooks(self) -> None:
        expected = len(self.grad_outputs)
        for user_pre_hook in self.user_pre_hooks:
            replaced = user_pre_hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != expected:
                raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                   f"grad_output, got {len(replaced)}, but expected {expected}")
            self.grad_outputs = replaced

    def _run_hooks_without_inputs(self) -> None:
        """No input requires grad: the full hooks run now, with grad_input all None."""
        warnings.warn(
            "Full backward hook is firing when gradients are computed with respect to module "
            "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/"
            "main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
            "for more details.", stacklevel=5)
        grad_inputs = (None,) * self.n_inputs
        for user_hook in self.user_hooks:
            result = user_hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None and not (isinstance(result, tuple)
                                           and all(g is None for g in result)):
                raise RuntimeError("Backward hook for Modules where no input requires gradient "
                                   "should always return None or None for all gradients.")
        self.grad_outputs = None


@functools.cache
def _backward_hook_function():
    """The identity autograd Function, made on first use (glasstorch.autograd is imported
    after glasstorch.nn)."""
    from ..autograd.function import Function

    class BackwardHookFunction(Function):
        @staticmethod
        def forward(ctx, *args):
            ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
            return args

        @staticmethod
        def backward(ctx, *args):
            return args

    return BackwardHookFunction
