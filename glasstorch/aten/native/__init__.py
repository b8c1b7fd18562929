"""Operator declarations by family; importing this package registers them all."""
from . import view, factory, copy  # noqa: F401
