"""MaskedTensor's reductions: torch.masked's reduction of the same name over the present
elements; a result is present where any element it reduced was."""
from __future__ import annotations

import glasstorch as torch

from .core import wrap


def reduce(func, args: tuple):
    """Run the reduction `func` (an aten overload, arguments in schema order)."""
    name = func.overloadpacket._name
    given = dict(zip((a.name for a in func._schema.arguments), args))
    mt = given["self"]
    data, mask = mt._masked_data, mt._masked_mask
    dim = given.get("dim")
    if dim in ([], ()):                            # amax / amin: every dim
        dim = None
    keepdim = bool(given.get("keepdim", False))
    result = _reduced_data(name, data, mask, dim, keepdim, given)
    if dim is None:
        return wrap(result, mask.any())
    for d in sorted([dim] if isinstance(dim, int) else dim, reverse=True):
        mask = mask.any(d, keepdim)
    return wrap(result, mask)


def _reduced_data(name: str, data, mask, dim, keepdim: bool, given: dict):
    if name == "all":                              # absent elements count as True
        filled = data.masked_fill(~mask, True)
        return filled.all() if dim is None else filled.all(dim, keepdim)
    masked = getattr(torch.masked, name)
    options = {"keepdim": keepdim, "mask": mask}
    if name in ("var", "std"):
        return masked(data, dim, given.get("unbiased"), correction=given.get("correction"),
                      **options)
    if name == "norm":
        p = given.get("p")
        return masked(data, 2.0 if p is None else p, dim, dtype=given.get("dtype"), **options)
    return masked(data, dim, dtype=given.get("dtype"), **options)
