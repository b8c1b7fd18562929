"""Exceptions torch's core raises by their own names (`torch.OutOfMemoryError`, ...)."""
from __future__ import annotations


class OutOfMemoryError(RuntimeError):
    """An allocation on a device failed for lack of memory."""

    __module__ = "torch"


class AcceleratorError(RuntimeError):
    """An accelerator's runtime reported an error."""

    __module__ = "torch"


class FatalError(Exception):
    """An unrecoverable error of torch's core (torch raises it where it cannot go on)."""

    __module__ = "torch"


class _LinAlgError(RuntimeError):
    """A linear algebra routine failed on its input (a singular matrix, one not
    positive-definite, no convergence): `torch.linalg.LinAlgError`."""

    __module__ = "torch._C"
