"""`torch.autograd.Function`: operators whose forward and backward the user writes.

``MyFn.apply(*args)`` runs ``MyFn.forward`` with grad mode off (the user's forward is
one operation, not a graph of them), then, when an input requires grad, records one
node, ``MyFnBackward``, whose `apply` calls ``MyFn.backward`` with the saved context.
Both styles of torch work: ``forward(ctx, *args)``, or ``forward(*args)`` plus
``setup_context(ctx, inputs, output)``.
"""
from __future__ import annotations

import functools

from ..c10.dispatch_key import AUTOGRAD
from ..c10.tensor_impl import TensorBase
from .grad_mode import is_grad_enabled, no_grad
from .graph import InputMetadata, Node, gradient_edge
from .saved import SavedTensor
from .creation_meta import IN_CUSTOM_FUNCTION
from .views import rebase_history


class FunctionCtx:
    """The `ctx` of a custom Function: what forward leaves for backward."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward (checked against later in-place changes)."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare the inputs forward wrote in place."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that have no gradient (indices, masks)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether backward gets zeros (True, the default) or None for missing gradients."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The recorded node of one custom Function call; it is also the call's `ctx`."""

    _forward_cls = None

    def __init__(self) -> None:
        Node.__init__(self, ())
        self.to_save = ()
        self.dirty_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self.saved_for_forward = ()
        self._saved = None
        self._freed = False
        self._in_jvp = False

    def __repr__(self) -> str:          # torch's classes live in torch.autograd.function
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    @property
    def saved_tensors(self) -> tuple:
        if self._in_jvp:                     # inside jvp: what save_for_forward kept
            return tuple(self.saved_for_forward)
        if self._freed:
            from .saved import _FREED
            raise RuntimeError(_FREED)
        if self._saved is None:
            return tuple(self.to_save)
        return tuple(None if s is None else s.unpack(self) for s in self._saved)

    def apply(self, grads: list) -> list:
        if self.materialize_grads:
            from .engine import zeros_for
            grads = [zeros_for(m) if g is None else g for g, m in zip(grads, self._input_metadata)]
        found = self._forward_cls.backward(self, *grads)
        found = list(found) if isinstance(found, tuple) else [found]
        return _gradients_for_edges(self, found)

    def release(self) -> None:
        if self._saved is not None:
            for saved in self._saved:
                if saved is not None:
                    saved.release()
        self._freed = True


def _gradients_for_edges(node, found: list) -> list:
    """backward returns one value per forward argument; keep those of tensor inputs."""
    positions = node._tensor_positions
    if len(found) < node._n_args:
        if len(found) != len(positions):
            raise RuntimeError(f"function {node.name()} returned an incorrect number of "
                               f"gradients (expected {node._n_args}, got {len(found)})")
        return found
    if len(found) > node._n_args:
        extra = found[node._n_args:]
        if any(g is not None for g in extra):
            raise RuntimeError(f"function {node.name()} returned an incorrect number of "
                               f"gradients (expected {node._n_args}, got {len(found)})")
    return [found[i] for i in positions]


class FunctionMeta(type):
    """Gives each Function subclass its node type, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs) -> None:
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(f"{name}Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls})


class Function(metaclass=FunctionMeta):
    """Base class of custom autograd operations.

    Example::

        >>> class Square(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         x, = ctx.saved_tensors
        ...         return 2 * x * grad
        >>> x = torch.tensor([3.], requires_grad=True)
        >>> Square.apply(x).backward()
        >>> x.grad
        tensor([6.])
    """

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run the Function: forward now, its backward when gradients flow."""
        node = cls._backward_cls()
        positions = [i for i, a in enumerate(args) if isinstance(a, TensorBase)]
        node._tensor_positions, node._n_args = positions, len(args)
        node.needs_input_grad = tuple(isinstance(a, TensorBase) and a.requires_grad
                                      for a in args)
        separate = cls.setup_context is not Function.setup_context
        with no_grad():
            output = cls.forward(*args, **kwargs) if separate else \
                cls.forward(node, *args, **kwargs)
        if separate:
            cls.setup_context(node, args, output)
        recording = is_grad_enabled() and any(node.needs_input_grad)
        wrapped = _wrap_outputs(node, args, output, recording)
        _forward_tangents(cls, node, args, wrapped)
        return wrapped


def _wrap_outputs(node, args: tuple, output, recording: bool):
    """Attach the node to the outputs (and to dirty inputs); save what ctx asked."""
    single = not isinstance(output, tuple)
    outputs = [output] if single else list(output)
    if recording:
        node.next_functions = tuple(gradient_edge(args[i]) for i in node._tensor_positions)
    inputs = {id(a) for a in args if isinstance(a, TensorBase)}
    dirty = {id(t) for t in node.dirty_tensors}
    for tensor in node.dirty_tensors:
        if recording and tensor.requires_grad and tensor.is_leaf:
            raise RuntimeError("a leaf Variable that requires grad has been used in an "
                               "in-place operation.")
    excluded = {id(t) for t in node.non_differentiable}
    for index, value in enumerate(outputs):
        if not isinstance(value, TensorBase):
            continue
        differentiable = id(value) not in excluded       # read before an alias replaces it
        if id(value) in inputs and id(value) not in dirty:   # returned as is: an alias
            value = outputs[index] = value.view_as(value)
        if recording and differentiable and (value._dtype.is_floating_point
                                             or value._dtype.is_complex):
            meta = value._autograd_meta()
            meta.grad_fn, meta.output_nr, meta.requires_grad = node, index, True
            value._keys |= AUTOGRAD
            if value._base is not None and id(value) not in dirty:   # Note [Views autograd
                # cannot rebase] (views.py): no rebasing of a Function's views
                value._creation_meta = IN_CUSTOM_FUNCTION
                meta.attr_version = value._version
    node._input_metadata = [InputMetadata((v._size, v._dtype, v._device))
                            if isinstance(v, TensorBase) else None for v in outputs]
    if recording:
        _rebase_dirty_views(node, args, outputs, dirty)
        outputs_ids = {id(v): i for i, v in enumerate(outputs)}
        node._saved = [None if t is None else SavedTensor(
            t, is_output=id(t) in outputs_ids, output_nr=outputs_ids.get(id(t), 0))
            for t in node.to_save]
    return outputs[0] if single else tuple(outputs)


_DIRTY_VIEW_OF_MANY = (
    "If your Function modifies inplace an input that is a view of another Tensor, your "
    "Function cannot return more than one Tensor. This is not supported by the current "
    "autograd engine. You should either make sure the input is not a view (using .clone() "
    "for example) or make your Function only return one Tensor (potentially splitting it "
    "into two Functions: one doing the inplace that returns a single Tensor and a second one "
    "that does the other operations). You can ask on the forum "
    "https://discuss.pytorch.org/ if you need help to do this change.")


def _rebase_dirty_views(node, args: tuple, outputs: list, dirty: set) -> None:
    """A view the Function wrote in place (mark_dirty) changed its base: the base's
    history becomes a CopySlices over the node, as for an in-place operator."""
    for value in outputs:
        if id(value) in dirty and value._base is not None and value.requires_grad:
            if len(outputs) > 1:
                raise RuntimeError(_DIRTY_VIEW_OF_MANY)
            input_nr = next(k for k, i in enumerate(node._tensor_positions) if args[i] is value)
            rebase_history(value, node, gradient_edge(value._base), input_nr)


def _forward_tangents(cls, node, args: tuple, outputs) -> None:
    """Forward AD through a custom Function: its `jvp` maps input tangents to output
    tangents (one per forward argument in, one per output out)."""
    from . import forward_ad
    if not forward_ad.is_active():
        return
    tangents = [forward_ad.tangent_of(a) for a in args]
    if all(t is None for t in tangents):
        return
    node._in_jvp = True
    try:
        found = cls.jvp(node, *tangents)
    finally:
        node._in_jvp = False
    results = outputs if isinstance(outputs, tuple) else (outputs,)
    found = found if isinstance(found, tuple) else (found,)
    for output, tangent in zip(results, found):
        if isinstance(output, TensorBase) and tangent is not None:
            forward_ad.set_tangent(output, tangent)


def once_differentiable(backward):
    """Mark a Function's backward as not itself differentiable: it runs without
    recording, so double backward through it is refused instead of wrong."""
    @functools.wraps(backward)
    def wrapped(ctx, *grads):
        with no_grad():
            return backward(ctx, *grads)
    return wrapped


class NestedIOFunction(Function):
    """torch's pre-0.4 Function style, kept for the name: subclasses defined
    `forward_extended` and `backward_extended` as instance methods. Write a `Function`
    with static `forward` and `backward` instead."""

    def forward_extended(self, *input):
        """The user's forward."""
        raise NotImplementedError

    def backward_extended(self, *grad_output):
        """The user's backward."""
        raise NotImplementedError
