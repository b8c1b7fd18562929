"""Helpers for comparing torch.utils.data results of glasstorch and torch: anything made
of tensors and containers becomes plain Python data, with each tensor's dtype and shape."""
import numpy as np


def plain(value):
    """`value` as plain data: a tensor becomes ("tensor", dtype name, shape, values);
    containers keep their type's name, so a list and a tuple differ."""
    if hasattr(value, "tolist") and hasattr(value, "dtype") and hasattr(value, "untyped_storage"):
        return ("tensor", str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist())
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, {key: plain(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(item) for item in value])
    return value


def batches(loader) -> list:
    """Every batch of one pass over `loader`, as plain data."""
    return [plain(batch) for batch in loader]
