"""Batch normalization layers: BatchNorm1d/2d/3d, their lazy forms, and SyncBatchNorm.

_NormBase holds what batch and instance norm share: the per-channel affine parameters
(`weight` ones, `bias` zeros) and, with `track_running_stats`, the buffers
`running_mean` (zeros), `running_var` (ones) and `num_batches_tracked`. In training a
batch norm layer counts the batch and normalizes with its statistics, updating the
running ones with `momentum` (``None``: the cumulative average, ``1 / batches``); in
eval mode it normalizes with the running ones when it has them.

SyncBatchNorm synchronizes statistics across processes; in one process (no process
group initialised) it is the batch norm above, as torch runs it then.
"""
from __future__ import annotations

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d", "SyncBatchNorm"]


class _NormBase(Module):
    """The parameters and running statistics batch and instance norm share."""

    _version = 2
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        for name, wanted in (("weight", affine), ("bias", affine and bias)):
            self.register_parameter(name, Parameter(torch.empty(num_features, **factory))
                                    if wanted else None)
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, **factory))
            self.register_buffer("running_var", torch.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked",
                                 torch.tensor(0, dtype=torch.long, device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, variance 1, no batch counted."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """The running statistics reset, and the identity affine map."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: torch.Tensor) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs) -> None:
        # checkpoints older than version 2 have no batch count: start it at 0
        version = local_metadata.get("version", None)
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            counted = self.num_batches_tracked
            state_dict[key] = counted if counted is not None and counted.device.type != "meta" \
                else torch.tensor(0, dtype=torch.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


class _BatchNorm(_NormBase):
    """Batch normalization over dim 1; subclasses say which ranks they accept."""

    def _average_factor(self) -> float:
        """Count the batch in training; the running statistics' update weight."""
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None \
                else self.momentum
        return factor

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        self._check_input_dim(input)
        factor = self._average_factor()
        # the batch's statistics in training, and in eval mode without running ones
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        # running statistics are handed over to be updated (training) or used (eval)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None,
                            self.running_var if track else None, self.weight, self.bias,
                            use_batch, factor, self.eps)


def _rank_check(allowed: tuple, words: str):
    def check(self, input: torch.Tensor) -> None:
        if input.dim() not in allowed:
            raise ValueError(f"expected {words} input (got {input.dim()}D input)")
    return check


_DOC = r"""Batch normalization over a {what} input: each channel is normalized
    with the batch's mean and biased variance in training (updating the running
    statistics with the unbiased one), with the running statistics in eval mode, then
    scaled by `weight` and shifted by `bias`.

    Args:
        num_features: C, the number of channels
        eps: added to the variance. Default: 1e-5
        momentum: the batch's weight in the running statistics; ``None`` for the
            cumulative average. Default: 0.1
        affine: learn `weight` and `bias`. Default: ``True``
        track_running_stats: keep running statistics (otherwise the batch's are used in
            eval mode too). Default: ``True``
        device, dtype: those of the parameters and buffers
        bias: learn `bias` (with `affine`). Default: ``True``

    Shape:
        - Input: {shape}
        - Output: the input's shape

    Example::

        >>> m = nn.{name}(4)
        >>> m(torch.randn({example})).shape
        torch.Size([{sizes}])
    """


class BatchNorm1d(_BatchNorm):
    __doc__ = _DOC.format(what="2D or 3D", shape=":math:`(N, C)` or :math:`(N, C, L)`",
                          name="BatchNorm1d", example="8, 4, 3", sizes="8, 4, 3")
    _check_input_dim = _rank_check((2, 3), "2D or 3D")


class BatchNorm2d(_BatchNorm):
    __doc__ = _DOC.format(what="4D", shape=":math:`(N, C, H, W)`", name="BatchNorm2d",
                          example="8, 4, 3, 3", sizes="8, 4, 3, 3")
    _check_input_dim = _rank_check((4,), "4D")


class BatchNorm3d(_BatchNorm):
    __doc__ = _DOC.format(what="5D", shape=":math:`(N, C, D, H, W)`", name="BatchNorm3d",
                          example="8, 4, 2, 3, 3", sizes="8, 4, 2, 3, 3")
    _check_input_dim = _rank_check((5,), "5D")


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A norm layer whose `num_features` is read from the first input's dim 1."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__(0, eps, momentum, False, False, **factory, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(**factory)
            if bias:
                self.bias = UninitializedParameter(**factory)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(**factory)
            self.running_var = UninitializedBuffer(**factory)
            self.num_batches_tracked = torch.tensor(0, dtype=torch.long, device=device)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: torch.Tensor) -> None:
        """Materialize the parameters and buffers with the input's channel count."""
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        shape = (self.num_features,)
        if self.affine:
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize(shape)
        if self.track_running_stats:
            self.running_mean.materialize(shape)
            self.running_var.materialize(shape)
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """`BatchNorm1d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """`BatchNorm2d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """`BatchNorm3d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


class SyncBatchNorm(_BatchNorm):
    r"""Batch normalization whose statistics are reduced over a process group; with no
    process group initialised (one process) it normalizes as `BatchNorm1d/2d/3d` do.

    Args:
        num_features: C, the number of channels
        eps, momentum, affine, track_running_stats, bias: as for `BatchNorm2d`
        process_group: the group to synchronize over (``None``: the world)
        device, dtype: those of the parameters and buffers

    Shape:
        - Input: :math:`(N, C, +)`
        - Output: the input's shape

    Example::

        >>> m = nn.SyncBatchNorm(4)
        >>> m(torch.randn(8, 4, 3)).shape
        torch.Size([8, 4, 3])
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, process_group=None,
                 device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input: torch.Tensor) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        # one process: nothing to synchronize (torch asks the same of torch.distributed)
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group=None) -> Module:
        """`module` with every batch norm layer replaced by a SyncBatchNorm holding its
        parameters and buffers (the same tensors), recursively.

        Example::

            >>> net = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
            >>> nn.SyncBatchNorm.convert_sync_batchnorm(net)[1]
            SyncBatchNorm(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
        """
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            if module.affine:
                with torch.no_grad():
                    converted.weight = module.weight
                    converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
            if hasattr(module, "qconfig"):
                converted.qconfig = module.qconfig
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return converted
