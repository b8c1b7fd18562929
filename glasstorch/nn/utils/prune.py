"""torch.nn.utils.prune: zero out parts of a module's parameters through masks.

Note [Pruning by reparametrization]
    Pruning ``module.<name>`` moves the parameter to ``<name>_orig``, stores a 0/1
    ``<name>_mask`` buffer, and installs the pruning method as a forward pre-hook that
    sets the plain attribute ``<name> = <name>_mask * <name>_orig`` before every call;
    gradients reach ``<name>_orig`` through the product, zero where masked. Pruning the
    same parameter again combines the methods in a `PruningContainer`: the new method
    computes its mask on the entries (unstructured) or channels (structured) the
    current mask still keeps, so amounts given as fractions are fractions of what is
    left. `remove` makes the pruning permanent (the parameter holds the masked values).
"""
from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import glasstorch as torch

from .convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
           "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask",
           "identity", "random_unstructured", "l1_unstructured", "random_structured",
           "ln_structured", "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


class BasePruningMethod(ABC):
    """The base of the pruning methods: a forward pre-hook applying the mask, and the
    machinery that installs it (Note [Pruning by reparametrization]). Subclasses define
    ``PRUNING_TYPE`` (``"unstructured"``, ``"structured"`` with a ``dim``, or
    ``"global"``) and `compute_mask`."""

    _tensor_name: str

    def __call__(self, module, inputs) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask for `t` (the importance scores), given the mask it already has.

        Args:
            t (Tensor): the tensor (or its importance scores) to prune.
            default_mask (Tensor): the current mask, of `t`'s shape.

        Returns:
            Tensor: the new mask, of `t`'s shape.
        """

    def apply_mask(self, module):
        """``<name>_mask * <name>_orig`` of `module` (the mask in the parameter's dtype)."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune ``module.<name>`` with a new ``cls(*args, **kwargs)``, combined with any
        pruning already there; on failure the module is left as it was.

        Args:
            module (Module): the module.
            name (str): the parameter's name.
            args, kwargs: the method's constructor arguments.
            importance_scores (Tensor, optional): what the mask is computed from, of the
                parameter's shape (default: the parameter itself).

        Returns:
            BasePruningMethod: the hook installed (a container when combined).
        """
        method = _combined_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}, got {importance_scores.shape} vs "
                                 f"{orig.shape}")
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(
                memory_format=torch.contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:      # put the parameter back
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """`t` times its mask, without touching any module.

        Args:
            t (Tensor): the tensor to prune.
            default_mask (Tensor, optional): its current mask (default: all ones).
            importance_scores (Tensor, optional): what the mask is computed from.

        Returns:
            Tensor: the pruned tensor.
        """
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError(f"importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        """Make the pruning permanent: ``module.<name>`` is a parameter holding the
        masked values; ``_orig`` and ``_mask`` go."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be "
                                 "removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _combined_method(cls, module, name, *args, **kwargs):
    """The new method, joined with the hook already pruning `name` (taken off the
    module) into a container."""
    previous = [(key, hook) for key, hook in module._forward_pre_hooks.items()
                if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(previous) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} "
                             f"of module {module}. Use a PruningContainer.")
    for key, _ in previous:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if not previous:
        return method
    old = previous[0][1]
    if isinstance(old, PruningContainer):
        old.add_pruning_method(method)
        return old
    container = PruningContainer(old)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The pruning methods applied in turn to one parameter; its mask is the last
    method's, computed on what the earlier masks keep (Note [Pruning by
    reparametrization]).

    Args:
        args (BasePruningMethod): the methods, in the order they were applied.
    """

    def __init__(self, *args) -> None:
        self._pruning_methods: tuple = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        """Append `method`, which must prune the same parameter."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        """The last method's mask, computed on the part of `t` that `default_mask` keeps:
        the kept entries (unstructured), the kept channels along the method's dim
        (structured), or all of `t` (global)."""
        method = self._pruning_methods[-1]
        mask = default_mask.to(dtype=t.dtype)
        kept = _kept_part(method, t, default_mask)
        partial = method.compute_mask(t[kept], default_mask=default_mask[kept])
        mask[kept] = partial.to(dtype=mask.dtype)
        return mask


def _kept_part(method, t, mask):
    """The index selecting what `method` prunes among what `mask` keeps."""
    kind = method.PRUNING_TYPE
    if kind == "unstructured":
        return mask == 1
    if kind == "global":
        return (slice(None),) * len(t.shape)
    if kind != "structured":
        raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
    if not hasattr(method, "dim"):
        raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the '
                             "attribute `dim` defined.")
    ndim = t.dim()
    dim = method.dim + ndim if method.dim < 0 else method.dim
    if dim < 0:
        raise IndexError(f"Index is out of bounds for tensor with dimensions {ndim}")
    channels = mask.sum(dim=[d for d in range(ndim) if d != dim]) != 0
    index = [slice(None)] * ndim
    index[dim] = channels
    return tuple(index)


class Identity(BasePruningMethod):
    """Prunes nothing: the mask is all ones (useful to reparametrize a parameter)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        """Reparametrize ``module.<name>`` with an all-ones mask."""
        return super().apply(module, name)


class _UnstructuredByRank(BasePruningMethod):
    """Prunes the `amount` entries ranked first by `_chosen` (the unstructured methods
    differ only in how they rank).

    Args:
        amount (int or float): how many entries (int) or what fraction of them (float
            in [0, 1]).
    """

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _count_to_prune(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if count != 0:
            mask.view(-1)[self._chosen(t, count)] = 0
        return mask


class RandomUnstructured(_UnstructuredByRank):
    """Prunes `amount` entries chosen uniformly at random.

    Args:
        amount (int or float): how many entries (int) or what fraction of them (float
            in [0, 1]).
    """

    def _chosen(self, t, count: int):
        return torch.topk(torch.rand_like(t).view(-1), k=count).indices

    @classmethod
    def apply(cls, module, name, amount):
        """Prune ``module.<name>`` at random; see the class."""
        return super().apply(module, name, amount=amount)


class L1Unstructured(_UnstructuredByRank):
    """Prunes the `amount` entries of smallest absolute value.

    Args:
        amount (int or float): how many entries (int) or what fraction of them (float
            in [0, 1]).
    """

    def _chosen(self, t, count: int):
        return torch.topk(torch.abs(t).view(-1), k=count, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        """Prune the smallest entries of ``module.<name>`` (or of `importance_scores`)."""
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` whole channels along `dim`, chosen at random.

    Args:
        amount (int or float): how many channels (int) or what fraction (float).
        dim (int): the channels' dim (default -1).
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        channels = _structured_size(t, self.dim)
        count = _count_to_prune(self.amount, channels)
        if count == 0:
            return default_mask
        draws = torch.rand(channels)
        threshold = torch.kthvalue(draws, k=count).values
        mask = _channel_mask(t, self.dim, draws > threshold)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        """Prune random channels of ``module.<name>``; see the class."""
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the `amount` channels along `dim` of smallest `n`-norm.

    Args:
        amount (int or float): how many channels (int) or what fraction (float).
        n (int, float, inf, -inf, 'fro', 'nuc'): the norm's order.
        dim (int): the channels' dim (default -1).
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        channels = _structured_size(t, self.dim)
        count = _count_to_prune(self.amount, channels)
        largest = torch.topk(_compute_norm(t, self.n, self.dim), k=channels - count,
                             largest=True)
        if count == 0:
            return default_mask
        mask = _channel_mask(t, self.dim, largest.indices)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        """Prune the channels of ``module.<name>`` of smallest norm; see the class."""
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is 0.

    Args:
        mask (Tensor): the mask, of the parameter's shape.
    """

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        """Prune ``module.<name>`` where `mask` is 0."""
        return super().apply(module, name, mask=mask)


def identity(module, name):
    """Reparametrize ``module.<name>`` with an all-ones mask (prune nothing).

    Example::

        >>> m = prune.identity(nn.Linear(2, 3), "bias")
        >>> m.bias_mask
        tensor([1., 1., 1.])
    """
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune `amount` random entries of ``module.<name>`` (`RandomUnstructured`).

    Example::

        >>> m = prune.random_unstructured(nn.Linear(2, 3), "weight", amount=1)
        >>> int(torch.sum(m.weight_mask == 0))
        1
    """
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune the `amount` smallest entries of ``module.<name>`` (`L1Unstructured`).

    Example::

        >>> m = prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=0.2)
    """
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune `amount` random channels of ``module.<name>`` along `dim`
    (`RandomStructured`).

    Example::

        >>> m = prune.random_structured(nn.Linear(5, 3), "weight", amount=3, dim=1)
    """
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune the `amount` channels of ``module.<name>`` along `dim` of smallest `n`-norm
    (`LnStructured`).

    Example::

        >>> m = prune.ln_structured(nn.Conv2d(5, 3, 2), "weight", amount=0.3, dim=1, n=float("-inf"))
    """
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    """Prune several parameters together: `pruning_method` (unstructured) chooses among
    all their entries as one vector, and each parameter gets its share of the mask.

    Args:
        parameters (Iterable of (Module, str)): the parameters.
        pruning_method (type): an unstructured pruning method class.
        importance_scores (dict, optional): ``{(module, name): scores}`` to rank by.
        kwargs: the method's arguments (``amount``).

    Example::

        >>> prune.global_unstructured([(net.fc1, "weight"), (net.fc2, "weight")],
        ...                           pruning_method=prune.L1Unstructured, amount=10)
    """
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    parameters = list(parameters)
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    masks = parameters_to_vector([
        getattr(module, name + "_mask", torch.ones_like(getattr(module, name)))
        for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final = container.compute_mask(scores, masks)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        custom_from_mask(module, name, mask=final[start:start + param.numel()].view_as(param))
        start += param.numel()


def custom_from_mask(module, name, mask):
    """Prune ``module.<name>`` where `mask` is 0 (`CustomFromMask`).

    Example::

        >>> m = prune.custom_from_mask(nn.Linear(5, 3), "bias", torch.tensor([0, 1, 0]))
    """
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Make the pruning of ``module.<name>`` permanent: it becomes a plain parameter
    holding the masked values.

    Example::

        >>> m = prune.remove(prune.random_unstructured(nn.Linear(5, 7), "weight", 0.2), "weight")
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module) -> bool:
    """Whether `module` or any of its submodules has a pruning hook.

    Example::

        >>> prune.is_pruned(nn.Linear(5, 7))
        False
    """
    return any(isinstance(hook, BasePruningMethod) for _, sub in module.named_modules()
               for hook in sub._forward_pre_hooks.values())


def _validate_pruning_amount_init(amount) -> None:
    """An amount is a non-negative int or a float in [0, 1]."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _count_to_prune(amount, size: int) -> int:
    """How many of `size` units `amount` prunes (checked against `size`)."""
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(f"amount={amount} should be smaller than the number of "
                             f"parameters to prune={size}")
        return amount
    return round(amount * size)


def _structured_size(t, dim: int) -> int:
    """The number of channels of `t` along `dim` (structured pruning needs 2+ dims)."""
    if len(t.shape) <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {t.shape} with {len(t.shape)} dims")
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")
    return t.shape[dim]


def _channel_mask(t, dim: int, channels):
    """Ones in the `channels` (a bool mask or indices) of `t` along `dim`, zeros elsewhere."""
    mask = torch.zeros_like(t)
    index = [slice(None)] * len(t.shape)
    index[dim] = channels
    mask[tuple(index)] = 1
    return mask


def _compute_norm(t, n, dim: int):
    """The `n`-norm of each channel of `t` along `dim` (over every other dim)."""
    dims = list(range(t.dim()))
    dims.remove(dims[dim])
    return torch.norm(t, p=n, dim=dims)
