"""torch.special's names for operators torch also has elsewhere: ``torch.special.erf`` is
`torch.erf`, ``torch.special.expit`` is `torch.sigmoid`, ``torch.special.gammainc`` is
`torch.igamma`, ``torch.special.softmax`` is `torch.softmax`, ...

Each is an operator of its own in torch (``aten::special_erf``, with an out= form), a
composite that calls the operator it names, so autograd records the named operator's
node (``torch.special.erf(x).grad_fn`` is an ErfBackward0). Here each is one line of
`_ALIASES`: the arguments of its schema, and the torch function it calls.
"""
from __future__ import annotations

from ... import functions as at
from ...registry import composite

_UNARY = "(Tensor self)"
_BINARY = "(Tensor self, Tensor other)"

# name in torch.special (with its overload) -> (schema arguments, torch function, whether
# it has out=)
_ALIASES = {
    "digamma": (_UNARY, "digamma", True),
    "psi": (_UNARY, "digamma", True),
    "erf": (_UNARY, "erf", True),
    "erfc": (_UNARY, "erfc", True),
    "erfinv": (_UNARY, "erfinv", True),
    "exp2": (_UNARY, "exp2", True),
    "expm1": (_UNARY, "expm1", True),
    "log1p": (_UNARY, "log1p", True),
    "gammaln": (_UNARY, "lgamma", True),
    "i0": (_UNARY, "i0", True),
    "sinc": (_UNARY, "sinc", True),
    "expit": (_UNARY, "sigmoid", True),
    "round": ("(Tensor self, *, int decimals=0)", "round", True),
    "logit": ("(Tensor self, float? eps=None)", "logit", True),
    "polygamma": ("(int n, Tensor self)", "polygamma", True),
    "multigammaln": ("(Tensor self, int p)", "mvlgamma", True),
    "xlogy": (_BINARY, "xlogy", True),
    "xlogy.self_scalar": ("(Scalar self, Tensor other)", "xlogy", True),
    "xlogy.other_scalar": ("(Tensor self, Scalar other)", "xlogy", True),
    "gammainc": (_BINARY, "igamma", True),
    "gammaincc": (_BINARY, "igammac", True),
    "logsumexp": ("(Tensor self, int[1] dim, bool keepdim=False)", "logsumexp", True),
    "softmax": ("(Tensor self, int dim, ScalarType? dtype=None)", "softmax", False),
    "log_softmax": ("(Tensor self, int dim, *, ScalarType? dtype=None)", "log_softmax",
                    False),
}

# the arguments torch's functions take by keyword only
_KEYWORDS = {"round": ("decimals",), "softmax": ("dtype",), "log_softmax": ("dtype",)}


def _alias(name: str, arguments: str, target: str, out: bool):
    """Declare ``torch.special.<name>``, calling ``torch.<target>`` (with out= if `out`):
    the body gets the schema's arguments in order, and the out= tensor after them."""
    keywords = _KEYWORDS.get(name, ())
    base = name.partition(".")[0]
    count = sum(1 for part in arguments.strip("()").split(",") if part.strip() != "*")

    def body(*args):
        if len(args) > count:               # the out= overload: out comes last
            *args, result = args
            extra = {"out": result}
        else:
            extra = {}
        positional = args[:len(args) - len(keywords)]
        extra.update(zip(keywords, args[len(positional):]))
        return getattr(at, target)(*positional, **extra)
    body.__name__ = body.__qualname__ = f"special_{base}"
    body.__doc__ = (f"torch.special's name for `torch.{target}`, which it calls (same "
                    f"arguments and result).")
    return composite(f"special_{name}{arguments} -> Tensor", out=out,
                     python_module="special")(body)


ALIASES = {name: _alias(name, *spelled) for name, spelled in _ALIASES.items()}
