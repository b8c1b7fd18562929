"""Where a checkpoint's storages lived, and where `map_location` sends them.

Each storage record carries a location tag (``'cpu'``, ``'cuda:0'``, ``'meta'``). On
load, the tag (or what `map_location` makes of it) picks a deserializer from a registry
of ``(priority, tagger, deserializer)`` triples, as in torch; glasstorch registers CPU,
CUDA (which, as on torch's CPU-only build, refuses) and meta.
"""
from __future__ import annotations

import re
from typing import Callable

from ..c10.device import device
from ..c10.storage import UntypedStorage

_CUDA_UNAVAILABLE = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
    "False. If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")

_package_registry: list[tuple[int, Callable, Callable]] = []


def register_package(priority: int, tagger: Callable, deserializer: Callable) -> None:
    """Register how to tag a storage's location on save and restore it on load.

    Args:
        priority (int): lower runs first.
        tagger (Callable): ``tagger(storage)`` returns a location string, or None when
            the storage is not this package's.
        deserializer (Callable): ``deserializer(storage, location)`` returns the storage
            moved to `location`, or None when the location is not this package's.

    Example::

        >>> torch.serialization.register_package(30, lambda s: None, lambda s, loc: None)
    """
    _package_registry.append((priority, tagger, deserializer))
    _package_registry.sort(key=lambda entry: entry[0])


def _cpu_tag(storage):
    return "cpu" if storage.device.type == "cpu" else None


def _cpu_deserialize(storage, location: str):
    return storage if location == "cpu" else None


def _cuda_tag(storage):
    kind = storage.device
    if kind.type == "cuda":
        return "cuda" if kind.index is None else f"cuda:{kind.index}"
    return None


def _cuda_deserialize(storage, location: str):
    if location == "cuda" or re.match("cuda(:|[0-9]+)", location):
        validate_cuda_device(location)
    return None


def _meta_tag(storage):
    return "meta" if storage.device.type == "meta" else None


def _meta_deserialize(storage, location: str):
    return UntypedStorage._meta(storage.nbytes()) if location == "meta" else None


register_package(10, _cpu_tag, _cpu_deserialize)
register_package(20, _cuda_tag, _cuda_deserialize)
register_package(22, _meta_tag, _meta_deserialize)


def validate_cuda_device(location) -> int:
    """The CUDA device index `location` names; glasstorch has no CUDA device, so this
    raises, as torch's CPU-only build does.

    Raises:
        RuntimeError: always.
    """
    raise RuntimeError(_CUDA_UNAVAILABLE)


def validate_hpu_device(location) -> int:
    """The HPU device index `location` names; raises, as no HPU module is registered.

    Raises:
        RuntimeError: always.
    """
    raise RuntimeError("The HPU device module is not registered. If you are running on a "
                       "CPU-only machine, please use torch.load with "
                       "map_location=torch.device('cpu') to map your storages to the CPU.")


def location_tag(storage) -> str:
    """The location string a checkpoint records for `storage` (``'cpu'``, ``'meta'``)."""
    for _, tagger, _ in _package_registry:
        location = tagger(storage)
        if location:
            return location
    raise RuntimeError("don't know how to determine data location of "
                       f"torch.storage.{type(storage).__name__}")


def default_restore_location(storage, location: str):
    """`storage` moved to `location` by the first registered deserializer that accepts it.

    Raises:
        RuntimeError: when no deserializer knows `location`.
    """
    for _, _, deserializer in _package_registry:
        result = deserializer(storage, location)
        if result is not None:
            return result
    raise RuntimeError("don't know how to restore data location of "
                       f"torch.storage.UntypedStorage (tagged with {location})")


def restorer(map_location) -> Callable:
    """``restore(storage, location)`` as `map_location` (None, str, device, dict or
    callable) asks."""
    if map_location is None:
        return default_restore_location
    if isinstance(map_location, dict):
        return lambda storage, location: default_restore_location(
            storage, map_location.get(location, location))
    if isinstance(map_location, (str, bytes, device)):
        target = map_location.decode() if isinstance(map_location, bytes) else str(map_location)
        return lambda storage, location: default_restore_location(storage, target)

    def restore(storage, location):
        result = map_location(storage, location)
        return default_restore_location(storage, location) if result is None else result
    return restore


def is_meta(map_location) -> bool:
    """Whether `map_location` plainly sends everything to meta (then no data is read)."""
    if isinstance(map_location, str):
        return map_location == "meta"
    return isinstance(map_location, device) and map_location.type == "meta"
