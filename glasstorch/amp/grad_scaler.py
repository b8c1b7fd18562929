"""`torch.amp.GradScaler`: loss scaling, so that small float16 gradients do not underflow.

The loss is multiplied by a scale before backward; before the optimizer steps, the
gradients are divided by it again, and a step whose gradients hold an inf or a NaN is
skipped. `update` then shrinks the scale after such a step (by `backoff_factor`) or
grows it after `growth_interval` clean steps in a row (by `growth_factor`). Disabled (or
asked for CUDA in this build), every method is a pass-through.
"""
from __future__ import annotations

import enum
import warnings
from collections import abc, defaultdict

from .. import _tensor
from ..c10 import dtype as dtypes

__all__ = ["OptState", "GradScaler"]


class OptState(enum.Enum):
    """Where an optimizer is in the scaler's iteration."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> dict:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


_FIX = ("This may indicate your script did not use scaler.scale(loss or outputs) earlier in "
        "the iteration.")


class GradScaler:
    """Scale losses and unscale gradients for mixed precision training.

    Args:
        device (str): the device type of the scaled tensors (``'cpu'`` here).
        init_scale (float): the first scale.
        growth_factor (float): the scale's factor after `growth_interval` clean steps.
        backoff_factor (float): the scale's factor after a step with inf/NaN gradients.
        growth_interval (int): clean steps in a row before the scale grows.
        enabled (bool): False makes every method a pass-through.

    Example::

        >>> scaler = torch.amp.GradScaler('cpu')
        >>> scaler.scale(loss).backward()
        >>> scaler.step(optimizer)
        >>> scaler.update()
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname: str) -> tuple:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + _FIX)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + _FIX)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self, dev) -> None:
        from .. import full
        self._scale = full((), self._init_scale, dtype=dtypes.float32, device=dev)
        self._growth_tracker = full((), self._init_growth_tracker, dtype=dtypes.int32,
                                    device=dev)

    def scale(self, outputs):
        """`outputs` (a tensor, or an iterable of them) multiplied by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, _tensor.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)

        def apply_scale(value):
            if isinstance(value, _tensor.Tensor):
                if self._scale is None:
                    self._lazy_init_scale_growth_tracker(value.device)
                return value * self._scale
            if isinstance(value, abc.Iterable):
                iterable = map(apply_scale, value)
                return type(value)(iterable) if isinstance(value, (list, tuple)) else iterable
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16: bool) -> dict:
        """Multiply every gradient by `inv_scale`, noting in `found_inf` whether any held
        an inf or a NaN; a float16 gradient is refused (unless allowed) before any is
        touched."""
        from .. import isfinite
        grads = [param.grad for group in optimizer.param_groups for param in group["params"]
                 if param.grad is not None]
        if not allow_fp16 and any(grad.dtype is dtypes.float16 for grad in grads):
            raise ValueError("Attempting to unscale FP16 gradients.")
        for grad in grads:
            if not bool(isfinite(grad).all()):
                found_inf.fill_(1.0)
            grad.mul_(inv_scale)
        return {found_inf.device: found_inf}

    def unscale_(self, optimizer) -> None:
        """Divide the gradients of `optimizer`'s parameters by the scale, in place, and
        note whether any is inf or NaN (at most once per `update`)."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since "
                               "the last update().")
        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        from .. import full
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = full((), 0.0, dtype=dtypes.float32, device=self._scale.device)
        optimizer_state["found_inf_per_device"] = self._unscale_grads_(
            optimizer, inv_scale, found_inf, False)
        optimizer_state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale the gradients (unless `unscale_` did) and run `optimizer.step()`,
        unless a gradient is inf or NaN; returns what the step returned (or None)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scale_growth_tracker("step")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if optimizer_state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(optimizer_state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not sum(v.item() for v in optimizer_state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        optimizer_state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None) -> None:
        """Set the scale for the next iteration: `new_scale` when given, else shrunk
        after skipped steps or grown after `growth_interval` clean ones."""
        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            self._set_scale(new_scale)
        else:
            found_infs = [found_inf for state in self._per_optimizer_states.values()
                          for found_inf in state["found_inf_per_device"].values()]
            if len(found_infs) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            self._update_scale(scale, tracker, sum(f.item() for f in found_infs) > 0)
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _set_scale(self, new_scale) -> None:
        if isinstance(new_scale, float):
            self._scale.fill_(new_scale)
            return
        reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                  "torch.FloatTensor with requires_grad=False.")
        if new_scale.device.type != self._device or new_scale.numel() != 1 \
                or new_scale.requires_grad:
            raise AssertionError(reason)
        self._scale.copy_(new_scale)

    def _update_scale(self, scale, tracker, found_inf: bool) -> None:
        """torch's `_amp_update_scale_`: back off after an inf, grow after a clean run."""
        if found_inf:
            scale.mul_(self._backoff_factor)
            tracker.fill_(0)
            return
        successful = tracker.item() + 1
        if successful == self._growth_interval:
            grown = scale.item() * self._growth_factor
            if grown != float("inf"):
                scale.fill_(grown)
            tracker.fill_(0)
        else:
            tracker.fill_(successful)

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale.item())

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        tracker = self._growth_tracker
        return self._init_growth_tracker if tracker is None else int(tracker.item())

    def is_enabled(self) -> bool:
        """Whether the scaler scales (False: every method passes through)."""
        return self._enabled

    def state_dict(self) -> dict:
        """The scale and its settings (empty when disabled)."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what `state_dict` saved."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict:
        """Pickle the scaler between iterations: its tensors travel as numbers."""
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the "
                                     "beginning of an iteration, or at the end after "
                                     "scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
