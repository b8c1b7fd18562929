"""torch.nn.functional's normalizations: layer_norm, rms_norm, normalize, batch_norm,
instance_norm, group_norm and local_response_norm.

layer_norm and rms_norm hand over to the operators of `aten/native/nn/normalization.py`
(`torch.layer_norm`, `torch.rms_norm`), batch_norm, instance_norm and group_norm to those
of `batch_norm*.py` and `group_norm.py`, after torch's Python checks of the batch;
normalize is torch's Python composition of a norm, a clamp and a division, and
local_response_norm a mean over a window of channels written in operators.
"""
from __future__ import annotations

import math

import glasstorch as torch

__all__ = ["layer_norm", "rms_norm", "normalize", "batch_norm", "instance_norm", "group_norm",
           "local_response_norm"]


def layer_norm(input: torch.Tensor, normalized_shape: list, weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    """Layer normalization over the trailing dims `normalized_shape`: each slice over
    them gets zero mean and unit variance, then ``* weight + bias``.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        bias (Tensor, optional): shift, of shape `normalized_shape`.
        eps (float): added to the variance for stability. Default: 1e-5.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.layer_norm(torch.tensor([[0., 2.]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, False)


def rms_norm(input: torch.Tensor, normalized_shape: list, weight: torch.Tensor | None = None,
             eps: float | None = None) -> torch.Tensor:
    """Root-mean-square normalization over the trailing dims `normalized_shape`:
    ``x / sqrt(mean(x²) + eps) * weight``.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        eps (float, optional): added to the mean square; the machine epsilon of the
            computation dtype when None.

    Returns:
        Tensor: of `input`'s shape and dtype.

    Example::

        >>> F.rms_norm(torch.tensor([[3., 4.]]), (2,), eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    return torch.rms_norm(input, normalized_shape, weight, eps)


def normalize(input: torch.Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: torch.Tensor | None = None) -> torch.Tensor:
    """Divide each vector along `dim` by its `p`-norm (at least `eps`):
    ``v / max(‖v‖_p, eps)``.

    Args:
        input (Tensor): any shape.
        p (float): the norm's exponent. Default: 2.
        dim (int or tuple of ints): the dims the vectors lie along. Default: 1.
        eps (float): the smallest divisor. Default: 1e-12.
        out (Tensor, optional): written with the result (not differentiable then).

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.normalize(torch.tensor([[3., 4.]]))
        tensor([[0.6000, 0.8000]])
    """
    if out is None:
        denominator = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denominator
    denominator = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denominator, out=out)


def _verify_batch_size(size) -> None:
    """Training statistics need more than one value per channel."""
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")


def batch_norm(input: torch.Tensor, running_mean: torch.Tensor | None,
               running_var: torch.Tensor | None, weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> torch.Tensor:
    """Batch normalization: each channel normalized over the batch and the other dims
    (the batch's statistics in training, updating the running ones; the running ones
    otherwise), then ``* weight + bias``.

    Args:
        input (Tensor): ``(N, C, *)``.
        running_mean, running_var (Tensor, optional): ``(C,)``, updated in training.
        weight, bias (Tensor, optional): per-channel scale and shift.
        training (bool): use the batch's statistics. Default: False.
        momentum (float): the batch's weight in the running statistics. Default: 0.1.
        eps (float): added to the variance. Default: 1e-5.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.batch_norm(torch.tensor([[1.], [3.]]), None, None, training=True, eps=0.0)
        tensor([[-1.],
                [ 1.]])
    """
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training,
                            momentum, eps, torch.backends.cudnn.enabled)


def instance_norm(input: torch.Tensor, running_mean: torch.Tensor | None = None,
                  running_var: torch.Tensor | None = None, weight: torch.Tensor | None = None,
                  bias: torch.Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> torch.Tensor:
    """Instance normalization: each channel of each sample normalized over its other
    dims, then ``* weight + bias``.

    Args:
        input (Tensor): ``(N, C, *)``.
        running_mean, running_var (Tensor, optional): ``(C,)``, updated with
            `use_input_stats`, used otherwise.
        weight, bias (Tensor, optional): per-channel scale and shift.
        use_input_stats (bool): use each instance's statistics. Default: True.
        momentum (float): the batch's weight in the running statistics. Default: 0.1.
        eps (float): added to the variance. Default: 1e-5.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.instance_norm(torch.tensor([[[1., 3.]]]), eps=0.0)
        tensor([[[-1.,  1.]]])
    """
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input "
                         f"size {input.size()}")
    return torch.instance_norm(input, weight, bias, running_mean, running_var,
                               use_input_stats, momentum, eps, torch.backends.cudnn.enabled)


def group_norm(input: torch.Tensor, num_groups: int, weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    """Group normalization: the channels split into `num_groups` groups, each group of
    each sample normalized over its channels and other dims, then ``* weight + bias``
    per channel.

    Args:
        input (Tensor): ``(N, C, *)``.
        num_groups (int): the number of groups (dividing C).
        weight, bias (Tensor, optional): per-channel scale and shift.
        eps (float): added to the variance. Default: 1e-5.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.group_norm(torch.tensor([[1., 3.]]), 1, eps=0.0)
        tensor([[-1.,  1.]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups]
                       + list(input.size()[2:]))
    return torch.group_norm(input, num_groups, weight, bias, eps,
                            torch.backends.cudnn.enabled)


def local_response_norm(input: torch.Tensor, size: int, alpha: float = 1e-4,
                        beta: float = 0.75, k: float = 1.0) -> torch.Tensor:
    """Local response normalization: each element divided by
    ``(k + alpha * mean(x²))^beta``, the mean over a window of `size` neighbouring
    channels (zeros past the edges), as AlexNet's.

    Args:
        input (Tensor): ``(N, C, *)``, at least 3-D.
        size (int): the number of channels in the window.
        alpha (float): the multiplier of the mean. Default: 1e-4.
        beta (float): the exponent. Default: 0.75.
        k (float): the additive constant. Default: 1.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.local_response_norm(torch.ones(1, 2, 1), 2, alpha=1.0, beta=1.0)
        tensor([[[0.6667],
                 [0.5000]]])
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    squares = input.mul(input)
    channels = squares.size(1)
    # zeros before (size // 2) and after ((size - 1) // 2) the channels, as torch pads
    padding = [0, 0] * (dim - 2) + [size // 2, (size - 1) // 2]
    padded = torch.nn.functional.pad(squares, padding)
    window = padded.narrow(1, 0, channels)
    for start in range(1, size):
        window = window + padded.narrow(1, start, channels)
    # torch averages with avg_pool, which divides integers with truncation
    rounding = None if squares.is_floating_point() else "trunc"
    return input / window.div(size, rounding_mode=rounding).mul(alpha).add(k).pow(beta)
