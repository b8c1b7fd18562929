"""LinearCrossEntropyLoss: a linear classifier head and its cross entropy in one module."""
from __future__ import annotations

import math

import glasstorch as torch
from .. import functional as F
from .linear import Linear
from .loss import _WeightedLoss

__all__ = ["LinearCrossEntropyLoss"]

Tensor = torch.Tensor


class LinearCrossEntropyLoss(_WeightedLoss):
    """The cross entropy of a linear layer's logits: the classifier head's weights
    (``linear``) live in the loss, which computes the logits of its input and their loss
    against the target in one call (`F.linear_cross_entropy`).

    Args:
        in_features (int): the size of each input's features.
        num_classes (int): the number of classes.
        out_features (tuple): trailing logit dims (a K-dimensional loss). Default: ().
        bias (bool): whether the linear layer has a bias. Default: False.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        weight (Tensor, optional): a weight per class, ``(num_classes)``.
        ignore_index (int, optional): a class index that contributes nothing.
        label_smoothing (float): in [0, 1]. Default: 0.
        options (optional): torch's chunking options (the loss is the same without).

    Example::

        >>> loss = nn.LinearCrossEntropyLoss(3, 4)
        >>> loss(torch.randn(2, 3), torch.tensor([0, 3])).shape
        torch.Size([])
    """

    num_classes: int
    out_features: tuple
    ignore_index: int | None
    label_smoothing: float

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device=None, dtype=None, reduction: str = "mean",
                 weight: Tensor | None = None, ignore_index: int | None = None,
                 label_smoothing: float = 0.0, options=None) -> None:
        if weight is not None and weight.shape != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.linear = Linear(in_features, math.prod(out_features, start=num_classes),
                             bias=bias, device=device, dtype=dtype)
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        in_features = self.linear.in_features
        weight = self.linear.weight.reshape((self.num_classes, *self.out_features, in_features))
        bias = self.linear.bias
        if bias is not None:
            bias = bias.reshape((self.num_classes, *self.out_features))
        return F.linear_cross_entropy(input, weight, target, linear_bias=bias,
                                      weight=self.weight, reduction=self.reduction,
                                      ignore_index=self.ignore_index,
                                      label_smoothing=self.label_smoothing,
                                      options=self.options)

    def extra_repr(self) -> str:
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
                f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
                f"label_smoothing={self.label_smoothing}, options={self.options}")
