"""Linear layers: Identity, Linear (y = x Aᵀ + b) and Bilinear (y = x₁ᵀ A x₂ + b).

Parameters are created empty and filled by ``reset_parameters`` with torch's
initialisation, drawing from the global generator in torch's order, so a seeded model
starts from torch's exact weights.
"""
from __future__ import annotations

import math
from typing import Any

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear", "LazyLinear"]


class Identity(Module):
    """A layer that returns its input unchanged; it takes and ignores any arguments, so
    it can stand in for a layer that a configuration turns off.

    Shape:
        - Input: :math:`(*)`, any shape.
        - Output: :math:`(*)`, the input itself.

    Example::

        >>> m = nn.Identity(54, unused_argument1=0.1)
        >>> m(torch.randn(128, 20)).size()
        torch.Size([128, 20])
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    r"""An affine map of the last dimension: :math:`y = x A^T + b`.

    Args:
        in_features: the size of each input sample
        out_features: the size of each output sample
        bias: whether to learn an additive bias (default: ``True``)
        device: the device of the parameters
        dtype: the dtype of the parameters

    Shape:
        - Input: :math:`(*, H_{in})` with :math:`H_{in} = \text{in\_features}`.
        - Output: :math:`(*, H_{out})` with :math:`H_{out} = \text{out\_features}`.

    Attributes:
        weight: the learnable ``(out_features, in_features)`` matrix, initialised from
            :math:`\mathcal{U}(-\sqrt{k}, \sqrt{k})` with :math:`k = 1 / \text{in\_features}`
        bias: the learnable ``(out_features,)`` vector, initialised from the same
            distribution (or ``None``)

    Example::

        >>> m = nn.Linear(20, 30)
        >>> m(torch.randn(128, 20)).size()
        torch.Size([128, 30])
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), device=device,
                                            dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw new weights and bias. Kaiming-uniform with ``a = sqrt(5)`` gives the
        weight the bound ``1 / sqrt(in_features)``, which the bias shares."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """`Linear` under the name torch's MultiheadAttention gives its output projection
    (a marker for torch's quantisation tooling; the layer is the same)."""


class Bilinear(Module):
    r"""A bilinear map of two inputs: :math:`y_k = x_1^T A_k x_2 + b_k`.

    Args:
        in1_features: the size of each first input sample (> 0)
        in2_features: the size of each second input sample
        out_features: the size of each output sample
        bias: whether to learn an additive bias (default: ``True``)
        device: the device of the parameters
        dtype: the dtype of the parameters

    Shape:
        - Input1: :math:`(*, H_{in1})`; Input2: :math:`(*, H_{in2})`, the same leading dims.
        - Output: :math:`(*, H_{out})`.

    Attributes:
        weight: the learnable ``(out_features, in1_features, in2_features)`` tensor,
            initialised from :math:`\mathcal{U}(-\sqrt{k}, \sqrt{k})` with
            :math:`k = 1 / \text{in1\_features}`
        bias: the learnable ``(out_features,)`` vector, from the same distribution

    Example::

        >>> m = nn.Bilinear(20, 30, 40)
        >>> m(torch.randn(128, 20), torch.randn(128, 30)).size()
        torch.Size([128, 40])
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features),
                                            device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw new weight and bias from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        if self.in1_features <= 0:
            raise ValueError(f"in1_features must be > 0, but got "
                             f"(in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """A `Linear` whose `in_features` is read from the first input's last dimension; its
    parameters are placeholders until then, and the module becomes a `Linear`.

    Args:
        out_features (int): size of each output sample.
        bias (bool): with an additive bias. Default True.

    Example::

        >>> layer = nn.LazyLinear(3)
        >>> layer(torch.randn(2, 5)).shape, type(layer).__name__
        (torch.Size([2, 3]), 'Linear')
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)           # no tensors made only to be replaced
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        """Set `in_features` from `input` and give the parameters their shapes and values."""
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
