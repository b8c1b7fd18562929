"""`torch.return_types`: the named tuples of operators with several results
(``torch.frexp(x).mantissa``), declared with the Python bindings in
`aten/return_types.py`; this module is their public home, each type made on first use.
"""
from .aten import return_types as _declared
from .aten import torch_names as _torch_names


def __getattr__(name: str) -> type:
    found = _declared.lookup(name)
    if found is None:
        raise _torch_names.missing_attribute(__name__, name)
    return found


def __dir__() -> list:
    return sorted(set(globals()) | set(_declared.FIELDS))
