"""torch.nn._reduction: the loss functions' `reduction` strings and the legacy flags.

A loss's reduction reaches the operators as ATen's enum (Note [Loss reductions] in
`aten/native/nn/loss_regression.py`): 'none' 0, 'mean' 1, 'sum' 2. The deprecated pair
``size_average`` / ``reduce`` maps onto the same three choices, with a warning.
"""
from __future__ import annotations

import warnings

_ENUM = {"none": 0, "mean": 1, "sum": 2}


def get_enum(reduction: str) -> int:
    """The enum of a reduction string; 'elementwise_mean' is the old name of 'mean'.

    Raises:
        ValueError: for any other string.
    """
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use "
                      "reduction='mean' instead.", stacklevel=2)
        return 1
    if reduction not in _ENUM:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _ENUM[reduction]


def legacy_get_string(size_average: bool | None, reduce: bool | None,
                      emit_warning: bool = True) -> str:
    """The reduction string the legacy flags stand for (each defaults to True):
    ``reduce=False`` is 'none', else ``size_average=False`` is 'sum', else 'mean'."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        chosen = "mean"
    elif reduce:
        chosen = "sum"
    else:
        chosen = "none"
    if emit_warning:
        warnings.warn(f"size_average and reduce args will be deprecated, please use "
                      f"reduction='{chosen}' instead.", stacklevel=2)
    return chosen


def legacy_get_enum(size_average: bool | None, reduce: bool | None,
                    emit_warning: bool = True) -> int:
    """`get_enum` of `legacy_get_string`."""
    return get_enum(legacy_get_string(size_average, reduce, emit_warning))
