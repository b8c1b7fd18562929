"""Express entries of views (Note [View geometry cache] in aten/view_express.py): each
result, from the cache or from the rule, is the general path's: sizes, strides, offset,
base, version counter and view history, and the same errors."""
import pytest

import glasstorch as gt
from glasstorch.aten import view_express
from glasstorch.aten.dispatcher import OpOverload, OpOverloadPacket
from glasstorch.aten.registry import Alias
from glasstorch.aten.schema import parse_schema
from glasstorch.c10.dispatch_key import DispatchKey

aten = gt.ops.aten


def _sources():
    base = gt.arange(60.).reshape(3, 4, 5)
    return {"contiguous": base, "permuted": base.permute(2, 0, 1),
            "offset": base[1:], "selected": base[2]}


CALLS = [
    (aten.view.default, lambda x: ((-1,),)),
    (aten._reshape_alias.default, lambda x: ((x.numel(),), (1,))),
    (aten.transpose.int, lambda x: (0, -1)),
    (aten.permute.default, lambda x: (tuple(range(x.dim() - 1, -1, -1)),)),
    (aten.expand.default, lambda x: ((2,) + tuple(x.shape), False)),
    (aten.select.int, lambda x: (-1, 1)),
    (aten.slice.Tensor, lambda x: (0, 1, None, 2)),
    (aten.diagonal.default, lambda x: (1, 0, 1)),
    (aten.unfold.default, lambda x: (0, 2, 1)),
    (aten.unsqueeze.default, lambda x: (1,)),
    (aten.squeeze.default, lambda x: ()),
    (aten.squeeze.dim, lambda x: (0,)),
    (aten.squeeze.dims, lambda x: ((0, -1),)),
    (aten.alias.default, lambda x: ()),
]


def _facts(t):
    return (tuple(t.shape), t.stride(), t.storage_offset(), id(t._base), id(t._vc),
            t._creation_meta, t.requires_grad, t.grad_fn, t.data_ptr())


def _general(op, args):
    with gt.dispatch_trace(fast_paths=False):
        return op.general_entry(*args)


@pytest.mark.parametrize("source", list(_sources()))
@pytest.mark.parametrize("op, arguments", CALLS, ids=[op.name for op, _ in CALLS])
def test_express_view_is_the_general_paths_view(op, arguments, source):
    x = _sources()[source]
    if op is aten.view.default and not x.is_contiguous():
        x = x.contiguous()
    args = (x, *arguments(x))
    assert op.call is not op.general_entry
    first, again = op.call(*args), op.call(*args)          # from the rule, then the cache
    expected = _general(op, args)
    assert _facts(first) == _facts(expected) == _facts(again)
    assert first.tolist() == expected.tolist()


def test_cached_shift_follows_each_sources_offset():
    base = gt.arange(24.).reshape(2, 3, 4)
    for i in range(2):                                      # one geometry, two offsets
        view = base[i].select(1, 2)
        assert view.storage_offset() == 12 * i + 2 and view.tolist() == base[i, :, 2].tolist()


def _cache_of(op) -> dict:
    """The geometry cache an express view entry reads."""
    code = op.call.__code__
    return op.call.__closure__[code.co_freevars.index("cache")].cell_contents


def test_a_refused_call_raises_each_time_and_stores_nothing():
    x = gt.zeros(3, 4)
    cache = _cache_of(aten.select.int)
    cache.clear()
    for _ in range(2):
        with pytest.raises(IndexError, match=r"select\(\): index 5 out of range"):
            aten.select.int.call(x, 0, 5)
    assert not cache
    x.select(0, 1)
    assert len(cache) == 1


def test_list_arguments_of_internal_callers_are_served_without_the_cache():
    x = gt.zeros(2, 6)
    assert _facts(aten.view.default.call(x, [3, 4])) == _facts(_general(aten.view.default,
                                                                        (x, [3, 4])))


def test_views_made_with_grad_off_keep_their_history():
    leaf = gt.rand(3, 4, requires_grad=True)
    with gt.no_grad():
        view = leaf.view(-1)
        with gt.dispatch_trace(fast_paths=False):
            expected = leaf.view(-1)
    assert _facts(view) == _facts(expected)
    assert view.requires_grad and view._creation_meta != 0
    with pytest.raises(RuntimeError, match="inside the no_grad block"):
        view.mul_(2)
    again = view.t() if view.dim() == 2 else view.unsqueeze(0)      # its history passes on
    assert again._creation_meta == view._creation_meta


def test_calls_it_does_not_serve_get_the_general_paths_answer():
    x = gt.rand(3, 4, dtype=gt.complex64).conj()            # a math bit: the general path
    assert x.t().is_conj() and x.t().resolve_conj().tolist() == x.resolve_conj().t().tolist()
    meta = gt.empty(3, 4, device="meta").view(-1)
    assert meta.device.type == "meta" and meta.shape == (12,)
    leaf = gt.rand(3, 4, requires_grad=True)
    assert leaf.view(-1).grad_fn.name() == "ViewBackward0"


def test_a_full_cache_starts_anew(monkeypatch):
    monkeypatch.setattr(view_express, "CACHE_LIMIT", 4)
    x = gt.arange(40.).reshape(5, 8)
    cache = _cache_of(aten.select.int)
    for i in range(12):
        view = x.select(1, i % 8)
        assert view.storage_offset() == i % 8 and view.tolist() == x.numpy()[:, i % 8].tolist()
        assert len(cache) <= 4


def _private_view():
    """A fresh cached view overload (``t`` of a 2-d tensor) with its express entry."""
    packet = OpOverloadPacket("express_test_t", namespace="express_test")
    op = OpOverload(parse_schema("express_test_t(Tensor(a) self) -> Tensor(a)"), packet)
    Alias(lambda self: (self._size[::-1], self._stride[::-1], self._offset), True,
          cached=True).register(op)
    return op


def test_a_kernel_registered_later_stops_a_kept_express_view():
    op = _private_view()
    kept = op.call
    assert kept is not op.general_entry
    x = gt.zeros(2, 3)
    assert kept(x).shape == (3, 2) and kept(x)._base is x
    op.register(DispatchKey.CPU, lambda op, keys, args: gt.full((1,), 7.0))
    assert kept(x).tolist() == [7.0]                        # the new kernel, not the view


def test_only_arguments_held_by_value_are_kept():
    x = gt.zeros(3, 4)
    cache = _cache_of(aten.select.int)
    cache.clear()
    assert aten.select.int.call(x, 0, gt.tensor(1)).storage_offset() == 4   # by identity
    assert not cache
    aten.select.int.call(x, 0, 1)
    assert len(cache) == 1


def test_views_of_a_view_made_with_grad_off_inherit_its_history():
    plain = gt.zeros(3, 4)
    with gt.no_grad():
        view = plain.view(-1)
    assert _facts(view.unsqueeze(0)) == _facts(_general(aten.unsqueeze.default, (view, 0)))
    assert view.unsqueeze(0)._creation_meta == view._creation_meta


SEVERAL = [
    (aten.unbind.int, lambda x: (1,)),
    (aten.split.Tensor, lambda x: (2, 0)),
    (aten.split_with_sizes.default, lambda x: ((1, x.shape[-1] - 1), -1)),
]


@pytest.mark.parametrize("source", list(_sources()))
@pytest.mark.parametrize("op, arguments", SEVERAL, ids=[op.name for op, _ in SEVERAL])
def test_views_returning_several_keep_their_geometries(op, arguments, source):
    x = _sources()[source]
    args = (x, *arguments(x))
    assert op.call is op.general_entry                       # no express entry: a list
    first, again, expected = op.call(*args), op.call(*args), _general(op, args)
    assert [_facts(t) for t in first] == [_facts(t) for t in expected] == \
        [_facts(t) for t in again]
    assert [t.tolist() for t in first] == [t.tolist() for t in expected]
    shifted = x[1:] if x.dim() > 1 and x.shape[0] > 1 else x      # another offset
    assert [t.storage_offset() for t in op.call(shifted, *args[1:])] == \
        [t.storage_offset() for t in _general(op, (shifted, *args[1:]))]
