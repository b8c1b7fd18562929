"""The DataLoader's machinery: collating, fetching, and the worker processes."""
import sys

from . import collate, fetch, worker  # noqa: F401
from .worker import MP_STATUS_CHECK_INTERVAL, ExceptionWrapper  # noqa: F401

IS_WINDOWS = sys.platform == "win32"
HAS_NUMPY = True        # glasstorch depends on NumPy
