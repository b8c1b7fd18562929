"""torch.serialization's settings and small public helpers: byte order, CRC, mmap
flags, skip_data, the safe-globals API, and the odds and ends programs import."""
from __future__ import annotations

import mmap as _mmap
import shutil
import tempfile
import threading
from contextlib import contextmanager
from enum import Enum
from typing import Any, Callable

from ..utils.serialization import config
from . import _weights_only


class _Settings(threading.local):
    """Per-thread flags of `skip_data`, as torch keeps them."""

    def __init__(self) -> None:
        self.skip_data = False


local = _Settings()


class SourceChangeWarning(Warning):
    """Warned when a pickled module's source changed since it was saved."""


@contextmanager
def mkdtemp():
    """A temporary directory, removed when the block ends.

    Example::

        >>> with torch.serialization.mkdtemp() as path:
        ...     torch.save(torch.ones(1), path + "/t.pt")
    """
    path = tempfile.mkdtemp()
    try:
        yield path
    finally:
        shutil.rmtree(path)


class LoadEndianness(Enum):
    """The byte order assumed for checkpoints that do not record theirs."""
    NATIVE = 1
    LITTLE = 2
    BIG = 3


def get_default_load_endianness() -> LoadEndianness | None:
    """The fallback byte order for checkpoints without a ``byteorder`` record (None:
    little endian)."""
    return config.load.endianness


def set_default_load_endianness(endianness) -> None:
    """Set the fallback byte order (a `LoadEndianness`, or None).

    Raises:
        TypeError: for anything else.
    """
    if not isinstance(endianness, LoadEndianness) and endianness is not None:
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    config.load.endianness = endianness


def get_crc32_options() -> bool:
    """Whether `torch.save` writes each record's CRC-32 (default ``True``)."""
    return config.save.compute_crc32


def set_crc32_options(compute_crc32: bool) -> None:
    """Choose whether `torch.save` computes each record's CRC-32 (else it writes 0,
    which `torch.load` accepts and unzip tools do not)."""
    config.save.compute_crc32 = compute_crc32


def get_default_mmap_options() -> int | None:
    """The mmap flags of ``torch.load(mmap=True)``: ``mmap.MAP_PRIVATE`` by default."""
    return config.load.mmap_flags


class set_default_mmap_options:
    """Set the mmap flags of ``torch.load(mmap=True)``, for good or (as a context
    manager) for a block.

    Args:
        flags (int): ``mmap.MAP_PRIVATE`` (writes stay in memory) or ``mmap.MAP_SHARED``
            (writes reach the file).

    Raises:
        ValueError: for any other flags.
    """

    def __init__(self, flags: int) -> None:
        if flags not in (_mmap.MAP_PRIVATE, _mmap.MAP_SHARED):
            raise ValueError("Invalid argument in function set_default_mmap_options, expected "
                             f"mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got {flags}")
        self.prev = config.load.mmap_flags
        config.load.mmap_flags = flags

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: Any) -> None:
        config.load.mmap_flags = self.prev


class skip_data:
    """Within the block, `torch.save` writes storage records without their bytes (zeros)
    and `torch.load` makes storages without reading theirs (uninitialised).

    Args:
        materialize_fake_tensors (bool): accepted for torch's signature (no fake tensors
            here).
    """

    def __init__(self, materialize_fake_tensors: bool = False) -> None:
        self.materialize_fake_tensors = materialize_fake_tensors

    def __enter__(self) -> None:
        self._old = local.skip_data
        local.skip_data = True

    def __exit__(self, *exc: Any) -> None:
        local.skip_data = self._old


def clear_safe_globals() -> None:
    """Forget every global `add_safe_globals` allowlisted."""
    _weights_only.clear()


def get_safe_globals() -> list[Callable | tuple[Callable, str]]:
    """The globals users allowlisted for ``weights_only`` loads."""
    return _weights_only.user_globals()


def add_safe_globals(safe_globals: list[Callable | tuple[Callable, str]]) -> None:
    """Allow ``weights_only`` loads to use these functions and classes.

    Args:
        safe_globals (list): functions or classes, each named in checkpoints by
            ``{__module__}.{__qualname__}``, or ``(object, 'full.path')`` pairs naming an
            object by another path.

    Example::

        >>> torch.serialization.add_safe_globals([MyConfig])
        >>> torch.load("ckpt.pt")     # may now build MyConfig objects
    """
    _weights_only.add(safe_globals)


class safe_globals:
    """`add_safe_globals` for the length of a ``with`` block.

    Args:
        safe_globals (list): as `add_safe_globals`'s.

    Example::

        >>> with torch.serialization.safe_globals([MyConfig]):
        ...     torch.load("ckpt.pt")
    """

    def __init__(self, safe_globals: list[Callable | tuple[Callable, str]]) -> None:
        self.safe_globals = safe_globals

    def __enter__(self) -> None:
        _weights_only.add(self.safe_globals)

    def __exit__(self, *exc: Any) -> None:
        _weights_only.remove(self.safe_globals)


def check_module_version_greater_or_equal(module, req_version_tuple: tuple,
                                          error_if_malformed: bool = True) -> bool:
    """Whether ``module.__version__`` is at least `req_version_tuple`.

    Raises:
        RuntimeError: for a version string that does not parse, when
            `error_if_malformed`; otherwise a warning.
    """
    version = module.__version__.split(".")
    try:
        parts = tuple(type(req)(part) for req, part in zip(req_version_tuple, version))
        return parts >= req_version_tuple
    except Exception as error:
        message = (f"'{module.__name__}' module version string is malformed '{module.__version__}'"
                   f" and cannot be compared with tuple {req_version_tuple}")
        if error_if_malformed:
            raise RuntimeError(message) from error
        import warnings
        warnings.warn(message + ", but continuing assuming that requirement is met",
                      stacklevel=2)
        return True
