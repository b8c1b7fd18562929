"""Anomaly detection: find the forward operation behind a failing or NaN backward.

While it is on, every recorded node keeps the stack of the forward call that made it
(`metadata["traceback_"]`); if a node's backward raises, the engine first warns with
that stack, and with `check_nan` a node returning NaN raises naming itself.
"""
from __future__ import annotations

import threading
import warnings


class _State(threading.local):
    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True


_state = _State()


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on in this thread (`torch.is_anomaly_enabled`)."""
    return _state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection also checks backward results for NaN."""
    return _state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off in this thread (`torch.set_anomaly_enabled`).

    Args:
        enabled: on or off.
        check_nan: also raise when a backward node returns NaN.
    """
    _state.enabled, _state.check_nan = bool(enabled), bool(check_nan)


class set_detect_anomaly:
    """Turn anomaly detection on or off (at once, and for a `with` block).

    Args:
        mode (bool): on or off.
        check_nan (bool): also raise when a backward node returns NaN.
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = (_state.enabled, _state.check_nan)
        _state.enabled, _state.check_nan = mode, check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _state.enabled, _state.check_nan = self.prev


class detect_anomaly:
    """A context manager (and decorator) turning anomaly detection on inside it.

    Example::

        >>> with torch.autograd.detect_anomaly():
        ...     out = model(x)
        ...     out.backward()      # a NaN or an error names the forward call
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the "
                      "runtime and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        self.prev = (_state.enabled, _state.check_nan)
        _state.enabled, _state.check_nan = True, self.check_nan

    def __exit__(self, *exc) -> None:
        _state.enabled, _state.check_nan = self.prev

    def __call__(self, function):
        def wrapped(*args, **kwargs):
            with self:
                return function(*args, **kwargs)
        return wrapped


def record_stack(node) -> None:
    """Keep the forward call's stack on a node (only while anomaly mode is on)."""
    import traceback            # only anomaly mode needs it: not loaded at import
    node.metadata["traceback_"] = traceback.format_stack()[:-3]


def warn_forward_stack(node) -> None:
    stack = node.metadata.get("traceback_")
    if stack is None:
        warnings.warn(f"Error detected in {node.name()}. No forward pass information available."
                      f" Enable detect anomaly during forward pass for more information.")
        return
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused "
                  f"the error:\n{''.join(stack)}")


def check_nan(node, outputs: list) -> None:
    for index, grad in enumerate(outputs):
        if grad is not None and grad.isnan().any().item():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its "
                               f"{index}th output.")
