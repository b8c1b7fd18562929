"""torch.backends.python_native: switches for operator kernels written in Python DSLs.

torch can override some operators with kernels written in Triton or CuTe DSL, for GPUs.
No DSL is available on a CPU build (nor here), so no operation is registered; the
switches still keep their state, as torch's do, for programs that set them.
"""
from __future__ import annotations

import contextlib

__all__ = ["all_dsls", "available_dsls", "cutedsl", "triton", "disable_dispatch_keys",
           "disable_operations", "enable_dispatch_keys", "enable_operations",
           "get_dsl_operations", "is_dsl_disabled", "is_operation_disabled",
           "operations_disabled"]


class DSLController:
    """One DSL's switch: whether its kernels may run (none is available here)."""

    available = False
    version = None

    def __init__(self, name: str) -> None:
        self.name = name
        self.enabled = True

    def enable(self) -> None:
        self.enabled = True

    def disable(self) -> None:
        self.enabled = False

    @contextlib.contextmanager
    def disabled(self):
        """Turn this DSL off inside a ``with`` block."""
        before = self.enabled
        self.enabled = False
        try:
            yield
        finally:
            self.enabled = before

    def __repr__(self) -> str:
        state = "enabled" if self.enabled else "disabled"
        return f"DSLController({self.name}, unavailable, {state})"


cutedsl = DSLController("cutedsl")
triton = DSLController("triton")
_CONTROLLERS = {"cutedsl": cutedsl, "triton": triton}
all_dsls = sorted(_CONTROLLERS)
available_dsls: list = []
_disabled_operations: set = set()
_disabled_keys: set = set()


def get_dsl_operations(dsl_name: str) -> list:
    """The operations a DSL registered: none here."""
    return []


def is_dsl_disabled(dsl_name: str) -> bool:
    """Whether the DSL `dsl_name` is switched off (an unknown name is not)."""
    controller = _CONTROLLERS.get(dsl_name)
    return controller is not None and not controller.enabled


def disable_operations(*op_symbols: str) -> None:
    """Switch DSL kernels off for these operations (``'aten::mm'``), in every DSL."""
    _disabled_operations.update(op_symbols)


def enable_operations(*op_symbols: str) -> None:
    """Switch DSL kernels back on for these operations."""
    _disabled_operations.difference_update(op_symbols)


def is_operation_disabled(op_symbol: str) -> bool:
    """Whether DSL kernels are off for `op_symbol`."""
    return op_symbol in _disabled_operations


@contextlib.contextmanager
def operations_disabled(*op_symbols: str):
    """Switch DSL kernels off for these operations inside a ``with`` block."""
    newly = set(op_symbols) - _disabled_operations
    disable_operations(*newly)
    try:
        yield
    finally:
        enable_operations(*newly)


def disable_dispatch_keys(*dispatch_keys: str) -> None:
    """Switch DSL kernels off at these dispatch keys."""
    _disabled_keys.update(dispatch_keys)


def enable_dispatch_keys(*dispatch_keys: str) -> None:
    """Switch DSL kernels back on at these dispatch keys."""
    _disabled_keys.difference_update(dispatch_keys)
