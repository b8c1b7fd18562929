"""einsum: Einstein summation, lowered to views, sums and batched matrix products.

The equation is parsed into labels per operand; each operand is then brought to one
common dim order (output labels first, then the labels summed away), taking a diagonal
for a label repeated within an operand and inserting size-1 dims for labels it lacks.
Operands are then contracted two at a time (left to right, or in the order `path`
gives) by `sumproduct_pair`: a permute, a reshape and one `bmm`. So the BLAS does the
work, and autograd flows through the operators used (a composite).

Labels are ordered as torch orders them: upper case before lower case, which decides
the dims of an implicit output (``'ij,jk'`` -> ``'ik'``) and of intermediate results.
"""
from __future__ import annotations

from ....c10.tensor_impl import TensorBase
from ...dispatcher import ops
from ...registry import composite
from .blas import bmm
from ..shape.shape import reshape
from ..shape.view import diagonal, permute, unsqueeze, view_

_aten = ops.aten
ELLIPSIS = "..."
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"   # torch's label order


def _parse_operands(lhs: str, count: int) -> list:
    """The labels of each operand (letters, and ELLIPSIS where one stands)."""
    labels, current, i, ellipsis_seen = [[] for _ in range(count)], 0, 0, False
    while i < len(lhs):
        char = lhs[i]
        if char == ".":
            if ellipsis_seen:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an "
                                   f"ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not "
                                   f"part of any ellipsis")
            labels[current].append(ELLIPSIS)
            ellipsis_seen, i = True, i + 2
        elif char == ",":
            current += 1
            if current >= count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            ellipsis_seen = False
        elif char != " ":
            if char not in _LETTERS:
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   f"equation string, subscripts must be in [a-zA-Z]")
            labels[current].append(char)
        i += 1
    if current != count - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return labels


def _count_labels(labels: list, tensors) -> tuple:
    """How often each label occurs, and how many dims the widest ellipsis covers."""
    counts, ellipsis_dims = dict.fromkeys(_LETTERS, 0), 0
    for i, (own, tensor) in enumerate(zip(labels, tensors)):
        has_ellipsis = ELLIPSIS in own
        named = len(own) - has_ellipsis
        ndim = tensor.dim()
        for label in own:
            if label != ELLIPSIS:
                counts[label] += 1
        if has_ellipsis:
            ellipsis_dims = max(ellipsis_dims, ndim - named)
        if (named > ndim) if has_ellipsis else (named != ndim):
            relation = "is more than" if has_ellipsis else "does not match"
            tail = "" if has_ellipsis else " and no ellipsis was given"
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) "
                               f"{relation} the number of dimensions ({ndim}) for operand "
                               f"{i}{tail}")
    return counts, ellipsis_dims


def _output_positions(rhs, lhs: str, counts: dict, ellipsis_dims: int) -> tuple:
    """Where each label and the ellipsis dims go in the common dim order.

    Returns (positions, ellipsis_start, output_dims, total_dims): output dims come first,
    then the ellipsis dims if the output drops them, then the summed labels.
    """
    positions, index, ellipsis_start, ellipsis_out = {}, 0, 0, False
    if rhs is None:                 # implicit: the ellipsis, then labels seen once
        index, ellipsis_out = ellipsis_dims, True
        for label in _LETTERS:
            if counts[label] == 1:
                positions[label], index = index, index + 1
    else:
        i = 0
        while i < len(rhs):
            char = rhs[i]
            if char == ".":
                if ellipsis_out:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                       "was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                ellipsis_start, index, ellipsis_out, i = index, index + ellipsis_dims, True, i + 2
            elif char != " ":
                _check_output_label(char, len(lhs) + 2 + i, counts, positions)
                positions[char], index = index, index + 1
            i += 1
    output_dims = index
    if not ellipsis_out:
        ellipsis_start, index = index, index + ellipsis_dims
    for label in _LETTERS:
        if counts[label] and label not in positions:
            positions[label], index = index, index + 1
    return positions, ellipsis_start, output_dims, index


def _check_output_label(char: str, at: int, counts: dict, positions: dict) -> None:
    if char not in _LETTERS:
        raise RuntimeError(f"einsum(): invalid subscript given at index {at} in the equation "
                           f"string, subscripts must be in [a-zA-Z]")
    if not counts[char] or char in positions:
        why = ("appears more than once in the output" if char in positions
               else "does not appear in the equation for any input operand")
        raise RuntimeError(f"einsum(): output subscript {char} {why}")


class _Layout:
    """The common dim order, and the sizes seen so far for each label and ellipsis dim."""

    def __init__(self, positions: dict, ellipsis_start: int, ellipsis_dims: int,
                 total: int) -> None:
        self.positions, self.ellipsis_start = positions, ellipsis_start
        self.ellipsis_dims, self.total = ellipsis_dims, total
        self.label_sizes = dict.fromkeys(positions, 1)
        self.ellipsis_sizes = [1] * ellipsis_dims
        self.non_trivial = [0] * total       # operands with a size != 1 at each position


def _align(tensor, own: list, i: int, layout: _Layout):
    """`tensor` with its dims in the common order (diagonals taken, size-1 dims added)."""
    permutation, dim = [-1] * layout.total, 0
    covered = tensor.dim() - (len(own) - 1)         # by the ellipsis, if there is one
    for label in own:
        if label == ELLIPSIS:
            for j in range(layout.ellipsis_dims - covered, layout.ellipsis_dims):
                size = tensor._size[dim]
                if size != 1:
                    seen = layout.ellipsis_sizes[j]
                    if seen not in (1, size):
                        raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in "
                                           f"operand {i}has size {size} which does not "
                                           f"broadcast with previously seen ellipsis with size "
                                           f"{seen} for the respective dimension")
                    layout.ellipsis_sizes[j] = size
                    layout.non_trivial[layout.ellipsis_start + j] += 1
                permutation[layout.ellipsis_start + j], dim = dim, dim + 1
            continue
        position = layout.positions[label]
        if permutation[position] == -1:
            size = tensor._size[dim]
            if size != 1:
                if layout.label_sizes[label] not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {label} has size {size} for "
                                       f"operand {i} which does not broadcast with previously "
                                       f"seen size {layout.label_sizes[label]}")
                layout.label_sizes[label] = size
                layout.non_trivial[position] += 1
            permutation[position], dim = dim, dim + 1
        else:                       # a repeated label: keep the diagonal, at the first place
            first = permutation[position]
            if tensor._size[dim] != tensor._size[first]:
                raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {i} "
                                   f"but the sizes don't match, {tensor._size[dim]} != "
                                   f"{tensor._size[first]}")
            tensor = _aten.movedim.int.call(diagonal.call(tensor, 0, first, dim), -1, first)
    for position in range(layout.total):
        if permutation[position] == -1:
            tensor = unsqueeze.call(tensor, dim)
            permutation[position], dim = dim, dim + 1
    return permute.call(tensor, permutation)


def _sum_keepdim(tensor, dims: list):
    return _aten.sum.dim_IntList.call(tensor, dims, True, None)


def sumproduct_pair(left, right, sum_dims: list):
    """``(left * right).sum(sum_dims, keepdim=True)`` for aligned operands, as one bmm.

    Dims are grouped into those in both operands and the result, those of one operand
    only, and the summed ones; each operand is permuted and reshaped into a batch of
    matrices, multiplied, and the product viewed back in the original dim order.
    """
    if not sum_dims:
        return _aten.mul.Tensor.call(left, right)
    both, left_only, right_only = [], [], []
    both_size = left_size = right_size = summed_size = 1
    for d in range(left.dim()):
        in_left, in_right = left._size[d] != 1, right._size[d] != 1
        if d in sum_dims:
            if in_left and in_right:
                if left._size[d] != right._size[d]:
                    raise RuntimeError("non-broadcast dimensions must match")
                summed_size *= left._size[d]
            elif in_left:
                left = _sum_keepdim(left, [d])
            elif in_right:
                right = _sum_keepdim(right, [d])
        elif in_left and in_right:
            if left._size[d] != right._size[d]:
                raise RuntimeError("non-broadcast dimensions must match")
            both.append(d)
            both_size *= left._size[d]
        elif in_left:
            left_only.append(d)
            left_size *= left._size[d]
        else:
            right_only.append(d)
            right_size *= right._size[d]
    if left_only and right_only and right_only[-1] < left_only[0]:
        # when all of right's own dims come before left's, right goes first, so that the
        # product comes out in the aligned order (torch's choice, which fixes the strides)
        left, right = right, left
        left_only, right_only = right_only, left_only
        left_size, right_size = right_size, left_size
    order = both + left_only + sum_dims + right_only
    out_size = ([left._size[d] for d in both + left_only] + [1] * len(sum_dims)
                + [right._size[d] for d in right_only])
    left = reshape.call(permute.call(left, order), (both_size, left_size, summed_size))
    right = reshape.call(permute.call(right, both + sum_dims + right_only + left_only),
                         (both_size, summed_size, right_size))
    product = view_.call(bmm.call(left, right), out_size)
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    return permute.call(product, inverse)


def _contract(operands: list, layout: _Layout, output_dims: int, path) -> object:
    """Multiply the aligned operands two at a time, summing dims as soon as no other
    operand needs them."""
    steps = iter(path or ())
    while len(operands) > 1:
        i, j = 0, 1
        if path is not None:
            i, j = sorted((next(steps), next(steps)))
            if i == j or i < 0 or j >= len(operands):
                why = ("cannot contract an operand with itself" if i == j
                       else "operand index is out of bounds")
                raise RuntimeError(f"einsum(): invalid contraction ({i}, {j}) {why}")
        a, b = operands[i], operands[j]
        del operands[j], operands[i]
        sum_dims, a_only, b_only = [], [], []
        for d in range(output_dims, layout.total):
            if a._size[d] != 1 and b._size[d] != 1:
                layout.non_trivial[d] -= 1
                if layout.non_trivial[d] == 1:
                    sum_dims.append(d)
                    layout.non_trivial[d] = 0
            elif layout.non_trivial[d] == 1:
                if a._size[d] != 1:
                    a_only.append(d)
                    layout.non_trivial[d] = 0
                elif b._size[d] != 1:
                    b_only.append(d)
                    layout.non_trivial[d] = 0
        a = _sum_keepdim(a, a_only) if a_only else a
        b = _sum_keepdim(b, b_only) if b_only else b
        product = sumproduct_pair(a, b, sum_dims)
        operands.insert(len(operands) if path is not None else 0, product)
    return operands[0]


@composite("einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
           function=False)
def einsum(equation, tensors, path=None):
    """Einstein summation over the operands `tensors` (see `torch.einsum`)."""
    if not tensors:
        raise RuntimeError("einsum(): must provide at least one operand")
    count = len(tensors)
    if path is not None:
        expected = 1 if count == 1 else (count - 1) * 2
        if len(path) != expected:
            raise RuntimeError(f"einsum(): expected contraction path given in path parameter "
                               f"to have size {expected} but got {len(path)}")
    lhs, arrow, rhs = equation.partition("->")
    labels = _parse_operands(lhs, count)
    counts, ellipsis_dims = _count_labels(labels, tensors)
    positions, ellipsis_start, output_dims, total = _output_positions(
        rhs if arrow else None, lhs, counts, ellipsis_dims)
    layout = _Layout(positions, ellipsis_start, ellipsis_dims, total)
    operands = [_align(tensor, own, i, layout)
                for i, (tensor, own) in enumerate(zip(tensors, labels))]
    result = _contract(operands, layout, output_dims, path)
    if total == output_dims:
        return result
    if count > 1:            # the summed dims are all size 1 by now
        return view_.call(result, result._size[:output_dims])
    return _aten.sum.dim_IntList.call(result, list(range(output_dims, total)), False, None)


def _subscripts(numbers) -> str:
    """A sublist (``[0, 1, Ellipsis]``) as equation labels (0-25: A-Z, 26-51: a-z)."""
    labels = []
    for n in numbers:
        if n is Ellipsis:
            labels.append(ELLIPSIS)
        elif 0 <= n < 52:
            labels.append(_LETTERS[n])
        else:
            raise ValueError("einsum(): subscript in subscript list is not within the valid "
                             "range [0, 52)")
    return "".join(labels)


def einsum_function(*args):
    """Sums the product of the operands over the dims the equation names (Einstein
    notation).

    Args:
        equation (str): subscripts of each operand, comma separated, optionally ``->``
            and the output's subscripts; ``...`` stands for any number of broadcast dims.
            Without ``->`` the output has the ellipsis dims, then every label seen once,
            in alphabetical order (upper case first). A label repeated within an operand
            takes its diagonal.
        operands (Tensor): the operands, as several arguments or one list. The sublist
            form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` is accepted too.

    Example::

        >>> a, b = torch.ones(2, 3), torch.ones(3, 4)
        >>> torch.einsum('ij,jk->ik', a, b).shape
        torch.Size([2, 4])
        >>> torch.einsum('ii', torch.eye(3))
        tensor(3.)
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], TensorBase):
        equation = ",".join(_subscripts(s) for s in args[1::2])
        if len(args) % 2:
            equation += "->" + _subscripts(args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _aten.einsum.default(equation, list(operands))
