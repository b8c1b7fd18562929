"""torch.masked.MaskedTensor: a tensor whose elements are each present or absent.

Note [MaskedTensor as a wrapper]
    A MaskedTensor holds two strided tensors of one shape: `_masked_data`, the values,
    and `_masked_mask`, bool, True where a value is present. The MaskedTensor itself
    is a wrapper with their geometry, dtype and device, whose key set is the Python key
    and the backend's: every operator called with it reaches `__torch_dispatch__`
    (Note [Subclass dispatch] in aten/python_dispatch.py), which looks the operator up
    in `ops.py`'s table and runs it on the data and the mask (a unary operator on the
    data alone, keeping the mask; a reduction on the present values, the result present
    where any was). Operators not in the table warn and fail, as torch's do.

    The wrapper's own memory is never read, and it records no autograd graph: the
    graph is the data's. Its `requires_grad`, `grad_fn`, `is_leaf` and `backward` are
    the data's, and its `grad` is the data's gradient under its mask, so gradients
    reach the data only through present elements, as torch's MaskedTensor gives them.
"""
from __future__ import annotations

import copy
import warnings

import glasstorch as torch

from ...c10.dispatch_key import KEYS_BY_DEVICE_TYPE, PYTHON, DispatchKey
from ...c10.tensor_impl import make_tensor

__all__ = ["MaskedTensor", "is_masked_tensor"]

_SUPPORTED_DTYPES = (torch.float16, torch.float32, torch.float64, torch.bool, torch.int8,
                     torch.int16, torch.int32, torch.int64)
_PROTOTYPE = ("The PyTorch API of MaskedTensors is in prototype stage and will change in the "
              "near future. Please open a Github issue for features requests and see our "
              "documentation on the torch.masked module for further information about the "
              "project.")
_DATA_REQUIRES_GRAD = ("It is not recommended to create a MaskedTensor with a tensor that "
                       "requires_grad. To avoid this, you can use data.detach().clone()")
_WRAPPER_KEYS = ~int(DispatchKey.ADInplaceOrView)       # nor is it a view of anything
_UNSUPPORTED = ("{} is not implemented in __torch_dispatch__ for MaskedTensor.\nIf you would "
                "like this operator to be supported, please file an issue for a feature "
                "request at https://github.com/pytorch/maskedtensor/issues with a minimal "
                "reproducible code snippet.\nIn the case that the semantics for the operator "
                "are not trivial, it would be appreciated to also include a proposal for the "
                "semantics.")

# aten operator name -> rule(func, args) computing it on MaskedTensors; `ops.py` fills it
RULES: dict = {}


def is_masked_tensor(obj, /) -> bool:
    """Whether `obj` is a MaskedTensor.

    Example::

        >>> mt = torch.masked.masked_tensor(torch.ones(2), torch.tensor([True, False]))
        >>> torch.masked.is_masked_tensor(mt)
        True
    """
    return isinstance(obj, MaskedTensor)


def wrap(data, mask, fresh: bool = True) -> "MaskedTensor":
    """A MaskedTensor over `data` and `mask`, unchecked, the data's autograd graph kept.

    `fresh` (how operators' results are made) warns that the API is a prototype, as
    each of torch's results does (Python shows it once per place that made one), and
    gives the result copies of its own, so that it aliases no operand, as torch's
    constructor copies. Data in an autograd graph is kept as it is: its copy would be
    the result's `grad_fn` (CloneBackward0) where torch's is the operator's.
    """
    if fresh:
        warnings.warn(_PROTOTYPE, UserWarning, stacklevel=3)
        data = data if data.requires_grad else data.clone()
        mask = mask.clone()
    t = make_tensor(data._storage, data._size, data._stride, data._offset, data._dtype,
                    None, MaskedTensor)
    t._keys = PYTHON | (KEYS_BY_DEVICE_TYPE[data.device.type] & _WRAPPER_KEYS)
    t._masked_data = data
    t._masked_mask = mask
    return t


class MaskedTensor(torch.Tensor):
    """A tensor with a mask: `data`'s elements are present where `mask` is True.

    Operators apply to the present elements (Note [MaskedTensor as a wrapper]); the
    absent ones print as ``--``.

    Args:
        data (Tensor): the values (copied).
        mask (Tensor): bool, of data's shape and layout (copied).
        requires_grad (bool): whether gradients are recorded for it.

    Example::

        >>> data = torch.tensor([1., 2., 3.])
        >>> torch.masked.MaskedTensor(data, torch.tensor([True, False, True])).sum()
        MaskedTensor(  4.0000, True)
    """

    def __new__(cls, data, mask, requires_grad: bool = False):
        _check_arguments(data, mask)
        self = wrap(data.detach().clone(), mask.clone(), fresh=False)
        self._validate_members()
        self._masked_data.requires_grad_(requires_grad)
        return self

    def __init__(self, data, mask, requires_grad: bool = False) -> None:
        pass                                  # __new__ built it

    @staticmethod
    def _from_values(data, mask) -> "MaskedTensor":
        """A MaskedTensor over a copy of `data` that keeps its autograd graph."""
        _check_arguments(data, mask)
        result = wrap(data.clone(), mask.clone(), fresh=False)
        result._validate_members()
        return result

    def _set_data_mask(self, data, mask) -> None:
        self._masked_data, self._masked_mask = data, mask
        self._validate_members()

    def _validate_members(self) -> None:
        data, mask = self._masked_data, self._masked_mask
        if type(data) is not type(mask):
            raise TypeError(f"data and mask must have the same type. Got {type(data)} and "
                            f"{type(mask)}")
        if data.layout != torch.strided:
            raise TypeError(f"data layout of {data.layout} is not supported.")
        if mask.dtype != torch.bool:
            raise TypeError("mask must have dtype bool.")
        if data.dtype not in _SUPPORTED_DTYPES:
            raise TypeError(f"{data.dtype} is not supported in MaskedTensor.")
        if data.dim() != mask.dim():
            raise ValueError("data.dim() must equal mask.dim()")
        if data.size() != mask.size():
            raise ValueError("data.size() must equal mask.size()")

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        """The operator's rule; a warning and NotImplemented when it has none."""
        name = func.overloadpacket._name
        rule = RULES.get(name)
        if rule is None:
            warnings.warn(_UNSUPPORTED.format(name), stacklevel=3)
            return NotImplemented
        return rule(func, args)

    # ----- the data and the mask -------------------------------------------------
    def get_data(self):
        """The values, absent ones included (a gradient reaching them is masked)."""
        return self._masked_data

    def get_mask(self):
        """The bool mask: True where a value is present."""
        return self._masked_mask

    def to_tensor(self, value):
        """A strided tensor: the present values, and `value` where they are absent."""
        return self._masked_data.masked_fill(~self._masked_mask, value)

    def is_sparse_coo(self) -> bool:
        return self.layout == torch.sparse_coo

    def is_sparse_csr(self) -> bool:
        return self.layout == torch.sparse_csr

    @property
    def is_sparse(self) -> bool:
        return self.is_sparse_coo() or self.is_sparse_csr()

    # ----- autograd: the data's --------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._masked_data.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self._masked_data.requires_grad = flag

    def requires_grad_(self, requires_grad: bool = True) -> "MaskedTensor":
        self._masked_data.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._masked_data.grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._masked_data.is_leaf

    @property
    def grad(self):
        grad = self._masked_data.grad
        return None if grad is None else wrap(grad, self._masked_mask, fresh=False)

    @grad.setter
    def grad(self, value) -> None:
        self._masked_data.grad = value._masked_data if is_masked_tensor(value) else value

    def retain_grad(self) -> None:
        self._masked_data.retain_grad()

    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False,
                 inputs=None) -> None:
        if is_masked_tensor(gradient):
            gradient = gradient._masked_data
        self._masked_data.backward(gradient, retain_graph, create_graph, inputs)

    # ----- Python protocol -------------------------------------------------------
    def __repr__(self, *, tensor_contents=None) -> str:
        data, mask = self._masked_data, self._masked_mask
        if data.dim() == 0:
            shown = _format(data.item()) if mask.item() else "--"
            return f"MaskedTensor({shown}, {mask.item()})"
        lines = _rows(data.tolist(), mask.tolist(), data.dim())
        return "MaskedTensor(\n" + "\n".join("  " + line for line in lines) + "\n)"

    __str__ = __repr__

    def __copy__(self) -> "MaskedTensor":
        return wrap(self._masked_data, self._masked_mask, fresh=False)

    def __deepcopy__(self, memo: dict) -> "MaskedTensor":
        return wrap(copy.deepcopy(self._masked_data, memo),
                    copy.deepcopy(self._masked_mask, memo), fresh=False)

    def __matmul__(self, other):              # no matmul rule: Python's own TypeError
        raise TypeError(f"unsupported operand type(s) for @: 'MaskedTensor' and "
                        f"'{type(other).__name__}'")

    def __rmatmul__(self, other):
        raise TypeError(f"unsupported operand type(s) for @: '{type(other).__name__}' and "
                        f"'MaskedTensor'")

    def tolist(self):
        raise RuntimeError(".tolist() is not supported for tensor subclasses, got "
                           "MaskedTensor")

    def numpy(self, *, force: bool = False):
        raise RuntimeError(".numpy() is not supported for tensor subclasses.")

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted "
                               f"to Scalar")
        if not self._masked_mask.all():
            raise ValueError("__torch_dispatch__, aten._local_scalar_dense: expected a mask "
                             "tensor")
        return self._masked_data.item()

    def __lt__(self, other):
        other = other._masked_data if is_masked_tensor(other) else other
        return wrap(self._masked_data < other, self._masked_mask)


def _check_arguments(data, mask) -> None:
    """The constructor's checks before any copy, and its warnings."""
    if is_masked_tensor(data) or not isinstance(data, torch.Tensor):
        raise TypeError("data must be a Tensor")
    if is_masked_tensor(mask) or not isinstance(mask, torch.Tensor):
        raise TypeError("mask must be a Tensor")
    warnings.warn(_PROTOTYPE, UserWarning, stacklevel=4)
    if data.requires_grad:
        warnings.warn(_DATA_REQUIRES_GRAD, UserWarning, stacklevel=4)
    if data.layout != mask.layout:
        raise TypeError("data and mask must have the same layout.")


def _format(value) -> str:
    return f"{value:8.4f}" if isinstance(value, float) else str(value)


def _rows(data: list, mask: list, dim: int) -> list:
    """The lines of a (sub)tensor's text: a 1-d one on a line, absent values as ``--``
    padded to the widest present one (at least 8 wide); higher ones nested in brackets."""
    if dim == 1:
        shown = [_format(value) for value in data]
        width = max(len(text) if present else 8 for text, present in zip(shown, mask))
        return ["[" + ", ".join(text if present else "--".rjust(width)
                                for text, present in zip(shown, mask)) + "]"]
    blocks = [["  " + line for line in _rows(d, m, dim - 1)] for d, m in zip(data, mask)]
    lines = ["["]
    for i, block in enumerate(blocks):
        lines += block[:-1] + [block[-1] + ("," if i < len(blocks) - 1 else "")]
    return lines + ["]"]
