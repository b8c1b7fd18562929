"""`torch.autograd.forward_ad`: forward-mode AD with dual tensors.

Inside a `dual_level`, `make_dual(x, t)` gives a tensor carrying a tangent `t`; every
operator on dual tensors also computes its result's tangent, the Jacobian-vector
product ``J t``; `unpack_dual` reads it back. Leaving the level drops every tangent.

The tangent of an operator comes from the same declared formulas as backward, so no
operator needs a second formula (those whose tangent torch computes otherwise declare one:
Note [Forward formulas] in aten/derivatives.py): a formula is linear in `grad` (it computes
``vjp(u) = J^H u``), so with a probe `u` that requires grad,
``s = Re(sum(conj(vjp_i(u)) * t_i))`` over the inputs has the gradient ``J t`` with
respect to `u` (the engine computes it). That costs a small backward per operator: a
teaching design, exact for every operator with formulas, not a fast one.

Views are the exception: the tangent of a view is the same view of the tangent (it
shares its memory), so writing a dual view in place updates its base's tangent too. For
that, a tangent always has its primal's layout (sizes, strides, offset and storage
size), as torch enforces, so a view's geometry applies to it unchanged.

Tangents flow whatever the grad mode (`no_grad` only stops recording for backward):
tensors with a tangent carry the `ForwardAD` dispatch key, which `no_grad` does not
exclude (see recording.py's forward AD kernels).
"""
from __future__ import annotations

import collections
import weakref

from ..aten.binding import get_binding
from ..aten.derivatives import sum_to
from ..c10.dispatch_key import AUTOGRAD, BATCHED, FORWARD_AD, MATH_BITS, local_keys
from ..c10.tensor_impl import TensorBase, forget_array, make_view
from .grad_mode import enable_grad
from .gradients import grad as autograd_grad
from .saved import set_tangent_holder

UnpackedDualTensor = collections.namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"

_levels: list = []                 # the active level (torch supports one at a time)
_duals: list = []                  # weak references to the tensors given tangents


def enter_dual_level() -> int:
    """Start a level for dual tensors; returns its index."""
    if _levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _levels.append(len(_levels))
    return _levels[-1]


def exit_dual_level(*, level: int | None = None) -> None:
    """End the level: every tangent set in it is dropped."""
    if not _levels:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    _levels.pop()
    for ref in _duals:
        tensor = ref()
        if tensor is not None and tensor._autograd is not None:
            tensor._autograd.fw_grad = None
            tensor._keys &= ~FORWARD_AD
            if not tensor._autograd.requires_grad:
                tensor._keys &= ~AUTOGRAD
    _duals.clear()


class dual_level:
    """A context in which dual tensors live.

    Example::

        >>> import torch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
        ...     fwAD.unpack_dual(x * x).tangent
        tensor([2., 0.])
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()


def is_active() -> bool:
    return bool(_levels)


def tangent_of(tensor):
    """The tangent of `tensor` at the active level, or None."""
    meta = tensor._autograd if isinstance(tensor, TensorBase) else None
    return None if meta is None else meta.fw_grad


def set_tangent(tensor, tangent) -> None:
    """Give `tensor` the tangent `tangent`, copied into its layout if laid out otherwise.

    A view's tangent is a view of its base's, the base first given a zero tangent if
    it has none: what is written into a view is written into its base (torch's
    behaviour for in-place writes to views)."""
    base = tensor._base
    if base is None or (tensor._keys | tangent._keys) & BATCHED:   # a vmap's: no geometry
        _hold(tensor, _with_layout_of(tensor, tangent))
        return
    if tangent_of(base) is None:
        _hold(base, _with_layout_of(base, None, tangent._dtype))
    held = view_tangent(tangent_of(base), tensor, base)
    _copy_below_autograd(held, tangent)
    _hold(tensor, held)


def set_view_tangents(source, views: list) -> None:
    """Give the results of a view operator on `source` the same views of its tangent."""
    tangent = tangent_of(source)
    for view in views:
        if view._dtype.is_floating_point or view._dtype.is_complex:
            _hold(view, view_tangent(tangent, view, source))


def restride_tangent(tensor) -> None:
    """After an in-place view (`t_`, `squeeze_`, ...) of `tensor`: its tangent, laid out
    as it was, takes the same new geometry (torch applies the op to the tangent too)."""
    tangent = tangent_of(tensor)
    if tangent is not None:
        tangent._size, tangent._stride, tangent._offset = \
            tensor._size, tensor._stride, tensor._offset
        forget_array(tangent)            # the cached ndarray has the old geometry


def view_tangent(tangent, view, source):
    """The tangent of `view`: the same view of its `source`'s `tangent` (laid out as the
    source, so the view's geometry applies to it), with the math bits the view flipped
    (`conj()` of a dual tensor has the conjugate tangent). A tangent may have another
    precision than its primal (torch keeps it): a real view of a complex source
    (view_as_real) takes the tangent's real counterpart."""
    dtype = tangent._dtype
    if view._dtype != source._dtype:
        dtype = dtype.to_complex() if view._dtype.is_complex else dtype.to_real()
    base = tangent if tangent._base is None else tangent._base
    held = make_view(tangent, (view._size, view._stride, view._offset, dtype), base)
    held._keys ^= (view._keys ^ source._keys) & MATH_BITS
    return held


def _hold(tensor, tangent) -> None:
    meta = tensor._autograd_meta()
    meta.fw_grad = tangent
    tensor._keys |= AUTOGRAD | FORWARD_AD
    _duals.append(weakref.ref(tensor))


def hold_if_active(tensor, tangent) -> None:
    """Give `tensor` the `tangent` while a forward level is active (a saved output's
    tangent, when a backward runs under forward mode)."""
    if _levels:
        _hold(tensor, tangent)


set_tangent_holder(hold_if_active)


def _with_layout_of(tensor, tangent, dtype=None):
    """`tangent` if it has `tensor`'s layout, else a copy of it (zeros when None) in a
    fresh storage of `tensor`'s storage size with `tensor`'s geometry. A vmap's batched
    tangent is kept as it is: its own layout is never read (Note [vmap under autograd])."""
    if tangent is not None and tangent._keys & BATCHED:
        return tangent
    if tangent is not None and tangent._size == tensor._size \
            and tangent._stride == tensor._stride and tangent._offset == tensor._offset \
            and tangent._storage.nbytes() * tensor._dtype.itemsize \
            == tensor._storage.nbytes() * tangent._dtype.itemsize:
        return tangent
    dtype = tangent._dtype if tangent is not None else dtype
    elements = tensor._storage.nbytes() // tensor._dtype.itemsize
    storage = get_binding("function", "zeros")(elements, dtype=dtype, device=tensor.device)
    fresh = make_view(storage, (tensor._size, tensor._stride, tensor._offset), None)
    if tangent is not None:
        _copy_below_autograd(fresh, tangent)
    return fresh


def _copy_below_autograd(target, source) -> None:
    """target.copy_(source) where neither grad mode nor forward AD should see it."""
    excluded = local_keys.excluded
    local_keys.set(local_keys.included, excluded | AUTOGRAD | FORWARD_AD)
    try:
        target.copy_(source)
    finally:
        local_keys.set(local_keys.included, excluded)


def make_dual(tensor, tangent, *, level: int | None = None):
    """A view of `tensor` that carries `tangent` (its directional derivative).

    Args:
        tensor (Tensor): the primal values.
        tangent (Tensor): the tangent, of `tensor`'s size.
    """
    if not _levels:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                           "exists, make sure to enter_dual_level() first.")
    if not (tensor.dtype.is_floating_point or tensor.dtype.is_complex):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than "
                           f"that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    dual = tensor.view_as(tensor)
    _hold(dual, _with_layout_of(dual, tangent))       # its own: the base gets none
    return dual


def unpack_dual(tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """(primal, tangent) of a dual tensor: the primal a view without the tangent, the
    tangent None for a tensor that has none."""
    tangent = tangent_of(tensor) if _levels else None
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    primal = make_view(tensor, (tensor._size, tensor._stride, tensor._offset),
                       tensor._base if tensor._base is not None else tensor)
    return UnpackedDualTensor(primal, tangent)


def tangents_of(value):
    """A tensor's tangent, or for a list of tensors the list of theirs (None: none)."""
    if isinstance(value, (list, tuple)):
        found = [tangent_of(v) for v in value]
        return None if all(t is None for t in found) else found
    return tangent_of(value)


def _pairing(found, tangent):
    """Re(sum(conj(found) * tangent)), `found` first summed to the tangent's shape."""
    if not isinstance(found, TensorBase) or not found.requires_grad or tangent is None:
        return None
    if found.shape != tangent.shape:
        found = sum_to(found, tuple(tangent.shape))
    if found.is_complex() or tangent.is_complex():
        return (found.conj() * tangent).real.sum()
    return (found * tangent).sum()


def jvp(node_class, values: dict, tangents: dict, outputs: list) -> list:
    """``J t`` of one operator, one tangent per output: the gradients, with respect to
    probes `u` (one per output), of ``Re(sum(conj(vjp_i(u)) * t_i))`` over the inputs
    (see the module docstring), or the operator's own forward formulas."""
    ones_like, zeros_like = get_binding("function", "ones_like"), get_binding(
        "function", "zeros_like")
    if node_class.forward_formulas:
        return _declared_tangents(node_class, values, tangents, outputs)
    with enable_grad():
        # The probe's value does not matter (the pairing is linear in it), but formulas
        # in log space (logcumsumexp) need it nonzero; integer outputs take no probe.
        probes = [ones_like(o).requires_grad_() if _differentiable(o) else zeros_like(o)
                  for o in outputs]
        values = dict(values, grad=probes[0], grads=probes)
        terms = []
        for formula, name in zip(node_class.formulas, node_class.input_names):
            tangent = tangents.get(name)
            if tangent is None:
                continue
            found = formula(values)
            if isinstance(tangent, list):
                terms += [_pairing(f, t) for f, t in zip(found, tangent)]
            else:
                terms.append(_pairing(found, tangent))
        terms = [t for t in terms if t is not None]
        if not terms:
            return [zeros_like(o) for o in outputs]
        wanted = [p for p in probes if p.requires_grad]
        found = iter(autograd_grad(sum(terms[1:], terms[0]), wanted, allow_unused=True))
        found = [next(found) if p.requires_grad else None for p in probes]
    return [zeros_like(o) if g is None else g.detach() for g, o in zip(found, outputs)]


def _declared_tangents(node_class, values: dict, tangents: dict, outputs: list) -> list:
    """The tangents an operator's forward formulas give (Note [Forward formulas] in
    aten/derivatives.py): they read ``<input>_t``, zeros for an input without one."""
    zeros_like = get_binding("function", "zeros_like")
    values = dict(values)
    for name in node_class.input_names:
        tangent = tangents.get(name)
        primal = values[name]
        if tangent is None and primal is not None:
            tangent = [zeros_like(v) for v in primal] if isinstance(primal, list) \
                else zeros_like(primal)
        values[f"{name}_t"] = tangent
    found = [zeros_like(o) for o in outputs]
    for index, formula in node_class.forward_formulas.items():
        found[index] = formula(values).detach()
    return found


def _differentiable(tensor) -> bool:
    return tensor.dtype.is_floating_point or tensor.dtype.is_complex
