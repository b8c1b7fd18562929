"""`backward` and `grad`: differentiate outputs, into the leaves' `.grad` or returned.

Both check their arguments the way torch does, make each output's starting gradient
(1 for a scalar output), find the graph's root edges and hand them to the engine
(`engine.py`); `grad` also captures the gradients reaching its inputs. They are
`torch.autograd.backward` and `torch.autograd.grad`; `Tensor.backward` calls the first.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np

from ..aten.binding import get_binding
from ..c10.dispatch_key import PYTHON, local_keys
from ..c10.tensor_impl import TensorBase, contiguous_strides, tensor_class, wrap_array
from .engine import execute
from .graph import accumulate_into_grad, gradient_edge


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, TensorBase):
        return (value,)
    return tuple(value)


def _root_grads(outputs: tuple, grad_outputs: tuple, create_graph: bool,
                batched: bool = False) -> list:
    """The gradient each output starts with: given, or 1 for a scalar output. `batched`
    (is_grads_batched): a given gradient has a batch dimension in front."""
    if grad_outputs and len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad requires one gradient per output: got {len(grad_outputs)} "
                           f"tensors and {len(outputs)} gradients")
    grads = []
    for i, out in enumerate(outputs):
        given = grad_outputs[i] if grad_outputs else None
        if given is None:
            if not out.requires_grad:
                grads.append(None)
                continue
            if out._size.count(1) != len(out._size):       # numel() != 1
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not out._dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar "
                                   f"outputs but got {out.dtype}")
            given = _ones_like(out)
        elif batched and isinstance(given, TensorBase) and given._size[1:] != out._size:
            # (torch's message strips the batch dimension twice: its shape omits one more)
            raise RuntimeError(
                f"If `is_grads_batched=True`, we interpret the first dimension of each "
                f"grad_output as the batch dimension. The sizes of the remaining dimensions "
                f"are expected to match the shape of corresponding output, but a mismatch "
                f"was detected: grad_output[{i}] has a shape of {given.shape[2:]} and "
                f"output[{i}] has a shape of {out.shape}. If you only want some tensors in "
                f"`grad_output` to be considered batched, consider using vmap.")
        elif not batched and isinstance(given, TensorBase) and given._size != out._size:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{given.shape} and output[{i}] has a shape of {out.shape}.")
        grads.append(given)
    return grads


def _ones_like(out):
    """The implicit gradient 1 of a scalar output: ``torch.ones_like(out)``, made directly
    when nothing could observe that call (a row-major CPU tensor of the plain class, no
    dispatch mode or observer in force): one allocation instead of a factory's dispatch
    and fill."""
    if type(out) is tensor_class() and out._device.type == "cpu" \
            and not (out._keys & PYTHON or local_keys.included or local_keys.observed) \
            and out._stride == contiguous_strides(out._size):
        ones = np.empty(out._size, out._dtype._np)
        ones.fill(1)                          # (np.ones is a Python wrapper of these two)
        return wrap_array(ones, out._dtype, out._stride)
    return get_binding("function", "ones_like")(out)


def _root_edges(outputs: tuple) -> list:
    edges = []
    for i, out in enumerate(outputs):
        edge = gradient_edge(out)
        if edge[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        edges.append(edge)
    return edges


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables=None, inputs=None) -> None:
    """Accumulate into `.grad` of the leaves the gradients of `tensors`.

    Args:
        tensors (Tensor or sequence of Tensor): the outputs to differentiate.
        grad_tensors (sequence of Tensor or None): the gradient of each output (may be
            omitted for scalar outputs: 1).
        retain_graph (bool): keep the graph's saved tensors for another backward
            (default: `create_graph`).
        create_graph (bool): record the backward pass, for higher-order derivatives.
        inputs (sequence of Tensor): accumulate only into these tensors' `.grad`.

    Example::

        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> torch.autograd.backward((x * x).sum())
        >>> x.grad
        tensor([2., 4.])
    """
    outputs = _as_tuple(tensors)
    given = grad_tensors if grad_variables is None else grad_variables
    grads = _root_grads(outputs, () if given is None else _as_tuple(given), create_graph)
    retain = create_graph if retain_graph is None else retain_graph
    targets = () if inputs is None else _as_tuple(inputs)
    if inputs is not None and not targets:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    edges = _root_edges(outputs)
    if not targets:
        execute(edges, grads, retain, create_graph)
        return
    found = execute(edges, grads, retain, create_graph, [_input_edge(t) for t in targets])
    for tensor, grad in zip(targets, found):
        if grad is not None:
            accumulate_into_grad(tensor, grad)


def _input_edge(tensor) -> tuple:
    edge = gradient_edge(tensor)
    if edge[0] is None:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return edge


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """The gradients of `outputs` with respect to `inputs`, returned (not accumulated).

    Args:
        outputs (Tensor or sequence of Tensor): what to differentiate.
        inputs (Tensor, sequence of Tensor or dict of Tensor): with respect to what (a
            dict gives a dict of gradients, under the same keys).
        grad_outputs (sequence of Tensor or None): the gradient of each output.
        retain_graph (bool): keep the graph for another backward (default: create_graph).
        create_graph (bool): record the computation, for higher-order derivatives.
        allow_unused (bool): return None for an input the outputs do not depend on
            (otherwise that raises).
        is_grads_batched (bool): the first dimension of each of `grad_outputs` is a
            batch: one vector-Jacobian product per index, stacked (torch vectorizes
            this with vmap; glasstorch runs one backward per index, same results).
        materialize_grads (bool): return zeros instead of None for unused inputs.

    Returns:
        A tuple with one gradient per input (a dict when `inputs` is one).

    Example::

        >>> x = torch.tensor(3., requires_grad=True)
        >>> torch.autograd.grad(x ** 2, x)
        (tensor(6.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    allow_unused = materialize_grads if allow_unused is None else allow_unused
    outs, targets = _as_tuple(outputs), _grad_inputs(inputs)
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please "
                      "use torch.autograd.backward.", FutureWarning, stacklevel=2)
    grads = _root_grads(outs, _as_tuple(grad_outputs), create_graph, is_grads_batched)
    retain = create_graph if retain_graph is None else retain_graph
    run = _batched_execute if is_grads_batched else execute
    found = run(_root_edges(outs), grads, retain, create_graph,
                [_input_edge(t) for t in targets])
    results = []
    for index, (tensor, value) in enumerate(zip(targets, found)):
        if value is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {index} appears to "
                                   f"not have been used in the graph. Set allow_unused=True "
                                   f"if this is the desired behavior.")
            if materialize_grads:
                value = get_binding("function", "zeros_like")(tensor, requires_grad=create_graph)
        results.append(value)
    return dict(zip(inputs, results)) if type(inputs) is dict else tuple(results)


def _grad_inputs(inputs) -> tuple:
    """`grad`'s inputs as a tuple: a tensor, a sequence, or a dict's values."""
    if type(inputs) is dict:
        found = tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    else:
        found = _as_tuple(inputs)
    if not found:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    return found


def _batched_execute(edges: list, grads: list, retain_graph: bool, create_graph: bool,
                     capture: list) -> list:
    """`execute` once per index of the gradients' batch dimension (is_grads_batched),
    keeping the graph until the last; each captured gradient stacked over the batch
    (None where none arrived). The errors are those torch's vmap raises."""
    sizes = [g.shape[0] if g.dim() else None for g in grads if g is not None]
    if None in sizes:
        raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                         "but that input is a Tensor of dimensionality 0 so expected in_dim "
                         "to satisfy 0 <= in_dim < 0.")
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    batch = sizes[0] if sizes else 1
    if batch == 0:
        raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
    rows = [execute(edges, [None if g is None else g[b] for g in grads],
                    retain_graph or b < batch - 1, create_graph, capture)
            for b in range(batch)]
    stack = get_binding("function", "stack")
    return [None if column[0] is None else stack(column) for column in zip(*rows)]
