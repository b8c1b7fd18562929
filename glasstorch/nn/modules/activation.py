"""Activation layers: each wraps its torch.nn.functional function (`nn/_functional/
activation.py`), holding the function's options as attributes named as torch's, and
printing them in `extra_repr` as torch does (PReLU is the one with a parameter)."""
from __future__ import annotations

import warnings

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Threshold", "ReLU", "Hardtanh", "ReLU6", "Sigmoid", "Tanh", "Hardsigmoid", "SiLU",
           "Mish", "Hardswish", "ELU", "CELU", "SELU", "GLU", "GELU", "Hardshrink",
           "LeakyReLU", "LogSigmoid", "Softplus", "Softshrink", "PReLU", "Softsign",
           "Tanhshrink", "Softmin", "Softmax", "Softmax2d", "LogSoftmax"]


def _inplace_text(inplace: bool, first: bool = False) -> str:
    """The ``inplace=True`` part of an extra_repr (nothing when False)."""
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class _Inplace(Module):
    """An activation whose only option is `inplace` (ReLU, SiLU, ...): `function` is its
    torch.nn.functional form."""

    function = None

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return type(self).function(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace, first=True)


class _Plain(Module):
    """An activation without options (Sigmoid, Tanh, ...): `function` applied as it is."""

    function = None

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return type(self).function(input)


# ----------------------------------------------------------------------------------
# The rectifier family
# ----------------------------------------------------------------------------------
class Threshold(Module):
    """Replaces each element not above `threshold` by `value`.

    Args:
        threshold: the level an element must exceed to be kept.
        value: what replaces the others.
        inplace: write the result into the input.

    Example::

        >>> m = nn.Threshold(0.1, 20)
        >>> m(torch.tensor([0.0, 0.5]))
        tensor([20.0000,  0.5000])
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace_text(self.inplace)}"


class ReLU(_Inplace):
    """The rectified linear unit ``max(0, x)``, elementwise.

    Example::

        >>> nn.ReLU()(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    function = staticmethod(F.relu)


class Hardtanh(Module):
    """Clamps each element to ``[min_val, max_val]``.

    Args:
        min_val: the lower bound (default -1).
        max_val: the upper bound (default 1).
        inplace: write the result into the input.
        min_value, max_value: deprecated spellings of `min_val` and `max_val`.

    Example::

        >>> nn.Hardtanh(-2, 2)(torch.tensor([-3.0, 0.5, 3.0]))
        tensor([-2.0000,  0.5000,  2.0000])
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False,
                 min_value: float | None = None, max_value: float | None = None) -> None:
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`",
                          FutureWarning, stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`",
                          FutureWarning, stacklevel=2)
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val "
                                 f"({self.min_val})")

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_text(self.inplace)}"


class ReLU6(Hardtanh):
    """``min(max(0, x), 6)``: a Hardtanh with bounds 0 and 6.

    Example::

        >>> nn.ReLU6()(torch.tensor([-1.0, 3.0, 9.0]))
        tensor([0., 3., 6.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace, first=True)


class LeakyReLU(Module):
    """``x`` for positive elements, ``negative_slope * x`` for the others.

    Args:
        negative_slope: the slope below 0 (default 0.01).
        inplace: write the result into the input.

    Example::

        >>> nn.LeakyReLU(0.1)(torch.tensor([-10.0, 2.0]))
        tensor([-1.,  2.])
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_text(self.inplace)}"


class PReLU(Module):
    """The parametric ReLU: ``x`` above 0, ``a * x`` below, with a learned slope `a`, one
    for all channels or one per channel (dim 1 of the input).

    Args:
        num_parameters: how many slopes: 1, or the number of input channels.
        init: the slopes' initial value (default 0.25).
        device, dtype: of the weight.

    Attributes:
        weight: the learnable slopes, of shape ``(num_parameters,)``.

    Example::

        >>> m = nn.PReLU()
        >>> m(torch.tensor([-2.0, 2.0]))
        tensor([-0.5000,  2.0000], grad_fn=<PreluKernelBackward0>)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Fill the slopes with `init`."""
        init.constant_(self.weight, self.init)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


# ----------------------------------------------------------------------------------
# Smooth and gated activations
# ----------------------------------------------------------------------------------
class Sigmoid(_Plain):
    """The logistic sigmoid ``1 / (1 + exp(-x))``, elementwise.

    Example::

        >>> nn.Sigmoid()(torch.tensor([0.0]))
        tensor([0.5000])
    """

    function = staticmethod(F.sigmoid)


class Tanh(_Plain):
    """The hyperbolic tangent, elementwise.

    Example::

        >>> nn.Tanh()(torch.tensor([0.0]))
        tensor([0.])
    """

    function = staticmethod(F.tanh)


class Hardsigmoid(_Inplace):
    """``min(max(x + 3, 0), 6) / 6``, elementwise.

    Example::

        >>> nn.Hardsigmoid()(torch.tensor([0.0, 3.0]))
        tensor([0.5000, 1.0000])
    """

    function = staticmethod(F.hardsigmoid)

    def extra_repr(self) -> str:
        return ""            # torch's Hardsigmoid does not print `inplace`


class SiLU(_Inplace):
    """``x * sigmoid(x)`` (swish), elementwise.

    Example::

        >>> nn.SiLU()(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7311])
    """

    function = staticmethod(F.silu)


class Mish(_Inplace):
    """``x * tanh(softplus(x))``, elementwise.

    Example::

        >>> nn.Mish()(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8651])
    """

    function = staticmethod(F.mish)


class Hardswish(_Inplace):
    """``x * min(max(x + 3, 0), 6) / 6``, elementwise.

    Example::

        >>> nn.Hardswish()(torch.tensor([-4.0, 1.0]))
        tensor([-0.0000,  0.6667])
    """

    function = staticmethod(F.hardswish)

    def extra_repr(self) -> str:
        return ""            # torch's Hardswish does not print `inplace`


class ELU(Module):
    """The exponential linear unit: ``x`` above 0, ``alpha * (exp(x) - 1)`` below.

    Args:
        alpha: the scale of the negative part (default 1).
        inplace: write the result into the input.

    Example::

        >>> nn.ELU()(torch.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_text(self.inplace)}"


class CELU(ELU):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``, elementwise.

    Args:
        alpha: the scale of the negative part (default 1).
        inplace: write the result into the input.

    Example::

        >>> nn.CELU()(torch.tensor([-1.0, 1.0]))
        tensor([-0.6321,  1.0000])
    """

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.celu(input, self.alpha, self.inplace)


class SELU(_Inplace):
    """The self-normalizing ELU ``scale * elu(x, alpha)`` with SELU's constants.

    Example::

        >>> nn.SELU()(torch.tensor([-1.0, 1.0]))
        tensor([-1.1113,  1.0507])
    """

    function = staticmethod(F.selu)


class GLU(Module):
    """The gated linear unit: the first half of the input along `dim` times the sigmoid
    of the second half.

    Args:
        dim: the dim split in halves (default -1).

    Example::

        >>> nn.GLU()(torch.tensor([[1.0, 2.0, 0.0, 100.0]]))
        tensor([[0.5000, 2.0000]])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """The Gaussian error linear unit ``x * Phi(x)``, or its tanh approximation.

    Args:
        approximate: ``'none'`` (exact, through erf) or ``'tanh'``.

    Example::

        >>> nn.GELU()(torch.tensor([1.0]))
        tensor([0.8413])
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Hardshrink(Module):
    """Zeroes the elements within ``[-lambd, lambd]`` and keeps the others.

    Args:
        lambd: the half-width of the zeroed band (default 0.5).

    Example::

        >>> nn.Hardshrink()(torch.tensor([0.2, 1.0]))
        tensor([0., 1.])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """Moves each element `lambd` towards 0, zeroing those within ``[-lambd, lambd]``.

    Args:
        lambd: the amount of shrinkage, at least 0 (default 0.5).

    Example::

        >>> nn.Softshrink()(torch.tensor([0.2, 1.0]))
        tensor([0.0000, 0.5000])
    """

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.softshrink(input, self.lambd)


class LogSigmoid(_Plain):
    """``log(sigmoid(x))``, elementwise, without overflow.

    Example::

        >>> nn.LogSigmoid()(torch.tensor([0.0]))
        tensor([-0.6931])
    """

    function = staticmethod(F.logsigmoid)


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, reverting to ``x`` above ``threshold / beta``.

    Args:
        beta: the sharpness (default 1).
        threshold: where the function becomes linear (default 20).

    Example::

        >>> nn.Softplus()(torch.tensor([0.0]))
        tensor([0.6931])
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softsign(_Plain):
    """``x / (1 + |x|)``, elementwise.

    Example::

        >>> nn.Softsign()(torch.tensor([1.0]))
        tensor([0.5000])
    """

    function = staticmethod(F.softsign)


class Tanhshrink(_Plain):
    """``x - tanh(x)``, elementwise.

    Example::

        >>> nn.Tanhshrink()(torch.tensor([0.0]))
        tensor([0.])
    """

    function = staticmethod(F.tanhshrink)


# ----------------------------------------------------------------------------------
# Softmax and friends
# ----------------------------------------------------------------------------------
class _AlongDim(Module):
    """A normalization along `dim` (Softmax, Softmin, LogSoftmax)."""

    function = None

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        if not hasattr(self, "dim"):       # modules pickled before `dim` existed
            self.dim = None

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return type(self).function(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    """Softmax along `dim`: each slice rescaled to positive values summing to 1.

    Args:
        dim: the dim the probabilities sum along (None: deprecated implicit choice).

    Example::

        >>> nn.Softmax(dim=0)(torch.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    function = staticmethod(F.softmax)


class Softmin(_AlongDim):
    """Softmin along `dim`: the softmax of the negated input.

    Example::

        >>> nn.Softmin(dim=0)(torch.tensor([0.0, 1.0]))
        tensor([0.7311, 0.2689])
    """

    function = staticmethod(F.softmin)


class LogSoftmax(_AlongDim):
    """log(softmax(x)) along `dim`, computed directly.

    Example::

        >>> nn.LogSoftmax(dim=0)(torch.tensor([0.0, 0.0]))
        tensor([-0.6931, -0.6931])
    """

    function = staticmethod(F.log_softmax)


class Softmax2d(Module):
    """Softmax over the channels (dim -3) at every spatial position of a ``(N, C, H, W)``
    or ``(C, H, W)`` input.

    Example::

        >>> nn.Softmax2d()(torch.zeros(2, 1, 1))
        tensor([[[0.5000]],
        <BLANKLINE>
                [[0.5000]]])
    """

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             f"instead")
        return F.softmax(input, -3, _stacklevel=5)


# torch's programs import MultiheadAttention from here, where torch defines it
from .activation_attention import MultiheadAttention  # noqa: E402,F401
