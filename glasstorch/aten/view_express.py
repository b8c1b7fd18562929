"""Express entries of view operators: each geometry worked out once.

Note [View geometry cache]
A view's rule turns `self`'s sizes and strides and the call's other arguments into the
result's sizes and strides, and moves the storage offset by an amount that depends on
the same things (`select` adds ``index * stride``, `slice` ``start * stride``). A
program makes the same few views over and over (``x.view(B, -1)``, ``x[0]``,
``w.t()``, ``qkv.split(d, 2)``), so for the rules that are such functions (declared
``cached=True``: not `as_strided`, whose offset may be absolute, nor the views that
change dtype) a cache keeps ``(sizes, strides, offset shift)`` (a list of them for a
view returning several tensors) per ``(self's sizes, self's strides, arguments)`` and
gives it to the fused fast path and, for a single view, to the express entry (Note
[Express entries] in fast_paths.py), which makes the view straight from it. A key
missing runs the rule, which raises what it always raises and then stores nothing.
The express entry serves plain CPU calls (under `no_grad` too), where the general path
runs the fused fast path: it makes the view, sharing `self`'s version counter and base
(`make_view`), and notes how it was made when grad mode is off or `self` has a view
history of its own; every other call goes to the general entry.
Each operator's cache is emptied when it fills, so that a program's shapes of the
moment are the ones kept.
"""
from __future__ import annotations

from ..c10.dispatch_key import CPU_KEYS, local_keys
from ..c10.tensor_impl import make_view

CACHE_LIMIT = 1024          # geometries kept per operator before the cache starts anew


def cached_geometry(rule):
    """`rule` with its geometries kept (Note [View geometry cache]): ``geometry(*args)``
    returns what ``rule(*args)`` would (a list of geometries for a view returning
    several tensors)."""
    cache: dict = {}

    def geometry(*args):
        self = args[0]
        key = (self._size, self._stride, args[1:])
        try:
            entry = cache[key]
        except KeyError:
            result = rule(*args)
            if _by_value(args):
                if len(cache) >= CACHE_LIMIT:
                    cache.clear()
                cache[key] = _moved(result, -self._offset)
            return result
        except TypeError:                   # a list argument (an internal caller's)
            return rule(*args)
        if type(entry) is list:
            return _moved(entry, self._offset)
        size, stride, shift = entry
        return size, stride, self._offset + shift
    geometry.__wrapped__ = rule
    geometry.cache = cache
    return geometry


def _moved(geometry, by: int):
    """`geometry` (one, or a list) with its offsets moved `by` elements."""
    if type(geometry) is list:
        return [(size, stride, offset + by) for size, stride, offset in geometry]
    size, stride, offset = geometry
    return size, stride, offset + by


def _by_value(args: tuple) -> bool:
    """Whether the arguments after `self` are ints, bools, None or tuples of ints, which
    a key holds by value (a tensor an internal caller passes is hashed by identity)."""
    for value in args[1:]:
        if type(value) is tuple:
            for item in value:
                if type(item) is not int:
                    return False
        elif value is not None and type(value) is not int and type(value) is not bool:
            return False
    return True


def view_express(geometry, note):
    """The express-entry factory of a view whose `geometry` is cached:
    ``make(general, live) -> call(*args)`` (Note [View geometry cache]). The entry reads
    the cache itself and leaves a miss to `geometry`. ``note(self, view)`` records how a
    view was made where the general path would (grad mode off, or a source with a view
    history of its own)."""
    cache = geometry.cache

    def make(general, live):
        def call(*args):
            self = args[0]
            if self._keys & local_keys.kept != CPU_KEYS or not live[0]:
                return general(*args)
            try:
                size, stride, shift = cache[self._size, self._stride, args[1:]]
                where = size, stride, self._offset + shift
            except (KeyError, TypeError):
                where = geometry(*args)
            base = self._base
            result = make_view(self, where, self if base is None else base)
            if self._creation_meta or not local_keys.plain:
                note(self, result)
            return result
        return call
    return make
