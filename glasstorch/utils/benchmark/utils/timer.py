"""Timer: time a Python statement the way torch.utils.benchmark does.

Built on `timeit.Timer` (which compiles `stmt` and `setup` once), with torch's
additions: the statement runs with `num_threads` intra-op threads (one by default),
`torch` is in its globals, and results come back as Measurements. `blocked_autorange`
first picks a block size large enough that the timer's own cost is negligible, then
times blocks until `min_run_time` has passed.
"""
from __future__ import annotations

import enum
import textwrap
import timeit
from typing import Any, Callable

import numpy

import glasstorch as torch
from . import common


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


class Timer:
    """Time `stmt` after `setup`, in `globals` (``torch`` is added to them).

    Args:
        stmt (str): the statement to time. Default: ``"pass"``
        setup (str): run once before timing. Default: ``"pass"``
        timer (Callable): the clock. Default: `timeit.default_timer`
        globals (dict, optional): the names `stmt` and `setup` see.
        label, sub_label, description, env (str, optional): how `Compare` groups
            and titles the measurement.
        num_threads (int): intra-op threads while timing. Default: 1

    Example::

        >>> t = torch.utils.benchmark.Timer("x + 1", globals={"x": torch.ones(3)})
        >>> t.timeit(100).number_per_run
        100
    """

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "",
                 timer: Callable[[], float] = timeit.default_timer, globals: dict | None = None,
                 label: str | None = None, sub_label: str | None = None,
                 description: str | None = None, env: str | None = None, num_threads: int = 1,
                 language: Any = Language.PYTHON) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("glasstorch does not implement C++ timing: "
                                      "torch.utils.benchmark times Python statements only here")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Invalid language `{language}`.")
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely "
                             "this code can simply be moved to `setup`.")
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", torch)
        stmt, setup = _tidy(stmt), _tidy(setup)
        self._timer = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup,
                                          label=label, sub_label=sub_label,
                                          description=description, env=env,
                                          num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        return max(self._timer.timeit(number), 1e-9)     # never a zero time

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """Run `stmt` `number` times (after a short warm-up) and measure the total."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            return common.Measurement(number_per_run=number,
                                      raw_times=[self._timeit(number=number)],
                                      task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback: Callable | None = None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _estimate_block_size(self, min_run_time: float) -> int:
        """The smallest power of ten of runs whose time dwarfs the timer's own cost."""
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = float(numpy.median([self._timeit(0) for _ in range(5)]))
            number = 1
            while True:
                taken = self._timeit(number)
                if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                    break
                if taken > min_run_time or number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def _measure(self, number: int, stop: Callable[[list], bool], min_run_time: float,
                 max_run_time: float | None = None, callback: Callable | None = None) -> list:
        """Time blocks of `number` runs until `min_run_time` passed and `stop` agrees."""
        times: list = []
        total, can_stop = 0.0, False
        with common.set_torch_threads(self._task_spec.num_threads):
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def blocked_autorange(self, callback: Callable | None = None,
                          min_run_time: float = 0.2) -> common.Measurement:
        """Time blocks of runs for at least `min_run_time` seconds.

        Args:
            callback (Callable, optional): called with (runs in the block, its time).
            min_run_time (float): the total time to spend. Default: 0.2
        """
        number = self._estimate_block_size(min_run_time)
        times = self._measure(number, lambda times: True, min_run_time, callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def adaptive_autorange(self, threshold: float = 0.1, *, min_run_time: float = 0.01,
                           max_run_time: float = 10.0,
                           callback: Callable | None = None) -> common.Measurement:
        """Time blocks until the spread is small (IQR/median below `threshold`).

        Stops once more than three blocks and `min_run_time` seconds are in and the
        spread is small, or after `max_run_time` seconds regardless.
        """
        number = self._estimate_block_size(min_run_time=0.05)

        def stop(times: list) -> bool:
            return len(times) > 3 and common.Measurement(
                number_per_run=number, raw_times=times,
                task_spec=self._task_spec).meets_confidence(threshold=threshold)
        times = self._measure(number, stop, min_run_time, max_run_time, callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def collect_callgrind(self, *args: Any, **kwargs: Any) -> None:
        """Count instructions under Valgrind: not available in glasstorch."""
        raise NotImplementedError("glasstorch does not implement Timer.collect_callgrind: "
                                  "it needs torch's Valgrind bindings")


def _tidy(code: str) -> str:
    """Dedent, and drop a leading newline and trailing space, as torch does."""
    code = textwrap.dedent(code)
    return (code[1:] if code and code[0] == "\n" else code).rstrip()
