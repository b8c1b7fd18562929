"""Key-value stores the ranks rendezvous through.

`HashStore` lives in the process and works here as in torch; the stores that reach
other processes (TCPStore, FileStore) need the communication layer a backend-less
build lacks (Note [No communication backend] in c10d.py) and refuse when made.
"""
from __future__ import annotations

import datetime
from typing import Any

from .c10d_types import DistStoreError, Store


def _as_bytes(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


class HashStore(Store):
    """An in-process store: `set`/`get` bytes, `add` counters, `check`/`delete_key` keys.

    Example::

        >>> store = torch.distributed.HashStore()
        >>> store.set("key", "value")
        >>> store.get("key")
        b'value'
    """

    def __init__(self) -> None:
        self._data: dict = {}
        self.timeout = datetime.timedelta(seconds=300)

    def set(self, key: str, value: Any) -> None:
        self._data[key] = _as_bytes(value)

    def get(self, key: str) -> bytes:
        # no other process can set a missing key: waiting could only time out
        if key not in self._data:
            raise DistStoreError("Wait timeout")
        return self._data[key]

    def add(self, key: str, amount: int) -> int:
        total = int(self._data.get(key, b"0")) + amount
        self._data[key] = str(total).encode()
        return total

    def check(self, keys: list) -> bool:
        return all(key in self._data for key in keys)

    def delete_key(self, key: str) -> bool:
        return self._data.pop(key, None) is not None

    def num_keys(self) -> int:
        return len(self._data)

    def wait(self, keys: list, timeout: Any = None) -> None:
        if not self.check(keys):
            raise DistStoreError("Wait timeout")

    def set_timeout(self, timeout: datetime.timedelta) -> None:
        self.timeout = timeout


class PrefixStore(Store):
    """A view of `store` whose keys all start with ``prefix/``."""

    def __init__(self, prefix: str, store: Store) -> None:
        self.prefix, self.underlying_store = prefix, store

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.underlying_store, name)
        if name in ("set", "get", "add", "delete_key"):
            return lambda key, *args: method(f"{self.prefix}/{key}", *args)
        if name in ("check", "wait"):
            return lambda keys, *args: method([f"{self.prefix}/{k}" for k in keys], *args)
        return method


def _needs_backend(name: str) -> type:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"glasstorch does not implement torch.distributed.{name}: it has no "
                           "communication backend (a later issue)")
    return type(name, (Store,), {"__init__": __init__, "__doc__": f"{name}: refused when made."})


TCPStore = _needs_backend("TCPStore")
FileStore = _needs_backend("FileStore")
