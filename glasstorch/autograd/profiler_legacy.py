"""`torch.autograd.profiler_legacy`: torch's profiler from before Kineto. Here both are
the one profiler of profiler.py, which records the same events."""
from .profiler import profile

__all__ = ["profile"]
