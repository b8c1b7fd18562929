"""Moving tensors between glasstorch, NumPy, meta and real torch, and comparing them.

A tensor moves with its exact geometry: `storage_view` reads its whole storage as a
flat tensor, and `rebuild` lays the same sizes, strides and storage offset over a
new flat tensor (`as_strided`), on meta or in torch. So a sample that is transposed,
strided with an offset or expanded stays exactly that wherever it runs (``x.to('meta')``
would not: it copies, dropping the storage offset and any non-dense layout).
"""
from __future__ import annotations

import importlib
from functools import lru_cache

import ml_dtypes
import numpy as np

import glasstorch as gt


def dtype_name(value) -> str:
    """``torch.float32`` -> ``'float32'`` (dtypes, memory formats, layouts)."""
    return str(value).removeprefix("torch.")


@lru_cache(maxsize=None)
def numpy_dtype(dtype) -> np.dtype:
    """The NumPy dtype of the same name (ml_dtypes provides bfloat16 and float8)."""
    name = dtype_name(dtype)
    return np.dtype(getattr(ml_dtypes, name, name))


def storage_view(t):
    """The whole storage of `t` as a flat tensor of `t`'s dtype (works for torch too)."""
    count = t.untyped_storage().nbytes() // t.element_size()
    return t.as_strided((count,), (1,), 0)


def rebuild(t, flat):
    """`t`'s geometry (sizes, strides, offset) over the flat tensor `flat`."""
    return flat.as_strided(tuple(t.shape), t.stride(), t.storage_offset())


def to_meta(t):
    """`t` on the meta device, with the same sizes, strides and storage offset."""
    count = t.untyped_storage().nbytes() // t.element_size()
    return rebuild(t, gt.empty(count, dtype=t.dtype, device="meta"))


def to_numpy(t) -> np.ndarray:
    """The values of a glasstorch or torch tensor as an ndarray (any dtype; for
    glasstorch it views the tensor's memory)."""
    dtype = numpy_dtype(t.dtype)
    if isinstance(t, gt.Tensor):
        t = t.resolve_conj().resolve_neg()          # a lazy conjugate / negation: its values
        if dtype.kind in "biufc":
            return t.numpy()
        bits = getattr(gt, f"int{8 * dtype.itemsize}")     # NumPy has no bfloat16
        return t.view(bits).numpy().view(dtype)
    torch = _torch_module(t)
    flat = t.detach().reshape(-1).clone(memory_format=torch.contiguous_format)
    flat = flat.view(torch.uint8)
    return flat.numpy().view(dtype).reshape(tuple(t.shape))


def _torch_module(t):
    return importlib.import_module(type(t).__module__.split(".")[0])


def to_torch(value, torch):
    """Convert glasstorch tensors (same bytes, same geometry), dtypes, devices, memory
    formats and layouts inside `value` to their real-torch counterparts."""
    if isinstance(value, gt.Tensor):
        dtype = getattr(torch, dtype_name(value.dtype))
        if value.device.type == "meta":
            count = value.untyped_storage().nbytes() // value.element_size()
            return rebuild(value, torch.empty(count, dtype=dtype, device="meta"))
        data = np.array(to_numpy(storage_view(value))).view(np.uint8)
        return rebuild(value, torch.from_numpy(data).view(dtype))
    if isinstance(value, (gt.dtype, gt.memory_format, gt.layout)):
        return getattr(torch, dtype_name(value))
    if isinstance(value, gt.device):
        return torch.device(str(value))
    if isinstance(value, (tuple, list)):
        return type(value)(to_torch(v, torch) for v in value)
    if isinstance(value, dict):
        return {k: to_torch(v, torch) for k, v in value.items()}
    return value


# ----------------------------------------------------------------------------------
# Comparing
# ----------------------------------------------------------------------------------
TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
              "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
              "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def assert_values(actual, expected, dtype_name: str = "", exact: bool = False) -> None:
    """Same shape and values (NaNs equal); floats within torch's default tolerances."""
    actual = _as_array(actual)
    expected = _as_array(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    if np.array_equal(actual, expected, equal_nan=actual.dtype.kind in "fc"):
        return
    tolerance = None if exact else TOLERANCES.get(dtype_name)
    if tolerance is None:
        np.testing.assert_array_equal(actual, expected)          # explains the mismatch
    elif not np.allclose(actual, expected, *tolerance, equal_nan=True):
        np.testing.assert_allclose(actual, expected, *tolerance, equal_nan=True)


def _as_array(value) -> np.ndarray:
    array = to_numpy(value) if hasattr(value, "dtype") and hasattr(value, "stride") \
        else np.asarray(value)
    if array.dtype.kind not in "biufc":          # bfloat16 / float8 (ml_dtypes)
        with np.errstate(invalid="ignore"):     # NaN bit patterns from view(dtype)
            array = array.astype(np.float64)
    return array


def dtype_of(array) -> "gt.dtype":
    """The glasstorch dtype of an ndarray."""
    return _dtype_named(np.asarray(array).dtype)


@lru_cache(maxsize=None)
def _dtype_named(dtype: np.dtype) -> "gt.dtype":
    return getattr(gt, dtype.name)


def snapshot(sample) -> list:
    """What a failing call must leave unchanged: each tensor's values (none on meta),
    geometry and version."""
    return [(None if t.device.type == "meta" else np.array(to_numpy(t)), tuple(t.shape),
             t.stride(), t.storage_offset(), t._version) for t in sample.tensors()]


def assert_unchanged(before: list, sample) -> None:
    for (values, *geometry), now in zip(before, snapshot(sample)):
        assert tuple(geometry) == now[1:], f"a failing call changed {geometry} into {now[1:]}"
        if values is not None:
            np.testing.assert_array_equal(now[0], values, "a failing call wrote to its input")
