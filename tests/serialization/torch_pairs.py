"""Helpers of the serialization tests: moving objects between glasstorch and torch.

Values cross as NumPy arrays (bit patterns for the dtypes NumPy lacks), so a
comparison never goes through the code under test.
"""
import numpy as np

import glasstorch as gt

# dtype names both libraries store
DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32",
               "uint64", "float16", "bfloat16", "float32", "float64", "complex32",
               "complex64", "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
               "float8_e5m2fnuz", "float8_e8m0fnu"]


def bits_of_torch(tensor) -> np.ndarray:
    """The raw element bits of a torch tensor, as unsigned integers."""
    import torch
    if tensor.is_complex():
        tensor = torch.view_as_real(tensor.resolve_conj())
    width = tensor.element_size()
    unsigned = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[width]
    return tensor.contiguous().view(unsigned).numpy().view(f"u{width}")


def bits_of_glasstorch(tensor) -> np.ndarray:
    array = np.ascontiguousarray(tensor.detach()._np)
    width = array.dtype.itemsize // (2 if tensor.is_complex() else 1)
    return array.view(f"u{width}").reshape(bits_shape(tensor))


def bits_shape(tensor) -> tuple:
    return tuple(tensor.shape) + ((2,) if tensor.is_complex() else ())


def sample(torch, name: str, shape=(3, 4)):
    """A torch tensor of dtype `name` with varied values."""
    dtype = getattr(torch, name)
    values = torch.arange(int(np.prod(shape)), dtype=torch.float64).reshape(shape) / 3 - 1
    if name == "bool":
        return values > 0
    if dtype.is_complex:
        return torch.complex(values, -values).to(dtype)
    if name.startswith("uint") or name == "uint8":
        return (values * 3 + 5).abs().to(dtype)
    if not dtype.is_floating_point:
        return (values * 3).to(dtype)
    return values.to(dtype)


def assert_same(glass, ref) -> None:
    """`glass` (glasstorch) equals `ref` (torch): dtype, shape, strides, offset, bits."""
    assert str(glass.dtype) == str(ref.dtype)
    assert tuple(glass.shape) == tuple(ref.shape)
    assert tuple(glass.stride()) == tuple(ref.stride())
    assert glass.storage_offset() == ref.storage_offset()
    assert glass.requires_grad == ref.requires_grad
    np.testing.assert_array_equal(bits_of_glasstorch(glass), bits_of_torch(ref))


def to_glasstorch(ref):
    """A glasstorch copy of torch tensor `ref` with the same values (contiguous)."""
    dtype = getattr(gt, str(ref.dtype).split(".")[1])
    bits = bits_of_torch(ref.detach())
    array = np.ascontiguousarray(bits).view(dtype._np).reshape(tuple(ref.shape))
    return gt.from_numpy(array.copy()) if array.size else gt.empty(tuple(ref.shape), dtype=dtype)
