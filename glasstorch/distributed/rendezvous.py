"""Where the ranks meet: an ``init_method`` URL read into a store, a rank and a world size.

``env://`` reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (what the launcher sets);
``tcp://host:port`` and ``file:///path`` take the rank and world size from the call (or
the URL's query, ``?rank=0&world_size=2``). Rank 0 serves the TCP store.
"""
from __future__ import annotations

import datetime
import os
import urllib.parse
from typing import Any, Callable

from .stores import FileStore, PrefixStore, TCPStore

_handlers: dict = {}


def _error(scheme: str, what: str) -> ValueError:
    return ValueError(f"Error initializing torch.distributed using {scheme}:// rendezvous: "
                      f"{what}")


def _rank_and_size(url: Any, rank: int, world_size: int) -> tuple:
    query = dict(urllib.parse.parse_qsl(url.query))
    rank = int(query.get("rank", rank))
    world_size = int(query.get("world_size", world_size))
    if rank == -1:
        raise _error(url.scheme, "rank parameter missing")
    if world_size == -1:
        raise _error(url.scheme, "world size parameter missing")
    return rank, world_size


def _env_value(name: str, given: int) -> int:
    if given != -1:
        return given
    if name not in os.environ:
        raise _error("env", f"environment variable {name} expected, but not set")
    return int(os.environ[name])


def check_env(rank: int, world_size: int) -> tuple:
    """RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (ValueError naming the first missing)."""
    rank = _env_value("RANK", rank)
    world_size = _env_value("WORLD_SIZE", world_size)
    for name in ("MASTER_ADDR", "MASTER_PORT"):
        if name not in os.environ:
            raise _error("env", f"environment variable {name} expected, but not set")
    return rank, world_size, os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])


def _env(url: Any, rank: int, world_size: int, timeout: datetime.timedelta) -> tuple:
    query = dict(urllib.parse.parse_qsl(url.query))
    rank, world_size, host, port = check_env(int(query.get("rank", rank)),
                                             int(query.get("world_size", world_size)))
    return TCPStore(host, port, world_size, rank == 0, timeout), rank, world_size


def _tcp(url: Any, rank: int, world_size: int, timeout: datetime.timedelta) -> tuple:
    rank, world_size = _rank_and_size(url, rank, world_size)
    return TCPStore(url.hostname, url.port, world_size, rank == 0, timeout), rank, world_size


def _file(url: Any, rank: int, world_size: int, timeout: datetime.timedelta) -> tuple:
    rank, world_size = _rank_and_size(url, rank, world_size)
    store = FileStore(url.path, world_size)
    store.set_timeout(timeout)
    return store, rank, world_size


_BUILT_IN = {"env": _env, "tcp": _tcp, "file": _file}


def register_rendezvous_handler(scheme: str, handler: Callable) -> None:
    """Add a rendezvous for URLs of `scheme`: ``handler(url, rank=, world_size=)`` yields
    (store, rank, world_size)."""
    if scheme in _handlers or scheme in _BUILT_IN:
        raise RuntimeError(f"Rendezvous handler for {scheme}:// already registered")
    _handlers[scheme] = handler


def rendezvous(url: str, rank: int = -1, world_size: int = -1, **kwargs: Any) -> Any:
    """An iterator yielding the (store, rank, world_size) of the rendezvous at `url`."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme in _handlers:
        return _handlers[parsed.scheme](url, rank=rank, world_size=world_size, **kwargs)
    if parsed.scheme not in _BUILT_IN:
        raise RuntimeError(f"No rendezvous handler for {parsed.scheme}://")
    timeout = kwargs.get("timeout", datetime.timedelta(minutes=30))
    return iter([_BUILT_IN[parsed.scheme](parsed, rank, world_size, timeout)])


def rendezvous_store(url: str, rank: int, world_size: int,
                     timeout: datetime.timedelta) -> tuple:
    """The (store, rank, world_size) init_process_group meets the other ranks through,
    its keys under ``default_pg/`` as torch's are."""
    store, rank, world_size = next(rendezvous(url, rank, world_size, timeout=timeout))
    return PrefixStore("default_pg", store), rank, world_size
