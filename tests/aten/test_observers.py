"""Dispatch observers (Note [Dispatch observers]): what they are told, and that nothing
is watched while none is on."""
import threading

import glasstorch as torch
from glasstorch.aten.observers import (DispatchObserver, Region, add_observer, enter_region,
                                       exit_region, remove_observer)
from glasstorch.c10.dispatch_key import local_keys


class Log(DispatchObserver):
    def __init__(self):
        self.lines = []

    def enter(self, op, name, args, keyset=0):
        self.lines.append(("enter", name, isinstance(op, Region)))
        return name

    def exit(self, token):
        self.lines.append(("exit", token))


def test_an_observer_sees_each_call_once_and_regions_around_them():
    x = torch.ones(2, 3)
    log = Log()
    add_observer(log)
    try:
        tokens = enter_region("block")
        x.sum()                                      # a call and its redispatches: once
        exit_region(tokens)
    finally:
        remove_observer(log)
    assert log.lines == [("enter", "block", True), ("enter", "aten::sum", False),
                         ("exit", "aten::sum"), ("exit", "block")]


def test_calls_are_unobserved_when_no_observer_is_on():
    assert local_keys.plain and not local_keys.observed
    log = Log()
    add_observer(log)
    remove_observer(log)
    torch.ones(2).neg()
    assert log.lines == [] and local_keys.plain
    assert enter_region("nothing listens") == ()


def test_observers_are_per_thread():
    log = Log()
    add_observer(log)
    try:
        worker = threading.Thread(target=lambda: torch.ones(2).neg())
        worker.start()
        worker.join()
    finally:
        remove_observer(log)
    assert log.lines == []


def test_a_trace_and_a_profile_watch_the_same_calls():
    x = torch.ones(3)
    with torch.profiler.profile() as prof, torch.dispatch_trace() as route:
        x.neg()
    assert [e.name for e in prof.events()] == ["aten::neg"]
    assert str(route).splitlines()[0] == "aten::neg  [ADInplaceOrView|CPU]"


def test_an_exception_inside_a_call_still_ends_it():
    log = Log()
    add_observer(log)
    try:
        try:
            torch.ones(2).view(3)
        except RuntimeError:
            pass
    finally:
        remove_observer(log)
    assert log.lines[-1] == ("exit", "aten::view")
