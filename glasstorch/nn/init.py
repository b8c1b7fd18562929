"""torch.nn.init: functions that fill a parameter in place with its starting values.

Every initialiser runs under ``no_grad`` (a parameter is a leaf that requires grad, and
filling it must not be recorded) and draws from the generator exactly as torch's does:
the same random operators, on tensors of the same shapes, in the same order. That is
what makes ``torch.manual_seed(0); nn.Linear(20, 30)`` hold torch's weights bit for bit.
"""
from __future__ import annotations

import math
import warnings
from typing import Callable

import numpy as np

import glasstorch as torch
from ..c10 import dtype as dtypes

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
    "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
    "kaiming_normal_", "orthogonal_", "sparse_",
    # the old names without the trailing underscore, kept with a FutureWarning
    "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
    "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse",
]

# Layers whose output is linear in their input: no gain is needed to keep the variance.
_LINEAR_LAYERS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    r"""The factor by which to scale a layer's standard deviation for a nonlinearity.

    linear and conv layers, sigmoid: 1; tanh: 5/3; relu: :math:`\sqrt{2}`;
    leaky_relu: :math:`\sqrt{2 / (1 + \text{negative\_slope}^2)}`; selu: 3/4.

    Args:
        nonlinearity: the name of the function in `nn.functional`
        param: the negative slope of ``'leaky_relu'`` (default 0.01); ignored otherwise

    Returns:
        the gain, a Python number

    Example::

        >>> nn.init.calculate_gain("leaky_relu", 0.2)
        1.3867504905630728
    """
    if nonlinearity in _LINEAR_LAYERS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif isinstance(param, float) or (isinstance(param, int) and not isinstance(param, bool)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4       # found empirically by torch's authors
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor) -> tuple:
    """(fan_in, fan_out) of a weight laid out as torch's layers lay theirs out:
    dim 0 the outputs, dim 1 the inputs, the rest a receptive field both are scaled by."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer "
                         "than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.size(1) * receptive_field, tensor.size(0) * receptive_field


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    r"""Fill `tensor` with values drawn from :math:`\mathcal{U}(a, b)`.

    Args:
        tensor: the tensor to fill
        a: the lower bound
        b: the upper bound
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> w = torch.empty(3, 5)
        >>> nn.init.uniform_(w, -0.1, 0.1)
    """
    with torch.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    r"""Fill `tensor` with values drawn from :math:`\mathcal{N}(\text{mean}, \text{std}^2)`.

    Args:
        tensor: the tensor to fill
        mean: the mean of the distribution
        std: its standard deviation
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> w = torch.empty(3, 5)
        >>> nn.init.normal_(w, std=0.02)
    """
    with torch.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None):
    r"""Fill `tensor` with values from :math:`\mathcal{N}(\text{mean}, \text{std}^2)`
    restricted to :math:`[a, b]`.

    Values are drawn by rejection, as torch 2.13 draws them: when the interval holds
    more than 30% of the mass, normal draws outside it are redrawn; otherwise uniform
    draws on :math:`[a, b]` are kept with probability pdf(x) / pdf(mode).

    Args:
        tensor: the tensor to fill
        mean: the mean of the untruncated distribution
        std: its standard deviation
        a: the lower bound
        b: the upper bound
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> w = torch.empty(3, 5)
        >>> nn.init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04)
    """
    if tensor.is_meta:
        return tensor
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    mass = _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std)
    with torch.no_grad():
        if mass > 0.3:
            _redraw_outside(tensor, mean, std, a, b, generator)
        else:
            _accept_uniform_proposals(tensor, mean, std, a, b, generator)
    return tensor


def _normal_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _redraw_outside(tensor, mean: float, std: float, a: float, b: float, generator) -> None:
    """Normal draws; every round redraws a whole tensor and keeps the new values where
    the current ones fall outside [a, b] (bounds rounded to the tensor's dtype)."""
    low = tensor.new_tensor(a, device="cpu").item()
    high = tensor.new_tensor(b, device="cpu").item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < low) | (result > high)
        if not outside.any():
            break
        fresh = torch.empty_like(result).normal_(mean, std, generator=generator)
        result = torch.where(outside, fresh, result)
    if result is not tensor:
        tensor.copy_(result)


def _accept_uniform_proposals(tensor, mean: float, std: float, a: float, b: float,
                              generator) -> None:
    """Uniform proposals on [a, b], each accepted when log(u) <= log pdf(x) - log pdf(mode)
    for a fresh uniform u; every round redraws whole tensors for the pending places."""
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    candidates = torch.empty_like(tensor)
    acceptance = torch.empty_like(tensor)
    tensor.uniform_(a, b, generator=generator)
    candidates.copy_(tensor)
    _log_density_below_peak(candidates, mean, std, log_peak)
    pending = acceptance.uniform_(generator=generator).log_().gt(candidates)
    if not pending.any():
        return
    result = tensor
    while True:
        candidates.uniform_(a, b, generator=generator)
        result = torch.where(pending, candidates, result)
        _log_density_below_peak(candidates, mean, std, log_peak)
        rejected = acceptance.uniform_(generator=generator).log_().gt(candidates)
        pending = torch.where(pending, rejected, pending)
        if not pending.any():
            break
    tensor.copy_(result)


def _log_density_below_peak(x, mean: float, std: float, log_peak: float) -> None:
    """x <- -((x - mean) / std)^2 / 2 - log_peak, in place and in x's dtype, op by op
    as torch rounds it (the acceptance test compares against these exact values)."""
    x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)


def constant_(tensor, val: float):
    """Fill `tensor` with `val`.

    Args:
        tensor: the tensor to fill
        val: the value

    Example::

        >>> w = torch.empty(3, 5)
        >>> nn.init.constant_(w, 0.3)
    """
    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill `tensor` with ones.

    Example::

        >>> nn.init.ones_(torch.empty(3, 5))
    """
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fill `tensor` with zeros.

    Example::

        >>> nn.init.zeros_(torch.empty(3, 5))
    """
    with torch.no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fill a 2-D `tensor` with the identity matrix (ones on the main diagonal), so a
    `Linear` layer starts by passing through as many inputs as it can.

    Example::

        >>> nn.init.eye_(torch.empty(3, 5))
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        torch.eye(*tensor.shape, out=tensor)
    return tensor


def dirac_(tensor, groups: int = 1):
    """Fill a 3-, 4- or 5-D convolution weight with the Dirac delta: output channel ``d``
    of each group sees input channel ``d`` at the kernel's centre, so the convolution
    starts as the identity on as many channels as it can.

    Args:
        tensor: the weight, ``(out_channels, in_channels / groups, *kernel_size)``
        groups: the convolution's groups; dim 0 must divide by it

    Example::

        >>> nn.init.dirac_(torch.empty(3, 16, 5, 5))
    """
    dims = tensor.ndimension()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.size(0) % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    if tensor.is_meta:
        return tensor
    per_group = tensor.size(0) // groups
    channels = torch.arange(min(per_group, tensor.size(1)))
    outputs = (torch.arange(groups).unsqueeze(1) * per_group + channels).flatten()
    inputs = channels.repeat(groups)
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with torch.no_grad():
        tensor.zero_()
        tensor[(outputs, inputs) + centre] = 1
    return tensor


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    r"""Fill `tensor` from :math:`\mathcal{U}(-a, a)` with
    :math:`a = \text{gain} \sqrt{6 / (\text{fan\_in} + \text{fan\_out})}` (Glorot & Bengio,
    2010), which keeps activations' and gradients' variances alike across layers.

    Args:
        tensor: a tensor of at least 2 dimensions
        gain: a scaling factor (see `calculate_gain`)
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> nn.init.xavier_uniform_(torch.empty(3, 5), gain=nn.init.calculate_gain("relu"))
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std       # the uniform on [-bound, bound] has this std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    r"""Fill `tensor` from :math:`\mathcal{N}(0, \text{std}^2)` with
    :math:`\text{std} = \text{gain} \sqrt{2 / (\text{fan\_in} + \text{fan\_out})}`
    (Glorot & Bengio, 2010).

    Args:
        tensor: a tensor of at least 2 dimensions
        gain: a scaling factor (see `calculate_gain`)
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> nn.init.xavier_normal_(torch.empty(3, 5))
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None):
    r"""Fill `tensor` from :math:`\mathcal{U}(-\text{bound}, \text{bound})` with
    :math:`\text{bound} = \text{gain} \sqrt{3 / \text{fan\_mode}}` (He et al., 2015).

    Args:
        tensor: a tensor of at least 2 dimensions, laid out ``(fan_out, fan_in, ...)``
        a: the negative slope of the leaky_relu after this layer
        mode: ``'fan_in'`` keeps the forward pass's variance, ``'fan_out'`` the backward's
        nonlinearity: the `nn.functional` name of the activation after this layer
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> nn.init.kaiming_uniform_(torch.empty(3, 5), mode="fan_in", nonlinearity="relu")
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    with torch.no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None):
    r"""Fill `tensor` from :math:`\mathcal{N}(0, \text{std}^2)` with
    :math:`\text{std} = \text{gain} / \sqrt{\text{fan\_mode}}` (He et al., 2015).

    Args:
        tensor: a tensor of at least 2 dimensions, laid out ``(fan_out, fan_in, ...)``
        a: the negative slope of the leaky_relu after this layer
        mode: ``'fan_in'`` keeps the forward pass's variance, ``'fan_out'`` the backward's
        nonlinearity: the `nn.functional` name of the activation after this layer
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> nn.init.kaiming_normal_(torch.empty(3, 5), mode="fan_out", nonlinearity="relu")
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    with torch.no_grad():
        return tensor.normal_(0, std, generator=generator)


def orthogonal_(tensor, gain: float = 1, generator=None):
    """Fill `tensor` with a (semi-)orthogonal matrix times `gain` (Saxe et al., 2013):
    the Q of a QR factorisation of a standard normal matrix, its columns' signs fixed by
    R's diagonal so that Q is uniformly distributed. Dims after the first are flattened.

    Args:
        tensor: a tensor of at least 2 dimensions
        gain: a scaling factor
        generator: the `torch.Generator` to draw from (default: the global one)

    Example::

        >>> nn.init.orthogonal_(torch.empty(3, 5))
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened.t_()
    q, r = _qr(flattened)
    q *= torch.diag(r, 0).sign()
    if rows < cols:
        q.t_()
    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def _qr(matrix) -> tuple:
    """The reduced QR factorisation of a 2-D float tensor, by NumPy's LAPACK (the
    Householder algorithm torch's geqrf/orgqr run, so Q agrees to rounding)."""
    if matrix.dtype in (dtypes.float16, dtypes.bfloat16):
        name = dtypes.scalar_type_name(matrix.dtype)
        raise NotImplementedError(f"\"geqrf_cpu\" not implemented for '{name}'")
    values = matrix.numpy()
    q, r = np.linalg.qr(values, mode="reduced")
    return (torch.from_numpy(q.astype(values.dtype, copy=False)),
            torch.from_numpy(r.astype(values.dtype, copy=False)))


def sparse_(tensor, sparsity: float, std: float = 0.01, generator=None):
    r"""Fill a 2-D `tensor` from :math:`\mathcal{N}(0, \text{std}^2)`, then zero
    ``ceil(sparsity * rows)`` random places in each column (Martens, 2010).

    The places to zero come from the global generator even when `generator` is given,
    as in torch.

    Args:
        tensor: a 2-D tensor
        sparsity: the fraction of each column to zero
        std: the standard deviation of the non-zero values
        generator: the `torch.Generator` the values are drawn from

    Example::

        >>> nn.init.sparse_(torch.empty(3, 5), sparsity=0.1)
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if tensor.is_meta:
        return tensor
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with torch.no_grad():
        tensor.normal_(0, std, generator=generator)
        for column in range(cols):      # one permutation per column: torch's draw order
            tensor[torch.randperm(rows)[:num_zeros], column] = 0
    return tensor


def _deprecated(initialiser: Callable) -> Callable:
    """The old name of `initialiser` (without its trailing underscore), warning once per
    call that it is deprecated."""
    new_name = initialiser.__name__
    old_name = new_name[:-1]

    def deprecated(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of "
                      f"`nn.init.{new_name}`.", FutureWarning, stacklevel=2)
        return initialiser(*args, **kwargs)

    deprecated.__name__ = deprecated.__qualname__ = old_name
    deprecated.__doc__ = f"{old_name}(...): deprecated, use `nn.init.{new_name}`."
    return deprecated


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
