"""`torch.autograd.functional`: derivatives of whole functions, built on `grad`.

Each function runs `func` on fresh copies of the inputs that require grad, then uses
reverse mode: `vjp` is one backward pass, `jacobian` one per output element, `jvp` the
"double backward" trick (the vjp is linear in its upstream gradient `u`, so
differentiating ``vjp(u) . v`` with respect to `u` gives ``J v``), and the Hessian
functions differentiate a gradient computed with ``create_graph=True``.
"""
from __future__ import annotations

from ..c10.tensor_impl import TensorBase


def _as_tuple(value, name: str, fn: str) -> tuple:
    """(the values as a tuple, whether they were a tuple), checking they are tensors."""
    was_tuple = isinstance(value, tuple)
    values = value if was_tuple else (value,)
    for v in values:
        if not isinstance(v, TensorBase):
            raise TypeError(f"The {name} given to {fn} must be either a Tensor or a tuple of "
                            f"Tensors but the value at index {values.index(v)} has type "
                            f"{type(v)}.")
    return values, was_tuple


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs that require grad, detached from the caller's graph unless create_graph."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_() for x in inputs)


def _grad(outputs, inputs, grad_outputs, create_graph: bool, strict: bool) -> tuple:
    """Gradients, with zeros for inputs the outputs do not depend on (or an error with
    `strict`)."""
    import glasstorch
    from . import grad
    wanted = [o for o in outputs if o.requires_grad]
    upstream = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    found = grad(wanted, inputs, upstream, retain_graph=True, create_graph=create_graph,
                 allow_unused=True) \
        if wanted else (None,) * len(inputs)
    results = []
    for i, (g, x) in enumerate(zip(found, inputs)):
        if g is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent "
                                   f"of input {i}. This is not allowed in strict mode.")
            g = glasstorch.zeros_like(x)
        results.append(g)
    return tuple(results)


def _finish(values: tuple, create_graph: bool) -> tuple:
    return values if create_graph else tuple(v.detach() for v in values)


def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """The vector-Jacobian product ``v^T J`` of `func` at `inputs`.

    Returns:
        (func(inputs), vjp), each a tensor or a tuple as `func`'s outputs / `inputs` are.

    Example::

        >>> torch.autograd.functional.vjp(lambda x: x ** 2, torch.tensor([1., 2.]),
        ...                               torch.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    import glasstorch
    xs, xs_tuple = _as_tuple(inputs, "inputs", "vjp")
    with glasstorch.enable_grad():
        xs = _prepare(xs, create_graph)
        outs, outs_tuple = _as_tuple(func(*xs), "outputs of the user-provided function", "vjp")
        if v is None:
            if len(outs) != 1 or outs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function "
                                   "returns a single Tensor with a single element.")
            vs = (glasstorch.ones_like(outs[0]),)
        else:
            vs, _ = _as_tuple(v, "v", "vjp")
        found = _grad(outs, xs, vs, create_graph, strict)
    outs = _finish(outs, create_graph)
    found = _finish(found, create_graph)
    return (outs if outs_tuple else outs[0]), (found if xs_tuple else found[0])


def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """The Jacobian-vector product ``J v`` of `func` at `inputs` (by the double-backward
    trick, as torch does).

    Returns:
        (func(inputs), jvp).
    """
    import glasstorch
    xs, xs_tuple = _as_tuple(inputs, "inputs", "jvp")
    if v is None:
        if len(xs) != 1 or xs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        vs = (glasstorch.ones_like(xs[0]),)
    else:
        vs, _ = _as_tuple(v, "v", "jvp")
    with glasstorch.enable_grad():
        xs = _prepare(xs, create_graph)
        outs, outs_tuple = _as_tuple(func(*xs), "outputs of the user-provided function", "jvp")
        dummies = tuple(glasstorch.zeros_like(o).requires_grad_() for o in outs)
        vjps = _grad(outs, xs, dummies, True, strict)
        found = _grad(vjps, dummies, vs, create_graph, strict)
    outs = _finish(outs, create_graph)
    found = _finish(found, create_graph)
    return (outs if outs_tuple else outs[0]), (found if outs_tuple else found[0])


def jacobian(func, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of `func` at `inputs`: for output `o` and input `x`, a tensor of
    shape ``o.shape + x.shape``; nested tuples (outputs, then inputs) when either is a
    tuple. Computed row by row, one backward pass per output element.

    Example::

        >>> torch.autograd.functional.jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    import glasstorch
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         'Hint: If your function has more outputs than inputs, '
                         '"forward-mode" tends to be more performant. Otherwise, prefer to '
                         'use "reverse-mode".')
    xs, xs_tuple = _as_tuple(inputs, "inputs", "jacobian")
    with glasstorch.enable_grad():
        xs = _prepare(xs, create_graph)
        outs, outs_tuple = _as_tuple(func(*xs), "outputs of the user-provided function",
                                     "jacobian")
        blocks = []
        for out in outs:
            rows = []
            for k in range(out.numel()):
                upstream = glasstorch.zeros(out.numel(), dtype=out.dtype)
                upstream[k] = 1
                rows.append(_grad((out,), xs, (upstream.reshape(out.shape),), create_graph,
                                  strict))
            blocks.append(tuple(
                _stack_rows([r[i] for r in rows], out, x, create_graph)
                for i, x in enumerate(xs)))
    if not outs_tuple and not xs_tuple:
        return blocks[0][0]
    if not outs_tuple:
        return blocks[0]
    if not xs_tuple:
        return tuple(b[0] for b in blocks)
    return tuple(blocks)


def _stack_rows(rows: list, out, x, create_graph: bool):
    import glasstorch
    if rows:
        block = glasstorch.stack(rows).reshape(tuple(out.shape) + tuple(x.shape))
    else:
        block = glasstorch.zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
    return block if create_graph else block.detach()


def hessian(func, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    xs, xs_tuple = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*values):
        out = func(*values)
        if not isinstance(out, TensorBase) or out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "with a single element.")
        found = _grad((out,), values, (None,), True, strict)
        return found if xs_tuple else found[0]
    return jacobian(gradient, xs if xs_tuple else xs[0], create_graph=create_graph,
                    strict=strict)


def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``v^T H`` for a scalar function (H its Hessian). Returns (func(inputs), vhp)."""
    import glasstorch
    xs, xs_tuple = _as_tuple(inputs, "inputs", "vhp")
    with glasstorch.enable_grad():
        xs = _prepare(xs, True)
        out = func(*xs)
        first = _grad((out,), xs, (None,), True, strict)
        vs = _as_tuple(v, "v", "vhp")[0] if v is not None else (glasstorch.ones_like(xs[0]),)
        found = _grad(first, xs, vs, create_graph, strict)
    found = _finish(found, create_graph)
    out = out if create_graph else out.detach()
    return out, (found if xs_tuple else found[0])


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``H v`` for a scalar function; the Hessian is symmetric, so it equals `vhp`."""
    return vhp(func, inputs, v, create_graph, strict)
