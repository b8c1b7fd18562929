"""The torch functions, for code inside aten: ``from ... import functions as at``.

Derivative helpers are written in operators, so that they differentiate again, and call
them as torch's C++ helpers call ``at::where``: ``at.where(inside, grad, 0)``. aten never
imports the `glasstorch` namespace (the layers above it build on aten), so this module
hands out the same objects `torch.<name>` is, the generated bindings
(`binding.get_binding`), each found when first asked for (its family loaded then).
"""
from __future__ import annotations

from .binding import get_binding


def __getattr__(name: str):
    try:
        return get_binding("function", name)
    except KeyError:
        raise AttributeError(f"no torch function '{name}' is declared") from None
