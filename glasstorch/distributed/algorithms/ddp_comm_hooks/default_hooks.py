"""The default communication hooks: ``hook(process_group, bucket)`` reduces one gradient
bucket and returns a Future of the averaged bucket."""
from __future__ import annotations

from typing import Any

import glasstorch as torch
from glasstorch import distributed as dist


def allreduce_hook(process_group: Any, bucket: Any) -> Any:
    """Average the bucket across the ranks (what DDP does without a hook)."""
    group = process_group if process_group is not None else dist.group.WORLD
    tensor = bucket.buffer().div_(dist.get_world_size(group))
    work = dist.all_reduce(tensor, group=group, async_op=True)
    return work.get_future().then(lambda future: future.value()[0])


def _compressed_hook(dtype: Any) -> Any:
    def hook(process_group: Any, bucket: Any) -> Any:
        group = process_group if process_group is not None else dist.group.WORLD
        buffer = bucket.buffer()
        compressed = buffer.to(dtype).div_(dist.get_world_size(group))
        work = dist.all_reduce(compressed, group=group, async_op=True)

        def decompress(future: Any) -> Any:
            buffer.copy_(future.value()[0])
            return buffer
        return work.get_future().then(decompress)
    return hook


fp16_compress_hook = _compressed_hook(torch.float16)
fp16_compress_hook.__doc__ = "Average the bucket in float16 (half the traffic)."
fp16_compress_hook.__name__ = "fp16_compress_hook"
bf16_compress_hook = _compressed_hook(torch.bfloat16)
bf16_compress_hook.__doc__ = "Average the bucket in bfloat16 (half the traffic)."
bf16_compress_hook.__name__ = "bf16_compress_hook"
