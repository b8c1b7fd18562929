"""torch.futures: Future, the result of an asynchronous call, and helpers over many.

glasstorch runs `fork`ed calls at once, so its Futures are usually complete when made;
one made empty completes with `set_result` or `set_exception`, and its callbacks
(`then`, `add_done_callback`) run at that moment.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["Future", "collect_all", "wait_all"]


class Future:
    """A value that is or will be available: `wait` returns it (or raises its error).

    Example::

        >>> future = torch.futures.Future()
        >>> future.set_result(3)
        >>> future.then(lambda f: f.value() * 2).wait()
        6
    """

    def __init__(self, *, devices: list | None = None) -> None:
        self._done, self._value, self._error = False, None, None
        self._callbacks: list = []

    def done(self) -> bool:
        """Whether the value (or an error) is set."""
        return self._done

    def wait(self) -> Any:
        """The value; raises the error set with `set_exception`."""
        if self._error is not None:
            raise self._error
        if not self._done:
            raise RuntimeError("glasstorch runs futures synchronously: this Future was never "
                               "completed, and nothing else can complete it")
        return self._value

    value = wait

    def set_result(self, result: Any) -> None:
        """Complete the Future with `result`, running its callbacks."""
        self._complete(result, None)

    def set_exception(self, result: BaseException) -> None:
        """Complete the Future with an error, which `wait` raises."""
        self._complete(None, result)

    def _complete(self, value: Any, error: BaseException | None) -> None:
        if self._done:
            raise RuntimeError("Attempting to mark a completed Future as complete again. Note "
                               "that a Future can only be marked completed once.")
        self._done, self._value, self._error = True, value, error
        for callback in self._callbacks:
            callback(self)

    def then(self, callback: Callable[["Future"], Any]) -> "Future":
        """A Future of ``callback(self)``, computed once this one completes."""
        chained = Future()

        def run(done: "Future") -> None:
            try:
                chained.set_result(callback(done))
            except Exception as error:      # noqa: BLE001 (carried to the chained Future)
                chained.set_exception(error)
        self.add_done_callback(run)
        return chained

    def add_done_callback(self, callback: Callable[["Future"], None]) -> None:
        """Run ``callback(self)`` when the Future completes (now, if it has)."""
        if self._done:
            callback(self)
        else:
            self._callbacks.append(callback)


def collect_all(futures: list) -> Future:
    """A Future of the list of `futures`, complete when all of them are."""
    collected = Future()
    collected.set_result(list(futures))
    return collected


def wait_all(futures: list) -> list:
    """The values of `futures`, in order (the first error raised)."""
    return [future.wait() for future in futures]
