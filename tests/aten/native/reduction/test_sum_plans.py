"""The short sums' plans (`cascade_short.py`) add as the general kernel of Note [Cascade
sum order] that they shortcut, on any CPU: every chunk, tail and left-over row."""
import numpy as np
from hypothesis import given, settings, strategies as st

from glasstorch.aten.native.reduction import cascade, cascade_short


def _values(rows: int, columns: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(rows * 1000 + columns)
    return (rng.standard_normal((rows, columns)) * 10).astype(dtype)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(rows=st.integers(1, cascade_short.SHORT - 1), columns=st.integers(2, 140),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_columns_plan_adds_as_the_block_kernel(rows, columns, dtype):
    values = _values(rows, columns, dtype)
    grouped = cascade._grouped(columns, columns, 1, cascade.vector_lanes(values.itemsize))
    summed = np.empty(columns, dtype)
    cascade_short.columns_plan(rows, columns, grouped)(values, summed)
    assert summed.tobytes() == (cascade._block(values, columns, 1) + 0.0).tobytes()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(rows=st.integers(2, 70), columns=st.integers(4, 600),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_rows_and_whole_plans_add_as_the_vector_kernel(rows, columns, dtype):
    lanes = cascade.vector_lanes(np.dtype(dtype).itemsize)
    values = _values(rows, max(columns, lanes), dtype)
    columns = values.shape[1]
    summed = np.empty(rows, dtype)
    cascade_short.rows_plan(rows, columns, lanes)(values, summed)
    assert summed.tobytes() == (cascade._inner_rows(values.T) + 0.0).tobytes()
    flat = values.reshape(-1)[:cascade_short.SHORT * 4 * lanes - 1]     # the plan's reach
    whole = np.empty((), dtype)
    cascade_short.whole_plan(flat.size, lanes)(flat, whole)
    assert whole.tobytes() == (cascade._inner_rows(flat) + 0.0).tobytes()
