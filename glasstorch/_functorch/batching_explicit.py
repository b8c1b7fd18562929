"""Explicit batching rules: operators whose arguments mean more than dims, sizes or
broadcasting (Note [Batching rules from declarations] in batching_rules.py).

Each rule is ``rule(op, entry, args)``: `entry` is the running vmap (its level and
batch size); the rule runs operators on the batch-in-front values and wraps what
they return.
"""
from __future__ import annotations

from ..aten.dispatcher import operator_entry
from ..aten.meta.shape import wrap_dim
from . import batching_nn
from .batching_fallback import per_sample
from .batched_tensor import CONTROL_FLOW, ITEM, align, front, materialise, shift_dim, wrap


def _call(name: str, overload: str = "default"):
    return operator_entry(name, overload)


def _refuse_item(op, entry, args):
    raise RuntimeError(ITEM)


def _refuse_control_flow(op, entry, args):
    raise RuntimeError(CONTROL_FLOW)


# ----------------------------------------------------------------------------------
# Products
# ----------------------------------------------------------------------------------
def _matrices(args: tuple, entry) -> list:
    """The tensor arguments with the batch in front where they have one."""
    return [a if (m := front(a, entry.level)) is None else m for a in args]


def _by_matmul(op, entry, args):
    """mm and bmm: matmul of the values broadcasts the batch of either side."""
    a, b = _matrices(args[:2], entry)
    return wrap(_call("matmul")(a, b), entry.level)


def _mv(op, entry, args):
    matrix, vector = _matrices(args[:2], entry)
    column = _call("unsqueeze")(vector, -1)
    return wrap(_call("squeeze", "dim")(_call("matmul")(matrix, column), -1), entry.level)


def _dot(op, entry, args):
    a, b = _matrices(args[:2], entry)
    return wrap(_call("sum", "dim_IntList")(_call("mul", "Tensor")(a, b), [-1], False, None),
                entry.level)


def _matmul(a, b):
    return _call("matmul")(a, b)


# addmm and its relatives: (the product of the two tensors, the sample rank of its result)
_PRODUCTS = {
    "addmm": (_matmul, 2),
    "addmv": (lambda m, v: _matmul(m, v.unsqueeze(-1)).squeeze(-1), 1),
    "addr": (lambda u, v: u.unsqueeze(-1) * v.unsqueeze(-2), 2),
    "baddbmm": (_matmul, 3),
    "addbmm": (lambda a, b: _matmul(a, b).sum(-3), 2),
}


def _add_product(op, entry, args):
    """beta * bias + alpha * product, the bias lined up behind the batch; with beta 0
    the bias is not read (torch's rule: its NaNs do not show)."""
    bias, first, second, beta, alpha = args
    product_of, rank = _PRODUCTS[op.name]
    product = product_of(*_matrices((first, second), entry))
    if alpha != 1:
        product = _call("mul", "Scalar")(product, alpha)
    if beta == 0:
        if product.dim() == rank:        # only the bias was batched
            product = materialise(product, entry.level, entry.batch_size)
        return wrap(product, entry.level)
    moved = front(bias, entry.level)
    bias = bias if moved is None else align(moved, rank)
    if beta != 1:
        bias = _call("mul", "Scalar")(bias, beta)
    return wrap(_call("add", "Tensor")(product, bias, 1), entry.level)


def _vdot(op, entry, args):
    a, b = _matrices(args[:2], entry)
    return wrap(_call("sum", "dim_IntList")(_call("mul", "Tensor")(a.conj(), b), [-1], False,
                                            None), entry.level)


def _convolution(op, entry, args):
    """A batched input alone folds its batch into the conv's own; a batched weight (or
    bias) becomes groups: the samples' channels side by side, one group set each."""
    value, weight, bias = args[0], args[1], args[2]
    if front(weight, entry.level) is None and (bias is None or front(bias, entry.level) is None):
        moved = front(value, entry.level)
        size = tuple(moved._size)
        folded = moved.reshape((size[0] * size[1],) + size[2:])
        out = op.call(folded, *args[1:])
        return wrap(out.reshape(size[:2] + tuple(out._size[1:])), entry.level)
    if args[6] or value.dim() != weight.dim():       # transposed, or unbatched input
        return per_sample(op, entry, args)
    return _grouped_convolution(op, entry, args)


def _grouped_convolution(op, entry, args):
    value, weight, bias, groups = args[0], args[1], args[2], args[8]
    size, level = entry.batch_size, entry.level
    w = materialise(weight, level, size)                       # (B, O, I/g, k...)
    x = materialise(value, level, size)                        # (B, N, C, spatial...)
    n, c = x._size[1], x._size[2]
    x = x.movedim(0, 1).reshape((n, size * c) + tuple(x._size[3:]))
    w = w.reshape((-1,) + tuple(w._size[2:]))
    b = None if bias is None else materialise(bias, level, size).reshape(-1)
    out = op.call(x, w, b, *args[3:8], groups * size)          # (N, B*O, spatial...)
    out = out.reshape((n, size, -1) + tuple(out._size[2:])).movedim(1, 0)
    return wrap(out, level)


# ----------------------------------------------------------------------------------
# Whole-tensor reductions: the sample flattened, reduced along its one dim
# ----------------------------------------------------------------------------------
def _flat(args: tuple, entry):
    moved = front(args[0], entry.level)
    return _call("reshape")(moved, (entry.batch_size, -1))


def _whole(name: str, overload: str, extra=lambda args: ()):
    def reduce_whole(op, entry, args):
        flat = _flat(args, entry)
        return wrap(_call(name, overload)(flat, *extra(args)), entry.level)
    return reduce_whole


# ----------------------------------------------------------------------------------
# Views whose arguments are not plain dims
# ----------------------------------------------------------------------------------
def _arg_extreme(op, entry, args):
    """argmax / argmin: over the whole sample (dim None), the sample flattened."""
    if args[1] is not None:
        moved = front(args[0], entry.level)
        if args[0].dim() == 0:
            return wrap(op.call(moved.unsqueeze(1), 1, False), entry.level)
        return wrap(op.call(moved, shift_dim(args[1], args[0].dim()), args[2]), entry.level)
    found = op.call(_flat(args, entry), 1, False)
    if args[2]:                          # keepdim: every dim of the sample, of size 1
        found = found.reshape((entry.batch_size,) + (1,) * args[0].dim())
    return wrap(found, entry.level)


def _masked_fill(op, entry, args):
    """masked_fill with a tensor value (one 0-dim value per sample when batched): a
    `where` of the aligned tensors, in self's dtype."""
    self, mask, value = args
    rank = max(self.dim(), mask.dim())
    mask, value, self_ = [a if (m := front(a, entry.level)) is None else align(m, rank)
                          for a in (mask, value, self)]
    return wrap(_call("where", "self")(mask, value.to(self.dtype), self_), entry.level)


def _trace(op, entry, args):
    moved = front(args[0], entry.level)
    return wrap(moved.diagonal(0, 1, 2).sum(-1), entry.level)


def _repeat(op, entry, args):
    repeats = tuple(args[1])
    moved = align(front(args[0], entry.level), len(repeats))
    return wrap(op.call(moved, (1,) + repeats), entry.level)


def _along_index(op, entry, args):
    """index_select / index_fill: a batched self along an unbatched index (the dim
    shifted); a batched index or value runs per sample."""
    moved = front(args[0], entry.level)
    if moved is None or any(front(a, entry.level) is not None for a in args[2:]):
        return per_sample(op, entry, args)
    rank = max(args[0].dim(), 1)
    if args[0].dim() == 0:
        return per_sample(op, entry, args)
    return wrap(op.call(moved, shift_dim(args[1], rank), *args[2:]), entry.level)


def _values(rule):
    """`rule`'s first result alone (``median()`` is ``median.dim``'s values)."""
    def values(op, entry, args):
        return rule(op, entry, args)[0]
    return values


def _aminmax(op, entry, args):
    """aminmax over the whole sample (dim None): the sample flattened; over a dim: the
    dim shifted."""
    self, dim, keepdim = args
    if dim is not None and self.dim():
        return wrap(op.call(front(self, entry.level), shift_dim(dim, self.dim()), keepdim),
                    entry.level)
    found = op.call(_flat(args, entry), 1, False)
    if keepdim:
        shape = (entry.batch_size,) + (1,) * self.dim()
        found = type(found)([r.reshape(shape) for r in found])
    return wrap(found, entry.level)


def _msort(op, entry, args):
    """msort sorts along the sample's first dim."""
    moved = front(args[0], entry.level)
    if args[0].dim() == 0:
        return wrap(moved.clone(), entry.level)
    return wrap(_call("sort")(moved, 1, False)[0], entry.level)


def _dist(op, entry, args):
    """The p-norm of each sample's difference, over all its elements."""
    self, other, p = args
    rank = max(self.dim(), other.dim())
    a, b = [x if (m := front(x, entry.level)) is None else align(m, rank) for x in (self, other)]
    difference = _call("sub", "Tensor")(a, b, 1).reshape(entry.batch_size, -1)
    return wrap(_call("norm", "ScalarOpt_dim")(difference, p, [1], False), entry.level)


def _count_nonzero(op, entry, args):
    if args[1] is None or args[0].dim() == 0:
        return wrap(op.call(_flat(args, entry), 1), entry.level)
    moved = front(args[0], entry.level)
    return wrap(op.call(moved, shift_dim(args[1], args[0].dim())), entry.level)


def _permute(op, entry, args):
    moved = front(args[0], entry.level)
    rank = args[0].dim()
    dims = [0] + [wrap_dim(d, rank) + 1 for d in args[1]]
    return wrap(op.call(moved, dims), entry.level)


def _t(op, entry, args):
    moved = front(args[0], entry.level)
    if args[0].dim() < 2:
        return wrap(_call("alias")(moved), entry.level)
    return wrap(_call("transpose", "int")(moved, 1, 2), entry.level)


def _squeeze(op, entry, args):
    moved = front(args[0], entry.level)
    dims = [d + 1 for d, s in enumerate(args[0]._size) if s == 1]
    return wrap(_call("squeeze", "dims")(moved, dims), entry.level)


def _expand(op, entry, args):
    size = tuple(args[1])
    moved = align(front(args[0], entry.level), len(size))
    return wrap(op.call(moved, (entry.batch_size,) + size, *args[2:]), entry.level)


def _view(op, entry, args):
    """`view` of a batch-in-front value; where moving the batch left strides that
    cannot be viewed so, a reshape (torch's rule copies there too)."""
    moved = front(args[0], entry.level)
    size = (entry.batch_size,) + tuple(args[1])
    try:
        return wrap(op.call(moved, size), entry.level)
    except RuntimeError:
        if moved is args[0]._value:
            raise
        return wrap(_call("reshape")(moved, size), entry.level)


def _reshape_alias(op, entry, args):
    """`_reshape_alias` names strides computed from the sample's own, which say
    nothing about the value's: a reshape of the value (a view where it can be one)."""
    moved = front(args[0], entry.level)
    return wrap(_call("reshape")(moved, (entry.batch_size,) + tuple(args[1])), entry.level)


def _roll(op, entry, args):
    if not args[2]:                    # rolls the flattened tensor
        return per_sample(op, entry, args)
    moved = front(args[0], entry.level)
    rank = args[0].dim()
    return wrap(op.call(moved, args[1], [wrap_dim(d, rank) + 1 for d in args[2]]),
                entry.level)


def _index(op, entry, args):
    """Advanced indexing of a batched tensor by unbatched indices next to each other
    (so that the indexed dims stay in place behind the batch); anything else runs
    per sample."""
    moved = front(args[0], entry.level)
    indices = list(args[1])
    used = [i for i, index in enumerate(indices) if index is not None]
    if moved is None or not used or used != list(range(used[0], used[-1] + 1)) or any(
            front(indices[i], entry.level) is not None for i in used):
        return per_sample(op, entry, args)
    return wrap(op.call(moved, [None] + indices), entry.level)


# ----------------------------------------------------------------------------------
# nll_loss: the batch folded into the loss's own, reduced per sample afterwards
# ----------------------------------------------------------------------------------
_NONE, _MEAN = 0, 1


def _nll_folded(entry, self, target):
    """self and target with the batch in front, and folded into their first dim."""
    s = materialise(self, entry.level, entry.batch_size)
    t = materialise(target, entry.level, entry.batch_size)
    if self.dim() == 1:                 # one sample of one class vector: no dim to fold into
        return s, t, s, t
    return s, t, s.reshape((-1,) + tuple(s._size[2:])), t.reshape(-1)


def _nll_total(target, weight, ignore_index: int, dtype):
    """Each sample's total weight: the weights of its targets that are not ignored."""
    valid = target.ne(ignore_index)
    if weight is None:
        picked = valid.to(dtype)
    else:
        picked = weight[target.where(valid, 0)] * valid
    return picked.sum(list(range(1, target.dim()))) if target.dim() > 1 else picked


def _nll_loss_forward(op, entry, args):
    self, target, weight, reduction, ignore_index = args
    if weight is not None and front(weight, entry.level) is not None:
        return per_sample(op, entry, args)
    s, t, folded_self, folded_target = _nll_folded(entry, self, target)
    losses = op.call(folded_self, folded_target, weight, _NONE, ignore_index)[0].reshape(t._size)
    total = _nll_total(t, weight, ignore_index, self.dtype)
    if reduction != _NONE:
        if losses.dim() > 1:
            losses = losses.sum(list(range(1, losses.dim())))
        if reduction == _MEAN:
            losses = losses / total
    return wrap((losses, total), entry.level)


def _nll_loss_backward(op, entry, args):
    grad, self, target, weight, reduction, ignore_index, total_weight = args
    if weight is not None and front(weight, entry.level) is not None:
        return per_sample(op, entry, args)
    s, t, folded_self, folded_target = _nll_folded(entry, self, target)
    upstream = materialise(grad, entry.level, entry.batch_size)
    if reduction != _NONE:
        if reduction == _MEAN:
            upstream = upstream / materialise(total_weight, entry.level, entry.batch_size)
        upstream = upstream.reshape((-1,) + (1,) * (t.dim() - 1)).expand(t._size)
    folded_grad = upstream if self.dim() == 1 else upstream.reshape(-1)
    unused = folded_self.new_zeros(())
    result = op.call(folded_grad, folded_self, folded_target, weight, _NONE, ignore_index,
                     unused)
    return wrap(result.reshape(s._size), entry.level)


def _inplace_view(name: str, overload: str):
    """An in-place view (`t_`, `squeeze_`): the view made out of place, then taken on
    by the batched tensor itself."""
    def restride(op, entry, args):
        view = _call(name, overload)(*args)
        target = args[0]
        target._value, target._bdim = view._value, view._bdim
        target._size, target._stride, target._offset = view._size, view._stride, view._offset
        return target
    return restride


RULES = {
    "_local_scalar_dense": _refuse_item,
    "is_nonzero": _refuse_control_flow,
    "equal": _refuse_control_flow,
    "mm": _by_matmul, "bmm": _by_matmul, "mv": _mv, "dot": _dot, "vdot": _vdot,
    **{name: _add_product for name in _PRODUCTS},
    "convolution": _convolution,
    "sum": _whole("sum", "dim_IntList", lambda args: ([1], False, args[1])),
    "mean": _whole("mean", "dim", lambda args: ([1], False, args[1])),
    "prod": _whole("prod", "dim_int", lambda args: (1, False, args[1])),
    "max": _whole("amax", "default", lambda args: ([1], False)),
    "min": _whole("amin", "default", lambda args: ([1], False)),
    "all": _whole("all", "dim", lambda args: (1, False)),
    "any": _whole("any", "dim", lambda args: (1, False)),
    "norm.Scalar": _whole("norm", "ScalarOpt_dim", lambda args: (args[1], [1], False)),
    "permute": _permute, "t": _t, "squeeze": _squeeze, "expand": _expand, "view": _view,
    "_unsafe_view": _view, "_reshape_alias": _reshape_alias, "roll": _roll, "index.Tensor": _index,
    "squeeze_": _inplace_view("squeeze", "default"),
    "squeeze_.dim": _inplace_view("squeeze", "dim"),
    "squeeze_.dims": _inplace_view("squeeze", "dims"), "t_": _inplace_view("t", "default"),
    "transpose_": _inplace_view("transpose", "int"),
    "swapaxes_": _inplace_view("transpose", "int"), "swapdims_": _inplace_view("transpose", "int"),
    "unsqueeze_": _inplace_view("unsqueeze", "default"),
    "var": _whole("var", "correction", lambda args: ([1], int(args[1]), False)),
    "std": _whole("std", "correction", lambda args: ([1], int(args[1]), False)),
    "var_mean": _whole("var_mean", "correction", lambda args: ([1], int(args[1]), False)),
    "std_mean": _whole("std_mean", "correction", lambda args: ([1], int(args[1]), False)),
    "median": _values(_whole("median", "dim", lambda args: (1, False))),
    "nanmedian": _values(_whole("nanmedian", "dim", lambda args: (1, False))),
    "aminmax": _aminmax, "msort": _msort, "dist": _dist,
    "count_nonzero": _count_nonzero, "trace": _trace, "repeat": _repeat,
    "index_select": _along_index, "index_fill.int_Tensor": _along_index,
    "index_fill.int_Scalar": _along_index,
    **batching_nn.RULES,
    "argmax": _arg_extreme, "argmin": _arg_extreme, "masked_fill.Tensor": _masked_fill,
    "nll_loss_forward": _nll_loss_forward, "nll_loss_backward": _nll_loss_backward,
    **{name: batching_nn.fold for name in (
        "max_pool2d_with_indices", "max_pool2d_with_indices_backward", "max_pool3d_with_indices",
        "max_pool3d_with_indices_backward", "avg_pool2d", "avg_pool2d_backward", "avg_pool3d",
        "avg_pool3d_backward", "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward",
        "_adaptive_avg_pool3d", "_adaptive_avg_pool3d_backward")},
}
