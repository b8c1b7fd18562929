"""Loss modules: each holds its options (``reduction``, weights as buffers, ...) and calls
its function of torch.nn.functional (`nn/_functional/loss.py`) in `forward`.

``_Loss`` turns the deprecated ``size_average`` / ``reduce`` flags into ``reduction`` (with
torch's warning); ``_WeightedLoss`` adds the ``weight`` buffer (None when not given), so
``state_dict`` and ``.to()`` carry the class weights as they do in torch.
"""
from __future__ import annotations

import glasstorch as torch
from .. import _reduction
from .. import functional as F
from .module import Module

__all__ = ["L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss", "KLDivLoss", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "SoftMarginLoss"]

Tensor = torch.Tensor


class _Loss(Module):
    """The base of the losses: ``reduction`` ('none' | 'mean' | 'sum'), or the reduction
    the legacy ``size_average`` / ``reduce`` flags stand for."""

    reduction: str

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _reduction.legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    """A loss with a per-class ``weight`` buffer."""

    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.weight: Tensor | None


class L1Loss(_Loss):
    """The mean absolute error ``|x - y|`` between input and target.

    Args:
        size_average (bool, optional): deprecated (see `reduction`).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Shape:
        - Input: :math:`(*)`; Target: :math:`(*)`, the same shape.
        - Output: a scalar, or :math:`(*)` with ``reduction='none'``.

    Example::

        >>> nn.L1Loss()(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(1.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """The mean squared error ``(x - y)^2`` between input and target.

    Args:
        size_average (bool, optional): deprecated (see `reduction`).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.MSELoss()(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(2.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Quadratic (``0.5 z^2 / beta``) where the error ``z = |x - y|`` is below `beta`,
    linear (``z - 0.5 beta``) above: less sensitive to outliers than MSELoss.

    Args:
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        beta (float): where the loss turns linear (>= 0; 0 is the L1 loss). Default: 1.0.

    Example::

        >>> nn.SmoothL1Loss(reduction='none')(torch.tensor([0.5, 3.]), torch.zeros(2))
        tensor([0.1250, 2.5000])
    """

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Quadratic (``0.5 z^2``) where the error ``z = |x - y|`` is below `delta`, linear
    with slope `delta` above: SmoothL1Loss scaled by `delta`.

    Args:
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        delta (float): where the loss turns linear (> 0). Default: 1.0.

    Example::

        >>> nn.HuberLoss(reduction='none', delta=2.)(torch.tensor([0.5, 3.]), torch.zeros(2))
        tensor([0.1250, 4.0000])
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        if not isinstance(delta, (float, int)):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of the target distribution from the input's, both
    given per element: the input as log-probabilities, the target as probabilities (or
    log-probabilities with `log_target`).

    Args:
        reduction (str): 'none' | 'batchmean' | 'mean' | 'sum'. Default: 'mean' (which
            warns: 'batchmean' is the divergence's definition).
        log_target (bool): whether the target is in log space. Default: False.

    Example::

        >>> loss = nn.KLDivLoss(reduction='batchmean')
        >>> loss(torch.tensor([[0.5, 0.5]]).log(), torch.tensor([[0.25, 0.75]]))
        tensor(0.1308)
    """

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class NLLLoss(_WeightedLoss):
    """The negative log likelihood of class indices under log-probabilities (put a
    LogSoftmax before it, or use CrossEntropyLoss on logits).

    Args:
        weight (Tensor, optional): a weight per class, ``(C)``.
        ignore_index (int): a class index that contributes nothing. Default: -100.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean' (weighted: divides by
            the weights of the counted targets).

    Shape:
        - Input: :math:`(C)`, :math:`(N, C)` or :math:`(N, C, d_1, ..., d_K)`.
        - Target: :math:`()`, :math:`(N)` or :math:`(N, d_1, ..., d_K)`, int64.

    Example::

        >>> nn.NLLLoss()(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([0, 1]))
        tensor(2.5000)
    """

    ignore_index: int

    def __init__(self, weight: Tensor | None = None, size_average=None,
                 ignore_index: int = -100, reduce=None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """The cross entropy between the softmax of logits and a target of class indices or
    class probabilities: LogSoftmax and NLLLoss in one.

    Args:
        weight (Tensor, optional): a weight per class, ``(C)``.
        ignore_index (int): a class index that contributes nothing. Default: -100.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        label_smoothing (float): the share in [0, 1] of the target spread uniformly over
            the classes. Default: 0.0.

    Example::

        >>> loss = nn.CrossEntropyLoss()
        >>> loss(torch.tensor([[0., 0.], [0., 2.]]), torch.tensor([0, 1]))
        tensor(0.4100)
    """

    ignore_index: int
    label_smoothing: float

    def __init__(self, weight: Tensor | None = None, size_average=None,
                 ignore_index: int = -100, reduce=None, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """The binary cross entropy of probabilities (put a Sigmoid before it, or use
    BCEWithLogitsLoss on logits); the logarithms are clamped at -100.

    Args:
        weight (Tensor, optional): a weight per element, broadcast to the target.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.BCELoss()(torch.tensor([0.5, 1.]), torch.tensor([1., 0.]))
        tensor(50.3466)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """The binary cross entropy of ``sigmoid(input)``, computed from the logits without
    overflow.

    Args:
        weight (Tensor, optional): a weight per element, broadcast to the input.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        pos_weight (Tensor, optional): a weight of the positive term per class (along the
            last dim): above 1 it favours recall, below 1 precision.

    Example::

        >>> nn.BCEWithLogitsLoss()(torch.tensor([0., 100.]), torch.tensor([1., 0.]))
        tensor(50.3466)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None,
                 reduction: str = "mean", pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.weight: Tensor | None
        self.pos_weight: Tensor | None

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """The two-class logistic loss ``log(1 + exp(-y * x))`` between logits and targets of
    1 or -1.

    Args:
        size_average (bool, optional): deprecated (see `reduction`).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.SoftMarginLoss()(torch.tensor([2., -1.]), torch.tensor([1., 1.]))
        tensor(0.7201)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.soft_margin_loss(input, target, reduction=self.reduction)
