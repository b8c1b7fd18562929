"""torch.backends.cpu: what the CPU offers."""
from __future__ import annotations

import numpy as np

__all__ = ["get_cpu_capability"]

_AVX512 = ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")


def get_cpu_capability() -> str:
    """The widest vector instruction set torch's CPU kernels would use here: ``"AVX512"``,
    ``"AVX2"`` or ``"DEFAULT"`` (read from the features NumPy detected).

    Example::

        >>> torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "DEFAULT")
        True
    """
    features = np._core._multiarray_umath.__cpu_features__
    if all(features.get(name) for name in _AVX512):
        return "AVX512"
    if features.get("AVX2") and features.get("FMA3"):
        return "AVX2"
    return "DEFAULT"
