"""`record`: the decorator launched scripts put on their entry point, which writes an
uncaught error to the file the launcher names (TORCHELASTIC_ERROR_FILE) and re-raises."""
from __future__ import annotations

import functools
import json
import os
import time
import traceback
from typing import Any, Callable


def record(fn: Callable, error_handler: Any = None) -> Callable:
    """Wrap `fn` so that an exception escaping it is written, as torchelastic's JSON, to
    ``$TORCHELASTIC_ERROR_FILE`` (when set) before it propagates.

    Example::

        >>> @record
        ... def main():
        ...     train()
    """
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            _write_error_file(error)
            raise
    return wrapper


def _write_error_file(error: BaseException) -> None:
    path = os.environ.get("TORCHELASTIC_ERROR_FILE")
    if not path:
        return
    message = {"message": {"message": f"{type(error).__name__}: {error}",
                           "extraInfo": {"py_callstack": traceback.format_exc(),
                                         "timestamp": str(int(time.time()))}}}
    with open(path, "w") as handle:
        json.dump(message, handle)
