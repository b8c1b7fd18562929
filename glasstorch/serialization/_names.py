"""The names a checkpoint's pickle gives glasstorch's objects: torch's own.

A checkpoint names the functions and classes it needs by module path (pickle's
``GLOBAL`` opcode). For torch to read what glasstorch writes, and glasstorch what torch
writes, both must use torch's paths: ``torch._utils._rebuild_tensor_v2``,
``torch.FloatStorage``, ``torch.float16``, ``torch.Size``. This module is the table
between those paths and glasstorch's objects, used by the writer (object -> path) and
by both readers (path -> object).
"""
from __future__ import annotations


from .._tensor import Tensor
from .._tensor_types import LEGACY_TYPES
from ..c10 import dtype as dtypes
from ..c10.device import device
from ..c10.size import Size
from ..c10.storage import UntypedStorage
from ..nn.parameter import Parameter
from ..storage import LEGACY_STORAGES, TypedStorage
from . import _rebuild
from ._storage_types import STORAGE_TYPES

_REBUILD_FUNCTIONS = (
    _rebuild._rebuild_tensor, _rebuild._rebuild_tensor_v2, _rebuild._rebuild_tensor_v3,
    _rebuild._rebuild_parameter, _rebuild._rebuild_parameter_with_state,
    _rebuild._rebuild_meta_tensor_no_storage)


def _table() -> dict[str, object]:
    names: dict[str, object] = {
        "torch.Size": Size, "torch.device": device,
        "torch.storage.UntypedStorage": UntypedStorage, "torch.storage.TypedStorage": TypedStorage,
        "torch.serialization._get_layout": _rebuild._get_layout,
        "torch._tensor._rebuild_from_type_v2": _rebuild._rebuild_from_type_v2,
        "torch.Tensor": Tensor, "torch.nn.parameter.Parameter": Parameter,
    }
    names.update((f"torch.{d._name}", d) for d in dtypes.EVERY_DTYPE)
    names.update((f"torch.{name}", kind) for name, kind in STORAGE_TYPES.items())
    names.update((f"torch._utils.{f.__name__}", f) for f in _REBUILD_FUNCTIONS)
    names.update((f"torch.{name}", kind) for name, kind in LEGACY_TYPES.items())
    return names


# torch's path -> glasstorch's object, for the names both sides agree on.
TORCH_NAMES = _table()
# id(object) -> (module, name): the path the writer gives each of those objects.
_PATHS = {id(obj): tuple(path.rsplit(".", 1)) for path, obj in TORCH_NAMES.items()}
# the legacy storage classes themselves (a full load's ``torch.FloatStorage``), where
# a weights-only load reads the same path as a `StorageType`
_PATHS.update((id(cls), ("torch", name)) for name, cls in LEGACY_STORAGES.items())


def torch_path(obj) -> tuple[str, str] | None:
    """``(module, name)`` under which torch knows `obj`, or None for other objects."""
    return _PATHS.get(id(obj))


def glasstorch_module(module: str) -> str:
    """The glasstorch module standing for torch module `module` (``torch.nn.modules.linear``
    -> ``glasstorch.nn.modules.linear``); other modules are themselves."""
    if module == "torch" or module.startswith("torch."):
        return "glasstorch" + module[len("torch"):]
    return module
