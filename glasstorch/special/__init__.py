"""torch.special: special functions, in scipy.special's naming.

Its functions are the bindings of the operators declared with ``python_module="special"``
(``special_entr`` is ``torch.special.entr``); see Note [Namespace modules] in
`aten/binding.py`.
"""
from ..aten import binding as _binding

__getattr__ = _binding.namespace_getattr(__name__, "special", "special_")


def __dir__():
    return sorted(set(globals()) | set(_binding.namespace_names("special", "special_")))
