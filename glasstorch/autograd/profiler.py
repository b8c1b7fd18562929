"""`torch.autograd.profiler`: time every operator call and region of a block of code.

The profiler is a dispatch observer (Note [Dispatch observers] in aten/observers.py):
while it records, the dispatcher tells it when each operator call begins and ends, the
autograd engine when each backward node does, and `record_function` when a named
region does. It keeps one record per call, in the order the calls began, with the call
it ran inside; on stop the records become `FunctionEvent`s (profiler_util.py), which
`key_averages()` adds up by name and `table()` prints in torch's layout.

Only the CPU is profiled (a CPU build has nothing else to profile), and only the thread
that started the profiler, as torch's profiler does by default for operator events.
"""
from __future__ import annotations

import enum
import functools
import itertools
import threading
import time
import warnings
from typing import Any

from ..aten.observers import (DispatchObserver, Region, add_observer, enter_region,
                              exit_region, remove_observer)
from ..c10.tensor_impl import TensorBase
from .profiler_util import (DeviceType, EventList, FunctionEvent, FunctionEventAvg,  # noqa: F401
                            Interval, Kernel, MEMORY_EVENT_NAME, OUT_OF_MEMORY_EVENT_NAME,
                            write_chrome_trace)

__all__ = ["profile", "record_function", "emit_nvtx", "emit_itt", "EventList",
           "FunctionEvent", "FunctionEventAvg", "DeviceType", "ProfilerActivity",
           "ProfilerConfig", "ProfilerState", "kineto_available", "load_nvprof",
           "parse_nvprof_trace"]


class ProfilerActivity(enum.IntEnum):
    """The kinds of activity a profiler can record; a CPU build supports `CPU` only."""

    CPU = 0
    XPU = 1
    CUDA = 2
    HPU = 3
    MTIA = 4
    PrivateUse1 = 5


class ProfilerState(enum.IntEnum):
    """How a profiler records (torch's legacy configuration enum)."""

    Disabled = 0
    CPU = 1
    CUDA = 2
    NVTX = 3
    ITT = 4
    PRIVATEUSE1 = 5
    KINETO = 6
    KINETO_GPU_FALLBACK = 7
    KINETO_PRIVATEUSE1_FALLBACK = 8
    KINETO_PRIVATEUSE1 = 9


class ProfilerConfig:
    """A profiler's settings, as torch's legacy configuration holds them."""

    def __init__(self, state: ProfilerState, report_input_shapes: bool, profile_memory: bool,
                 with_stack: bool, with_flops: bool, with_modules: bool,
                 experimental_config: Any = None, trace_id: str = "") -> None:
        self.state = state
        self.report_input_shapes = report_input_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.experimental_config = experimental_config
        self.trace_id = trace_id


class _ExperimentalConfig:
    """torch's experimental profiler settings; here only `capture_overload_names` (note
    each operator's overload: ``'Tensor'`` of ``aten::add.Tensor``) changes anything.
    The others are accepted for torch's signature."""

    def __init__(self, profiler_metrics=(), profiler_measure_per_kernel: bool = False,
                 verbose: bool = False, performance_events=(),
                 enable_cuda_sync_events: bool = False, adjust_profiler_step: bool = False,
                 disable_external_correlation: bool = False, profile_all_threads: bool = False,
                 capture_overload_names: bool = False, record_python_gc_info: bool = False,
                 expose_kineto_event_metadata: bool = False, custom_profiler_config: str = "",
                 adjust_timestamps: bool = False, trace_only: bool = False) -> None:
        self.capture_overload_names = capture_overload_names


class ProfilerEvent:
    """An event of torch's legacy profiler (kept for the name; `FunctionEvent` is what
    profiles here produce)."""


def kineto_available() -> bool:
    """Whether torch's Kineto tracing library is built in: the CPU wheel's answer."""
    return True


class _ThreadNumber(threading.local):
    number = None


_thread = _ThreadNumber()
_next_thread_number = itertools.count(1).__next__


def _thread_number() -> int:
    """This thread's number in profiles: 1 for the first thread that profiles, as torch
    numbers the threads its profiler sees."""
    if _thread.number is None:
        _thread.number = _next_thread_number()
    return _thread.number


def _shapes(args: tuple) -> list:
    """Each argument's shape as a list, [] for anything not a tensor (lists included)."""
    return [list(a.shape) if isinstance(a, TensorBase) else [] for a in args]


class _Recorder(DispatchObserver):
    """The observer that notes every call and region: [name, overload, shapes,
    parent index, record scope, start ns, end ns] each."""

    def __init__(self, record_shapes: bool, overloads: bool) -> None:
        self.record_shapes = record_shapes
        self.overloads = overloads
        self.records: list = []
        self.open: list = []                  # indices of the records not ended yet

    def enter(self, op, name: str, args: tuple, keyset: int = 0):
        region = isinstance(op, Region)
        overload = op.name.partition(".")[2] if self.overloads and not region else ""
        parent = self.open[-1] if self.open else None
        record = [name, overload, _shapes(args) if self.record_shapes else [], parent,
                  int(op) if region else 0, time.perf_counter_ns(), None]
        self.open.append(len(self.records))
        self.records.append(record)
        return record

    def exit(self, token) -> None:
        token[6] = time.perf_counter_ns()
        self.open.pop()

    def events(self, thread: int) -> EventList:
        """The records as events with their parents and children."""
        now = time.perf_counter_ns()
        events = []
        for index, (name, overload, shapes, parent, scope, start, end) in \
                enumerate(self.records):
            if name.startswith("ProfilerStep#"):
                name = "ProfilerStep*"
            event = FunctionEvent(index + 1, name, thread, start / 1000,
                                  (now if end is None else end) / 1000, overload, shapes,
                                  scope=scope, is_user_annotation=scope == Region.USER_SCOPE)
            if parent is not None:
                events[parent].append_cpu_child(event)
                event.set_cpu_parent(events[parent])
            events.append(event)
        return EventList(events)


class profile:
    """Record the operators a block of code runs, with their CPU times.

    Args:
        enabled: False makes the block run unprofiled.
        use_cuda, use_device: device profiling, which a CPU build has not.
        record_shapes: note the shape of each operator's arguments.
        with_flops, profile_memory, with_stack, with_modules: accepted; a CPU event
            here carries no flop count, memory or stack.
        experimental_config: an `_ExperimentalConfig`; with ``capture_overload_names``
            each event notes its operator's overload.
        use_kineto, use_cpu, acc_events, custom_trace_id_callback: accepted for torch's
            signature.

    Example::

        >>> with torch.autograd.profiler.profile() as prof:
        ...     torch.ones(3) + 1
        >>> print(prof.key_averages().table(sort_by="self_cpu_time_total"))
    """

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None,
                 record_shapes: bool = False, with_flops: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True,
                 experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.experimental_config = experimental_config
        self.use_cuda = False
        self.use_device = _no_device(use_cuda, use_device)
        if not use_cpu:                  # no device to profile here either
            raise AssertionError("Device-only events supported only with Kineto "
                                 "(use_kineto=True)" if not use_kineto
                                 else "No activities specified for the profiler")
        self.entered = False
        self._recorder = None
        self._function_events = None

    def __enter__(self) -> "profile | None":
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        if self.enabled:
            self._stop()
        return False

    def _start(self) -> None:
        overloads = getattr(self.experimental_config, "capture_overload_names", False)
        self._recorder = _Recorder(self.record_shapes, overloads)
        self._function_events = None
        add_observer(self._recorder)

    def _stop(self) -> None:
        remove_observer(self._recorder)
        self._function_events = self._recorder.events(_thread_number())
        self._function_events._profile_memory = self.profile_memory

    @property
    def function_events(self) -> EventList | None:
        """The recorded events, once the profile has stopped."""
        return self._function_events

    def _events(self) -> EventList:
        """The recorded events (none before the profile has run)."""
        return self._function_events if self._function_events is not None else EventList()

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """The events averaged by name: see `EventList.key_averages`."""
        return self._events().key_averages(group_by_input_shape, group_by_stack_n,
                                          group_by_overload_name)

    def table(self, sort_by=None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header=None, top_level_events_only: bool = False, time_unit=None) -> str:
        """The events' table: see `EventList.table`."""
        return self._events().table(sort_by, row_limit, max_src_column_width,
                                   max_name_column_width, max_shapes_column_width, header,
                                   top_level_events_only, time_unit)

    def total_average(self) -> FunctionEventAvg:
        """Every event added into one average."""
        return self._events().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        """The self times of every event, added up (microseconds)."""
        return self._events().self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events to `path` as a chrome-trace JSON file."""
        write_chrome_trace(self._events(), path)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        """Write each event's stack with its `metric`, one line per stack, for flame
        graphs: events here carry no Python stack, so the file has no lines."""
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        with open(path, "w"):
            pass

    def toggle_collection_dynamic(self, enable: bool, activities) -> None:
        """Pause (False) or resume (True) recording, for the CPU among `activities`."""
        if self._recorder is None or ProfilerActivity.CPU not in set(activities):
            return
        if enable:
            add_observer(self._recorder)
        else:
            remove_observer(self._recorder)

    def __str__(self) -> str:
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return str(self._function_events)

    __repr__ = __str__


def _no_device(use_cuda: bool, use_device):
    """None, the device a CPU build profiles besides the CPU, with torch's warnings for
    a device asked for."""
    if use_cuda:
        warnings.warn("The attribute `use_cuda` will be deprecated soon, please use "
                      "``use_device = 'cuda'`` instead.", FutureWarning, stacklevel=3)
        use_device = "cuda"
    if use_device is None:
        return None
    if use_device not in ("cuda", "xpu", "mtia", "hpu"):
        warnings.warn(f"The {use_device} is not a valid device option.", stacklevel=3)
    else:
        name = use_device.upper()
        warnings.warn(f"{name} is not available, disabling {name} profiling", stacklevel=3)
    return None


class record_function:
    """Name a region of code: profiles show it as one event around what ran inside.

    A context manager and a decorator.

    Args:
        name: the region's name in the profile.
        args: a string attached to the region (accepted; not shown here).

    Example::

        >>> with torch.profiler.record_function("forward"):
        ...     y = model(x)
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._tokens = ()

    def __enter__(self) -> "record_function":
        self._tokens = enter_region(self.name, (), Region.USER_SCOPE)
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        exit_region(self._tokens)
        self._tokens = ()

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with record_function(self.name, self.args):
                return function(*args, **kwargs)
        return wrapper


class emit_nvtx:
    """Annotate each operator as an NVTX range for NVIDIA's tools: it needs CUDA, so
    entering it (enabled) raises, as on torch's CPU wheel.

    Args:
        enabled: False makes it do nothing.
        record_shapes: add the arguments' shapes to each range.
    """

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:
        self.enabled = enabled
        self.entered = False
        self.record_shapes = record_shapes

    def __enter__(self):
        if not self.enabled:
            return None
        raise AssertionError("Torch not compiled with CUDA enabled")

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        return False


class emit_itt:
    """Annotate each operator as an ITT range for Intel's VTune. Nothing here listens
    for ITT ranges, so the block runs as it would without it.

    Args:
        enabled: False makes it do nothing.
        record_shapes: add the arguments' shapes to each range.
    """

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:
        self.enabled = enabled
        self.entered = False
        self.record_shapes = record_shapes

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("ITT annotation context manager is not reentrant")
        self.entered = True
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        self.entered = False
        return False


def parse_nvprof_trace(path: str):
    """Read an nvprof trace: there is no CUDA here, so there is none to read."""
    raise RuntimeError("parse_nvprof_trace needs an nvprof trace, which a CPU build "
                       "cannot make")


def load_nvprof(path: str) -> EventList:
    """The events of an nvprof trace (see `parse_nvprof_trace`)."""
    return EventList(parse_nvprof_trace(path))


class KinetoStepTracker:
    """The global step count, kept per requester (the profiler's ``step()``, each
    optimizer's step): the count is the largest of theirs, so a program stepping both
    counts each step once."""

    _current_step = 0
    _step_dict: dict = {}

    @classmethod
    def init_step_count(cls, requester: str) -> None:
        """Start counting for `requester` at the current step."""
        cls._step_dict[requester] = cls._current_step

    @classmethod
    def erase_step_count(cls, requester: str) -> bool:
        """Stop counting for `requester`; whether it was counted."""
        return cls._step_dict.pop(requester, None) is not None

    @classmethod
    def increment_step(cls, requester: str) -> int:
        """Count a step of `requester`; returns the global step count."""
        if requester not in cls._step_dict:
            cls.init_step_count(requester)
        cls._step_dict[requester] += 1
        new_step = max(cls._step_dict.values())
        if new_step - cls._current_step > 1:
            warnings.warn(f"Profiler step count has increased more than 1 - current_step = "
                          f"{cls._current_step} step dict =  {cls._step_dict}", stacklevel=2)
        cls._current_step = max(cls._current_step, new_step)
        return cls._current_step

    @classmethod
    def current_step(cls) -> int:
        """The global step count."""
        return cls._current_step
