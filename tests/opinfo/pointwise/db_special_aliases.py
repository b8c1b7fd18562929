"""OpInfo entries for torch.special's names of other operators
(`aten/native/pointwise/special_aliases.py`): each takes the entry of the operator it
names (reference, dtypes, samples, marks) under its own name and variant. Error inputs
whose message names the function are left out (the alias's binding has its own name)."""
import dataclasses

from ..core import OpInfo
from .db_binary_math import OPS as BINARY_MATH
from .db_special import OPS as SPECIAL
from .db_unary import OPS as UNARY
from ..nn.db_softmax import OPS as SOFTMAX
from ..reduction.db_moments import OPS as MOMENTS

_TARGETS = {entry.name: entry for entry in (*BINARY_MATH, *SPECIAL, *UNARY,
                                              *SOFTMAX, *MOMENTS)}

# torch.special's name -> the entry of the operator it calls
ALIASES = {"digamma": "digamma", "psi": "digamma", "erf": "erf", "erfc": "erfc",
           "erfinv": "erfinv", "exp2": "exp2", "expm1": "expm1", "log1p": "log1p",
           "gammaln": "lgamma", "i0": "i0", "sinc": "sinc", "expit": "sigmoid",
           "round": "round.decimals", "logit": "logit", "polygamma": "polygamma",
           "multigammaln": "mvlgamma", "xlogy": "xlogy.Tensor", "gammainc": "igamma",
           "gammaincc": "igammac", "logsumexp": "logsumexp", "softmax": "softmax.int",
           "log_softmax": "log_softmax.int"}
WITHOUT_OUT = ("softmax", "log_softmax")
COVERS = {"xlogy": ("special_xlogy.self_scalar", "special_xlogy.other_scalar")}


def _unnamed_errors(target: OpInfo):
    def errors():
        return [error for error in target.error_inputs() if r"\(\)" not in error.match]
    return errors


def _tensors_only(samples):
    """The samples whose operands are all tensors: a composite's schema, as torch's
    ``torch.ops.aten.special_xlogy.default``, takes no number for a Tensor (the Scalar
    overloads, which do, are tested in test_special_functions.py)."""
    def tensors_only(dtype):
        return (s for s in samples(dtype) if len(s.tensors()) == len(s.args) + len(s.kwargs))
    return tensors_only


def alias(name: str) -> OpInfo:
    target = _TARGETS[ALIASES[name]]
    samples = _tensors_only(target.sample_inputs) if name in COVERS else target.sample_inputs
    return dataclasses.replace(
        target, name=f"special_{name}", variants=(f"special.{name}",),
        out=None if name in WITHOUT_OUT else f"special.{name}", inplace=None,
        sample_inputs=samples, error_inputs=_unnamed_errors(target),
        covers=COVERS.get(name, ()))


OPS = [alias(name) for name in ALIASES]
