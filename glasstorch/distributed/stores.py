"""Key-value stores the ranks rendezvous through: HashStore (in the process), TCPStore (a
server in one process, clients in all), FileStore (a file every process can open) and
PrefixStore (a view of another store).

# Note [One table behind every store]
#
# Every store answers the same operations (set, get, add, compare_set, append, check,
# wait, delete_key, num_keys, multi_get, multi_set) on one kind of object, `_Table`: a
# dict of bytes guarded by a condition variable, where `get` and `wait` block until the
# keys exist or the timeout passes (torch's "wait timeout" DistStoreError). HashStore
# holds a table; TCPStore's server holds one and its clients send it the operation's
# name and arguments (JSON, bytes as hex: nothing executable crosses the wire);
# FileStore loads the table from its file under a lock for each operation. The stores
# carry only small rendezvous data: the tensors travel over MPI.
"""
from __future__ import annotations

import datetime
import fcntl
import json
import os
import socket
import socketserver
import struct
import threading
import time
from typing import Any

from .c10d_types import DistStoreError, Store

_DEFAULT_TIMEOUT = datetime.timedelta(seconds=300)


def _as_bytes(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def _seconds(timeout: Any) -> float:
    return timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else float(timeout)


def _timeout_error(keys: list, timeout: float) -> DistStoreError:
    names = ", ".join(f"/{key}" for key in keys)
    return DistStoreError(f"wait timeout after {round(timeout * 1000)}ms, keys: {names}")


class _Table:
    """The operations of a store over a dict of bytes (Note [One table behind every store])."""

    def __init__(self, data: dict | None = None) -> None:
        self.data: dict = {} if data is None else data
        self.changed = threading.Condition()

    def apply(self, operation: str, args: list, timeout: float) -> Any:
        with self.changed:
            if operation in ("get", "wait", "multi_get"):
                keys = args[0] if operation != "get" else [args[0]]
                self._wait_for(keys, timeout)
            result = getattr(self, operation)(*args)
            self.changed.notify_all()
            return result

    def _wait_for(self, keys: list, timeout: float) -> None:
        present = lambda: all(key in self.data for key in keys)  # noqa: E731
        if not self.changed.wait_for(present, timeout=max(timeout, 0.0)):
            raise _timeout_error(keys, timeout)

    def set(self, key: str, value: bytes) -> None:
        self.data[key] = value

    def get(self, key: str) -> bytes:
        return self.data[key]

    def multi_get(self, keys: list) -> list:
        return [self.data[key] for key in keys]

    def multi_set(self, keys: list, values: list) -> None:
        self.data.update(zip(keys, values))

    def add(self, key: str, amount: int) -> int:
        total = int(self.data.get(key, b"0")) + amount
        self.data[key] = str(total).encode()
        return total

    def append(self, key: str, value: bytes) -> None:
        self.data[key] = self.data.get(key, b"") + value

    def compare_set(self, key: str, expected: bytes, desired: bytes) -> bytes:
        current = self.data.get(key)
        if (current is None and expected == b"") or current == expected:
            self.data[key] = desired
            return desired
        return expected if current is None else current

    def check(self, keys: list) -> bool:
        return all(key in self.data for key in keys)

    def wait(self, keys: list) -> None:
        return None

    def delete_key(self, key: str) -> bool:
        return self.data.pop(key, None) is not None

    def num_keys(self) -> int:
        return len(self.data)


class _TableStore(Store):
    """A store whose operations go to a `_Table` through `_call` (each store says how)."""

    def __init__(self, timeout: Any = _DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout if isinstance(timeout, datetime.timedelta) else \
            datetime.timedelta(seconds=_seconds(timeout))

    def _call(self, operation: str, args: list, timeout: float) -> Any:
        raise NotImplementedError

    def _run(self, operation: str, *args: Any, timeout: Any = None) -> Any:
        limit = _seconds(self.timeout if timeout is None else timeout)
        return self._call(operation, list(args), limit)

    def set(self, key: str, value: Any) -> None:
        """Store `value` (str or bytes) under `key`."""
        self._run("set", key, _as_bytes(value))

    def get(self, key: str) -> bytes:
        """The value of `key`, waiting up to the store's timeout for another rank to set it."""
        return self._run("get", key)

    def add(self, key: str, amount: int) -> int:
        """Add `amount` to the counter `key` (0 when new); returns the new value."""
        return self._run("add", key, int(amount))

    def append(self, key: str, value: Any) -> None:
        """Append `value` to `key`'s bytes (set it when new)."""
        self._run("append", key, _as_bytes(value))

    def compare_set(self, key: str, expected_value: Any, desired_value: Any) -> bytes:
        """Set `key` to `desired_value` if it holds `expected_value`; returns its value."""
        return self._run("compare_set", key, _as_bytes(expected_value),
                         _as_bytes(desired_value))

    def multi_get(self, keys: list) -> list:
        """The values of `keys`, waiting for all of them."""
        return self._run("multi_get", list(keys))

    def multi_set(self, keys: list, values: list) -> None:
        """Set each of `keys` to its value."""
        self._run("multi_set", list(keys), [_as_bytes(value) for value in values])

    def check(self, keys: list) -> bool:
        """Whether every key of `keys` is set (without waiting)."""
        return self._run("check", list(keys))

    def wait(self, keys: list, timeout: Any = None) -> None:
        """Wait until every key of `keys` is set, or raise DistStoreError after `timeout`."""
        self._run("wait", list(keys), timeout=timeout)

    def delete_key(self, key: str) -> bool:
        """Remove `key`; returns whether it was there."""
        return self._run("delete_key", key)

    def num_keys(self) -> int:
        """How many keys the store holds."""
        return self._run("num_keys")

    def set_timeout(self, timeout: datetime.timedelta) -> None:
        """Change how long `get` and `wait` wait."""
        self.timeout = timeout


class HashStore(_TableStore):
    """A store inside this process (threads share it).

    Example::

        >>> store = torch.distributed.HashStore()
        >>> store.set("key", "value")
        >>> store.get("key")
        b'value'
    """

    def __init__(self) -> None:
        super().__init__()
        self._table = _Table()

    def _call(self, operation: str, args: list, timeout: float) -> Any:
        try:
            return self._table.apply(operation, args, timeout)
        except DistStoreError:
            raise DistStoreError("Wait timeout") from None


class PrefixStore(Store):
    """A view of `store` whose keys all start with ``prefix/``."""

    def __init__(self, prefix: str, store: Store) -> None:
        self.prefix, self.underlying_store = prefix, store

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.underlying_store, name)
        if name in ("set", "get", "add", "delete_key", "append", "compare_set"):
            return lambda key, *args: method(f"{self.prefix}/{key}", *args)
        if name in ("check", "wait", "multi_get", "multi_set"):
            return lambda keys, *args: method([f"{self.prefix}/{k}" for k in keys], *args)
        return method


# ----- TCPStore: the wire format --------------------------------------------------------

def _encode(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        return bytes.fromhex(value["bytes"])
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def _send(connection: socket.socket, message: Any) -> None:
    payload = json.dumps(_encode(message)).encode()
    connection.sendall(struct.pack("!I", len(payload)) + payload)


def _receive(connection: socket.socket) -> Any:
    header = _receive_exactly(connection, 4)
    return _decode(json.loads(_receive_exactly(connection, struct.unpack("!I", header)[0])))


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    chunks = b""
    while len(chunks) < size:
        chunk = connection.recv(size - len(chunks))
        if not chunk:
            raise ConnectionError("the store's connection closed")
        chunks += chunk
    return chunks


class _TableServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple) -> None:
        self.table = _Table()
        super().__init__(address, _TableRequests)


class _TableRequests(socketserver.BaseRequestHandler):
    """One client's connection: operations in, (ok, result) or (error, message) out."""

    def handle(self) -> None:
        while True:
            try:
                operation, args, timeout = _receive(self.request)
            except (ConnectionError, OSError):
                return
            try:
                _send(self.request, ["ok", self.server.table.apply(operation, args, timeout)])
            except DistStoreError as error:
                _send(self.request, ["error", str(error)])


class TCPStore(_TableStore):
    """A store served over TCP by the process made with ``is_master=True``; the others
    connect to ``host_name:port`` (waiting up to `timeout` for the server to start).

    Args:
        host_name (str): the server's address.
        port (int): the server's port (0 with ``is_master``: a free one, read back from
            ``store.port``).
        world_size (int, optional): how many processes use the store.
        is_master (bool): serve the store from this process.
        timeout (timedelta): how long `get` and `wait` (and connecting) wait.
        wait_for_workers (bool): accepted as torch has it.

    Example::

        >>> store = torch.distributed.TCPStore("127.0.0.1", 0, 1, True)
        >>> store.add("counter", 2)
        2
    """

    def __init__(self, host_name: str, port: int, world_size: int | None = None,
                 is_master: bool = False, timeout: Any = _DEFAULT_TIMEOUT,
                 wait_for_workers: bool = True, multi_tenant: bool = False,
                 master_listen_fd: int | None = None, use_libuv: bool = True) -> None:
        super().__init__(timeout)
        self.host, self.libuvBackend, self._server = host_name, use_libuv, None
        if is_master:
            self._server = _TableServer(("", port))
            port = self._server.server_address[1]
            threading.Thread(target=self._server.serve_forever, args=(0.05,),
                             daemon=True).start()
        self.port = port
        self._lock = threading.Lock()
        self._socket = self._connect(_seconds(self.timeout))

    def _connect(self, timeout: float) -> socket.socket:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return socket.create_connection((self.host, self.port), timeout=timeout)
            except OSError as error:
                if time.monotonic() > deadline:
                    raise DistStoreError(f"The client socket has timed out after "
                                         f"{round(timeout * 1000)}ms while trying to connect "
                                         f"to ({self.host}, {self.port}).") from error
                time.sleep(0.05)

    def _stop_serving(self) -> None:
        """Close the server (the process group that made the store is being destroyed)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _call(self, operation: str, args: list, timeout: float) -> Any:
        with self._lock:
            self._socket.settimeout(None)
            _send(self._socket, [operation, args, timeout])
            status, result = _receive(self._socket)
        if status == "error":
            raise DistStoreError(result)
        return result


class FileStore(_TableStore):
    """A store kept in `file_name`, which every process of the job can open (a shared
    filesystem for several machines).

    Args:
        file_name (str): the file holding the keys (made when missing).
        world_size (int): how many processes use the store (-1: unknown).
    """

    def __init__(self, file_name: str, world_size: int = -1) -> None:
        super().__init__()
        self.path, self.world_size = file_name, world_size
        with open(self.path, "a"):
            pass

    def _call(self, operation: str, args: list, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._apply_once(operation, args)
            except DistStoreError as error:
                if time.monotonic() > deadline:
                    key = error.args[0].split("keys: /")[-1].split(",")[0]
                    raise RuntimeError(f"Timeout waiting for key: {key} after "
                                       f"{round(timeout * 1000)} ms") from None
                time.sleep(0.01)

    def delete_key(self, key: str) -> bool:
        """Remove `key`; True whether or not it was there (as torch's FileStore answers)."""
        super().delete_key(key)
        return True

    def _apply_once(self, operation: str, args: list) -> Any:
        """One operation under the file's lock; a missing key raises for `_call` to retry."""
        with open(self.path, "r+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            text = handle.read()
            table = _Table({key: bytes.fromhex(value)
                            for key, value in (json.loads(text) if text else {}).items()})
            result = table.apply(operation, args, 0.0)
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps({key: value.hex() for key, value in table.data.items()}))
            return result
