"""The FuncTorchBatched kernel: one batching rule per operator, derived or explicit.

Note [Batching rules from declarations]
    A batching rule runs an operator once for the whole batch: it moves each batched
    argument's batch dimension to the front, adjusts the other arguments so that the
    operator does per sample what it would do to one sample, and wraps the results
    (batch in front) as batched tensors. Most rules follow from what the declaration
    already says:

      * an elementwise operator (the `pointwise` form, and the operators listed in
        `ELEMENTWISE`) broadcasts: a batched argument gets size-1 dims after its batch
        so that it lines up with the others' trailing dims; an in-place one writes its
        `self` through the moved view;
      * an operator of one tensor whose other arguments name dimensions (`dim`,
        `dims`, `dim0`, `start_dim`, ...: `DIM_ARGUMENTS`) shifts each past the batch,
        wrapped against the sample's rank (a `None` reduction dim becomes every
        sample dim);
      * an operator taking a size (`view`, `expand`, `new_zeros`, ...) gets the batch
        size in front of it;
      * operators whose tensors line up dimension by dimension (`cat`, `gather`, the
        softmax backwards: `SAME_RANK`) get the batch on every tensor (an unbatched one
        is expanded) and their dims shifted.

    Explicit rules (batching_explicit.py) cover the operators whose arguments mean more
    than that (`mm`, `convolution`, whole-tensor reductions, `permute`, `index`). An
    explicit composite runs its body on the batched tensors. Everything else runs the
    per-sample fallback (batching_fallback.py): once per sample, results stacked.
    Rules are found once per overload and kept.
"""
from __future__ import annotations

from ..aten.dispatcher import OpOverload, ops, register_fallback
from ..aten.schema import SchemaKind
from ..c10.dispatch_key import DispatchKey
from ..c10.tensor_impl import TensorBase
from . import batching_explicit, batching_fallback
from .batched_tensor import (BatchedTensor, add_batch_dim, align, current_level, front,
                             materialise, shift_dim, wrap)

# Operators that are elementwise although declared in another form (activations written
# as structured kernels, the *_like factories, copies); in-place ones by their name
# without the trailing "_".
ELEMENTWISE = frozenset({
    "clone", "detach", "alias", "_to_copy", "lift_fresh", "zeros_like", "ones_like",
    "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "fill",
    "zero", "copy", "masked_fill", "relu", "gelu", "gelu_backward", "silu",
    "silu_backward", "elu", "elu_backward", "leaky_relu", "leaky_relu_backward", "hardtanh",
    "hardtanh_backward", "softplus", "softplus_backward", "threshold", "threshold_backward",
    "sigmoid_backward", "tanh_backward", "hardsigmoid", "hardswish", "mish", "celu", "selu",
    "logit", "nan_to_num", "clamp", "clamp_min", "clamp_max", "lerp", "where", "addcmul",
    "addcdiv", "native_dropout_backward", "_conj_physical", "conj_physical", "resolve_conj",
    "resolve_neg", "bernoulli", "positive", "sgn", "complex", "polar", "ldexp", "isclose",
    "nextafter", "mvlgamma", "frexp", "log_sigmoid_forward", "log_sigmoid_backward"})
DIM_ARGUMENTS = frozenset({"dim", "dims", "dim0", "dim1", "dim2", "start_dim", "end_dim",
                           "source", "destination"})
# ops of one tensor, taking dims, whose dims may name the end (one past the last dim)
_ONE_PAST = frozenset({"unsqueeze", "diag_embed"})
SAME_RANK = frozenset({
    "cat", "stack", "gather", "scatter", "scatter_add", "scatter_reduce", "take_along_dim",
    "_softmax_backward_data", "_log_softmax_backward_data", "index_add", "index_copy",
    "slice_scatter", "select_scatter", "diagonal_scatter"})
# operators of one tensor whose dims do not say where they act per sample (renorm's
# norms run over every other dim): they run per sample
_NOT_DIM_RULES = frozenset({"renorm", "resize", "resize_as"})
_SIZE_ARGUMENTS = ("size",)


def batched_kernel(op: OpOverload, keyset: int, args: tuple):
    """The FuncTorchBatched kernel of every operator: its batching rule, for the
    innermost vmap level among the arguments."""
    level = max(_levels(args))
    entry = current_level(level)
    rule = _RULES.get(op)
    if rule is None:
        rule = _RULES[op] = derive_rule(op)
    return rule(op, entry, args)


def _levels(args: tuple):
    for value in args:
        if type(value) is BatchedTensor:
            yield value._level
        elif isinstance(value, (list, tuple)):
            for item in value:
                if type(item) is BatchedTensor:
                    yield item._level
    yield 0


_RULES: dict = {}            # OpOverload -> its rule


def derive_rule(op: OpOverload):
    """The batching rule of `op` (Note [Batching rules from declarations])."""
    decl = op.declaration
    name = op._schema.name
    explicit = batching_explicit.RULES.get(op.name)
    if batching_fallback.is_random(op):
        return batching_fallback.random_rule(explicit or _generic(op, name, decl))
    if explicit is not None:
        return explicit
    generic = _generic(op, name, decl)
    if decl is not None and decl.kind == "composite" and generic is not elementwise \
            and name not in SAME_RANK:
        return _decomposed(decl.form.body)
    return generic or batching_fallback.per_sample


def _generic(op: OpOverload, name: str, decl):
    kind = op.kind
    if kind is SchemaKind.out or decl is None:
        return None
    base = name.rstrip("_") if kind is SchemaKind.inplace else name
    if decl.kind == "pointwise" or base in ELEMENTWISE:
        return elementwise
    arguments = op._schema.arguments
    if base in SAME_RANK:
        return same_rank_rule(arguments)
    if kind is SchemaKind.inplace or len(op.tensor_args) != 1 or op.tensor_args[0] != 0 \
            or base in _NOT_DIM_RULES:
        return None
    dims = tuple(i for i, a in enumerate(arguments) if a.name in DIM_ARGUMENTS
                 and a.type.base in ("int", "SymInt"))
    sizes = tuple(i for i, a in enumerate(arguments) if a.name in _SIZE_ARGUMENTS
                  and a.type.is_list)
    if not dims and not sizes:
        return None
    return dim_rule(dims, sizes, 1 if base in _ONE_PAST else 0)


def _decomposed(body):
    """An explicit composite's body run on the batched tensors, as a rule; the
    tensors are re-wrapped without autograd, which recorded the composite already."""
    def run_body(op, entry, args):
        return body(*[_without_autograd(a) for a in args])
    return run_body


def _without_autograd(value):
    if type(value) is BatchedTensor and value._autograd is not None:
        return add_batch_dim(value._value, value._bdim, value._level)
    return value


# ----------------------------------------------------------------------------------
# Elementwise
# ----------------------------------------------------------------------------------
def elementwise(op: OpOverload, entry, args: tuple):
    """Broadcasting operators: batched arguments get the batch in front and size-1
    dims after it, up to the largest sample rank among the tensor arguments. Operators
    not of the pointwise form (whose results take one argument's shape: the backward of
    an activation) get the batch on every tensor of a functional call."""
    level = entry.level
    positions = op.tensor_args
    rank = max((len(args[i]._size) for i in positions if isinstance(args[i], TensorBase)),
               default=0)
    every = op.declaration.kind != "pointwise" and op.kind is SchemaKind.functional
    new = list(args)
    batched_self = False
    for i in positions:
        moved = front(args[i], level)
        if moved is None and every and isinstance(args[i], TensorBase):
            moved = materialise(args[i], level, entry.batch_size)
        elif moved is not None:
            batched_self = batched_self or i == 0
        if moved is not None:
            new[i] = align(moved, rank)
    if op.kind is SchemaKind.inplace:
        if not batched_self:
            batching_fallback.refuse_inplace()
        op.call(*new)
        return args[0]
    return wrap(op.call(*new), level)


# ----------------------------------------------------------------------------------
# Dims and sizes
# ----------------------------------------------------------------------------------
def _shifted(value, rank: int, every_when_empty: bool = False):
    if value is None or every_when_empty and not value:   # a reduction over every dim
        return list(range(1, rank + 1))
    if isinstance(value, (list, tuple)):
        return [shift_dim(d, rank) for d in value]
    return shift_dim(value, rank)


def dim_rule(dims: tuple, sizes: tuple, extra_rank: int):
    """The rule of an operator of one tensor taking dims and / or sizes."""
    def dims_and_sizes(op, entry, args):
        moved = front(args[0], entry.level)
        rank = args[0].dim() + extra_rank
        if moved is None:
            return batching_fallback.per_sample(op, entry, args)
        scalar = rank == 0 and bool(dims)  # a 0-dim sample's dim 0: one of one element
        new = list(args)
        new[0] = moved.unsqueeze(1) if scalar else moved
        rank = max(rank, 1)
        for i in dims:
            if args[i] is None and op._schema.arguments[i].type.base == "int" \
                    and not op._schema.arguments[i].type.is_list:
                return batching_fallback.per_sample(op, entry, args)
            new[i] = _shifted(args[i], rank, op._schema.arguments[i].type.size == 1)
        for i in sizes:
            new[i] = (entry.batch_size,) + tuple(args[i])
        result = op.call(*new)
        if scalar:
            result = _squeezed(result)
        return wrap(result, entry.level)
    return dims_and_sizes


def _squeezed(result):
    """A 0-dim sample's results: the dim it was given, if it kept it, taken away."""
    if isinstance(result, tuple):
        return type(result)([_squeezed(r) for r in result])
    return result.squeeze(1) if isinstance(result, TensorBase) and result.dim() == 2 else result


def same_rank_rule(arguments):
    """Operators whose tensors line up dim by dim: every tensor gets the batch (expanded
    where it has none) and the dims shift past it."""
    dims = tuple(i for i, a in enumerate(arguments) if a.name in DIM_ARGUMENTS
                 and a.type.base in ("int", "SymInt"))
    # index_add / index_copy: the index is a list of positions along dim, not a tensor
    # lined up with self (a batched one runs per sample)
    index = next((i for i, a in enumerate(arguments) if a.name == "index"), None) \
        if arguments[0].name == "self" and any(a.name == "source" for a in arguments) else None

    def same_rank(op, entry, args):
        level, size = entry.level, entry.batch_size
        if index is not None and front(args[index], level) is not None:
            return batching_fallback.per_sample(op, entry, args)
        new = list(args)
        rank = None
        for i in op.tensor_args:
            value = args[i]
            if i == index:
                continue
            if isinstance(value, (list, tuple)):
                new[i] = [materialise(v, level, size) for v in value]
                rank = rank if rank is not None or not value else value[0].dim()
            elif value is not None:
                new[i] = materialise(value, level, size)
                rank = value.dim() if rank is None else rank
        if op._schema.name == "stack":        # its dim may name one past the last
            rank += 1
        elif not rank and dims:               # a 0-dim sample's dim 0: none to shift
            return batching_fallback.per_sample(op, entry, args)
        for i in dims:
            new[i] = _shifted(args[i], rank)
        return wrap(op.call(*new), level)
    return same_rank


# Composites whose bodies would draw into an unbatched tensor they make: their batched
# calls take the rule instead (torch gives them batching rules too).
_RULES_OVER_BODIES = ("rand_like", "randn_like", "randint_like")


def install() -> None:
    """Serve the FuncTorchBatched key for every operator, and the vmap-mode key."""
    register_fallback(DispatchKey.FuncTorchBatched, batched_kernel)
    register_fallback(DispatchKey.FuncTorchVmapMode, batching_fallback.vmap_mode_kernel)
    for name in _RULES_OVER_BODIES:
        for overload in getattr(ops.aten, name)._overloads.values():
            overload.register(DispatchKey.FuncTorchBatched, batched_kernel)

