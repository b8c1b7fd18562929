"""The table `EventList.table()` prints, in the layout of torch's profiler tables:
right-aligned columns two spaces apart, a dashed rule above and below the header and
at the end, then the total self time."""
from __future__ import annotations

_COLUMN = 12
_SPACING = 2
_UNITS = {"s": (1e6, "s"), "ms": (1e3, "ms"), "us": (1.0, "us")}


def format_time(time_us: float) -> str:
    """A time as torch's tables print it: in s, ms or us with three decimals."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _share(time_us: float, total_us: float) -> str:
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


def _time(time_us: float, time_unit) -> str:
    if time_unit in _UNITS:
        scale, suffix = _UNITS[time_unit]
        return f"{time_us / scale:.3f}{suffix}"
    return format_time(time_us)


def _memory(nbytes: int) -> str:
    for scale, unit in ((1024 ** 3, "GB"), (1024 ** 2, "MB"), (1024, "KB")):
        if abs(nbytes) >= scale:
            return f"{nbytes / scale:.2f} {unit}"
    return f"{nbytes} b"


def _has_overloads(events) -> bool:
    return any(e.overload_name for e in events)


def _columns(events, max_name: int, max_shapes: int, profile_memory: bool) -> tuple:
    """(headers, widths) of the table's columns."""
    name_width = max(len(e.key) for e in events) + 4
    if max_name is not None:
        name_width = min(name_width, max_name)
    names = ["Name", "Overload Name"] if _has_overloads(events) else ["Name"]
    headers = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers = names + headers + ["# of Calls"]
    widths = [name_width] * len(names) + [_COLUMN] * (len(headers) - len(names))
    if any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events):
        shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
        if max_shapes is not None:
            shapes_width = min(shapes_width, max_shapes)
        headers.append("Input Shapes")
        widths.append(shapes_width)
    return headers, widths


def _cut(name: str, max_name: int) -> str:
    if max_name is not None and len(name) >= max_name - 3:
        return name[:max_name - 3] + "..."
    return name


def _row(event, total_us: float, widths: list, max_name: int, profile_memory: bool,
         time_unit, overloads: bool) -> list:
    values = [_cut(event.key, max_name)]
    if overloads:
        values.append(_cut(event.overload_name, max_name))
    values += [_share(event.self_cpu_time_total, total_us),
              _time(event.self_cpu_time_total, time_unit),
              _share(event.cpu_time_total, total_us),
              _time(event.cpu_time_total, time_unit), _time(event.cpu_time, time_unit)]
    if profile_memory:
        values += [_memory(event.cpu_memory_usage), _memory(event.self_cpu_memory_usage)]
    values.append(event.count)
    if len(values) < len(widths):
        values.append(str(event.input_shapes)[:widths[-1]])
    return values


def build_table(events, sort_by=None, row_limit: int = 100, max_name_column_width=55,
                max_shapes_column_width=80, header=None, profile_memory: bool = False,
                top_level_events_only: bool = False, time_unit=None) -> str:
    """The table of `events` (events or averages); '' when there are none."""
    if len(events) == 0:
        return ""
    if sort_by is not None:
        attribute = sort_by.replace("cuda", "device").replace("xpu", "device")
        events = sorted(events, key=lambda e: getattr(e, attribute), reverse=True)
    headers, widths = _columns(events, max_name_column_width, max_shapes_column_width,
                               profile_memory)
    row_format = "".join("{: >" + str(w) + "}" + " " * _SPACING for w in widths)
    rule = "".join("-" * w + " " * _SPACING for w in widths)
    line_length = sum(widths) + _SPACING * (len(widths) - 1)
    total_us = sum(e.self_cpu_time_total for e in events)
    overloads = _has_overloads(events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [rule, row_format.format(*headers), rule]
    shown = 0
    for event in events:
        if shown == row_limit:
            break
        if top_level_events_only and event.cpu_parent is not None:
            continue
        shown += 1
        lines.append(row_format.format(*_row(event, total_us, widths, max_name_column_width,
                                             profile_memory, time_unit, overloads)))
    lines += [rule, f"Self CPU time total: {_time(total_us, time_unit)}"]
    return "\n".join(lines) + "\n"
