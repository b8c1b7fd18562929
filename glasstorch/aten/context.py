"""Process-wide settings of the operator library: ATen's `Context`.

torch keeps a handful of global switches in one object (``at::globalContext()``):
whether only deterministic algorithms may run, how precise float32 matrix products
must be, whether denormal numbers are flushed, and whether warnings that normally
fire once fire every time. glasstorch keeps them in `GLOBAL_CONTEXT`, with the torch
functions that read and write them (re-exported as ``torch.<name>``).
"""
from __future__ import annotations

import numpy as np


class Context:
    """The global switches; read them through the functions below."""

    __slots__ = ("deterministic", "deterministic_warn_only", "float32_matmul_precision",
                 "warn_always", "fill_uninitialized_memory", "sdp_enabled")

    def __init__(self) -> None:
        self.deterministic = False
        self.deterministic_warn_only = False
        self.float32_matmul_precision = "highest"
        self.warn_always = False
        self.fill_uninitialized_memory = True      # torch.utils.deterministic's switch
        # the kernels scaled_dot_product_attention may choose (torch.backends.cuda's
        # enable_*_sdp, torch.nn.attention.sdpa_kernel)
        self.sdp_enabled = {"flash": True, "mem_efficient": True, "math": True,
                            "cudnn": True}


GLOBAL_CONTEXT = Context()

_DEBUG_MODES = ("default", "warn", "error")
_MATMUL_PRECISIONS = ("highest", "high", "medium")


def _require_bool(value, function: str, argument: str, position: int | None) -> None:
    """torch's argument-parser refusal of a non-bool flag."""
    if type(value) is not bool:
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{function}(): argument '{argument}'{where} must be bool, not "
                        f"{type(value).__name__}")


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Allow only operators whose results are reproducible run to run.

    glasstorch's CPU kernels are all deterministic, so no operator refuses; the
    setting is kept and answered as torch answers it.

    Args:
        mode (bool): whether only deterministic algorithms may run.
        warn_only (bool): warn instead of raising for nondeterministic ones.

    Example::

        >>> torch.use_deterministic_algorithms(True)
        >>> torch.are_deterministic_algorithms_enabled()
        True
    """
    _require_bool(mode, "_set_deterministic_algorithms", "mode", 1)
    _require_bool(warn_only, "_set_deterministic_algorithms", "warn_only", None)
    GLOBAL_CONTEXT.deterministic = mode
    GLOBAL_CONTEXT.deterministic_warn_only = warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether `use_deterministic_algorithms(True)` is in force."""
    return GLOBAL_CONTEXT.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether deterministic mode only warns (``warn_only=True``)."""
    return GLOBAL_CONTEXT.deterministic_warn_only


def set_deterministic_debug_mode(debug_mode: int | str) -> None:
    """The deterministic setting as one value: 0 or ``"default"`` (off), 1 or
    ``"warn"`` (warn only), 2 or ``"error"`` (on).

    Example::

        >>> torch.set_deterministic_debug_mode("warn")
        >>> torch.get_deterministic_debug_mode()
        1
    """
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, "
                               f"`warn`, `error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """The deterministic setting as `set_deterministic_debug_mode` spells it (0, 1 or 2)."""
    if not GLOBAL_CONTEXT.deterministic:
        return 0
    return 1 if GLOBAL_CONTEXT.deterministic_warn_only else 2


def set_float32_matmul_precision(precision: str) -> None:
    """How precise float32 matrix products must be: ``"highest"``, ``"high"`` or
    ``"medium"``. glasstorch always computes at the highest; the setting is kept.

    An unknown name warns and changes nothing, as in torch.

    Example::

        >>> torch.set_float32_matmul_precision("high")
        >>> torch.get_float32_matmul_precision()
        'high'
    """
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in _MATMUL_PRECISIONS:
        import warnings
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    GLOBAL_CONTEXT.float32_matmul_precision = precision


def get_float32_matmul_precision() -> str:
    """The float32 matmul precision setting (``"highest"`` unless changed)."""
    return GLOBAL_CONTEXT.float32_matmul_precision


def set_flush_denormal(mode: bool) -> bool:
    """Ask for denormal floats to be flushed to zero.

    NumPy offers no control of the CPU's denormal mode, so glasstorch cannot
    configure it: as torch does on a CPU without the feature, this returns False.

    Args:
        mode (bool): whether to flush denormals.

    Returns:
        bool: whether the mode was configured (always False here).
    """
    if type(mode) is not bool:
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


def set_warn_always(b: bool) -> None:
    """Make warnings that fire once per process fire every time (useful in tests)."""
    if type(b) is not bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    GLOBAL_CONTEXT.warn_always = b


def is_warn_always_enabled() -> bool:
    """Whether `set_warn_always(True)` is in force."""
    return GLOBAL_CONTEXT.warn_always


_WARNED: set = set()       # the once-per-process warnings already given


def warn_once(message: str, category: type = UserWarning, stacklevel: int = 2) -> None:
    """torch's TORCH_WARN_ONCE: warn the first time only, unless `set_warn_always(True)`."""
    if GLOBAL_CONTEXT.warn_always or message not in _WARNED:
        _WARNED.add(message)
        import warnings
        warnings.warn(message, category, stacklevel=stacklevel + 1)


def fill_uninitialized(out: np.ndarray) -> None:
    """In deterministic mode torch fills the memory factories leave uninitialised
    (`empty`, `resize_`'s new elements) with NaN, or an integer type's largest value
    (True for bool), so results cannot depend on what was there before; otherwise
    this does nothing. ``torch.utils.deterministic.fill_uninitialized_memory = False``
    turns it off."""
    if not (GLOBAL_CONTEXT.deterministic and GLOBAL_CONTEXT.fill_uninitialized_memory):
        return
    if out.dtype.kind in "biu":
        out.fill(True if out.dtype.kind == "b" else np.iinfo(out.dtype).max)
    else:
        out.fill(np.nan)
