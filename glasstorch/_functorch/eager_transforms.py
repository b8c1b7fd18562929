"""The differentiating transforms: grad, grad_and_value, vjp, jvp, linearize.

Note [Transforms over the autograd engine]
    A transform differentiates with the engines this build already has: reverse mode
    (`autograd.grad`) for grad and vjp, forward mode (`autograd.forward_ad`) for jvp.
    Each call is one level: its inputs are fresh aliases made to require grad, so the
    graph it asks about starts at them and nothing outside is differentiated by
    mistake, while an input that already requires grad (an outer transform's, or a
    user's) stays connected to the outer graph through the alias. The inner graph is
    recorded for the outside (``create_graph``) only when the outside can use it: while
    an outer transform runs, or when an input requires grad; otherwise the results come
    back detached, so a transform's autograd does not leak. A jvp inside another jvp
    (forward mode has one level here) is computed by reverse mode instead: the vjp is
    linear in its cotangent, so differentiating it once more, with the tangent as
    cotangent, gives the jvp. Under vmap each of these sees batched tensors, whose
    per-sample graphs autograd records (Note [vmap under autograd]).
"""
from __future__ import annotations

import functools
import threading
from typing import Any, Callable

from ..aten.dispatcher import operator_entry
from ..autograd import forward_ad
from ..autograd.gradients import grad as autograd_grad
from ..autograd.grad_mode import enable_grad, is_grad_enabled
from ..c10.tensor_impl import TensorBase
from ..utils._pytree import tree_flatten, tree_map, tree_unflatten


class _Depth(threading.local):
    def __init__(self) -> None:
        self.value = 0


_depth = _Depth()


class _Level:
    """One transform's level: counted while its function runs."""

    def __enter__(self):
        self.outer = _depth.value > 0
        _depth.value += 1
        return self

    def __exit__(self, *exc):
        _depth.value -= 1


def _check_tensor(value) -> None:
    if not isinstance(value, TensorBase):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(value)}")


def _differentiable(value):
    """A fresh alias of `value` that requires grad (Note [Transforms over the autograd
    engine]): connected to what `value` came from when that requires grad."""
    _check_tensor(value)
    alias = value.view_as(value)
    if not alias.requires_grad:
        alias.requires_grad_()
    return alias


def _release(inputs: list) -> None:
    """The level is over: the leaves it made differentiable stop requiring grad, so
    that one kept by the function (a leak) is a plain tensor afterwards, as in torch."""
    for value in inputs:
        if value.is_leaf and value.requires_grad:
            value.requires_grad_(False)


def _keeps_graph(level: _Level, grad_enabled: bool, *trees) -> bool:
    """Whether the outside (where grad mode was `grad_enabled`) can use this level's
    graph (so it is recorded)."""
    if not grad_enabled:
        return False
    return level.outer or any(isinstance(v, TensorBase) and v.requires_grad
                              for tree in trees for v in tree_flatten(tree)[0])


def _detached(tree, keep: bool):
    if keep:
        return tree
    return tree_map(lambda v: v.detach() if isinstance(v, TensorBase) else v, tree)


def _zeros_like(value):
    return operator_entry("zeros_like", "default")(value, None, None, None, None, None)


def _gradients(outputs: list, inputs: list, cotangents, keep: bool,
               again: bool = False) -> list:
    """The gradients of `outputs` (weighted by `cotangents`) with respect to `inputs`,
    zeros where unused; `again`: the graph serves later calls too (a vjp_fn)."""
    if not any(o.requires_grad for o in outputs):
        return [_zeros_like(i) for i in inputs]
    pairs = [(o, c) for o, c in zip(outputs, cotangents or [None] * len(outputs))
             if o.requires_grad]
    grads = autograd_grad([o for o, _ in pairs], inputs,
                          None if cotangents is None else [c for _, c in pairs],
                          retain_graph=again or keep, create_graph=keep, allow_unused=True)
    return [g if g is not None else _zeros_like(i) for g, i in zip(grads, inputs)]


# ----------------------------------------------------------------------------------
# argnums
# ----------------------------------------------------------------------------------
def _check_argnums(argnums, count: int) -> tuple:
    numbers = argnums if isinstance(argnums, tuple) else (argnums,)
    if isinstance(argnums, tuple) and not argnums:
        raise RuntimeError("argnums must be non-empty")
    for n in numbers:
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    wrapped = tuple(n % count for n in numbers)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return wrapped


def _with_differentiable(args: tuple, argnums):
    """`args` with those `argnums` names made differentiable; and those, as given."""
    positions = _check_argnums(argnums, len(args))
    new = list(args)
    for i in positions:
        new[i] = tree_map(_differentiable, args[i])
    chosen = new[positions[0]] if isinstance(argnums, int) else tuple(new[i] for i in positions)
    return tuple(new), chosen


def _split_aux(output, has_aux: bool, where: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{where}: output of function f should be a tuple: (output, aux) "
                           f"if has_aux is True")
    return output


def _check_aux(aux) -> None:
    for value in tree_flatten(aux)[0]:
        if not isinstance(value, TensorBase):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(value)}")


# ----------------------------------------------------------------------------------
# grad, grad_and_value
# ----------------------------------------------------------------------------------
def grad_and_value(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """Like `grad`, but the function returns ``(gradient, value)`` (``((gradient,
    value), aux)`` with `has_aux`).

    Args:
        func (Callable): returns a scalar tensor (and aux, with `has_aux`).
        argnums (int or tuple of ints): the positional inputs to differentiate.
        has_aux (bool): `func` returns ``(output, aux)``; aux is returned as is.

    Returns:
        A function computing the gradients and the value.

    Example::

        >>> g, v = torch.func.grad_and_value(lambda x: (x ** 2).sum())(torch.ones(2))
        >>> g
        tensor([2., 2.])
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grad_enabled = is_grad_enabled()
        with _Level() as level, enable_grad():
            keep = _keeps_graph(level, grad_enabled, args, kwargs)
            new_args, chosen = _with_differentiable(args, argnums)
            output, aux = _split_aux(func(*new_args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            _check_scalar(output)
            flat, spec = tree_flatten(chosen)
            grads = _gradients([output], flat, None, keep)
            _release(flat)
        result = (_detached(tree_unflatten(grads, spec), keep), _detached(output, keep))
        if has_aux:
            _check_aux(aux)
            return result, _detached(aux, keep)
        return result
    return wrapper


def _check_scalar(output) -> None:
    if not isinstance(output, TensorBase):
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, "
                           f"got {type(output)}")
    if output.dim() != 0:
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                           f"Tensor, got tensor with {output.dim()} dims. Maybe you wanted to "
                           f"use the vjp or jacrev APIs instead?")


def grad(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """The gradient of a scalar function, as a function of the same inputs.

    Args:
        func (Callable): returns a scalar tensor (and aux, with `has_aux`).
        argnums (int or tuple of ints): the positional inputs to differentiate; a tuple
            gives a tuple of gradients.
        has_aux (bool): `func` returns ``(output, aux)``; ``(gradient, aux)`` is returned.

    Returns:
        A function computing the gradient with respect to the `argnums` inputs.

    Example::

        >>> torch.func.grad(torch.sin)(torch.tensor(0.))
        tensor(1.)
    """
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if has_aux:
            (gradient, _), aux = both(*args, **kwargs)
            return gradient, aux
        return both(*args, **kwargs)[0]
    return wrapper


# ----------------------------------------------------------------------------------
# vjp
# ----------------------------------------------------------------------------------
def vjp(func: Callable, *primals, has_aux: bool = False):
    """`func(*primals)` and a function of cotangents giving the vector-Jacobian products.

    Args:
        func (Callable): a function of tensors (pytrees of them) returning tensors.
        primals: the inputs.
        has_aux (bool): `func` returns ``(output, aux)``.

    Returns:
        ``(output, vjp_fn)``, or ``(output, vjp_fn, aux)``: ``vjp_fn(cotangents)``
        returns one gradient per primal, as a tuple.

    Example::

        >>> out, vjp_fn = torch.func.vjp(torch.sin, torch.zeros(2))
        >>> vjp_fn(torch.ones(2))
        (tensor([1., 1.]),)
    """
    grad_enabled = is_grad_enabled()
    with _Level() as level, enable_grad():
        keep = _keeps_graph(level, grad_enabled, primals)
        inputs = tree_map(_differentiable, primals)
        output, aux = _split_aux(func(*inputs), has_aux, "vjp(f, *primals)")
        flat_out, out_spec = tree_flatten(output)
        for value in flat_out:
            if not isinstance(value, TensorBase):
                raise RuntimeError(f"vjp(f, *primals): expected f(*primals) to return only "
                                   f"tensors, got unsupported type {type(value)}")
    flat_in, in_spec = tree_flatten(inputs)

    def vjp_fn(cotangents):
        flat_ct, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as "
                               f"pytree structure of outputs to the function. cotangents: "
                               f"{_brief(ct_spec)}, primal output: {_brief(out_spec)}")
        grad_enabled = is_grad_enabled()
        with _Level() as inner, enable_grad():
            keep_ct = keep or _keeps_graph(inner, grad_enabled, cotangents)
            grads = _gradients(flat_out, flat_in, flat_ct, keep_ct, again=True)
        return _detached(tree_unflatten(grads, in_spec), keep_ct)
    result = (_detached(output, keep), vjp_fn)
    if has_aux:
        _check_aux(aux)
        return result + (_detached(aux, keep),)
    return result


def _brief(spec) -> str:
    """A tree structure in torch's short form: ``*`` for a leaf, ``(*, *)`` a tuple."""
    if spec.is_leaf():
        return "*"
    parts = [_brief(c) for c in spec.children()]
    if spec.type is tuple:
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if spec.type is list:
        return "[" + ", ".join(parts) + "]"
    if spec.type is dict:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(spec.context, parts)) + "}"
    return f"{spec.type.__name__}(" + ", ".join(parts) + ")"


# ----------------------------------------------------------------------------------
# jvp, linearize
# ----------------------------------------------------------------------------------
def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """`func(*primals)` and its Jacobian-vector product with `tangents`.

    Args:
        func (Callable): a function of tensors returning tensors.
        primals (tuple): the inputs.
        tangents (tuple): one tangent per primal, of the same shapes.
        strict (bool): unused (torch refuses it too).
        has_aux (bool): `func` returns ``(output, aux)``.

    Returns:
        ``(output, jvp_out)``, or ``(output, jvp_out, aux)``.

    Example::

        >>> torch.func.jvp(torch.sin, (torch.zeros(2),), (torch.ones(2),))[1]
        tensor([1., 1.])
    """
    where = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{where}: Expected primals to be a tuple. E.g. it should be valid "
                           f"to call f(*primals).")
    flat_p, p_spec = tree_flatten(primals)
    flat_t, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(f"{where}: Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, "
                           f"tangents also must be. Got primals with structure {p_spec!r} and "
                           f"tangents with structure {t_spec!r}")
    for value in flat_p + flat_t:
        _check_tensor(value)
    if forward_ad.is_active():
        return _jvp_by_reverse(func, primals, flat_t, has_aux)
    with _Level(), forward_ad.dual_level():
        duals = [forward_ad.make_dual(p, t) for p, t in zip(flat_p, flat_t)]
        output, aux = _split_aux(func(*tree_unflatten(duals, p_spec)), has_aux,
                                 "jvp(f, primals, tangents)")
        flat_out, out_spec = tree_flatten(output)
        pairs = [_unpacked(o) for o in flat_out]
    result = (tree_unflatten([p for p, _ in pairs], out_spec),
              tree_unflatten([t for _, t in pairs], out_spec))
    if has_aux:
        _check_aux(aux)
        return result + (tree_map(_primal, aux),)
    return result


def _unpacked(value):
    if not isinstance(value, TensorBase):
        raise RuntimeError(f"jvp(f, primals, tangents): expected f(*primals) to return only "
                           f"tensors, got unsupported type {type(value)}")
    primal, tangent = forward_ad.unpack_dual(value)
    return primal, tangent if tangent is not None else _zeros_like(primal)


def _primal(value):
    return forward_ad.unpack_dual(value).primal if isinstance(value, TensorBase) else value


def _jvp_by_reverse(func, primals: tuple, flat_t: list, has_aux: bool):
    """The jvp as the vjp's own vjp (Note [Transforms over the autograd engine])."""
    output, vjp_fn, *aux = vjp(func, *primals, has_aux=has_aux)
    flat_out, out_spec = tree_flatten(output)
    with _Level(), enable_grad():
        dummies = [_zeros_like(o).requires_grad_() for o in flat_out]
        grads = tree_flatten(vjp_fn(tree_unflatten(dummies, out_spec)))[0]
        pairs = [(g, t) for g, t in zip(grads, flat_t) if g.requires_grad]
        tangents = autograd_grad([g for g, _ in pairs], dummies, [t for _, t in pairs],
                                 create_graph=True, allow_unused=True) if pairs else \
            [None] * len(dummies)
    flat = [t if t is not None else _zeros_like(o) for t, o in zip(tangents, flat_out)]
    return (output, tree_unflatten(flat, out_spec)) + tuple(aux)


def linearize(func: Callable, *primals):
    """`func(*primals)` and a function giving its jvp at `primals` for any tangents.

    Returns:
        ``(output, jvp_fn)``: ``jvp_fn(*tangents)`` is the Jacobian-vector product.

    Example::

        >>> out, jvp_fn = torch.func.linearize(torch.sin, torch.zeros(2))
        >>> jvp_fn(torch.ones(2))
        tensor([1., 1.])
    """
    output = func(*primals)

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]
    return output, jvp_fn


def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """`func` with its in-place writes taken out, as torch's functionalization does
    for graph capture. Eager results are the same either way, so this build runs
    `func` as it is (there is no graph to rewrite).

    Args:
        func (Callable): the function.
        remove (str): "mutations" or "mutations_and_views".

    Returns:
        A function returning what `func` returns.
    """
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument "
                             f"for remove={remove}. Valid options are:\n     remove='mutations': "
                             f"all inplace and out= operators will be removed from the program, "
                             f"and replaced with their out-of-place equivalents.\n     "
                             f"remove='mutations_and_views': In addition to the above, all "
                             f"aliasing operators {{view}} will be replaced with their "
                             f"non-aliasing counterparts, {{view}}_copy.\n")

    @functools.wraps(func)
    def functionalized(*args, **kwargs):
        return func(*args, **kwargs)
    return functionalized
