"""`torch.profiler`: profile a program step by step and see where its time goes.

`profile` records every operator call (the dispatcher sees each one: Note [Dispatch
observers] in aten/observers.py), the backward nodes and the `record_function` regions,
following a `schedule` over the steps a training loop marks with ``prof.step()``, and
hands each finished recording to `on_trace_ready` (`tensorboard_trace_handler` writes it
as a chrome-trace JSON file). The events themselves are torch.autograd.profiler's.
"""
from ..autograd.profiler import (KinetoStepTracker, ProfilerActivity,  # noqa: F401
                                 _ExperimentalConfig, kineto_available, record_function)
from ..autograd.profiler_util import DeviceType
from .profiler import (ExecutionTraceObserver, ProfilerAction, RecordScope,  # noqa: F401
                       _KinetoProfile, is_fbcode, profile, register_optimizer_step_post_hook,
                       schedule, supported_activities, tensorboard_trace_handler)
from . import itt  # noqa: F401

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ProfilerActivity", "kineto_available", "DeviceType",
           "record_function", "ExecutionTraceObserver"]
