"""`torch.profiler.profile`, its schedule and its trace handler."""
from __future__ import annotations

import enum
import os
import socket
import time
import uuid
import warnings
from typing import Callable, Iterable

from ..autograd import profiler as autograd_profiler
from ..autograd.profiler import ProfilerActivity
from ..autograd.profiler_util import EventList, write_chrome_trace

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ExecutionTraceObserver"]


class ProfilerAction(enum.Enum):
    """What the profiler does during a step, as a `schedule` decides."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


class RecordScope(enum.Enum):
    """Where a recorded function comes from (torch's record-function scopes)."""

    FUNCTION = 0
    BACKWARD_FUNCTION = 1
    TORCHSCRIPT_FUNCTION = 2
    KERNEL_FUNCTION_DTYPE = 3
    CUSTOM_CLASS = 4
    BUILD_FEATURE = 5
    LITE_INTERPRETER = 6
    USER_SCOPE = 7
    STATIC_RUNTIME_OP = 8
    STATIC_RUNTIME_MODEL = 9


def is_fbcode() -> bool:
    """Whether this is Meta's internal build (it is not)."""
    return False


def register_optimizer_step_post_hook(hook: Callable):
    """`torch.optim.optimizer.register_optimizer_step_post_hook`, which torch.profiler
    re-exports: `hook(optimizer, args, kwargs)` after every optimizer step."""
    from ..optim.optimizer import register_optimizer_step_post_hook as register
    return register(hook)


def supported_activities() -> set:
    """The activities this build can profile: the CPU's."""
    return {ProfilerActivity.CPU}


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
             skip_first_wait: int = 0) -> Callable:
    """A schedule for `profile`: skip `skip_first` steps, then cycle through `wait` idle
    steps, `warmup` steps and `active` recorded steps, `repeat` times (0: forever).

    Args:
        wait, warmup, active: the steps of each phase of a cycle.
        repeat: the number of cycles; 0 for no limit.
        skip_first: steps ignored before the first cycle.
        skip_first_wait: non-zero to start the first cycle at its warmup.

    Returns:
        A function from the step number to a `ProfilerAction`.

    Example::

        >>> s = torch.profiler.schedule(wait=1, warmup=1, active=2)
        >>> [s(i).name for i in range(4)]
        ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE']
    """
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup="
            f"{warmup} (need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)
    cycle = wait + warmup + active

    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        phase = step % cycle
        if phase < wait:
            return ProfilerAction.NONE
        if phase < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if phase < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return schedule_fn


_WARNED: set = set()


def _warn_once(message: str) -> None:
    """Warn with `message` the first time only in this process, as torch's profiler does."""
    if message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, stacklevel=3)


def _always_record(step: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None,
                              use_gzip: bool = False) -> Callable:
    """An `on_trace_ready` handler writing each recording into `dir_name` as
    ``<worker_name>.<time in ns>.pt.trace.json`` (``.gz`` added when `use_gzip`), the
    files TensorBoard's profiler plugin reads.

    Args:
        dir_name: the folder, made when missing.
        worker_name: defaults to ``<host name>_<process id>``.
        use_gzip: compress the file.
    """
    def handler_fn(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, file_name))
    return handler_fn


class _KinetoProfile:
    """A profiler started and stopped by hand (`profile` adds the schedule).

    Args:
        activities: the `ProfilerActivity` kinds to record; the CPU's is the only one.
        record_shapes: note the shape of each operator's arguments.
        experimental_config: an `_ExperimentalConfig` (``capture_overload_names``).
        acc_events: keep the events of every recording cycle, not the last one only.
        profile_memory, with_stack, with_flops, with_modules, execution_trace_observer,
            custom_trace_id_callback: accepted for torch's signature.
    """

    def __init__(self, *, activities: Iterable | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_flops: bool = False, with_modules: bool = False,
                 experimental_config=None, execution_trace_observer=None,
                 acc_events: bool = False, custom_trace_id_callback=None) -> None:
        self.activities = set(activities) if activities else supported_activities()
        devices = self.activities - {ProfilerActivity.CPU}
        self._device = min(devices).name.lower() if devices else None
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.acc_events = acc_events
        self.experimental_config = experimental_config
        self._trace_id_callback = custom_trace_id_callback
        self._trace_id = None
        self.profiler = None
        self._earlier_events: list = []        # earlier cycles' events, with acc_events
        self._metadata: dict = {}

    def start(self) -> None:
        """Start recording."""
        self.prepare_trace()
        self.start_trace()

    def stop(self) -> None:
        """Stop recording."""
        self.stop_trace()

    def prepare_trace(self) -> None:
        """Make a fresh recorder (the warmup phase)."""
        if self.profiler is not None:
            if self.acc_events:
                self._earlier_events.extend(self.profiler.function_events or ())
            else:
                _warn_once("Warning: Profiler clears events at the end of each cycle. Only "
                           "events from the current cycle will be reported. To keep events "
                           "across cycles, set acc_events=True.")
        self._trace_id = (self._trace_id_callback() if self._trace_id_callback is not None
                          else uuid.uuid4().hex.upper())
        self.profiler = autograd_profiler.profile(
            use_device=self._device, record_shapes=self.record_shapes,
            profile_memory=self.profile_memory, with_stack=self.with_stack,
            with_flops=self.with_flops, experimental_config=self.experimental_config,
            use_kineto=True,
            use_cpu=ProfilerActivity.CPU in self.activities)

    def start_trace(self) -> None:
        """Begin recording into the recorder `prepare_trace` made."""
        self.profiler.__enter__()

    def stop_trace(self) -> None:
        """End the recording; its events become available."""
        if self.profiler is not None and self.profiler.entered:
            self.profiler.__exit__(None, None, None)

    def events(self) -> EventList:
        """The events of the last recording."""
        if self.profiler is None:
            raise AssertionError("Expected profiling results")
        recorded = self.profiler.function_events
        if recorded is None:                         # prepared, never recorded
            recorded = EventList()
        if self._earlier_events:
            return EventList(self._earlier_events + list(recorded))
        return recorded

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """The last recording's events averaged by name (see `EventList.key_averages`)."""
        return self.events().key_averages(group_by_input_shape, group_by_stack_n,
                                          group_by_overload_name)

    def export_chrome_trace(self, path: str) -> None:
        """Write the last recording to `path` as a chrome-trace JSON file (gzipped
        when `path` ends in ``.gz``), with its trace id and the metadata added."""
        write_chrome_trace(self.events(), path, {"trace_id": self._trace_id, **self._metadata})

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        """Write the stacks of the last recording (see the autograd profile's)."""
        if self.profiler is None:
            raise AssertionError("Expected profiling results")
        self.profiler.export_stacks(path, metric)

    def export_memory_timeline(self, path: str, device: str | None = None) -> None:
        """Write a timeline of memory use: this profiler records no memory events."""
        if not (self.record_shapes and self.profile_memory and self.with_stack):
            raise ValueError("record_shapes=True, profile_memory=True, with_stack=True "
                             "required for memory profiling.")
        raise RuntimeError("glasstorch's profiler records no memory events, so it has no "
                           "memory timeline to export")

    def toggle_collection_dynamic(self, enable: bool, activities: Iterable) -> None:
        """Pause (False) or resume (True) recording the given activities."""
        if self.profiler is not None:
            self.profiler.toggle_collection_dynamic(enable, activities)

    def set_custom_trace_id_callback(self, callback: Callable) -> None:
        """Name each recording's trace with ``callback()`` instead of a random id."""
        self._trace_id_callback = callback

    def get_trace_id(self) -> str | None:
        """The id of the current recording's trace."""
        return self._trace_id

    def add_metadata(self, key: str, value: str) -> None:
        """Attach a string to the trace."""
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Attach a JSON value (given as text) to the trace."""
        self._metadata[key] = value

    def preset_metadata_json(self, key: str, value: str) -> None:
        """Attach a JSON value to the trace before it starts."""
        self._metadata[key] = value


class profile(_KinetoProfile):
    """Profile a program step by step: a context manager recording every operator call
    (its name, CPU time and, with ``record_shapes``, its input shapes).

    Args:
        activities: the `ProfilerActivity` kinds to record (the CPU's).
        schedule: a function from step number to `ProfilerAction` (see `schedule`);
            None records every step.
        on_trace_ready: called with the profiler when a recording ends
            (`tensorboard_trace_handler` writes it to a file).
        record_shapes, profile_memory, with_stack, with_flops, with_modules: as for
            `_KinetoProfile`.

    Example::

        >>> with torch.profiler.profile(record_shapes=True) as prof:
        ...     model(x).sum().backward()
        >>> print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))
    """

    def __init__(self, *, activities: Iterable | None = None, schedule: Callable | None = None,
                 on_trace_ready: Callable | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_flops: bool = False, with_modules: bool = False,
                 experimental_config=None, execution_trace_observer=None,
                 acc_events: bool = False, use_cuda: bool | None = None,
                 custom_trace_id_callback=None) -> None:
        super().__init__(activities=activities, record_shapes=record_shapes,
                         profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules,
                         experimental_config=experimental_config, acc_events=acc_events,
                         custom_trace_id_callback=custom_trace_id_callback)
        self.record_steps = schedule is not None
        self.schedule = schedule if schedule is not None else _always_record
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.step_rec_fn = None

    def __enter__(self) -> "profile":
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.stop()

    def start(self) -> None:
        """Begin the profiled steps (the first is step 0)."""
        self._transit(ProfilerAction.NONE, self.current_action)
        self._open_step()

    def stop(self) -> None:
        """End the profiled steps, handing a recording in progress on."""
        self._close_step()
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the start of the next step: the schedule decides what it does."""
        self._close_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)
        self._open_step()

    def _open_step(self) -> None:
        if self.record_steps:
            self.step_rec_fn = autograd_profiler.record_function(f"ProfilerStep#{self.step_num}")
            self.step_rec_fn.__enter__()

    def _close_step(self) -> None:
        if self.step_rec_fn is not None:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None

    def _transit(self, previous: ProfilerAction, current) -> None:
        """Do what moving from action `previous` to `current` (None: stopping) means,
        as torch's profiler does: the steps of `_TRANSITIONS` in order."""
        for step in _TRANSITIONS.get((previous, current), ()):
            if step == "warn":
                warnings.warn(f"Incorrect schedule: {previous.name} followed by "
                              f"{current.name}")
            elif step == "ready":
                if self.on_trace_ready is not None:
                    self.on_trace_ready(self)
            else:
                getattr(self, step)()


_NONE, _WARMUP = ProfilerAction.NONE, ProfilerAction.WARMUP
_RECORD, _SAVE = ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE
_RESTART = ("stop_trace", "ready", "prepare_trace", "start_trace")
# (action before, action now) -> what to do; a pair not listed does nothing. Stopping
# the profiler is a move to None.
_TRANSITIONS = {
    (_NONE, _WARMUP): ("prepare_trace",),
    (_NONE, _RECORD): ("prepare_trace", "start_trace"),
    (_NONE, _SAVE): ("prepare_trace", "start_trace"),
    (_WARMUP, _NONE): ("warn", "start_trace", "stop_trace"),
    (_WARMUP, _RECORD): ("start_trace",),
    (_WARMUP, _SAVE): ("start_trace",),
    (_RECORD, _NONE): ("warn", "stop_trace"),
    (_RECORD, _WARMUP): ("warn", "stop_trace"),
    (_SAVE, _NONE): ("stop_trace", "ready"),
    (_SAVE, _WARMUP): ("stop_trace", "ready", "prepare_trace"),
    (_SAVE, _RECORD): _RESTART,
    (_SAVE, _SAVE): _RESTART,
    (_WARMUP, None): ("start_trace", "stop_trace"),
    (_RECORD, None): ("stop_trace", "ready"),
    (_SAVE, None): ("stop_trace", "ready"),
}


class ExecutionTraceObserver:
    """torch's execution-trace recorder (a graph of the operators run, for replay).
    glasstorch does not write execution traces: registering one raises."""

    def __init__(self) -> None:
        self._registered = False

    def register_callback(self, output_file_path: str):
        """Start writing an execution trace to `output_file_path`: not available."""
        raise RuntimeError("glasstorch does not record execution traces "
                           "(torch.profiler.ExecutionTraceObserver)")

    def is_registered(self) -> bool:
        """Whether a trace is being written (never here)."""
        return self._registered

    def unregister_callback(self) -> None:
        """Stop writing the trace."""

    def cleanup(self) -> None:
        """Forget the trace."""
