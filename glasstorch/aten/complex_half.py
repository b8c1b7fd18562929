"""The few kernels torch's CPU build has for complex32 (ComplexHalf), and its refusals.

complex32 is stored as float16 pairs and computed in complex64 (Note [complex32 as
float16 pairs] in c10/dtype.py), so glasstorch could run any elementwise operator on
it; torch's CPU kernels have loops for only a few, and every other one refuses with
its kernel's name (``"exp_vml_cpu" not implemented for 'ComplexHalf'``). As the dtype
refusals of Note [Kernel-only dtype errors], these are the kernels' and not the meta
rules': the same calls on meta tensors succeed.
"""
from __future__ import annotations

import numpy as np

from ..c10.dtype import COMPLEX32_PAIR, pairs_to_complex64

# The elementwise operators whose torch CPU kernels take complex32.
SUPPORTED = frozenset((
    "abs", "add", "sub", "rsub", "mul", "neg", "positive", "conj_physical", "sgn", "eq", "ne",
    "isnan", "isfinite", "isinf", "isreal", "where", "float_power", "fill", "masked_fill",
    "isclose",
))

# torch's kernel names where they are not "<name>_cpu"
_VML = frozenset(("acos", "asin", "atan", "cos", "sin", "tan", "tanh", "exp", "expm1", "erf",
                  "erfc", "erfinv", "i0", "lgamma", "log", "log10", "log1p", "log2", "sqrt",
                  "round"))
_KERNELS = {"pow": "pow", "square": "pow", "ldexp": "pow", "exp2": "exp2", "digamma": "digamma",
            "nan_to_num": "nan_to_num", "true_divide": "div_cpu", "floor_divide": "div_floor_cpu",
            "clamp_max": "minimum_cpu", "clamp_min": "maximum_cpu",
            "bitwise_left_shift": "lshift_cpu", "bitwise_right_shift": "rshift_cpu",
            "mm": "addmm_impl_cpu_", "addmm": "addmm_impl_cpu_", "bmm": "bmm", "dot": "dot",
            "vdot": "vdot", "mean": "sum_cpu", "prod": "prod_out_cpu", "cumsum": "cumsum_out_cpu",
            "cumprod": "cumprod_out_cpu", "amax": "max_values_cpu", "amin": "min_values_cpu",
            "max": "max_all", "min": "min_all", "trace": "trace", "unique": "unique"}


def kernel_name(operator: str) -> str:
    """The name torch's CPU kernel for `operator` gives in its dtype refusals."""
    operator = operator.rstrip("_")
    if operator in _VML:
        return f"{operator}_vml_cpu"
    return _KERNELS.get(operator, f"{operator}_cpu")


def holds_pairs(arrays) -> bool:
    """Whether any of `arrays` (ndarrays among other values) holds complex32 pairs."""
    return any(isinstance(a, np.ndarray) and a.dtype == COMPLEX32_PAIR for a in arrays)


def refuse(operator: str, arrays) -> None:
    """Raise torch's refusal when a complex32 operand reaches a kernel torch lacks."""
    if operator.rstrip("_") not in SUPPORTED and holds_pairs(arrays):
        raise NotImplementedError(
            f"\"{kernel_name(operator)}\" not implemented for 'ComplexHalf'")


def widened(arrays) -> list:
    """`arrays` with complex32 pairs as complex64 values, for a kernel NumPy computes."""
    return [pairs_to_complex64(a) if isinstance(a, np.ndarray) and a.dtype == COMPLEX32_PAIR
            else a for a in arrays]
