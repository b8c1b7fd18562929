"""Instance normalization layers: InstanceNorm1d/2d/3d and their lazy forms.

Each channel of each sample is normalized over its other dims (`F.instance_norm`).
Unlike batch norm, the affine parameters and the running statistics are off by
default; with `track_running_stats` the running statistics are used in eval mode. An
input without its batch dim is normalized as a batch of one.
"""
from __future__ import annotations

import warnings

import glasstorch as torch
from .. import functional as F
from .batchnorm import _LazyNormBase, _NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class _InstanceNorm(_NormBase):
    """Instance normalization over dim 1; subclasses say the rank of an unbatched input."""

    _unbatched_rank = 0

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _check_input_dim(self, input: torch.Tensor) -> None:
        allowed = (self._unbatched_rank, self._unbatched_rank + 1)
        if input.dim() not in allowed:
            raise ValueError(f"expected {allowed[0]}D or {allowed[1]}D input (got "
                             f"{input.dim()}D input)")

    def _apply_instance_norm(self, input: torch.Tensor) -> torch.Tensor:
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        self._check_input_dim(input)
        feature_dim = input.dim() - self._unbatched_rank
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=2)
        if input.dim() == self._unbatched_rank:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs) -> None:
        # checkpoints from before running statistics were off by default carry them
        if local_metadata.get("version", None) is None and not self.track_running_stats:
            keys = [prefix + name for name in ("running_mean", "running_var")
                    if prefix + name in state_dict]
            if keys:
                error_msgs.append(_STALE_STATS.format(
                    names=" and ".join(f'"{k}"' for k in keys), klass=type(self).__name__))
                for key in keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


_STALE_STATS = ("Unexpected running stats buffer(s) {names} for {klass} with "
                "track_running_stats=False. If state_dict is a checkpoint saved before 0.4.0, "
                "this may be expected because {klass} does not track running stats by default "
                "since 0.4.0. Please remove these keys from state_dict. If the running stats "
                "are actually needed, instead set track_running_stats=True in {klass} to "
                "enable them. See the documentation of {klass} for details.")

_DOC = r"""Instance normalization of a {what} input: each channel of each sample is
    normalized over its other dims (mean and biased variance), then, with `affine`,
    scaled by `weight` and shifted by `bias`.

    Args:
        num_features: C, the number of channels
        eps: added to the variance. Default: 1e-5
        momentum: the weight of each batch in the running statistics. Default: 0.1
        affine: learn `weight` and `bias`. Default: ``False``
        track_running_stats: keep running statistics and use them in eval mode.
            Default: ``False``
        device, dtype: those of the parameters and buffers

    Shape:
        - Input: {shape}
        - Output: the input's shape

    Example::

        >>> m = nn.{name}(4)
        >>> m(torch.randn({example})).shape
        torch.Size([{sizes}])
    """


class InstanceNorm1d(_InstanceNorm):
    __doc__ = _DOC.format(what="2D (unbatched) or 3D", shape=":math:`(N, C, L)` or "
                          ":math:`(C, L)`", name="InstanceNorm1d", example="2, 4, 5",
                          sizes="2, 4, 5")
    _unbatched_rank = 2


class InstanceNorm2d(_InstanceNorm):
    __doc__ = _DOC.format(what="3D (unbatched) or 4D", shape=":math:`(N, C, H, W)` or "
                          ":math:`(C, H, W)`", name="InstanceNorm2d", example="2, 4, 3, 3",
                          sizes="2, 4, 3, 3")
    _unbatched_rank = 3


class InstanceNorm3d(_InstanceNorm):
    __doc__ = _DOC.format(what="4D (unbatched) or 5D", shape=":math:`(N, C, D, H, W)` or "
                          ":math:`(C, D, H, W)`", name="InstanceNorm3d",
                          example="2, 4, 2, 3, 3", sizes="2, 4, 2, 3, 3")
    _unbatched_rank = 4


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """`InstanceNorm1d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = InstanceNorm1d
    _unbatched_rank = 2


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """`InstanceNorm2d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = InstanceNorm2d
    _unbatched_rank = 3


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """`InstanceNorm3d` whose `num_features` is the first input's ``size(1)``."""

    cls_to_become = InstanceNorm3d
    _unbatched_rank = 4
