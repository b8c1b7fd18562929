"""OpInfo entries for complex and polar (`aten/native/pointwise/complex_build.py`): complex
tensors from two real ones of one floating dtype, broadcast, no promotion."""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensor_pairs

PARTS = (gt.float32, gt.float64)
# On meta tensors torch runs Python decompositions of complex / polar, which promote
# mixed dtypes, assert instead of raising and word broadcasting and out= differently.
_META = "torch's meta kernels are Python decompositions with other checks and wording"


def _complex(real, imag):
    real, imag = np.broadcast_arrays(real, imag)
    result = np.empty(real.shape, np.result_type(real.dtype, np.complex64))
    result.real, result.imag = real, imag
    return result


def _polar(abs, angle):
    with np.errstate(invalid="ignore"):
        return _complex(abs * np.cos(angle), abs * np.sin(angle))


def sample_parts(dtype):
    """Every broadcast pair and layout, then the special values of both parts."""
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    special = gt.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1e-30, 2.5],
                        dtype=dtype)
    yield SampleInput(special, special.flip(0))
    yield SampleInput(make_tensor((), dtype), make_tensor((3,), dtype))


def errors_parts(name):
    def errors():
        f, d = make_tensor((3,), gt.float32), make_tensor((3,), gt.float64)
        i = make_tensor((3,), gt.int32)
        yield ErrorInput(SampleInput(f, d), RuntimeError,
                         r"^Expected object of scalar type Float but got scalar type Double "
                         r"for second argument$", known_bug_on_meta=_META)
        yield ErrorInput(SampleInput(i, i), RuntimeError,
                         r"^Expected both inputs to be Half, Float or Double tensors but got "
                         r"Int and Int$", known_bug_on_meta=_META)
        yield ErrorInput(SampleInput(f, make_tensor((4,), gt.float32)), RuntimeError,
                         r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                         r"non-singleton dimension 0$", known_bug_on_meta=_META)
        yield ErrorInput(SampleInput(f, f, out=gt.empty(3, dtype=gt.complex128)), RuntimeError,
                         r"^Expected object of scalar type ComplexFloat but got scalar type "
                         r"ComplexDouble for argument 'out'$", known_bug_on_meta=_META)
        yield ErrorInput(SampleInput(f, 1.0), TypeError,
                         rf"^{name}\(\): argument '\w+' \(position 2\) must be Tensor, not float$")
    return errors


OPS = [
    OpInfo("complex", variants=("complex",), ref=_complex, sample_inputs=sample_parts,
           error_inputs=errors_parts("complex"), dtypes=PARTS, out="complex"),
    OpInfo("polar", variants=("polar",), ref=_polar, sample_inputs=sample_parts,
           error_inputs=errors_parts("polar"), dtypes=PARTS, out="polar"),
]
