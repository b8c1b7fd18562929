"""Distributions symmetric about `loc` with a single mode there."""
from __future__ import annotations

__all__ = ["SymmetricAboutLoc"]


class SymmetricAboutLoc:
    """Mixin for a unimodal distribution symmetric about its `loc`, which is therefore
    both its mean and its mode."""

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc
