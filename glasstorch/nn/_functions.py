"""torch.nn._functions: autograd Functions behind nn layers with a hand-written backward.

CrossMapLRN2d is the legacy (Lua Torch) cross-channel response normalization whose
backward torch keeps as written, although it is not the exact derivative of the forward's
window; its node is CrossMapLRN2dBackward, as torch's.
"""
from __future__ import annotations

import glasstorch as torch

__all__ = ["CrossMapLRN2d"]


def _cross_map_windows(channels: int, size: int):
    """Which channels' squares each channel's scale sums, as torch's running-sum kernel
    builds it: channel c adds channel ``c + pre - 1`` and drops channel ``c - pre``
    only once ``c > pre`` (so channel 0 is never dropped), ``pre = (size - 1) // 2 + 1``."""
    pre = (size - 1) // 2 + 1
    current = set(range(min(pre, channels)))
    windows = [sorted(current)]
    for c in range(1, channels):
        if c < channels - pre + 1:
            current.add(c + pre - 1)
        if c > pre:
            current.discard(c - pre)
        windows.append(sorted(current))
    return windows


class CrossMapLRN2d(torch.autograd.Function):
    """The legacy kernel's forward and its hand-written backward (which torch keeps,
    though it is not the exact derivative of the forward's window)."""

    @staticmethod
    def forward(ctx, input, size: int, alpha: float, beta: float, k: float):
        channels = input.size(1)
        windows = torch.zeros(channels, channels, dtype=input.dtype)
        for c, members in enumerate(_cross_map_windows(channels, size)):
            windows[c, members] = 1
        scale = torch.einsum("nchw,dc->ndhw", input * input, windows).mul(alpha / size).add(k)
        output = input * scale.pow(-beta)
        ctx.save_for_backward(input, output, scale)
        ctx.size, ctx.alpha, ctx.beta = size, alpha, beta
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output, scale = ctx.saved_tensors
        size, channels = ctx.size, input.size(1)
        # each channel's ratio, placed `pre` channels into a zero-padded stack, then
        # summed over windows of `size` starting at each channel
        pre = int(size - (size - 1) / 2)
        ratio = grad_output * output / scale
        padded = torch.nn.functional.pad(ratio, (0, 0, 0, 0, pre, size - 1 - pre))
        windows = sum(padded.narrow(1, start, channels) for start in range(size))
        grad_input = scale.pow(-ctx.beta) * grad_output \
            - (2 * ctx.alpha * ctx.beta / size) * input * windows
        return grad_input, None, None, None, None
