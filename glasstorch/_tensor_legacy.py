"""Tensor attributes kept for old programs and for builds glasstorch is not.

``Tensor.volatile`` and ``Tensor.reinforce`` are long removed (reading the one warns,
calling the other refuses, in torch's words); ``Tensor.name`` belongs to named tensors,
and is None on every tensor; ``is_distributed`` answers False, as for every tensor of a
build without distributed tensors. `module_load` is the hook `nn.Module.load_state_dict`
asks when it swaps parameters. Also the top-level `is_distributed` and
`is_vulkan_available`.
"""
from __future__ import annotations

import warnings

from .c10.tensor_impl import TensorBase

_REINFORCE_REMOVED = """reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/main/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
"""


class TensorLegacy:
    """Legacy and build-specific Tensor attributes (a base of `Tensor`)."""

    __slots__ = ()

    @property
    def volatile(self) -> bool:
        """Always False, with a warning: ``torch.no_grad()`` replaced volatile tensors."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                      "instead.", stacklevel=2)

    def reinforce(self, *args, **kwargs):
        """Removed: raises, showing how torch.distributions replaces it."""
        raise RuntimeError(_REINFORCE_REMOVED)

    @property
    def name(self) -> None:
        """The tensor's name as a named tensor: None (glasstorch has no named tensors)."""
        return None

    def is_distributed(self) -> bool:
        """Whether this tensor is spread over processes: never, in this build."""
        return False

    def module_load(self, other: TensorBase, assign: bool = False) -> TensorBase:
        """What `nn.Module.load_state_dict` swaps in for this parameter or buffer.

        Args:
            other (Tensor): the state dict's value for this parameter or buffer.
            assign (bool): `load_state_dict`'s `assign`: take `other` itself (detached)
                rather than copying it into this tensor.

        Returns:
            A new tensor, neither this one nor `other`.

        Example::

            >>> torch.zeros(2).module_load(torch.ones(2))
            tensor([1., 1.])
        """
        if assign:
            return other.detach()
        return self.copy_(other).detach()


def is_distributed(input: TensorBase) -> bool:
    """Whether `input` is spread over processes: never, in this build."""
    if not isinstance(input, TensorBase):
        raise TypeError("is_distributed(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    return False


def is_vulkan_available() -> bool:
    """Whether this build runs on Vulkan GPUs: False (a CPU build)."""
    return False
