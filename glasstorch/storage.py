"""torch.storage: the storage classes (UntypedStorage, and TypedStorage where glasstorch
has it), found in the glasstorch namespace."""
from ._reexport import reexporter
from .types import Storage  # noqa: F401  (torch.storage exposes it)

__all__ = ["TypedStorage", "UntypedStorage"]
HAS_NUMPY = True                # glasstorch is written over NumPy

__getattr__ = reexporter(__name__, __all__)


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
