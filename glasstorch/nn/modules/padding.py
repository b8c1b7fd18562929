"""Padding layers: a border around the last 1, 2 or 3 dims, constant (`ZeroPad*`,
`ConstantPad*`) or made of the input's own values (`ReflectionPad*`, `ReplicationPad*`,
`CircularPad*`). Each holds its amounts as a tuple, ``(left, right, top, bottom, front,
back)`` from the last dim backwards, and calls `F.pad`."""
from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d"]


def _amounts(padding, dims: int) -> tuple:
    """One int for every side, or the `2 * dims` amounts as given."""
    if isinstance(padding, (list, tuple)):
        return tuple(padding)
    return (padding,) * (2 * dims)


class _PadNd(Module):
    """A padding layer in mode `_mode` over the last `_dims` dims."""

    __constants__ = ["padding"]
    _mode = "constant"
    _dims = 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _amounts(padding, self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]
    _mode = "constant"

    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def forward(self, input):
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got "
                             f"{input.dim()}D input)")
        return super().forward(input)


def _layer(base: type, dims: int, name: str, doc: str) -> type:
    """The `dims`-d layer of a padding family."""
    return type(name, (base,), {"_dims": dims, "__doc__": doc, "__module__": __name__})


_EXAMPLE = """

    Example::

        >>> nn.{name}({args})(torch.tensor([[1., 2., 3.]]))
        {result}
    """
ZeroPad1d = _layer(_ZeroPadNd, 1, "ZeroPad1d", "Zeros around the last dim." + _EXAMPLE.format(
    name="ZeroPad1d", args="1", result="tensor([[0., 1., 2., 3., 0.]])"))
ZeroPad2d = _layer(_ZeroPadNd, 2, "ZeroPad2d", "Zeros around the last two dims.")
ZeroPad3d = _layer(_ZeroPadNd, 3, "ZeroPad3d", "Zeros around the last three dims.")
ConstantPad1d = _layer(_ConstantPadNd, 1, "ConstantPad1d", "`value` around the last dim."
                       + _EXAMPLE.format(name="ConstantPad1d", args="(1, 0), 9.",
                                         result="tensor([[9., 1., 2., 3.]])"))
ConstantPad2d = _layer(_ConstantPadNd, 2, "ConstantPad2d", "`value` around the last two dims.")
ConstantPad3d = _layer(_ConstantPadNd, 3, "ConstantPad3d",
                       "`value` around the last three dims.")
ReflectionPad1d = _layer(_ReflectionPadNd, 1, "ReflectionPad1d",
                         "The last dim mirrored about its edges (edges not repeated)."
                         + _EXAMPLE.format(name="ReflectionPad1d", args="1",
                                           result="tensor([[2., 1., 2., 3., 2.]])"))
ReflectionPad2d = _layer(_ReflectionPadNd, 2, "ReflectionPad2d", "The last two dims mirrored.")
ReflectionPad3d = _layer(_ReflectionPadNd, 3, "ReflectionPad3d", "The last three dims mirrored.")
ReplicationPad1d = _layer(_ReplicationPadNd, 1, "ReplicationPad1d", "The last dim's edges repeated."
                          + _EXAMPLE.format(name="ReplicationPad1d", args="1",
                                            result="tensor([[1., 1., 2., 3., 3.]])"))
ReplicationPad2d = _layer(_ReplicationPadNd, 2, "ReplicationPad2d",
                          "The last two dims' edges repeated.")
ReplicationPad3d = _layer(_ReplicationPadNd, 3, "ReplicationPad3d",
                          "The last three dims' edges repeated.")
CircularPad1d = _layer(_CircularPadNd, 1, "CircularPad1d", "The last dim wrapped around."
                       + _EXAMPLE.format(name="CircularPad1d", args="1",
                                         result="tensor([[3., 1., 2., 3., 1.]])"))
CircularPad2d = _layer(_CircularPadNd, 2, "CircularPad2d", "The last two dims wrapped around.")
CircularPad3d = _layer(_CircularPadNd, 3, "CircularPad3d",
                       "The last three dims wrapped around.")
