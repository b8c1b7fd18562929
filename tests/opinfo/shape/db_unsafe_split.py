"""OpInfo entries for `aten/native/shape/unsafe_split.py`: split's entries, as the
operators are split's pieces with the view tracking taken off."""
from dataclasses import replace

from . import db_shape, db_view

_ENTRIES = {entry.name: entry for entry in db_view.OPS + db_shape.OPS}


def _unsafe(name: str, unsafe_name: str):
    return replace(_ENTRIES[name], name=unsafe_name, is_view=False,
                   variants=(unsafe_name.split(".")[0], f"Tensor.{unsafe_name.split('.')[0]}"))


OPS = [
    _unsafe("split.Tensor", "unsafe_split.Tensor"),
    _unsafe("split_with_sizes", "unsafe_split_with_sizes"),
    _unsafe("chunk", "unsafe_chunk"),
]
