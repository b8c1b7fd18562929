"""Batching rules of the neural-network operators: losses reduced per sample,
embeddings, layer norm, padding (Note [Batching rules from declarations] in
batching_rules.py). Each is ``rule(op, entry, args)``.
"""
from __future__ import annotations

from .batched_tensor import align, front, materialise, wrap
from .batching_fallback import per_sample

_NONE, _MEAN = 0, 1


def _aligned(args: tuple, positions, entry, rank: int) -> list:
    """`args` with the tensors at `positions` batch in front (expanded where they have
    none: a loss kernel takes its shapes from one argument), lined up to `rank`."""
    new = list(args)
    for i in positions:
        if args[i] is not None:
            new[i] = align(materialise(args[i], entry.level, entry.batch_size), rank)
    return new


def _tensor_rank(args: tuple, positions) -> int:
    return max((args[i].dim() for i in positions if args[i] is not None), default=0)


def pointwise_loss(op, entry, args):
    """An elementwise loss: the losses of every element (reduction 'none'), then each
    sample's own mean or sum."""
    positions = op.tensor_args
    reduction_at = _argument(op, "reduction")
    new = _aligned(args, positions, entry, _tensor_rank(args, positions))
    reduction = args[reduction_at]
    new[reduction_at] = _NONE
    losses = op.call(*new)             # a batched tensor is among them: batch in front
    if reduction != _NONE and losses.dim() > 1:
        dims = list(range(1, losses.dim()))
        losses = losses.mean(dims) if reduction == _MEAN else losses.sum(dims)
    return wrap(losses, entry.level)


def pointwise_loss_backward(op, entry, args):
    """Its backward: each sample's upstream gradient spread over its elements (divided
    by their count for a mean), then the elementwise gradient."""
    positions = op.tensor_args
    reduction_at = _argument(op, "reduction")
    reduction = args[reduction_at]
    rank = _tensor_rank(args, positions[1:])
    new = _aligned(args, positions, entry, rank)
    if reduction != _NONE:
        shape = _broadcast_shape(args, positions[1:])
        count = 1
        for s in shape:
            count *= s
        upstream = materialise(args[0], entry.level, entry.batch_size)
        upstream = align(upstream, rank).expand((entry.batch_size,) + shape)
        new[0] = upstream / count if reduction == _MEAN else upstream
        new[reduction_at] = _NONE
    return wrap(op.call(*new), entry.level)


def _broadcast_shape(args: tuple, positions) -> tuple:
    shape: tuple = ()
    for i in positions:
        if args[i] is None:
            continue
        size = tuple(args[i]._size)
        width = max(len(shape), len(size))
        shape = tuple(max(a, b) for a, b in zip((1,) * (width - len(shape)) + shape,
                                                (1,) * (width - len(size)) + size))
    return shape


def _argument(op, name: str) -> int:
    return next(i for i, a in enumerate(op._schema.arguments) if a.name == name)


def fold(op, entry, args):
    """Operators treating the planes of their first dim alike (pooling, padding by
    reflection, and their backwards): every tensor gets the batch, folded into its
    first dim."""
    size, level = entry.batch_size, entry.level
    new = list(args)
    for i in op.tensor_args:
        if args[i] is not None:
            batched = materialise(args[i], level, size)
            new[i] = batched.reshape((-1,) + tuple(batched._size[2:]))
    result = op.call(*new)

    def unfold(folded):
        return folded.reshape((size, -1) + tuple(folded._size[1:]))
    return wrap(tuple(unfold(r) for r in result) if isinstance(result, tuple) else unfold(result),
                level)


def embedding(op, entry, args):
    """Batched indices into an unbatched table look up every sample's at once."""
    weight, indices = args[0], args[1]
    moved = front(indices, entry.level)
    if front(weight, entry.level) is not None or moved is None:
        return per_sample(op, entry, args)
    return wrap(op.call(weight, moved, *args[2:]), entry.level)


def trailing(op, entry, args):
    """Operators acting on trailing dims of their first tensor (layer norm, constant
    padding, tril): the value in, batch in front, when nothing else is batched."""
    if any(front(args[i], entry.level) is not None for i in op.tensor_args[1:]):
        return per_sample(op, entry, args)
    return wrap(op.call(front(args[0], entry.level), *args[1:]), entry.level)


RULES = {
    **{name: pointwise_loss for name in (
        "mse_loss", "huber_loss", "smooth_l1_loss", "soft_margin_loss", "binary_cross_entropy",
        "binary_cross_entropy_with_logits", "l1_loss")},
    **{name: pointwise_loss_backward for name in (
        "mse_loss_backward", "huber_loss_backward", "smooth_l1_loss_backward",
        "soft_margin_loss_backward", "binary_cross_entropy_backward")},
    **{name + suffix: fold for name in (
        "reflection_pad1d", "reflection_pad2d", "reflection_pad3d", "replication_pad1d",
        "replication_pad2d", "replication_pad3d") for suffix in ("", "_backward")},
    "embedding": embedding,
    **{name: trailing for name in ("native_layer_norm", "constant_pad_nd", "tril", "triu")},
}
