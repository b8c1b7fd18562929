"""The operators a MaskedTensor supports, by aten name, as torch's MaskedTensor supports
them (Note [MaskedTensor as a wrapper] in `core.py`).

Operators arrive with their arguments in schema order. Unary and binary operators run on
the data and keep the mask (binary ones need both operands' masks equal); reductions run
the torch.masked reduction of the same name and mark a result present where any of its
elements was; shape operators ("passthrough") run on data and mask alike. Importing
this module fills `core.RULES`.
"""
from __future__ import annotations

import glasstorch as torch

from .core import RULES, is_masked_tensor, wrap
from .reductions import reduce

UNARY = """abs absolute acos arccos acosh arccosh angle asin arcsin asinh arcsinh atan arctan
    atanh arctanh bitwise_not ceil clamp clip conj_physical cos cosh deg2rad digamma erf
    erfc erfinv exp exp2 expm1 fix floor frac lgamma log log10 log1p log2 logit i0 isnan
    nan_to_num neg negative positive pow rad2deg reciprocal round rsqrt sigmoid sign sgn
    signbit sin sinc sinh sqrt square tan tanh trunc""".split()
UNARY_INPLACE = [name + "_" for name in UNARY
                 if name not in ("angle", "positive", "signbit", "isnan")]
BINARY = """add atan2 arctan2 bitwise_and bitwise_or bitwise_xor bitwise_left_shift
    bitwise_right_shift div divide floor_divide fmod logaddexp logaddexp2 mul multiply
    nextafter remainder sub subtract true_divide eq ne le ge greater greater_equal gt
    less_equal lt less maximum minimum fmax fmin not_equal""".split()
BINARY_INPLACE = [name + "_" for name in BINARY
                  if name not in ("logaddexp", "logaddexp2", "fmin", "minimum", "maximum",
                                  "fmax")]
REDUCTIONS = "sum mean amin amax argmin argmax prod all norm var std".split()
PASSTHROUGH = """select transpose split t slice slice_backward select_backward index expand
    view _unsafe_view _reshape_alias cat unsqueeze unfold unfold_backward im2col col2im
    stack""".split()

def _data(value):
    return value._masked_data if is_masked_tensor(value) else value


def _mask(value):
    return value._masked_mask if is_masked_tensor(value) else value


def _each(args, part):
    """`args` with each MaskedTensor (in lists too) replaced by part(it)."""
    return [type(a)(part(v) for v in a) if isinstance(a, (list, tuple)) else part(a)
            for a in args]


def _masks_match(a, b) -> bool:
    if not (is_masked_tensor(a) and is_masked_tensor(b)):
        return True
    mask_a, mask_b = a._masked_mask, b._masked_mask
    return mask_a.dim() == mask_b.dim() and bool(torch.eq(mask_a, mask_b).all())


def _keywords_given(func, args) -> bool:
    """Whether a keyword-only argument has other than its default (torch hands those to
    ``__torch_dispatch__`` as kwargs, which the unary and binary rules refuse)."""
    return any(a.kwarg_only and not (value is a.default or type(value) in (int, float, bool)
                                     and value == a.default)
               for a, value in zip(func._schema.arguments, args))


def _unary(func, args):
    if _keywords_given(func, args):
        raise ValueError("MaskedTensor unary ops require that len(kwargs) == 0. If you need "
                         "support for this, please open an issue on Github.")
    if any(isinstance(a, torch.Tensor) for a in args[1:]):
        raise TypeError("MaskedTensor unary ops do not support additional Tensor arguments")
    result = func(args[0]._masked_data, *args[1:])
    if func.overloadpacket._name.endswith("_"):
        args[0]._set_data_mask(result, args[0]._masked_mask)
        return args[0]
    return wrap(result, args[0]._masked_mask)


def _binary(func, args):
    if _keywords_given(func, args):
        raise ValueError("len(kwargs) must equal 0")
    if any(isinstance(a, torch.Tensor) for a in args[2:]):
        raise TypeError("MaskedTensor binary ops do not support Tensor arguments aside from "
                        "the lhs and rhs")
    if not _masks_match(*args[:2]):
        raise ValueError("Input masks must match. If you need support for this, please open "
                         "an issue on Github.")
    a, b = args[:2]
    result = func(_data(a), _data(b), *args[2:])
    if func.overloadpacket._name.endswith("_"):
        a._set_data_mask(result, a._masked_mask)
        return a
    mask = (a if is_masked_tensor(a) else b)._masked_mask
    return wrap(result, mask.expand_as(result))


def _passthrough(func, args):
    data = func(*_each(args, _data))
    mask = func(*_each(args, _mask))
    if isinstance(data, (list, tuple)):
        return type(data)(wrap(d, m) for d, m in zip(data, mask))
    return wrap(data, mask)


def _on_data(func, args):
    """detach, clone, ones_like, ...: the data's result, the mask kept."""
    return wrap(func(args[0]._masked_data, *args[1:]), args[0]._masked_mask)


def _to_copy(func, args):
    data, mask = args[0]._masked_data, args[0]._masked_mask
    return wrap(func(data, *args[1:]), func(mask, torch.bool, *args[2:]))


def _contiguous(func, args):
    return wrap(args[0]._masked_data.contiguous(), args[0]._masked_mask.contiguous())


def _softmax(func, args):
    """Over the present elements; absent ones (whole rows too) get 0."""
    data, mask = args[0]._masked_data, args[0]._masked_mask
    result = torch.masked.softmax(data, args[1], mask=mask)
    return wrap(result.masked_fill(~mask, 0), mask)


def _where(func, args):
    condition, x, y = args
    x, y = (v if is_masked_tensor(v)
            else wrap(v, torch.ones_like(v, dtype=torch.bool), fresh=False) for v in (x, y))
    return wrap(func(condition, x._masked_data, y._masked_data),
                func(condition, x._masked_mask, y._masked_mask))


def _copy_(func, args):
    func(_data(args[0]), _data(args[1]), *args[2:])
    return args[0]


def _is_any_true(func, args):
    data, mask = args[0]._masked_data, args[0]._masked_mask
    if data.dtype != torch.bool:
        raise ValueError("__torch_dispatch__, aten._is_any_true: expected a boolean tensor")
    return wrap(func(data & mask), torch.tensor(True))


def _local_scalar_dense(func, args):
    if not args[0]._masked_mask.all():
        raise ValueError("__torch_dispatch__, aten._local_scalar_dense: expected a mask tensor")
    return func(args[0]._masked_data)


def _is_same_size(func, args):
    return _data(args[0]).is_same_size(_data(args[1]))


RULES.update({
    **dict.fromkeys(UNARY + UNARY_INPLACE, _unary),
    **dict.fromkeys(BINARY + BINARY_INPLACE, _binary),
    **dict.fromkeys(REDUCTIONS, reduce),
    **dict.fromkeys(PASSTHROUGH, _passthrough),
    **dict.fromkeys(("detach", "clone", "ones_like"), _on_data),
    "is_contiguous": lambda func, args: func(args[0]._masked_data, *args[1:]),
    "_to_copy": _to_copy, "contiguous": _contiguous, "_softmax": _softmax,
    "softmax": _softmax, "where": _where, "copy_": _copy_, "_is_any_true": _is_any_true,
    "_local_scalar_dense": _local_scalar_dense, "is_same_size": _is_same_size,
})
