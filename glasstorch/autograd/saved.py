"""Saved tensors: what a node keeps from the forward call for its backward formula.

torch's SavedVariable, in Python. It remembers the tensor's version when saved; if an
in-place write changed the tensor before backward reads it, the formula would compute
with the wrong values, so unpacking raises torch's error instead. A node's own output
is kept as a detached alias (keeping the output itself would make the output hold its
node and the node hold its output) and is reattached to the node when unpacked, so
that a second-order graph through it (`create_graph=True`) still flows to the node.
"""
from __future__ import annotations

import contextlib
import re
import threading
from typing import Iterator

from ..c10.dispatch_key import AUTOGRAD, INFERENCE
from ..c10.tensor_impl import AutogradMeta, make_view

_FREED = ("Trying to backward through the graph a second time (or directly access saved "
          "tensors after they have already been freed). Saved intermediate values of the "
          "graph are freed when you call .backward() or autograd.grad(). Specify "
          "retain_graph=True if you need to backward through the graph a second time or if "
          "you need to access saved tensors after calling backward.")
_HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
         "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


# forward_ad.hold_if_active, installed by forward_ad (which imports this module)
_tangent_holder: list = [None]


def set_tangent_holder(function) -> None:
    """Install forward mode's ``function(tensor, tangent)``, which unpacking a saved
    output with a tangent calls."""
    _tangent_holder[0] = function


class SavedTensor:
    """One tensor saved for backward, with the version it had."""

    __slots__ = ("data", "version", "output_nr", "is_output", "released", "packed",
                 "unpack_hook", "tangent")

    def __init__(self, tensor, is_output: bool = False, output_nr: int = 0) -> None:
        if tensor._keys & INFERENCE:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or "
                "use `torch.no_grad()` instead of `torch.inference_mode()`.")
        vc = tensor._vc                       # (`tensor._version`, read without a frame)
        self.version = 0 if vc is None else vc.value
        # an output autograd does not differentiate (native_layer_norm's mean) is saved
        # as a plain tensor: unpacking must not attach it to the node
        is_output = is_output and tensor._autograd is not None and tensor._autograd.requires_grad
        self.is_output = is_output
        self.output_nr = output_nr
        self.released = False
        self.data = make_view(tensor, (tensor._size, tensor._stride, tensor._offset), None) \
            if is_output else tensor
        self.unpack_hook = self.packed = None
        self.tangent = None       # an output's forward-mode tangent, given once it has one
        if _hooks.stack:                      # saved_tensors_hooks: keep what pack made
            pack, self.unpack_hook = _hooks.stack[-1]
            self.packed = pack(tensor)
            self.data = None

    def unpack(self, node):
        """The tensor, checked to be unchanged since it was saved."""
        if self.released:
            raise RuntimeError(_FREED)
        if self.unpack_hook is not None:
            return self.unpack_hook(self.packed)
        tensor = self.data
        vc = tensor._vc                       # (never an inference tensor: see __init__)
        if (0 if vc is None else vc.value) != self.version:
            raise RuntimeError(self._modified_message(tensor, node))
        if self.is_output:                    # reattach: gradients through it reach `node`
            alias = make_view(tensor, (tensor._size, tensor._stride, tensor._offset), None)
            meta = alias._autograd = AutogradMeta()       # (a new alias has none)
            meta.requires_grad = True
            meta.grad_fn = node
            meta.output_nr = self.output_nr
            alias._keys |= AUTOGRAD
            if self.tangent is not None:      # forward mode over this backward (hessian)
                _tangent_holder[0](alias, self.tangent)
            return alias
        return tensor

    def _modified_message(self, tensor, node) -> str:
        from ..aten.native.shape.view import type_string
        described = f"[{type_string(tensor)} {list(tensor._size)}]"
        # An input is named by its history now (after the write), as torch does.
        owner = node if self.is_output else tensor.grad_fn
        if owner is not None:
            name = short_name(owner)
            number = self.output_nr if self.is_output else tensor._autograd.output_nr
            described += f", which is output {number} of {name},"
        return (f"one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: {described} is at version {tensor._version}; "
                f"expected version {self.version} instead. {_HINT}")

    def release(self) -> None:
        self.released = True
        self.data = self.packed = None


def short_name(node) -> str:
    """A node's name as torch's autograd errors print it: without "Backward0"."""
    return re.sub(r"Backward\d*$", "", node.name())


class _HooksStack(threading.local):
    def __init__(self) -> None:
        self.stack: list = []
        self.disabled_message = None      # set inside disable_saved_tensors_hooks


_hooks = _HooksStack()


class saved_tensors_hooks:
    """Pack every tensor saved for backward with `pack_hook` and get it back with
    `unpack_hook` when backward needs it (e.g. to keep it elsewhere meanwhile).

    Args:
        pack_hook: ``tensor -> anything``, called when a tensor is saved.
        unpack_hook: ``anything -> tensor``, called when backward reads it.
    """

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hooks.disabled_message is not None:
            raise RuntimeError(_hooks.disabled_message)
        _hooks.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        _hooks.stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors in CPU memory until backward (glasstorch tensors always are,
    so packing is the identity; the class exists so torch code runs unchanged)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda tensor: tensor, lambda tensor: tensor)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Within the block, entering `saved_tensors_hooks` raises RuntimeError with
    `error_message` (for code whose saved tensors must stay as they are)."""
    previous, _hooks.disabled_message = _hooks.disabled_message, error_message
    try:
        yield
    finally:
        _hooks.disabled_message = previous
