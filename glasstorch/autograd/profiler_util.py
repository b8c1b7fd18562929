"""`torch.autograd.profiler_util`: the events a profile records, their averages, the
table `key_averages().table()` prints and the chrome trace it writes.

Times are in microseconds (floats), as torch's are. A `FunctionEvent` is one operator
call or region, with its children (what ran inside it): its *self* time is its total
time less its children's.
"""
from __future__ import annotations

import enum
import gzip
import json
import os
from collections import namedtuple

from ._profiler_table import build_table, format_time

__all__ = ["DeviceType", "EventList", "FunctionEvent", "FunctionEventAvg", "Interval",
           "Kernel", "MEMORY_EVENT_NAME", "OUT_OF_MEMORY_EVENT_NAME"]

MEMORY_EVENT_NAME = "[memory]"
OUT_OF_MEMORY_EVENT_NAME = "[OutOfMemory]"

Kernel = namedtuple("Kernel", ["name", "device", "duration"])


class DeviceType(enum.IntEnum):
    """The device an event ran on (only CPU events are recorded here)."""

    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20


class Interval:
    """A time range ``[start, end]`` in microseconds."""

    def __init__(self, start: float, end: float) -> None:
        self.start = start
        self.end = end

    def elapsed_us(self) -> float:
        """The length of the range."""
        return self.end - self.start


class _FormattedTimes:
    """The ``*_str`` forms of an event's times, and the device times a CPU build has
    none of."""

    device_time_total = 0.0
    self_device_time_total = 0.0
    device_memory_usage = 0
    self_device_memory_usage = 0
    cpu_memory_usage = 0
    self_cpu_memory_usage = 0
    flops = 0
    node_id = -1
    is_async = False
    is_legacy = False
    use_device = None
    device_type = DeviceType.CPU

    @property
    def cpu_time(self) -> float:
        """The average total time of one call."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def device_time(self) -> float:
        return 0.0

    cuda_time = device_time

    @property
    def cpu_time_str(self) -> str:
        return format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return format_time(self.self_cpu_time_total)


class FunctionEvent(_FormattedTimes):
    """One recorded operator call or region.

    Args:
        id: a number unique within the profile.
        name: ``'aten::add'``, a `record_function` name, or a backward node's.
        thread: the id of the thread it ran on.
        start_us, end_us: when it began and ended.
        overload_name: the operator's overload (``'Tensor'``), '' for a region.
        input_shapes: the shape of each argument ([] for a non-tensor), when recorded.
        is_user_annotation: whether a `record_function` made it.
        scope: torch's record scope (1 for a backward node, 7 for `record_function`).
    """

    count = 1

    def __init__(self, id: int, name: str, thread: int, start_us: float, end_us: float,
                 overload_name: str = "", input_shapes=None, is_user_annotation=False,
                 sequence_nr: int = -1, stack=None, scope: int = 0) -> None:
        self.id = id
        self.name = name
        self.key = name
        self.overload_name = overload_name
        self.thread = thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.is_user_annotation = is_user_annotation
        self.sequence_nr = sequence_nr
        self.stack = stack if stack is not None else []
        self.scope = scope
        self.cpu_children: list = []
        self.cpu_parent = None
        self.trace_name = name

    @property
    def cpu_time_total(self) -> float:
        """The time from start to end, children included."""
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:
        """The time spent in this event and not in any of its children."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def append_cpu_child(self, child: "FunctionEvent") -> None:
        """Note `child` as an event that ran inside this one."""
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent: "FunctionEvent") -> None:
        """Note `parent` as the event this one ran inside."""
        self.cpu_parent = parent

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} overload_name="
                f"{self.overload_name} cpu_time={self.cpu_time_str} start_us="
                f"{self.time_range.start:.3f} end_us={self.time_range.end:.3f} "
                f"cpu_children={[c.id for c in self.cpu_children]} input_shapes="
                f"{self.input_shapes}>")


class FunctionEventAvg(_FormattedTimes):
    """The events of one key added up: call count and total times."""

    def __init__(self) -> None:
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.overload_name = None
        self.stack = None
        self.scope = None
        self.is_user_annotation = False
        self.cpu_parent = None
        self.cpu_children = None

    def add(self, other) -> "FunctionEventAvg":
        """Add an event (or another average) into this one; returns self."""
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.overload_name = other.overload_name
            self.stack = other.stack
            self.scope = other.scope
            self.is_user_annotation = other.is_user_annotation
            self.cpu_parent = other.cpu_parent
            self.cpu_children = other.cpu_children
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    __iadd__ = add

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str}"
                f" cpu_time={self.cpu_time_str} input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events (or of their averages) that prints as torch's table."""

    def __init__(self, *args, use_device=None, profile_memory: bool = False,
                 with_flops: bool = False) -> None:
        super().__init__(*args)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._with_flops = with_flops

    @property
    def self_cpu_time_total(self) -> float:
        """The self times of every event, added up."""
        return sum(event.self_cpu_time_total for event in self)

    def table(self, sort_by=None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header=None, top_level_events_only: bool = False, time_unit=None) -> str:
        """The events as torch's profiler table.

        Args:
            sort_by: an event attribute to sort by, largest first (``'cpu_time_total'``,
                ``'self_cpu_time_total'``, ``'count'``, ...); None keeps the order.
            row_limit: the most rows printed.
            header: a line printed above the table.
            top_level_events_only: only the events that ran inside no other.
            time_unit: ``'s'``, ``'ms'`` or ``'us'`` for every time; None picks per value.

        Returns:
            The table as a string.
        """
        return build_table(self, sort_by=sort_by, row_limit=row_limit,
                           max_name_column_width=max_name_column_width,
                           max_shapes_column_width=max_shapes_column_width,
                           header=header, profile_memory=self._profile_memory,
                           top_level_events_only=top_level_events_only, time_unit=time_unit)

    def __str__(self) -> str:
        return self.table()

    def key_averages(self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> "EventList":
        """The events averaged by name (and input shapes, stack, overload when asked),
        in the order each key first appears.

        Args:
            group_by_input_shapes: keep calls with different input shapes apart.
            group_by_stack_n: keep calls apart by their top n stack frames.
            group_by_overload_name: keep an operator's overloads apart.
        """
        averages: dict = {}
        for event in self:
            key = (event.key, str(event.input_shapes) if group_by_input_shapes else "",
                   tuple(event.stack[:group_by_stack_n]) if group_by_stack_n else (),
                   event.overload_name if group_by_overload_name else "")
            average = averages.get(key)
            if average is None:
                average = averages[key] = FunctionEventAvg()
            average.add(event)
            if not group_by_input_shapes:
                average.input_shapes = ""
            if not group_by_overload_name:
                average.overload_name = ""
        return EventList(averages.values(), use_device=self._use_device,
                         profile_memory=self._profile_memory, with_flops=self._with_flops)

    def total_average(self) -> FunctionEventAvg:
        """Every event added into one average keyed ``'Total'``."""
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
            total.key = None
        total.key = "Total"
        return total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a chrome-trace JSON file (open it in chrome://tracing
        or Perfetto)."""
        write_chrome_trace(self, path)


def write_chrome_trace(events, path: str, metadata: dict | None = None) -> None:
    """Write `events` to `path` in the trace-event format torch's profiler writes
    (gzipped when `path` ends in ``.gz``), with `metadata` as top-level entries."""
    pid = os.getpid()
    trace = []
    for event in events:
        args = {"External id": event.id}
        if event.input_shapes:
            args["Input Dims"] = event.input_shapes
        trace.append({"ph": "X", "cat": "user_annotation" if event.is_user_annotation
                      else "cpu_op", "name": event.name, "pid": pid, "tid": event.thread,
                      "ts": event.time_range.start, "dur": event.cpu_time_total,
                      "args": args})
    document = {"schemaVersion": 1, "deviceProperties": [], **(metadata or {}),
                "displayTimeUnit": "ms", "traceEvents": trace, "traceName": path}
    with (gzip.open(path, "wt") if path.endswith(".gz") else open(path, "w")) as f:
        json.dump(document, f)
