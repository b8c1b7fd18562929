"""`Distribution`: the interface every distribution implements.

A distribution has a `batch_shape` (independent, differently parametrised copies)
and an `event_shape` (the shape of one draw); a sample of `sample_shape` has shape
``sample_shape + batch_shape + event_shape``. With validation on (the default, as
``__debug__`` is in torch) the parameters are checked against `arg_constraints` when
the distribution is made, and values against `support` in `log_prob` and friends;
a failed check raises ValueError naming the parameter and showing the bad values.
"""
from __future__ import annotations

import warnings

import glasstorch as torch

from . import constraints
from .utils import lazy_property

__all__ = ["Distribution"]


class Distribution:
    """The abstract base class of probability distributions.

    Args:
        batch_shape (torch.Size): the shape over which parameters are batched.
        event_shape (torch.Size): the shape of a single sample.
        validate_args (bool, optional): check parameters and values (default: the
            class-wide default, see `set_default_validate_args`).
    """
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn validation on or off for every distribution made afterwards.

        Example::

            >>> torch.distributions.Distribution.set_default_validate_args(False)
        """
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(),
                 validate_args=None) -> None:
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._validate_parameters()
        super().__init__()

    def _validate_parameters(self) -> None:
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                          "`arg_constraints = {}` or initialize the distribution with "
                          "`validate_args=False` to turn off validation.")
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param),
                                                         lazy_property):
                continue            # computed from the other parametrisation on demand
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {param} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {repr(self)} to satisfy the "
                    f"constraint {repr(constraint)}, but found invalid values:\n{value}")

    def expand(self, batch_shape, _instance=None):
        """A new distribution with its batch dimensions expanded to `batch_shape`
        (parameters expanded, not copied).

        Args:
            batch_shape (torch.Size): the desired expanded size.
            _instance: the new instance, when a subclass's `expand` made it.

        Returns:
            Distribution: of the same class, with that batch shape.
        """
        raise NotImplementedError

    def _expand_attributes(self, cls, batch_shape, _instance, *names: str, copied=()):
        """The usual body of `expand`: a `cls` instance whose attributes `names`
        (tensors or distributions) are this one's expanded to `batch_shape`, and
        whose attributes `copied` are this one's as they are."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = torch.Size(batch_shape)
        for name in copied:
            setattr(new, name, getattr(self, name))
        for name in names:
            setattr(new, name, getattr(self, name).expand(batch_shape))
        super(cls, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def batch_shape(self):
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of a single sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        """Parameter name -> the `Constraint` its values must satisfy."""
        raise NotImplementedError

    @property
    def support(self):
        """The `Constraint` object representing this distribution's support."""
        raise NotImplementedError

    @property
    def mean(self):
        """The mean of the distribution."""
        raise NotImplementedError(f"{self.__class__} does not implement mean")

    @property
    def mode(self):
        """The mode of the distribution."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        """The variance of the distribution."""
        raise NotImplementedError(f"{self.__class__} does not implement variance")

    @property
    def stddev(self):
        """The standard deviation of the distribution."""
        return self.variance.sqrt()

    def sample(self, sample_shape=torch.Size()):
        """A sample (or a batch of samples if `sample_shape` is given), with no
        gradient flowing to the parameters."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        """A reparameterised sample: differentiable with respect to the parameters."""
        raise NotImplementedError

    def sample_n(self, n: int):
        """`n` samples (deprecated: use ``sample((n,))``)."""
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value):
        """The log of the probability density (or mass) at `value`."""
        raise NotImplementedError

    def cdf(self, value):
        """The cumulative distribution function at `value`."""
        raise NotImplementedError

    def icdf(self, value):
        """The inverse cumulative distribution function at `value`."""
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True):
        """Every value of a discrete distribution's support, along a new leading
        dimension (then the batch dimensions, expanded unless `expand` is False, in
        which case they are singletons)."""
        raise NotImplementedError

    def entropy(self):
        """The entropy, per batch element."""
        raise NotImplementedError

    def perplexity(self):
        """exp(entropy), per batch element."""
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=torch.Size()):
        """``sample_shape + batch_shape + event_shape``."""
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value) -> None:
        """Refuse a value of the wrong shape or outside the support."""
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual_shape} vs {expected_shape}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          "validation. Please initialize the distribution with "
                          "`validate_args=False` to turn off validation.")
            return
        assert support is not None
        if not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({repr(support)}) of the "
                f"distribution {repr(self)}, but found invalid values:\n{value}")

    def _get_checked_instance(self, cls, _instance=None):
        """The blank instance `expand` fills: `_instance`, or a new one of this class
        (a subclass with its own __init__ must define its own expand)."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a "
                "custom __init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        shown = []
        for name in (k for k in self.arg_constraints if k in self.__dict__):
            value = self.__dict__[name]
            shown.append(f"{name}: {value if value.numel() == 1 else value.size()}")
        return self.__class__.__name__ + "(" + ", ".join(shown) + ")"
