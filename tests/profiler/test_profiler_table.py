"""`key_averages()` and `table()`: the same events give torch's table, character for
character (differential: the events are built by hand with fixed times in both)."""
import pytest

from glasstorch.autograd import profiler_util as ours

# (name, overload, start us, end us, parent index, input shapes)
EVENTS = [
    ("forward", "", 0.0, 1500.0, None, []),
    ("aten::linear", "", 10.0, 910.0, 0, [[2, 4], [3, 4], [3]]),
    ("aten::addmm", "default", 20.0, 820.0, 1, [[3], [2, 4], [4, 3], [], []]),
    ("aten::relu", "", 1000.0, 1020.5, 0, [[2, 3]]),
    ("aten::linear", "", 1100.0, 1400.0, 0, [[2, 3], [1, 3], [1]]),
    ("a_very_long_region_name_that_is_wider_than_the_name_column_allows", "",
     2000.0, 2_002_000.0, None, []),
]


def _events(module, **extra):
    """The events of EVENTS; torch's EventList finds the parents from the times itself."""
    events = []
    for i, (name, overload, start, end, parent, shapes) in enumerate(EVENTS):
        event = module.FunctionEvent(i, name, 1, start, end, overload_name=overload,
                                     input_shapes=shapes, stack=[], **extra)
        if parent is not None and module is ours:
            events[parent].append_cpu_child(event)
            event.set_cpu_parent(events[parent])
        events.append(event)
    result = module.EventList(events)
    if module is not ours:
        result._build_tree()
    return result


def _tables(events):
    averages = events.key_averages()
    return [averages.table(), averages.table(sort_by="self_cpu_time_total", row_limit=3),
            events.key_averages(group_by_input_shapes=True).table(sort_by="cpu_time_total"),
            averages.table(time_unit="ms", header="HEADER", top_level_events_only=True),
            events.table(max_name_column_width=20),
            events.key_averages(group_by_overload_name=True).table()]


def test_tables_match_torch():
    torch_util = pytest.importorskip("torch.autograd.profiler_util")
    theirs = _tables(_events(torch_util, use_device=None))
    for mine, expected in zip(_tables(_events(ours)), theirs):
        assert mine == expected


def test_averages_add_counts_and_times():
    averages = _events(ours).key_averages()
    linear = next(a for a in averages if a.key == "aten::linear")
    assert linear.count == 2
    assert linear.cpu_time_total == 1200.0
    assert linear.self_cpu_time_total == 1200.0 - 800.0
    assert linear.cpu_time == 600.0
    assert [a.key for a in averages][:3] == ["forward", "aten::linear", "aten::addmm"]
    assert _events(ours).total_average().count == len(EVENTS)


def test_empty_table_is_empty():
    assert ours.EventList().table() == ""
