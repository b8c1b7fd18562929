"""torch.fft: discrete Fourier transforms and their helpers.

Its functions are the bindings of the operators declared with ``python_module="fft"``
(``fft_rfft`` is ``torch.fft.rfft``; see Note [Namespace modules] in `aten/binding.py`),
in `aten/native/spectral/`.
"""
from ..aten import binding as _binding

__getattr__ = _binding.namespace_getattr(__name__, "fft", "fft_")


def __dir__():
    return sorted(set(globals()) | set(_binding.namespace_names("fft", "fft_")))
