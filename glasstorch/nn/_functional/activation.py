"""torch.nn.functional's activations: the Python functions around the activation operators.

The operators themselves are declared in `aten/native/softmax.py` and
`aten/native/activation*.py`; those torch binds in ``torch._C._nn`` (``gelu``,
``hardtanh``, ...) reach torch.nn.functional by their ``python_module="nn"``
declaration. What lives here is what torch writes in Python: the ``inplace=`` switch,
softmax's implicit dim, and the compositions (`softmin`, `glu`'s checks, ...).
"""
from __future__ import annotations

import warnings

import glasstorch as torch

__all__ = ["softmax", "log_softmax", "softmin"]


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
