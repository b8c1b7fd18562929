"""`torch.return_types`: the named tuples of operators with several results
(``torch.frexp(x).mantissa``), declared with the Python bindings in
`aten/return_types.py`; this module is their public home.
"""
from .aten.return_types import TYPES as _TYPES

globals().update(_TYPES)
