"""`torch.layout` and `torch.memory_format`: named singletons, printed like torch's."""
from __future__ import annotations


class _Named:
    """A singleton known by its torch name: printed ``torch.<name>``, pickled by name."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return "torch." + self._name

    def __reduce__(self):
        return self._name              # pickle finds the module-level object of that name


class layout(_Named):
    """How a tensor's elements are arranged: `torch.strided` or a sparse layout."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")


class memory_format(_Named):
    """The order in which a dense tensor's dimensions are laid out in memory."""

    __slots__ = ()


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
