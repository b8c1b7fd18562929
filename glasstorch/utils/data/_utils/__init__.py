"""The DataLoader's machinery: collating, fetching, and the worker processes."""
from . import collate, fetch, worker  # noqa: F401
from .worker import MP_STATUS_CHECK_INTERVAL  # noqa: F401
