"""The default tolerances of torch.testing, per dtype, and the rule that picks them."""
from __future__ import annotations

import glasstorch as torch

# dtype -> (rtol, atol): the loosest of both inputs' entries applies; a dtype not listed
# (integers, bool) is compared exactly.
DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex32: (0.001, 1e-5),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}

# The dtypes Python numbers are compared as.
NUMBER_DTYPES = {int: torch.int64, float: torch.float64, complex: torch.complex128}


class ComparisonError(Exception):
    """A failed comparison, held until assert_close raises it as `type(message)`.

    `path` is where in nested containers the failure sits (``[0]['weight']``), added
    to the message unless the caller gave its own.
    """

    def __init__(self, type: type, message: str, path: tuple = ()) -> None:
        super().__init__(message)
        self.type, self.message, self.path = type, message, path

    def to_error(self, msg=None) -> Exception:
        if isinstance(msg, str):
            return self.type(msg)
        message = self.message
        if self.path:
            message += "\n\nThe failure occurred for item " + "".join(str([p]) for p in self.path)
        return self.type(msg(message) if callable(msg) else message)


def default_tolerances(*inputs, dtype_precisions: dict | None = None) -> tuple:
    """The (rtol, atol) for tensors or dtypes `inputs`: the loosest of their table entries.

    Raises:
        TypeError: an input is neither a tensor nor a dtype.
    """
    table = dtype_precisions or DTYPE_PRECISIONS
    pairs = []
    for value in inputs:
        if isinstance(value, torch.Tensor):
            value = value.dtype
        elif not isinstance(value, torch.dtype):
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(value)} instead.")
        pairs.append(table.get(value, (0.0, 0.0)))
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def get_tolerances(*inputs, rtol: float | None, atol: float | None, path: tuple = ()) -> tuple:
    """`rtol` and `atol` as given (both or neither), else the defaults for `inputs`."""
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise ComparisonError(ValueError, "Both 'rtol' and 'atol' must be either specified or "
                              f"omitted, but got no {missing}.", path)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*inputs)
