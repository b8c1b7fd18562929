"""torch.nn.functional's dropout functions: argument checks and the channel-wise shape
rules in Python (as torch writes them), around the operators of `aten/native/nn/dropout.py`.

``training=True`` draws ``bernoulli_(1 - p)`` noise from the default generator, exactly
as torch's CPU path does, so a seeded program drops the same units as under torch.
"""
from __future__ import annotations

import warnings

import glasstorch as torch

__all__ = ["dropout", "alpha_dropout", "dropout1d", "dropout2d", "dropout3d",
           "feature_alpha_dropout"]


def _check_probability(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: torch.Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> torch.Tensor:
    """Zero each element with probability `p` (in training) and scale the others by
    ``1 / (1 - p)``, so the expected value is unchanged.

    Args:
        input (Tensor): any shape.
        p (float): the probability of an element being zeroed. Default: 0.5.
        training (bool): apply dropout; when False the result is `input` itself.
        inplace (bool): write the result into `input`.

    Example::

        >>> torch.manual_seed(0)
        >>> F.dropout(torch.ones(4), 0.5)
        tensor([0., 0., 2., 0.])
    """
    _check_probability(p)
    return torch.dropout_(input, p, training) if inplace else torch.dropout(input, p, training)


def alpha_dropout(input: torch.Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> torch.Tensor:
    """Alpha dropout (for SELU networks): see :class:`~torch.nn.AlphaDropout`. Note the
    default ``training=False``, as torch's."""
    _check_probability(p)
    if inplace:
        return torch.alpha_dropout_(input, p, training)
    return torch.alpha_dropout(input, p, training)


def feature_alpha_dropout(input: torch.Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> torch.Tensor:
    """Alpha dropout of whole channels: see :class:`~torch.nn.FeatureAlphaDropout`."""
    _check_probability(p)
    if inplace:
        return torch.feature_alpha_dropout_(input, p, training)
    return torch.feature_alpha_dropout(input, p, training)


def _feature_dropout(input, p: float, training: bool, inplace: bool, batched: bool):
    """Channel dropout, through a batch dim of one when the input has none."""
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout1d(input: torch.Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> torch.Tensor:
    """Zero whole channels of a ``(N, C, L)`` or ``(C, L)`` input with probability `p`;
    scale the others by ``1 / (1 - p)``. See :class:`~torch.nn.Dropout1d`."""
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that "
            f"dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            f"dimension, a channel dimension, and an optional batch dimension (i.e. 2D or "
            f"3D inputs).")
    return _feature_dropout(input, p, training, inplace, batched=ndim == 3)


def _warn_unusual_rank(name: str, ndim: int, spatial: int) -> None:
    """Warn as torch does, pointing at the caller of dropout2d / dropout3d."""
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result "
        f"in an error in a future release. To retain the behavior and silence this warning, "
        f"please use dropout instead. Note that {name} exists to provide channel-wise "
        f"dropout on inputs with {spatial} spatial dimensions, a channel dimension, and an "
        f"optional batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).",
        stacklevel=3)


def dropout2d(input: torch.Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> torch.Tensor:
    """Zero whole channels of a ``(N, C, H, W)`` input with probability `p`; scale the
    others. A 3-D input is taken as ``(N, C, L)`` (torch's historical behaviour, with a
    warning). See :class:`~torch.nn.Dropout2d`."""
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (3, 4):
        _warn_unusual_rank("dropout2d", ndim, 2)
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret "
            "the input as one without a batch dimension, i.e. shape (C, H, W). To maintain "
            "the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _feature_dropout(input, p, training, inplace, batched=True)


def dropout3d(input: torch.Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> torch.Tensor:
    """Zero whole channels of a ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with
    probability `p`; scale the others. See :class:`~torch.nn.Dropout3d`."""
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        _warn_unusual_rank("dropout3d", ndim, 3)
    return _feature_dropout(input, p, training, inplace, batched=ndim == 5)
