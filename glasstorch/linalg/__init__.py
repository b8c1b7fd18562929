"""torch.linalg: linear algebra functions.

Its functions are the bindings of the operators declared with ``python_module="linalg"``
(``linalg_multi_dot`` is ``torch.linalg.multi_dot``); see Note [Namespace modules] in
`aten/binding.py`.
"""
from ..aten import binding as _binding

_operator = _binding.namespace_getattr(__name__, "linalg", "linalg_")


def __getattr__(name: str):
    if name == "LinAlgError":           # its family loads on first use, as the operators'
        from ..aten.native.linalg.lapack import LinAlgError
        return LinAlgError
    return _operator(name)


def __dir__():
    return sorted(set(globals()) | {"LinAlgError"}
                  | set(_binding.namespace_names("linalg", "linalg_")))
