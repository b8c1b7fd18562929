"""The short float sums of Note [Cascade sum order] as few NumPy calls as their order
allows (`cascade._plan` chooses them).

NumPy's reduction down axis 0 of a row-major block of several columns adds whole rows
in order, which is the kernel's order wherever it sums columns side by side; rows of a
block shorter than `SHORT` chunks of 16 need one level of the cascade at most. Each
short sum's last reduction starts from +0.0 (`initial`): a sum is -0.0 only when all
its terms are, so that zero changes the result as torch's closing ``+ 0.0`` does.
"""
from __future__ import annotations

import numpy as np

SHORT = 256         # chunks of 16 rows below which one level of the cascade suffices


def short_columns(shape: tuple, cascade: bool, x: np.ndarray, out: np.ndarray) -> bool:
    """cascade.py's `_block` of a row-major block whose columns are all one kind:
    cascades side by side (`cascade`) or four-way."""
    (_cascade_rows if cascade else _four_way_rows)(x.reshape(shape), out.reshape(-1))
    return True


def short_mixed_columns(shape: tuple, grouped: int, x: np.ndarray, out: np.ndarray) -> bool:
    """cascade.py's `_block` of a row-major block whose first `grouped` columns the
    kernel sums as cascades side by side and the rest four-way (a width that is not a
    whole number of four vectors: a (64, 100) bias gradient's)."""
    block, flat = x.reshape(shape), out.reshape(-1)
    _cascade_rows(block[:, :grouped], flat[:grouped])
    _four_way_rows(block[:, grouped:], flat[grouped:])
    return True


def short_rows(shape: tuple, lanes: int, x: np.ndarray, out: np.ndarray) -> bool:
    """cascade.py's `_inner_rows` of each row of a row-major matrix, on its transposed
    copy (the rows' elements then lie down axis 0, where NumPy adds in order)."""
    count, length = shape
    down = x.reshape(shape).T.copy()
    vectors = length // lanes
    whole = vectors * lanes
    rows = (down if whole == length else down[:whole]).reshape(vectors, -1)
    if vectors <= 4:          # up to four vectors the four-way sum adds them in order
        summed = np.add.reduce(rows, axis=0)
    else:
        summed = _four_way_rows(rows)
    summed = summed.reshape(lanes, count)
    if whole < length:
        summed = np.concatenate((down[whole:], summed))
    np.add.reduce(summed, 0, None, out.reshape(-1), False, 0.0)
    return True


def _four_way_rows(block: np.ndarray, out=None) -> np.ndarray:
    """cascade.py's `_four_way` of a row-major block of several columns, under
    4 * `SHORT` rows, into `out` (then starting from +0.0) if given."""
    rows = block.shape[0]
    whole = rows // 4 * 4
    if whole == 0:
        return _down(block, out)
    if whole == 4:
        parts = block[:4]
    elif whole == 8:                      # two steps of each cascade: one addition
        parts = block[:4] + block[4:8]
    else:
        parts = _cascade_rows(block[:whole].reshape(whole // 4, -1)).reshape(4, -1)
    if whole < rows:
        parts = np.concatenate((parts[:1], block[whole:], parts[1:]))
    return _down(parts, out)


def _cascade_rows(block: np.ndarray, out=None) -> np.ndarray:
    """cascade.py's `_cascade` of a row-major block of several columns, under `SHORT`
    chunks: the tail's sum plus the chunks' sums, into `out` (then starting from +0.0)
    if given."""
    chunks = block.shape[0] // 16
    if chunks == 0:
        return _down(block, out)
    whole = chunks * 16
    if chunks == 1:                       # one chunk: its rows in order
        if whole == block.shape[0]:
            return _down(block, out)
        rest = np.add.reduce(block[:whole], axis=0)
    else:
        rest = np.add.reduce(block[:whole].reshape(chunks, 16, -1), axis=1)
        if whole == block.shape[0]:
            return _down(rest, out)
        rest = np.add.reduce(rest, axis=0)
    return np.add(np.add.reduce(block[whole:], 0, None, None, False, 0.0), rest, out=out)


def _down(block: np.ndarray, out=None) -> np.ndarray:
    """The rows of `block` added in order; into `out` starting from +0.0 if given, the
    first two rows as one addition otherwise (cheaper than a reduction)."""
    if out is not None:
        return np.add.reduce(block, 0, None, out, False, 0.0)
    if block.shape[0] <= 2:
        return block[0] + block[1] if block.shape[0] == 2 else block[0]
    return np.add.reduce(block, axis=0)


def whole_short(lanes: int, x: np.ndarray, out: np.ndarray) -> bool:
    """cascade.py's `_inner_rows` of a short contiguous input summed to one value."""
    flat = x.reshape(-1)
    whole = flat.size // lanes * lanes
    summed = _four_way_rows(flat[:whole].reshape(-1, lanes))
    if whole < flat.size:
        summed = np.concatenate((flat[whole:], summed))
    out[...] = np.add.accumulate(summed)[-1] + 0.0
    return True
