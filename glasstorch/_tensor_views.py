"""`x.view(2, -1)` and `x.reshape(-1)` without the binding's parsing.

These two are the views a program calls most, nearly always with sizes written as
separate ints or given whole (``x.view(y.shape)``). Such a call is already what the
operator takes (a tuple of ints), so the method hands it straight to the operator's
entry (a `torch.Size` as the plain tuple the binding would give): for `view` its
express entry, with the geometry kept per shape (Note [View geometry cache] in
aten/view_express.py). Any other call (a list, a dtype, keywords, numbers of another
type) goes to the generated binding, which parses it and words its refusals as torch
does (its signatures are the methods' in the stubs: `fronts_binding`).
"""
from __future__ import annotations

from .aten import binding, native, ops
from .c10.size import Size

_aten = ops.aten
_NOT_GIVEN = object()           # `view`'s dtype keyword, named so its signature shows it
_SHAPES = (tuple, Size)         # a shape given whole: ``x.view(y.shape)``

# The operators' entries are looked up on first use, which loads their family (Note
# [Families load on first use]); each then puts itself in its stand-in's place.
_view_op = native.first_use(globals(), "_view_op", lambda: _aten.view.default.call)
_reshape_op = native.first_use(globals(), "_reshape_op", lambda: _aten.reshape.default.call)


def _whole_shape(args: tuple):
    """The shape of ``x.view(y.shape)``: one tuple or `torch.Size` of Python ints, as
    the plain tuple the binding would give; None for anything else."""
    if len(args) != 1 or type(args[0]) not in _SHAPES:
        return None
    for s in args[0]:
        if type(s) is not int:
            return None
    return tuple(args[0])


class TensorViews:
    """Tensor's `view` and `reshape`, the common call taking no detour."""

    __slots__ = ()

    def view(self, *size, dtype=_NOT_GIVEN, **kwargs):
        """Return a tensor with the same data and a new shape (one size may be -1), or
        the same bytes read as `dtype`.

        Args:
            size (torch.Size or int...): the new shape.
            dtype (torch.dtype): the dtype to reinterpret the elements as.

        Example::

            >>> torch.zeros(2, 6).view(3, -1).shape
            torch.Size([3, 4])
        """
        if dtype is _NOT_GIVEN and not kwargs and size:
            for s in size:              # sizes as separate Python ints (no bools)
                if type(s) is not int:
                    break
            else:
                return _view_op(self, size)
            shape = _whole_shape(size)
            if shape is not None:
                return _view_op(self, shape)
        if dtype is not _NOT_GIVEN:
            kwargs["dtype"] = dtype
        return binding.get_binding("method", "view")(self, *size, **kwargs)

    def reshape(self, *shape, **kwargs):
        """`self` with a new shape: a view when strides allow it, else a contiguous copy.

        Args:
            shape (torch.Size or int...): the new shape; one entry may be -1.

        Example::

            >>> torch.zeros(2, 3).t().reshape(-1).is_contiguous()
            True
        """
        if not kwargs and shape:
            for s in shape:
                if type(s) is not int:
                    break
            else:
                return _reshape_op(self, shape)
            size = _whole_shape(shape)
            if size is not None:
                return _reshape_op(self, size)
        return binding.get_binding("method", "reshape")(self, *shape, **kwargs)

    view.fronts_binding = reshape.fronts_binding = True
