"""The math bits: torch's lazy conjugation and negation (the Conjugate and Negative keys).

Note [Math bits]
    torch's `conj()` of a complex tensor copies nothing: it is a view of the same memory
    whose key set holds `Conjugate`, meaning "the values are the conjugates of what
    memory holds". `_neg_view` does the same for negation with `Negative` (torch makes
    one for `imag` of a conjugate view). Every view of such a tensor inherits the bit
    (`make_view` and the registry's aliases carry it), so `x.conj().t()[0]` is lazy
    too. The values are resolved only when an operator needs them, by one fallback
    kernel serving both keys for every operator without a kernel of its own there
    (torch's MathBitsFallback):

      * a view (it aliases an input and writes nothing) passes straight through, and
        its result inherits the bit;
      * an operator that only reads gets each flagged input materialised (`neg` /
        `conj_physical` of the raw memory: a fresh tensor without bits) and runs below;
      * an operator that writes a flagged tensor (in place, out=) writes a materialised
        clone instead, which is then copied back with the tensor's bits applied, so
        memory holds the conjugate (negation) of the value written and the view reads
        the value itself.

    `copy_` has its own kernel at both keys: a copy between tensors whose bits differ
    applies the difference while it copies. Implicit composites never meet the
    fallback (their body runs above it, in the operators it calls). Kernels read raw
    memory (`tensor._np`), and no kernel ever receives a flagged tensor; the few
    readers outside the dispatcher (printing, `tolist`, `numpy()`) resolve or refuse
    as torch does.
"""
from __future__ import annotations

from ..c10.dispatch_key import CONJUGATE, MATH_BITS, NEGATIVE, DispatchKey
from ..c10.tensor_impl import TensorBase, make_view
from .dispatcher import OpOverload, operator_entry, ops, register_fallback


def raw(tensor: TensorBase, bits: int = MATH_BITS) -> TensorBase:
    """An alias of `tensor`'s memory without `bits`: what memory holds, unresolved."""
    alias = make_view(tensor, (tensor._size, tensor._stride, tensor._offset), None)
    alias._keys &= ~bits
    return alias


def apply_bits(tensor: TensorBase, bits: int) -> TensorBase:
    """`tensor` (holding no bits) negated and / or conjugated as `bits` say, into memory."""
    if bits & NEGATIVE:
        tensor = operator_entry("neg", "default")(tensor)
    if bits & CONJUGATE and tensor._dtype.is_complex:
        tensor = operator_entry("conj_physical", "default")(tensor)
    return tensor


def materialise(tensor: TensorBase) -> TensorBase:
    """A tensor without bits holding `tensor`'s values: a fresh copy when it has bits."""
    bits = tensor._keys & MATH_BITS
    return apply_bits(raw(tensor), bits) if bits else tensor


def _flagged(value) -> bool:
    return isinstance(value, TensorBase) and bool(value._keys & MATH_BITS)


def _is_view(op: OpOverload) -> bool:
    """Whether `op` aliases an input without writing it (a view, `alias`, `detach`)."""
    return any(a.alias is not None and not a.alias.is_write for a in op._schema.arguments)


def math_bits_fallback(op: OpOverload, keyset: int, args: tuple):
    """The Conjugate / Negative kernel of every operator without its own (Note [Math bits])."""
    if _is_view(op):
        return op.redispatch(keyset, args)
    arguments = op._schema.arguments
    resolved, written = list(args), []
    for i, value in enumerate(args):
        if _flagged(value):
            resolved[i] = materialise(value)
            if arguments[i].is_write:
                written.append((value, resolved[i]))
        elif isinstance(value, (list, tuple)) and any(_flagged(t) for t in value):
            if arguments[i].is_write:
                raise RuntimeError(
                    f"Conjugate fallback doesn't currently support mutable TensorLists with "
                    f"Conjugate inputs. Please materialize all the Conjugate input tensor(s) "
                    f"in the mutable TensorList inputs before calling {op.name}")
            resolved[i] = [materialise(t) if _flagged(t) else t for t in value]
    result = op.redispatch(keyset & ~MATH_BITS, tuple(resolved))
    for original, clone in written:
        _write_back(keyset, original, clone)
        result = _swap(result, clone, original)
    return result


def _write_back(keyset: int, original: TensorBase, value: TensorBase) -> None:
    """Store `value` through the flagged `original`: its memory gets the value with
    `original`'s bits applied. Below ADInplaceOrView, as the write's own kernel: the
    write counts once."""
    copy_ = ops.aten.copy_.default
    bits = original._keys & MATH_BITS
    copy_.redispatch(keyset & ~MATH_BITS, (raw(original), apply_bits(value, bits), False))


def _swap(result, clone: TensorBase, original: TensorBase):
    """`result` with the written clone replaced by the tensor the caller passed."""
    if result is clone:
        return original
    if isinstance(result, tuple):
        return type(result)(original if r is clone else r for r in result)
    return result


def copy_with_bits(op: OpOverload, keyset: int, args: tuple):
    """`copy_` at the math-bit keys: the bits that differ between `self` and `src` are
    applied while copying (a conjugate view receives the conjugates of `src`)."""
    self, src = args[0], args[1]
    src_bits = src._keys & MATH_BITS if isinstance(src, TensorBase) else 0
    differ = (self._keys & MATH_BITS) ^ src_bits
    value = apply_bits(raw(src), differ) if isinstance(src, TensorBase) else src
    target = raw(self) if self._keys & MATH_BITS else self
    op.redispatch(keyset & ~MATH_BITS, (target, value) + tuple(args[2:]))
    return self


def refuse_reinterpret(tensor: TensorBase) -> None:
    """`view(dtype)` reinterprets memory, which a lazy conjugate or negation cannot."""
    if tensor._keys & CONJUGATE:
        raise RuntimeError("torch.Tensor.view is not supported for conjugate view tensors "
                           "when converting to a different dtype.")
    if tensor._keys & NEGATIVE:
        raise RuntimeError("torch.Tensor.view is not supported for tensors with negative bit "
                           "set when converting to a different dtype.")


def refuse_numpy(tensor: TensorBase) -> None:
    """`numpy()` shares memory, so it refuses a lazy conjugate or negation, as torch's."""
    for bit, name, resolve in ((CONJUGATE, "conjugate", "resolve_conj"),
                               (NEGATIVE, "negative", "resolve_neg")):
        if tensor._keys & bit:
            raise RuntimeError(f"Can't call numpy() on Tensor that has {name} bit set. Use "
                               f"tensor.{resolve}().numpy() instead.")


def install() -> None:
    """Serve both keys: the fallback for every operator, `copy_` its own kernel."""
    copy_ = ops.aten.copy_.default
    for key in (DispatchKey.Conjugate, DispatchKey.Negative):
        register_fallback(key, math_bits_fallback)
        copy_.register(key, copy_with_bits)
