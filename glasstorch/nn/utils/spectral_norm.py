"""torch.nn.utils.spectral_norm: spectral normalization as a forward pre-hook (the older
form; `parametrizations.spectral_norm` is its successor).

The module's ``<name>`` parameter moves to ``<name>_orig``; the buffers ``<name>_u`` and
``<name>_v`` hold the power iteration's singular-vector estimates, and a forward pre-hook
sets ``<name> = <name>_orig / σ`` with ``σ = uᵀ W v`` before every call (one more
iteration first, in training mode). State dicts record the hook's version in their
metadata; a version-0 state dict (which stored ``<name>`` and no ``<name>_v``) is
converted on load by solving for ``v``.
"""
from __future__ import annotations

from typing import Any, TypeVar

import glasstorch as torch

from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook",
           "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook dividing ``<name>_orig`` by its estimated spectral norm.

    Args:
        name (str): the parameter's name (default ``"weight"``).
        n_power_iterations (int): power-iteration steps per training-mode call.
        dim (int): the dim of the output channels.
        eps (float): guards the normalizations.
    """

    # 1: ``<name>_v`` is a buffer and ``<name>`` is not saved
    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """The weight as a matrix: `dim` first, every other dim flattened."""
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool):
        """``<name>_orig / σ``, after `n_power_iterations` steps when asked (written into
        the buffers in place; the σ used then differentiates through clones of them)."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(torch.mv(matrix.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(torch.mv(matrix, v), dim=0, eps=self.eps, out=u)
                u = u.clone(memory_format=torch.contiguous_format)
                v = v.clone(memory_format=torch.contiguous_format)
        sigma = torch.dot(u, torch.mv(matrix, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        """Put back one ``<name>`` parameter holding the current normalized weight."""
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name,
                self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, matrix, u, target_sigma):
        """The v with ``uᵀ W v = target_sigma`` closest to ``W⁺ u`` (for old state dicts)."""
        v = torch.linalg.multi_dot([matrix.t().mm(matrix).pinverse(), matrix.t(),
                                    u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / torch.dot(u, torch.mv(matrix, v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        """Move ``module.<name>`` to ``<name>_orig``, draw the starting vectors (two
        normal draws, u first) and install the hooks."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "spectral normalization")
        with no_grad():
            rows, columns = fn.reshape_weight_to_matrix(weight).size()
            u = F.normalize(weight.new_empty(rows).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(columns).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # a plain attribute until the first call (state_dict must not save it)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Converts a version-0 state dict (``<name>``, ``<name>_orig``, ``<name>_u``) on
    load: σ is recovered from the ratio of the two weights, and v solved for."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        key = prefix + fn.name
        if version is None and key not in state_dict and \
                all(key + s in state_dict for s in ("_orig", "_u", "_v")):
            return      # saved without metadata, but already in the current layout
        missing = [key + s for s in ("_orig", "", "_u") if key + s not in state_dict]
        if missing:
            if strict:
                missing_keys.extend(missing)
            return
        with no_grad():
            weight_orig = state_dict[key + "_orig"]
            sigma = (weight_orig / state_dict.pop(key)).mean()
            matrix = fn.reshape_weight_to_matrix(weight_orig)
            state_dict[key + "_v"] = fn._solve_v_and_rescale(matrix, state_dict[key + "_u"],
                                                             sigma)


class SpectralNormStateDictHook:
    """Records the hook's version in the state dict's metadata."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        recorded = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in recorded:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        recorded[key] = self.fn._version


T_module = TypeVar("T_module", bound=Module)


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> T_module:
    """Divide ``module.<name>`` by its spectral norm (largest singular value), estimated
    by power iteration before every forward call (one more step per call in training
    mode).

    Args:
        module (Module): the module.
        name (str): the parameter's name (default ``"weight"``).
        n_power_iterations (int): steps per training-mode call (default 1).
        eps (float): guards the normalizations (default 1e-12).
        dim (int, optional): the dim of the output channels (default 0, 1 for
            ConvTranspose modules).

    Returns:
        Module: `module`, with the hooks.

    Example::

        >>> m = spectral_norm(nn.Linear(20, 40))
        >>> m.weight_u.size()
        torch.Size([40])
    """
    if dim is None:
        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo `spectral_norm`: ``module.<name>`` is one parameter again, holding the
    normalized weight.

    Args:
        module (Module): the module.
        name (str): the parameter's name (default ``"weight"``).

    Returns:
        Module: `module`.

    Example::

        >>> m = remove_spectral_norm(spectral_norm(nn.Linear(40, 10)))
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for table, kind in ((module._state_dict_hooks, SpectralNormStateDictHook),
                        (module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook)):
        for key, hook in table.items():
            if isinstance(hook, kind) and hook.fn.name == name:
                del table[key]
                break
    return module
