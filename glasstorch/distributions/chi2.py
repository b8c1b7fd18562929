"""The chi-squared distribution: a gamma with rate 1/2."""
from __future__ import annotations

from . import constraints
from .gamma import Gamma

__all__ = ["Chi2"]


class Chi2(Gamma):
    """A chi-squared distribution with `df` degrees of freedom:
    ``Gamma(concentration=0.5 * df, rate=0.5)``.

    Args:
        df (float or Tensor): the degrees of freedom (positive).

    Example::

        >>> m = Chi2(torch.tensor([1.0]))
        >>> m.sample()
        tensor([ 0.1046])
    """
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)

    @property
    def df(self):
        return self.concentration * 2
