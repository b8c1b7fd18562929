"""torch.backends.mha: the fast path of nn.MultiheadAttention in inference."""
from __future__ import annotations

_FASTPATH = [True]


def get_fastpath_enabled() -> bool:
    """Whether MultiheadAttention may take its inference fast path."""
    return _FASTPATH[0]


def set_fastpath_enabled(value: bool) -> None:
    """Allow or forbid MultiheadAttention's inference fast path."""
    _FASTPATH[0] = value
