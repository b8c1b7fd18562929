"""Note [Storage made on first use]: a kernel's result gets its storage when asked, and
every way of asking gives one storage, over the memory the result already holds."""
import numpy as np

import glasstorch as torch
from glasstorch.c10.tensor_impl import forget_array, wrap_array


def fresh():
    """A result born from a kernel, its storage not made yet."""
    result = torch.arange(6, dtype=torch.float32) * 2
    assert result._storage_slot is None
    return result


def test_storage_is_made_once_and_kept():
    t = fresh()
    first = t.untyped_storage()
    assert t.untyped_storage() is first
    assert t._storage_slot is first


def test_views_share_the_storage_made_for_them():
    t = fresh()
    view = t[2:]
    assert view.untyped_storage() is t.untyped_storage()
    assert view.data_ptr() == t.data_ptr() + 2 * 4
    view.add_(1)                             # writes the result's own memory
    assert t.tolist() == [0.0, 2.0, 5.0, 7.0, 9.0, 11.0]


def test_the_storage_holds_the_results_memory():
    t = fresh()
    assert t.untyped_storage().nbytes() == 24
    assert t.data_ptr() == t.numpy().ctypes.data
    t.untyped_storage().fill_(0)
    assert t.tolist() == [0.0] * 6


def test_forgetting_the_array_keeps_the_values():
    t = fresh()
    forget_array(t)
    assert t._arr is None and t._storage_slot is not None
    assert t.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]


def test_geometry_changes_of_a_fresh_result_keep_its_values():
    t = fresh().view(2, 3) + 0             # fresh 2x3
    t.t_()
    assert t.tolist() == [[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]]
    grown = fresh()
    grown.resize_(8)
    assert grown[:6].tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    shared = fresh()
    shared.share_memory_()
    assert shared.is_shared() and shared.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]


def test_set_and_data_take_a_fresh_results_storage():
    source = fresh()
    target = torch.zeros(1)
    target.set_(source)
    assert target.untyped_storage() is source.untyped_storage()
    other = fresh()
    holder = torch.zeros(6)
    holder.data = other
    assert holder.untyped_storage() is other.untyped_storage()


def test_wrap_array_takes_the_strides_it_is_given():
    arr = np.zeros((2, 3), np.float32)
    t = wrap_array(arr, torch.float32, (3, 1))
    assert t.stride() == (3, 1) and t.untyped_storage().nbytes() == 24


def test_sharing_is_answered_without_making_storages():
    a, b = fresh(), fresh()
    from glasstorch.c10.tensor_impl import share_storage
    assert not share_storage(a, b) and share_storage(a, a)
    assert a._storage_slot is None and b._storage_slot is None
    view = a[1:]
    assert share_storage(a, view) and share_storage(view, a)
    a.add_(b)                      # in place, a fresh operand: no storage made for it
    assert b._storage_slot is None
