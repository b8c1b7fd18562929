"""The operators around `native_batch_norm`: the `batch_norm` and `instance_norm`
composites, and the functional forms torch's export and compile paths call
(`_native_batch_norm_legit`, `_native_batch_norm_legit_no_training`,
`_batch_norm_with_update`, `_batch_norm_no_update`, `batch_norm_backward`).

Each calls `native_batch_norm` (or its backward), so autograd records one
NativeBatchNormBackward0 node for all of them.
"""
from __future__ import annotations

from ....c10 import dtype as dtypes
from ... import functions as at
from ...registry import composite
from .batch_norm import check_batch_norm_arguments, native_batch_norm, native_batch_norm_backward

_BATCH_NORM_ARGS = ("Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                    "Tensor? running_var")


@composite(f"batch_norm({_BATCH_NORM_ARGS}, bool training, float momentum, float eps, "
           "bool cudnn_enabled) -> Tensor")
def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    """Normalize each channel of ``(N, C, *)`` over the batch and the other dims, then
    ``* weight + bias`` (Note [Batch norm over channels] in `batch_norm.py`).

    Args:
        input (Tensor): ``(N, C, *)``.
        weight, bias (Tensor, optional): per-channel scale and shift.
        running_mean, running_var (Tensor, optional): updated in training, used otherwise.
        training (bool): normalize with the batch's statistics.
        momentum (float): the weight of the batch in the running statistics.
        eps (float): added to the variance.
        cudnn_enabled (bool): ignored on CPU.

    Example::

        >>> torch.batch_norm(torch.tensor([[1.], [3.]]), None, None, None, None, True,
        ...                  0.1, 0.0, False)
        tensor([[-1.],
                [ 1.]])
    """
    if input.numel() == 0:
        return _empty_batch_norm(input, weight, bias)
    check_batch_norm_arguments(input, weight, bias, running_mean, running_var, training)
    return native_batch_norm.call(input, weight, bias, running_mean, running_var, training,
                                  momentum, eps)[0]


def _empty_batch_norm(input, weight, bias):
    """An empty batch: a copy (not a view, so gradients reach the input), scaled and
    shifted by the first parameters; the running statistics stay."""
    out = input.clone()
    if weight is not None:
        out = out * weight[0]
    if bias is not None:
        out = out + bias[0]
    return out


@composite(f"_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, "
           "Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, "
           "float eps) -> (Tensor, Tensor, Tensor)")
def _native_batch_norm_legit(input, weight, bias, running_mean, running_var, training,
                             momentum, eps):
    """`native_batch_norm` with running statistics that must be given."""
    return native_batch_norm.call(input, weight, bias, running_mean, running_var, training,
                                  momentum, eps)


@composite("_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, "
           "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)")
def _native_batch_norm_legit_no_stats(input, weight, bias, training, momentum, eps):
    """`native_batch_norm` without running statistics."""
    return native_batch_norm.call(input, weight, bias, None, None, training, momentum, eps)


@composite("_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, "
           "Tensor running_mean, Tensor running_var, float momentum, float eps) -> "
           "(Tensor, Tensor, Tensor)")
def _native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var,
                                         momentum, eps):
    """`native_batch_norm` out of training."""
    return native_batch_norm.call(input, weight, bias, running_mean, running_var, False,
                                  momentum, eps)


def _empty_reserve(input):
    return at.empty((0,), dtype=dtypes.uint8, device=input.device)


@composite("_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, "
           "Tensor(a!) running_mean, Tensor(b!) running_var, float momentum, float eps) -> "
           "(Tensor, Tensor, Tensor, Tensor)", function=False)
def _batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps):
    """Training batch norm updating the running statistics; the fourth result is the
    (empty, on CPU) reserve space of the backward."""
    results = native_batch_norm.call(input, weight, bias, running_mean, running_var, True,
                                     momentum, eps)
    return (*results, _empty_reserve(input))


@composite(f"_batch_norm_no_update({_BATCH_NORM_ARGS}, float momentum, float eps) -> "
           "(Tensor, Tensor, Tensor, Tensor)", function=False)
def _batch_norm_no_update(input, weight, bias, running_mean, running_var, momentum, eps):
    """Batch norm out of training, or with the batch's statistics when no running ones
    are given; the fourth result is the (empty) reserve space."""
    training = running_mean is None or running_var is None
    results = native_batch_norm.call(input, weight, bias, running_mean, running_var, training,
                                     momentum, eps)
    return (*results, _empty_reserve(input))


@composite("batch_norm_backward(Tensor grad_out, Tensor input, Tensor weight, "
           "Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_var, "
           "bool update, float eps, bool[3] output_mask, Tensor reserve) -> "
           "(Tensor, Tensor, Tensor)", function=False)
def batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
                        save_var, update, eps, output_mask, reserve):
    """The backward of `_batch_norm_with_update` (`update`) and `_batch_norm_no_update`:
    `native_batch_norm_backward` with the saved invstd in `save_var`."""
    train = update or running_mean is None or running_var is None
    return native_batch_norm_backward.call(grad_out, input, weight, running_mean, running_var,
                                           save_mean, save_var, train, eps, output_mask)


@composite(f"instance_norm({_BATCH_NORM_ARGS}, bool use_input_stats, float momentum, "
           "float eps, bool cudnn_enabled) -> Tensor")
def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    """Normalize each channel of each sample over its other dims: batch norm of the
    input seen as one sample of ``N * C`` channels, the per-channel parameters repeated
    N times; running statistics get the mean over the batch of the per-sample updates.

    Args:
        input (Tensor): ``(N, C, *)``.
        weight, bias (Tensor, optional): per-channel scale and shift.
        running_mean, running_var (Tensor, optional): updated with `use_input_stats`,
            used otherwise.
        use_input_stats (bool): normalize with each instance's statistics.
        momentum (float): the weight of the batch in the running statistics.
        eps (float): added to the variance.
        cudnn_enabled (bool): ignored on CPU.

    Example::

        >>> torch.instance_norm(torch.tensor([[[1., 3.]]]), None, None, None, None, True,
        ...                     0.1, 0.0, False)
        tensor([[[-1.,  1.]]])
    """
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    batch, channels = input.shape[0], input.shape[1]
    repeated = [None if t is None else t.repeat(batch)
                for t in (weight, bias, running_mean, running_var)]
    shape = (1, batch * channels) + tuple(input.shape[2:])
    out = batch_norm.call(input.contiguous().view(shape), *repeated, use_input_stats,
                          momentum, eps, cudnn_enabled)
    for running, updated in zip((running_mean, running_var), repeated[2:]):
        if running is not None:
            running.copy_(updated.view(batch, channels).mean(0, False))
    return out.view(input.shape)
