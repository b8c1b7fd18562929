"""`torch.utils.deterministic`: the switch saying whether deterministic mode fills the
memory factories leave uninitialised (see `aten/context.py`'s `fill_uninitialized`).

``torch.utils.deterministic.fill_uninitialized_memory`` is a module attribute backed by
the global context, so the module's class gives it a property, as torch's does.
"""
import sys
import types

from ..aten.context import GLOBAL_CONTEXT


class _Deterministic(types.ModuleType):
    @property
    def fill_uninitialized_memory(self) -> bool:
        """Whether `torch.use_deterministic_algorithms(True)` makes `empty` (and the
        elements `resize_` adds) NaN or an integer's largest value (default True)."""
        return GLOBAL_CONTEXT.fill_uninitialized_memory

    @fill_uninitialized_memory.setter
    def fill_uninitialized_memory(self, mode: bool) -> None:
        if type(mode) is not bool:
            raise RuntimeError(f"expected a bool, but got {type(mode).__name__}")
        GLOBAL_CONTEXT.fill_uninitialized_memory = mode


sys.modules[__name__].__class__ = _Deterministic
