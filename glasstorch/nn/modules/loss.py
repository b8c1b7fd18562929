"""Loss modules: each holds its options (``reduction``, weights as buffers, ...) and calls
its function of torch.nn.functional (`nn/_functional/loss.py`) in `forward`.

``_Loss`` turns the deprecated ``size_average`` / ``reduce`` flags into ``reduction`` (with
torch's warning); ``_WeightedLoss`` adds the ``weight`` buffer (None when not given), so
``state_dict`` and ``.to()`` carry the class weights as they do in torch.
"""
from __future__ import annotations

import warnings
from typing import Callable

import glasstorch as torch
from .. import _reduction
from .. import functional as F
from .module import Module

__all__ = ["L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss", "KLDivLoss", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "SoftMarginLoss",
           "NLLLoss2d", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "MultiLabelMarginLoss"]

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


class NLLLoss2d(NLLLoss):
    """NLLLoss under its old name for image-shaped inputs (deprecated: NLLLoss takes
    ``(N, C, H, W)`` inputs as they are)."""

    def __init__(self, weight: Tensor | None = None, size_average=None,
                 ignore_index: int = -100, reduce=None, reduction: str = "mean") -> None:
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a "
                      "drop-in replacement and see https://pytorch.org/docs/main/nn.html"
                      "#torch.nn.NLLLoss for more details.", FutureWarning, stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class _MarginLoss(_Loss):
    """A loss whose only option beside the reduction is a `margin`."""

    margin: float

    def __init__(self, margin: float, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class MarginRankingLoss(_MarginLoss):
    """The ranking loss ``max(0, -y (x1 - x2) + margin)``: y = 1 asks x1 to rank above
    x2 by `margin`, y = -1 the reverse.

    Args:
        margin (float): the gap asked for. Default: 0.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.MarginRankingLoss(0.5)(torch.tensor([1., 2.]), torch.tensor([2., 1.]),
        ...                           torch.tensor([1., 1.]))
        tensor(0.7500)
    """

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class HingeEmbeddingLoss(_MarginLoss):
    """The hinge loss of distances x: x itself where y = 1, ``max(0, margin - x)`` where
    y = -1 (similar pairs pulled together, dissimilar ones pushed past `margin`, default 1).

    Example::

        >>> nn.HingeEmbeddingLoss()(torch.tensor([0.3, 0.3]), torch.tensor([1., -1.]))
        tensor(0.5000)
    """

    def __init__(self, margin: float = 1.0, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    """``1 - cos(x1, x2)`` where y = 1, ``max(0, cos(x1, x2) - margin)`` where y = -1
    (`margin` in [-1, 1], default 0).

    Example::

        >>> nn.CosineEmbeddingLoss()(torch.tensor([[1., 0.]]), torch.tensor([[0., 1.]]),
        ...                          torch.tensor([1.]))
        tensor(1.)
    """

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """The negative log likelihood of counts under Poisson rates: ``exp(x) - y x`` for
    log-rates x, ``x - y log(x + eps)`` for rates.

    Args:
        log_input (bool): whether the input holds log-rates. Default: True.
        full (bool): whether to add Stirling's approximation of ``log(y!)``.
            Default: False.
        eps (float): added to rates before their logarithm. Default: 1e-8.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.PoissonNLLLoss()(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
        tensor(0.8591)
    """

    log_input: bool
    full: bool
    eps: float

    def __init__(self, log_input: bool = True, full: bool = False, size_average=None,
                 eps: float = 1e-8, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input,
                                  full=self.full, eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """The negative log likelihood of targets under Gaussians of means `input` and
    variances `var`: ``(log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2``.

    Args:
        full (bool): whether to add the constant ``log(2 pi) / 2``. Default: False.
        eps (float): the variances' floor. Default: 1e-6.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.GaussianNLLLoss()(torch.tensor([1., 2.]), torch.tensor([1., 4.]),
        ...                      torch.ones(2))
        tensor(1.)
    """

    full: bool
    eps: float

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)


def _check_triplet_margin(owner: str, margin: float) -> None:
    if margin <= 0:
        raise ValueError(f"{owner}: expected margin to be greater than 0, got {margin} "
                         f"instead")


class TripletMarginLoss(_Loss):
    """``max(0, margin + d(a, p) - d(a, n))``, d the p-norm distance: anchors nearer
    their positives than their negatives by `margin`.

    Args:
        margin (float): the gap asked for (> 0). Default: 1.
        p (float): the norm's degree. Default: 2.
        eps (float): added to the differences. Default: 1e-6.
        swap (bool): use the positive-negative distance when it is the smaller.
            Default: False.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.TripletMarginLoss()(torch.zeros(1, 2), torch.ones(1, 2), torch.ones(1, 2) * 2)
        tensor(0.)
    """

    margin: float
    p: float
    eps: float
    swap: bool

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        _check_triplet_margin("TripletMarginLoss", margin)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """The triplet loss with any distance function (default: `nn.PairwiseDistance`).

    Args:
        distance_function (Callable, optional): two tensors to their distances.
        margin (float): the gap asked for (> 0). Default: 1.
        swap (bool): use the positive-negative distance when it is the smaller.
            Default: False.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> loss = nn.TripletMarginWithDistanceLoss(
        ...     distance_function=lambda a, b: (a - b).abs().sum(-1))
        >>> loss(torch.zeros(1, 2), torch.ones(1, 2), torch.ones(1, 2) * 2)
        tensor(0.)
    """

    margin: float
    swap: bool

    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                 margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        _check_triplet_margin("TripletMarginWithDistanceLoss", margin)
        self.distance_function = (distance_function if distance_function is not None
                                  else torch.nn.PairwiseDistance())
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """The binary cross entropy of each class's logit against a target of 0 or 1,
    averaged over the classes: one-versus-all multi-label classification.

    Args:
        weight (Tensor, optional): a weight per class, ``(C)``.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.MultiLabelSoftMarginLoss()(torch.tensor([[0., 2.]]), torch.tensor([[1., 0.]]))
        tensor(1.4100)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                             reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class margin (hinge) loss: every class scoring within `margin` of the
    target class costs the gap (p = 1) or its square (p = 2), averaged over the classes.

    Args:
        p (int): 1 or 2. Default: 1.
        margin (float): Default: 1.
        weight (Tensor, optional): a weight per class, ``(C)``.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> nn.MultiMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
        tensor(0.3250)
    """

    margin: float
    p: int

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.dim()}D instead")
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                   weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label margin (hinge) loss: every (target class, other class) pair whose
    scores come within 1 costs the gap, summed and divided by the class count. Each
    target row lists its classes first, ended by -1 where it holds fewer than C.

    Example::

        >>> nn.MultiLabelMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                           torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)
