"""torch.utils.deterministic: ``fill_uninitialized_memory``, whether `torch.empty` and
friends fill their memory (NaN, or the integer maximum) while deterministic algorithms
are on. glasstorch's allocations are always filled, so the switch is recorded only."""
import sys
import types


class _Deterministic(types.ModuleType):
    _fill = True

    @property
    def fill_uninitialized_memory(self) -> bool:
        """Whether uninitialized memory is filled under deterministic algorithms."""
        return self._fill

    @fill_uninitialized_memory.setter
    def fill_uninitialized_memory(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise RuntimeError(f"expected a bool, but got {type(mode).__name__}")
        type(self)._fill = mode


sys.modules[__name__].__class__ = _Deterministic
