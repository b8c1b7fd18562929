"""torch.linalg: linear algebra functions.

Its functions are the bindings of the operators declared with ``python_module="linalg"``
(``linalg_multi_dot`` is ``torch.linalg.multi_dot``); see Note [Namespace modules] in
`aten/binding.py`.
"""
from ..aten import binding as _binding
from ..aten.native.linalg.lapack import LinAlgError  # noqa: F401

__getattr__ = _binding.namespace_getattr(__name__, "linalg", "linalg_")


def __dir__():
    return sorted(set(globals()) | set(_binding.namespace_names("linalg", "linalg_")))
