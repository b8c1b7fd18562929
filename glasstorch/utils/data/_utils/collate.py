"""Collating: a list of samples becomes one batch; converting: NumPy data becomes tensors.

`collate` walks the first sample's structure and finds a function for each leaf type in
a table (`default_collate_fn_map`); containers (dicts, namedtuples, sequences) are
rebuilt around the collated leaves. A caller extends the table (or passes their own) to
collate types of their own, as with torch's.
"""
import collections.abc
import copy
import re
from typing import Callable, Optional

import numpy as np

import glasstorch as torch

# NumPy dtype kinds that cannot become tensors: bytes, strings and objects.
np_str_obj_array_pattern = re.compile("[SaUO]")

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, "
                                  "numbers, dicts or lists; found {}")

CollateMap = dict      # type (or tuple of types) -> function collating a list of them


def _rebuild_mapping(data, values: dict):
    """`data`'s mapping type holding `values`, or a plain dict when it cannot be rebuilt."""
    try:
        if isinstance(data, collections.abc.MutableMapping):
            clone = copy.copy(data)
            clone.update(values)
            return clone
        return type(data)(values)
    except TypeError:
        return values


def _rebuild_sequence(data, values: list):
    """`data`'s sequence type holding `values`, or a plain list when it cannot be rebuilt."""
    try:
        if isinstance(data, collections.abc.MutableSequence):
            clone = copy.copy(data)
            for i, value in enumerate(values):
                clone[i] = value
            return clone
        return type(data)(values)
    except TypeError:
        return values


def _is_numpy_convertible(data) -> bool:
    kind = type(data)
    if kind.__module__ != "numpy" or kind.__name__ in ("str_", "string_"):
        return False
    return not (kind is np.ndarray and np_str_obj_array_pattern.search(data.dtype.str))


def default_convert(data):
    """Turn the NumPy arrays and scalars inside `data` into tensors, keeping the rest.

    The loader's ``collate_fn`` when batching is off (``batch_size=None``). Mappings,
    namedtuples and sequences are rebuilt around their converted items (a plain tuple
    becomes a list); arrays of strings or objects stay as they are.

    Args:
        data: a sample.

    Returns:
        the sample with NumPy data converted.

    Example::

        >>> default_convert((np.array([1, 2]), "a"))
        [tensor([1, 2]), 'a']
    """
    if isinstance(data, torch.Tensor):
        return data
    if _is_numpy_convertible(data):
        return torch.as_tensor(data)
    if type(data).__module__ == "numpy" and isinstance(data, np.ndarray):
        return data
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(item) for item in data])
    return data


def _leaf_function(elem, collate_fn_map: Optional[CollateMap]):
    """The table's function for `elem`'s type: an exact entry first, then the first
    entry `elem` is an instance of."""
    if collate_fn_map is None:
        return None
    if type(elem) in collate_fn_map:
        return collate_fn_map[type(elem)]
    for kind, function in collate_fn_map.items():
        if isinstance(elem, kind):
            return function
    return None


def collate(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Collate `batch` (a list of samples of one structure) by `collate_fn_map`.

    Args:
        batch (list): the samples.
        collate_fn_map (dict, optional): type (or tuple of types) -> function collating
            a list of such leaves, called with ``collate_fn_map=`` as well.

    Returns:
        the batch, with the samples' structure around collated leaves.
    """
    elem = batch[0]
    leaf = _leaf_function(elem, collate_fn_map)
    if leaf is not None:
        return leaf(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {key: collate([sample[key] for sample in batch],
                                                    collate_fn_map=collate_fn_map)
                                       for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(collate(field, collate_fn_map=collate_fn_map)
                            for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(sample) == size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # each column stays the tuple zip makes: a column of strings is batched as it is
        columns = [collate(column, collate_fn_map=collate_fn_map) for column in zip(*batch)]
        return columns if isinstance(elem, tuple) else _rebuild_sequence(elem, columns)
    raise TypeError(default_collate_err_msg_format.format(type(elem)))


def collate_tensor_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Stack tensors along a new first dimension."""
    elem = batch[0]
    if getattr(elem, "is_nested", False):
        raise RuntimeError("Batches of nested tensors are not currently supported by the default "
                           "collate_fn; please provide a custom collate_fn to handle them "
                           "appropriately.")
    if elem.layout != torch.strided:
        raise RuntimeError("Batches of sparse tensors are not currently supported by the default "
                           "collate_fn; please provide a custom collate_fn to handle them "
                           "appropriately.")
    return torch.stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Arrays become tensors, then stack; arrays of strings or objects are refused."""
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([torch.as_tensor(array) for array in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """NumPy scalars become a 1-D tensor of their dtype."""
    return torch.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Python floats become a float64 tensor (as torch: a float is a double)."""
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Python ints (and bools) become an int64 (bool) tensor."""
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map: Optional[CollateMap] = None):
    """Strings and bytes stay as they are: the batch is their list."""
    return batch


default_collate_fn_map: CollateMap = {
    torch.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch: list):
    """The loader's default ``collate_fn``: a list of samples becomes one batch.

    Tensors stack along a new first dimension; NumPy arrays and scalars become tensors
    and stack; Python floats become a float64 tensor, ints an int64 one; strings and
    bytes stay a list; dicts, namedtuples and sequences are collated field by field
    (a sequence of tuples gives a list). Anything else raises TypeError.

    Args:
        batch (list): the samples, all of one structure.

    Returns:
        the batch.

    Example::

        >>> default_collate([{"x": 1, "y": "a"}, {"x": 2, "y": "b"}])
        {'x': tensor([1, 2]), 'y': ['a', 'b']}
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
