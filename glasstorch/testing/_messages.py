"""The mismatch messages of torch.testing, word for word as torch writes them."""
from __future__ import annotations

import glasstorch as torch


def _name(identifier, default: str) -> str:
    if identifier is None:
        return default
    return identifier(default) if callable(identifier) else identifier


def numeric_mismatch(*, default_identifier: str, identifier=None, extra: str | None = None,
                     abs_diff, abs_diff_idx=None, atol: float, rel_diff, rel_diff_idx=None,
                     rtol: float) -> str:
    """The message for values that are not close: header, `extra`, greatest differences.

    With both tolerances 0 the values "are not equal" and no allowance is printed.
    """
    equality = rtol == 0 and atol == 0
    lines = [f"{_name(identifier, default_identifier)} are not "
             f"{'equal' if equality else 'close'}!", ""]
    if extra:
        lines.append(extra.strip())
    for kind, diff, index, tolerance in (("absolute", abs_diff, abs_diff_idx, atol),
                                         ("relative", rel_diff, rel_diff_idx, rtol)):
        line = (f"{kind.title()} difference: {diff}" if index is None
                else f"Greatest {kind} difference: {diff} at index {index}")
        lines.append(line if equality else f"{line} (up to {tolerance} allowed)")
    return "\n".join(lines).strip()


def scalar_mismatch(actual, expected, *, rtol: float, atol: float, identifier=None) -> str:
    """The message for two numbers (or 0-dim tensors) that are not close."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return numeric_mismatch(default_identifier="Scalars", identifier=identifier,
                            extra=f"Expected {expected} but got {actual}.", abs_diff=abs_diff,
                            atol=atol, rel_diff=rel_diff, rtol=rtol)


def _unravel(flat_index: int, shape) -> tuple:
    index = []
    for size in reversed(shape):
        flat_index, position = divmod(flat_index, size)
        index.append(position)
    return tuple(reversed(index))


def _greatest(diff, matches_flat, shape) -> tuple:
    """The largest difference among the mismatches, and its index in `shape`."""
    diff[matches_flat] = 0
    value, flat_index = torch.max(diff, 0)
    return value.item(), _unravel(int(flat_index), shape)


def tensor_mismatch(actual, expected, matches, *, rtol: float, atol: float,
                    identifier=None) -> str:
    """The message for tensors with elements that are not close: how many, and the worst.

    Differences are taken in int64 for integer and bool tensors (no overflow); 8-bit
    floats, compared bit for bit, report the first mismatch instead.
    """
    total = matches.numel()
    mismatched = total - int(torch.sum(matches))
    extra = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    if actual.dtype.is_floating_point and actual.dtype.itemsize == 1:
        first = tuple(torch.nonzero(~matches, as_tuple=False)[0].tolist())
        name = _name(identifier, "Tensor-likes")
        return f"{name} are not 'equal'!\n\n{extra}\nThe first mismatched element is at index {first}."
    actual_flat, expected_flat = actual.flatten(), expected.flatten()
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        actual_flat, expected_flat = actual_flat.to(torch.int64), expected_flat.to(torch.int64)
    matches_flat = matches.flatten()
    abs_diff = torch.abs(actual_flat - expected_flat)
    rel_diff = abs_diff / torch.abs(expected_flat)
    greatest_abs, abs_index = _greatest(abs_diff, matches_flat, matches.shape)
    greatest_rel, rel_index = _greatest(rel_diff, matches_flat, matches.shape)
    return numeric_mismatch(default_identifier="Tensor-likes", identifier=identifier,
                            extra=extra, abs_diff=greatest_abs, abs_diff_idx=abs_index,
                            atol=atol, rel_diff=greatest_rel, rel_diff_idx=rel_index, rtol=rtol)
