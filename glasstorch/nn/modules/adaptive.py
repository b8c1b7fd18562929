"""AdaptiveLogSoftmaxWithLoss: the adaptive softmax of Grave et al. ("Efficient softmax
approximation for GPUs"), for outputs over many classes of very unequal frequency.

The frequent classes (below the first cutoff) share the head with one entry per tail
cluster; a rare class's log-probability is its cluster's head log-probability plus its
own log-probability inside the cluster, computed by that cluster's two-layer projection
(narrowed by `div_value` per cluster). The loss only evaluates the clusters its targets
fall in.
"""
from __future__ import annotations

import itertools
from collections import namedtuple
from collections.abc import Sequence

import glasstorch as torch
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

Tensor = torch.Tensor
_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


def _check_cutoffs(cutoffs: list, n_classes: int) -> None:
    if len(cutoffs) == 0:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
        raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in "
                         "an increasing order, where each value is between 1 and n_classes-1")


def _check_shapes(input: Tensor, target: Tensor) -> None:
    """A 1-D target pairs rows of a 2-D input; a 0-D target, one 1-D input."""
    if target.dim() == 1:
        if input.size(0) != target.size(0):
            raise RuntimeError("Input and target should have the same size in the batch "
                               "dimension.")
        if input.dim() != 2:
            raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs "
                               f"with size {input.size()}")
    elif target.dim() == 0:
        if input.dim() != 1:
            raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs "
                               f"with size {input.size()}")
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")


class AdaptiveLogSoftmaxWithLoss(Module):
    """The adaptive softmax: log-probabilities of the targets and their mean negative as
    the loss, evaluating only the clusters of rare classes the targets need.

    Args:
        in_features (int): the size of each input's features.
        n_classes (int): the number of classes.
        cutoffs (Sequence[int]): increasing class indices in [1, n_classes - 1] where the
            clusters start: classes are expected sorted by decreasing frequency.
        div_value (float): each cluster's hidden size divides by it once more. Default: 4.
        head_bias (bool): whether the head has a bias. Default: False.

    Returns:
        A namedtuple ``(output, loss)``: the targets' log-probabilities ``(N)`` (or
        ``()``) and their mean negative.

    Example::

        >>> asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4])
        >>> asm(torch.randn(3, 8), torch.tensor([0, 5, 9])).output.shape
        torch.Size([3])
    """

    in_features: int
    n_classes: int
    cutoffs: list
    div_value: float
    head_bias: bool

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int],
                 div_value: float = 4.0, head_bias: bool = False, device=None,
                 dtype=None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        cutoffs = list(cutoffs)
        _check_cutoffs(cutoffs, n_classes)
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, **factory)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // div_value ** (i + 1))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, **factory),
                                        Linear(hidden, size, bias=False, **factory)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for to_hidden, to_output in self.tail:
            to_hidden.reset_parameters()
            to_output.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        _check_shapes(input_, target_)
        batched = target_.dim() > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        output = input.new_zeros(target.size(0))
        head_index = target.new_empty(target.size(0))       # each row's head entry
        used = 0
        bounds = [0] + self.cutoffs
        for cluster, (low, high) in enumerate(itertools.pairwise(bounds)):
            mask = (target >= low) & (target < high)
            rows = mask.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            used += rows.numel()
            if cluster == 0:
                head_index.index_copy_(0, rows, target[mask])
                continue
            head_index.index_fill_(0, rows, self.shortlist_size + cluster - 1)
            inside = F.log_softmax(self.tail[cluster - 1](input.index_select(0, rows)), dim=1)
            picked = inside.gather(1, (target[mask] - low).unsqueeze(1))
            output.index_copy_(0, rows, picked.squeeze(1))
        if used != target.size(0):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{target.min().item()}, "
                               f"{target.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output += head_logprob.gather(1, head_index.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        """Every class's log-probability ``(N, n_classes)``."""
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        out[:, :self.shortlist_size] = head_logprob[:, :self.shortlist_size]
        for i, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            inside = F.log_softmax(self.tail[i](input), dim=1)
            out[:, start:stop] = inside + head_logprob[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input: Tensor) -> Tensor:
        """Every class's log-probability for each row of `input` ``(N, in_features)``."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The most probable class of each row: the head's answer where it is a frequent
        class, the full distribution's elsewhere (only for those rows)."""
        head_output = self.head(input)
        output = torch.argmax(head_output, dim=1)
        rare = output >= self.shortlist_size
        if not rare.any():
            return output
        if rare.all():
            return torch.argmax(self._full_log_prob(input, head_output), dim=1)
        log_prob = self._full_log_prob(input[rare], head_output[rare])
        output[rare] = torch.argmax(log_prob, dim=1)
        return output
