"""OpInfo entries for the `*_copy` operators (`aten/native/shape/view_copy.py`).

Each copy is derived from its view as the operator is: the view's entry with the
copy's name, every sample and error input of the view, a function variant and an
out= form (single results), and no aliasing.
"""
from dataclasses import replace

from glasstorch.aten.native.shape.view_copy import COPIES

from ..creation import db_copy
from . import db_view

_VIEW_ENTRIES = {entry.name: entry for entry in db_view.OPS + db_copy.OPS}
# torch's view_copy reshapes what cannot be viewed: the view's refusal does not apply
_NOT_REFUSED = {"view": "view size is not compatible"}


def _copy_entry(view_name: str, copy_overload):
    entry = _VIEW_ENTRIES[view_name]
    schema = copy_overload._schema
    name = schema.name
    single = not schema.returns[0].type.is_list
    dropped = _NOT_REFUSED.get(view_name)
    errors = entry.error_inputs
    if dropped is not None:
        def errors():
            return [e for e in entry.error_inputs() if dropped not in e.match]
    return replace(entry, name=schema.qualified_name, error_inputs=errors,
                   variants=(name, f"ops.aten.{name}.{schema.overload_name or 'default'}"),
                   out=name if single else None, is_view=False, view_has_base=True,
                   marks={})


OPS = [_copy_entry(view_name, overload) for view_name, overload in COPIES.items()]
