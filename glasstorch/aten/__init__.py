"""ATen: every operator, declared once (see registry.py), dispatched by key (dispatcher.py)."""
from .dispatcher import ops  # noqa: F401
from .observers import dispatch_trace  # noqa: F401
from . import native  # noqa: F401  (importing the families registers their operators)
