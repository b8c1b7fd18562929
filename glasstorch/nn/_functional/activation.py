"""torch.nn.functional's activations: the Python functions around the activation operators.

The operators themselves are declared in `aten/native/nn/softmax.py` and
`aten/native/nn/activation*.py`; those torch binds in ``torch._C._nn`` (``gelu``,
``hardtanh``, ...) reach torch.nn.functional by their ``python_module="nn"``
declaration. What lives here is what torch writes in Python: the ``inplace=`` switch,
softmax's implicit dim, and the compositions (`softmin`, `glu`'s checks, ...).
"""
from __future__ import annotations

import warnings

import glasstorch as torch
from ...aten.binding import get_binding

__all__ = ["softmax", "log_softmax", "softmin", "threshold", "relu", "hardtanh", "relu6", "elu",
           "selu", "celu", "leaky_relu", "glu", "logsigmoid", "hardsigmoid", "silu", "mish",
           "hardswish", "tanhshrink", "softsign", "tanh", "sigmoid", "rrelu"]


def _nn(name: str):
    """The binding of an operator torch puts in ``torch._C._nn`` (``elu``, ``elu_``)."""
    return get_binding("nn", name)


# ----------------------------------------------------------------------------------
# The rectifier family: inplace= picks the operator's in-place twin
# ----------------------------------------------------------------------------------
def threshold(input: torch.Tensor, threshold: float, value: float,
              inplace: bool = False) -> torch.Tensor:
    """Replace each element not greater than `threshold` by `value`.

    Args:
        input (Tensor): the values.
        threshold (float): the level an element must exceed to be kept.
        value (float): what replaces the others.
        inplace (bool): write the result into `input`.

    Example::

        >>> F.threshold(torch.tensor([-1., 0.5, 2.]), 1.0, -5.0)
        tensor([-5., -5.,  2.])
    """
    if inplace:
        return torch.threshold_(input, threshold, value)
    return torch.threshold(input, threshold, value)


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """The rectified linear unit ``max(input, 0)``, elementwise.

    Example::

        >>> F.relu(torch.tensor([-1., 2.]))
        tensor([0., 2.])
    """
    return torch.relu_(input) if inplace else torch.relu(input)


def hardtanh(input: torch.Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> torch.Tensor:
    """Clamp each element to ``[min_val, max_val]``.

    Raises:
        ValueError: when `min_val` is greater than `max_val`.

    Example::

        >>> F.hardtanh(torch.tensor([-2., 0.5, 3.]), -1.0, 2.0)
        tensor([-1.0000,  0.5000,  2.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _nn("hardtanh_")(input, min_val, max_val)
    return _nn("hardtanh")(input, min_val, max_val)


def relu6(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """``min(max(input, 0), 6)``, elementwise.

    Example::

        >>> F.relu6(torch.tensor([-1., 3., 9.]))
        tensor([0., 3., 6.])
    """
    return _nn("relu6_")(input) if inplace else _nn("relu6")(input)


def elu(input: torch.Tensor, alpha: float = 1.0, inplace: bool = False) -> torch.Tensor:
    """The exponential linear unit: ``x`` above 0, ``alpha * (exp(x) - 1)`` below.

    Example::

        >>> F.elu(torch.tensor([-1., 2.]))
        tensor([-0.6321,  2.0000])
    """
    return _nn("elu_")(input, alpha) if inplace else _nn("elu")(input, alpha)


def selu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """The self-normalizing elu, ``scale * elu(x, alpha)`` with SELU's fixed constants.

    Example::

        >>> F.selu(torch.tensor([-1., 1.]))
        tensor([-1.1113,  1.0507])
    """
    return torch.selu_(input) if inplace else torch.selu(input)


def celu(input: torch.Tensor, alpha: float = 1.0, inplace: bool = False) -> torch.Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``, elementwise.

    Example::

        >>> F.celu(torch.tensor([-1., 1.]))
        tensor([-0.6321,  1.0000])
    """
    return torch.celu_(input, alpha) if inplace else torch.celu(input, alpha)


def rrelu(input: torch.Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> torch.Tensor:
    """The randomized leaky ReLU: ``x`` above 0, ``a * x`` below, each element's slope `a`
    drawn from ``[lower, upper)`` in training, ``(lower + upper) / 2`` otherwise.

    Example::

        >>> F.rrelu(torch.tensor([-3., 2.]))
        tensor([-0.6875,  2.0000])
    """
    if inplace:
        return torch.rrelu_(input, lower, upper, training)
    return torch.rrelu(input, lower, upper, training)


def leaky_relu(input: torch.Tensor, negative_slope: float = 0.01,
               inplace: bool = False) -> torch.Tensor:
    """``x`` above 0, ``negative_slope * x`` below.

    Example::

        >>> F.leaky_relu(torch.tensor([-10., 2.]), 0.1)
        tensor([-1.,  2.])
    """
    if inplace:
        return _nn("leaky_relu_")(input, negative_slope)
    return _nn("leaky_relu")(input, negative_slope)


# ----------------------------------------------------------------------------------
# Gated and smooth activations
# ----------------------------------------------------------------------------------
def glu(input: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """The gated linear unit: the first half of `input` along `dim` times the sigmoid of
    the second half.

    Raises:
        RuntimeError: for a 0-dim input, or an odd size along `dim`.

    Example::

        >>> F.glu(torch.tensor([[1., 2., 0., 100.]]))
        tensor([[0.5000, 2.0000]])
    """
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _nn("glu")(input, dim)


def logsigmoid(input: torch.Tensor) -> torch.Tensor:
    """``log(sigmoid(input))``, elementwise, without overflow.

    Example::

        >>> F.logsigmoid(torch.tensor([0.]))
        tensor([-0.6931])
    """
    return _nn("log_sigmoid")(input)


def hardsigmoid(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """``min(max(x + 3, 0), 6) / 6``, elementwise.

    Example::

        >>> F.hardsigmoid(torch.tensor([-4., 0., 1.5]))
        tensor([0.0000, 0.5000, 0.7500])
    """
    return _nn("hardsigmoid_")(input) if inplace else _nn("hardsigmoid")(input)


def silu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """``x * sigmoid(x)`` (swish), elementwise.

    Example::

        >>> F.silu(torch.tensor([0., 1.]))
        tensor([0.0000, 0.7311])
    """
    return _nn("silu_")(input) if inplace else _nn("silu")(input)


def mish(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """``x * tanh(softplus(x))``, elementwise.

    Example::

        >>> F.mish(torch.tensor([0., 1.]))
        tensor([0.0000, 0.8651])
    """
    return _nn("mish_")(input) if inplace else _nn("mish")(input)


def hardswish(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """``x * min(max(x + 3, 0), 6) / 6``, elementwise.

    Example::

        >>> F.hardswish(torch.tensor([-4., 1., 4.]))
        tensor([-0.0000,  0.6667,  4.0000])
    """
    return _nn("hardswish_")(input) if inplace else _nn("hardswish")(input)


def tanhshrink(input: torch.Tensor) -> torch.Tensor:
    """``x - tanh(x)``, elementwise.

    Example::

        >>> F.tanhshrink(torch.tensor([0., 2.]))
        tensor([0.0000, 1.0360])
    """
    return input - input.tanh()


def softsign(input: torch.Tensor) -> torch.Tensor:
    """``x / (1 + |x|)``, elementwise.

    Example::

        >>> F.softsign(torch.tensor([-3., 1.]))
        tensor([-0.7500,  0.5000])
    """
    return input / (input.abs() + 1)


def tanh(input: torch.Tensor) -> torch.Tensor:
    """The hyperbolic tangent, elementwise (``input.tanh()``).

    Example::

        >>> F.tanh(torch.tensor([0.]))
        tensor([0.])
    """
    return input.tanh()


def sigmoid(input: torch.Tensor) -> torch.Tensor:
    """The logistic sigmoid, elementwise (``input.sigmoid()``).

    Example::

        >>> F.sigmoid(torch.tensor([0.]))
        tensor([0.5000])
    """
    return input.sigmoid()


# ----------------------------------------------------------------------------------
# softmax, log_softmax, softmin
# ----------------------------------------------------------------------------------
def _get_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """The dim an implicit-dim softmax uses (deprecated, so it warns): 0 for 0-, 1- and
    3-dim inputs (a batch-less (C, H, W) image), else 1 (the dim after the batch)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  f"to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: torch.Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: torch.dtype | None = None) -> torch.Tensor:
    """Apply softmax along `dim`: every slice along it is rescaled to positive values
    summing to 1, ``exp(x_i) / sum_j exp(x_j)``.

    Args:
        input (Tensor): the scores.
        dim (int): the dim the probabilities sum along. Leaving it out is deprecated
            (a warning; 0 for 0-, 1- and 3-dim inputs, else 1).
        dtype (:class:`torch.dtype`, optional): convert `input` to this dtype before
            the softmax (guards against overflow in low precision).

    Returns:
        Tensor: the probabilities, of `input`'s shape.

    Example::

        >>> F.softmax(torch.tensor([[0., 0.], [1., 3.]]), dim=1)
        tensor([[0.5000, 0.5000],
                [0.1192, 0.8808]])
    """
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def softmin(input: torch.Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: torch.dtype | None = None) -> torch.Tensor:
    """Apply softmin along `dim`: the softmax of ``-input``, so the smallest score gets
    the largest probability.

    Args:
        input (Tensor): the scores.
        dim (int): the dim the probabilities sum along (implicit: as `softmax`).
        dtype (:class:`torch.dtype`, optional): convert to this dtype first.

    Example::

        >>> F.softmin(torch.tensor([0., 1.]), dim=0)
        tensor([0.7311, 0.2689])
    """
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input: torch.Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: torch.dtype | None = None) -> torch.Tensor:
    """Apply log(softmax(input)) along `dim`, computed directly (``x - logsumexp(x)``):
    accurate where softmax underflows, and what `nll_loss` expects.

    Args:
        input (Tensor): the scores.
        dim (int): the dim the softmax normalizes along (implicit: as `softmax`).
        dtype (:class:`torch.dtype`, optional): convert to this dtype first.

    Example::

        >>> F.log_softmax(torch.tensor([0., 0.]), dim=0)
        tensor([-0.6931, -0.6931])
    """
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)
