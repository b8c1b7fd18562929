"""Inference mode: no graph, and tensors that promise never to join one.

`inference_mode` turns recording off like `no_grad`, and also marks what it creates as
*inference tensors*: they carry no version counter and no view links, so autograd may
never save them, nor may they be written in place once the mode is off (a saved copy
elsewhere could not notice). torch enforces this in its dispatcher; glasstorch does it
with one dispatch key, `Inference`, that is on while the mode is and on the tensors
made in it, and whose kernel (`inference_fallback`) marks results and refuses the
writes.
"""
from __future__ import annotations

from ..c10.dispatch_key import AUTOGRAD, FORWARD_AD, INFERENCE, local_keys
from ..c10.tensor_impl import TensorBase
from .grad_mode import _DecoratorContextManager

_INPLACE_OUTSIDE = ("Inplace update to inference tensor outside InferenceMode is not allowed."
                    "You can make a clone to get a normal tensor before doing inplace update."
                    "See https://github.com/pytorch/rfcs/pull/17 for more details.")


def is_inference_mode_enabled() -> bool:
    """Whether inference mode is on in this thread."""
    return bool(local_keys.included & INFERENCE)


class inference_mode(_DecoratorContextManager):
    """Run code without recording the graph and with inference tensors (faster than
    `no_grad`; the tensors made cannot enter autograd later).

    Args:
        mode (bool): turn inference mode on (default) or off.

    Example::

        >>> with torch.inference_mode():
        ...     y = model(x)
        >>> y.is_inference()
        True
    """

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.prev = (local_keys.included, local_keys.excluded)
        included, excluded = self.prev
        if self.mode:
            local_keys.set(included | INFERENCE, excluded | AUTOGRAD | FORWARD_AD)
        else:
            local_keys.set(included & ~INFERENCE, excluded & ~(AUTOGRAD | FORWARD_AD))

    def __exit__(self, *exc) -> None:
        local_keys.set(*self.prev)

    def clone(self):
        return type(self)(self.mode)


def inference_fallback(op, keys_below: int, args: tuple):
    """The Inference key's kernel for every operator (see the module's docstring)."""
    if not local_keys.included & INFERENCE:          # an inference tensor, mode off
        for index in op.written_args:
            written = args[index]
            if isinstance(written, TensorBase) and written._keys & INFERENCE:
                raise RuntimeError(_INPLACE_OUTSIDE)
        return op.redispatch(keys_below, args)
    result = op.redispatch(keys_below, args)
    inputs = {id(a) for a in args if isinstance(a, TensorBase)}
    for tensor in result if isinstance(result, (list, tuple)) else (result,):
        if isinstance(tensor, TensorBase) and id(tensor) not in inputs:
            _mark(tensor)
    return result


def _mark(tensor) -> None:
    """Fresh results and views of inference tensors are inference tensors (without view
    links); a view of a normal tensor stays a normal view."""
    base = tensor._base
    if base is None or base._keys & INFERENCE:
        tensor._keys |= INFERENCE
        tensor._base = None
