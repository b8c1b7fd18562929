"""The fused attention kernels torch runs on CPU: `_scaled_dot_product_flash_attention_for_cpu`
and its backward, one NumPy kernel each.

`scaled_dot_product_attention` (`attention.py`) picks this path for 4-D float inputs of
equal head sizes without dropout (torch's `use_flash_attention_cpp`), so a training
step records one `ScaledDotProductFlashAttentionForCpuBackward0` node whose backward is
one kernel, not a chain of matmul / softmax nodes.

Note [Attention in blocks]
    Both kernels work on the scores ``(q * scale) @ k^T + bias`` of one tile at a time:
    a block of batch rows sized to keep its scores in cache (a few MiB), so the
    softmax's passes (max, shift, exp, sum) read cache, not memory, and a block of
    queries small enough that each matmul (``M * N * K``) stays under OpenBLAS's
    threading threshold. Those matmuls then run on the calling thread, and the blocks of
    batch rows are shared out over glasstorch's thread pool instead (BLAS and NumPy's
    ufuncs release the GIL): letting every pool thread start BLAS threads of its own
    measured 10x slower on a busy 2-core machine. With a causal mask a block of queries
    needs only the keys up to its last query (the triangle above is never computed:
    about 40% less work at L = S = 256). The bias (an additive mask, the causal triangle) is made once per call and
    sliced per tile. Grouped-query attention needs no copies of key and value: the
    query is viewed as ``(B, Hk, G, L, E)`` (the `G` heads sharing a key head), key and
    value as ``(B, Hk, 1, S, E)``, and matmul broadcasts them over the group; their
    gradients are summed over it.

The forward keeps only the output and the log-sum-exp of each row (as torch's flash
kernel); backward recomputes the probabilities ``exp(scores - logsumexp)`` from them.
A row whose every score is masked (-inf) gets output 0 and log-sum-exp 0, as torch's.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...backends import register_meta
from ...parallel import parallel_for
from ...registry import TensorMeta, op
from ..creation.copy import strides_like

_PREFIX = "scaled_dot_product_attention_flash_attention: "
_FLOATING = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_BLOCK_BYTES = 1 << 21          # scores per block: 2 MiB (Note [Attention in blocks])
# OpenBLAS runs a gemm with M * N * K up to this on the calling thread (its
# GEMM_MULTITHREAD_THRESHOLD of 4 times 65536): Note [Attention in blocks]
_SERIAL_GEMM = 4 * 65536


# ----------------------------------------------------------------------------------
# Checks and geometry
# ----------------------------------------------------------------------------------
def _check_flash(query, key, value, dropout_p, attn_mask) -> None:
    """torch's flash kernel's checks, in its order and words."""
    if query._dtype not in _FLOATING:
        raise RuntimeError(f"{_PREFIX}Expected data type in FP32, FP64, BF16, FP16, but got "
                           f"{scalar_type_name(query._dtype)} instead.")
    if not query.dim() == key.dim() == value.dim() == 4:
        raise RuntimeError(f"{_PREFIX}Accept only 4 dims inputs shape of {{B, H, T, K}}")
    if dropout_p != 0.0:
        raise RuntimeError(f"{_PREFIX}Currently do not support dropout > 0")
    if not query._size[3] == key._size[3] == value._size[3]:
        raise RuntimeError(f"{_PREFIX}Q/K/V should have the same head size")
    if attn_mask is not None:
        if attn_mask._dtype not in (dtypes.float32, query._dtype):
            raise RuntimeError(f"{_PREFIX}Attention mask is the same data type as query")
        if attn_mask.dim() not in (2, 4):
            raise RuntimeError(f"{_PREFIX}Attention mask dim in {{2, 4}}")
    _check_layout(query, key, value)


def _check_layout(query, key, value) -> None:
    """What torch's kernel assumes without checking (it would read out of bounds):
    refused here with the words of the matmul that would fail."""
    batch, heads, _, _ = query._size
    if key._size[0] != batch or value._size[0] != batch or key._size[:3] != value._size[:3]:
        raise RuntimeError(f"{_PREFIX}key and value must have the query's batch size and "
                           f"the same number of heads and sequence length")
    if heads % key._size[1]:
        raise RuntimeError("Number of heads in key and value must divide the number of "
                           "heads in ")


def _lse_meta(query) -> TensorMeta:
    """(B, H, L) laid out as (B, L, H), as torch allocates it; float32 for float16 /
    bfloat16 queries, else the query's dtype."""
    batch, heads, length, _ = query._size
    low = query._dtype in (dtypes.float16, dtypes.bfloat16)
    return TensorMeta((batch, heads, length), dtypes.float32 if low else query._dtype,
                      (length * heads, 1, heads))


def _flash_meta(query, key, value, dropout_p=0.0, is_causal=False, attn_mask=None,
                scale=None):
    _check_flash(query, key, value, dropout_p, attn_mask)
    return _flash_results(query, key, value)


def _flash_results(query, key, value, *unchecked):
    """The output and logsumexp, unchecked: the Meta registration (torch's meta kernel
    checks nothing)."""
    output = TensorMeta(query._size, query._dtype, strides_like(query, None))
    return output, _lse_meta(query)


def default_scale(head_size: int) -> float:
    """1 / sqrt(E), the scores' default factor (inf for E = 0, silently, as torch)."""
    with np.errstate(divide="ignore"):
        return float(np.float64(1.0) / np.sqrt(np.float64(head_size)))


# ----------------------------------------------------------------------------------
# Shared by both kernels
# ----------------------------------------------------------------------------------
class _Tile:
    """One block of work: batch rows `rows`, query positions `queries`, and the first
    `keys` keys (all of them, or with a causal mask those before the block's end)."""

    __slots__ = ("rows", "queries", "keys")

    def __init__(self, rows: slice, queries: slice, keys: int) -> None:
        self.rows, self.queries, self.keys = rows, queries, keys


class _Problem:
    """One call's arrays in the compute dtype, grouped as ``(B, Hk, G, L, E)`` (Note
    [Attention in blocks]), with the bias and the tiles to run."""

    def __init__(self, query, key, value, attn_mask, is_causal, scale) -> None:
        self.compute = np.float64 if query.dtype == np.float64 else np.float32
        self.storage = query.dtype
        batch, heads, self.length, dim = query.shape
        self.kv_heads, self.kv_length = key.shape[1], key.shape[2]
        self.group = heads // self.kv_heads
        self.grouped = (batch, self.kv_heads, self.group, self.length)
        self.scale = self.compute(default_scale(dim) if scale is None else scale)
        self.query = self.read(query).reshape(self.grouped + (dim,))
        # scaling the query, not the scores, saves a pass over the scores
        self.scaled_query = self.query * self.scale
        self.key = self.read(key)[:, :, None]            # (B, Hk, 1, S, E): shared by G
        self.value = self.read(value)[:, :, None]
        self.is_causal = is_causal
        self.bias = self._bias(attn_mask, is_causal, heads)

    def read(self, array: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(array, dtype=self.compute)

    def grouped_view(self, array: np.ndarray) -> np.ndarray:
        """An output (B, H, L, ...) seen as (B, Hk, G, L, ...) (a view: H splits)."""
        return array.reshape(self.grouped + array.shape[3:])

    def low_precision(self, array: np.ndarray) -> np.ndarray:
        """`array` rounded to a float16 / bfloat16 input's dtype, as torch's kernel rounds
        the probabilities (and their gradients) before each matmul; else as it is."""
        if self.storage.itemsize >= 4:
            return array
        return array.astype(self.storage).astype(self.compute)

    def _bias(self, attn_mask, is_causal: bool, heads: int):
        """The additive mask as ``(B or 1, Hk or 1, G or 1, L or 1, S or 1)``, plus the
        causal triangle (-inf above the diagonal, top-left aligned); None without any."""
        bias = None
        if attn_mask is not None:
            mask = attn_mask.astype(self.compute, copy=False)
            if mask.ndim == 2:
                mask = mask[None, None]
            mask_heads = (self.kv_heads, self.group) if mask.shape[1] == heads else (1, 1)
            bias = mask.reshape(mask.shape[:1] + mask_heads + mask.shape[2:])
        if is_causal:
            above = np.triu(np.ones((self.length, self.kv_length), bool), 1)
            causal = np.where(above, -np.inf, 0.0).astype(self.compute)
            bias = causal if bias is None else bias + causal
        return bias

    def scores(self, tile: _Tile) -> np.ndarray:
        """``(q * scale) @ k^T + bias`` of a tile, as (b, Hk, G, l, keys)."""
        keys = self.key[tile.rows, :, :, :tile.keys]
        scores = np.matmul(self.scaled_query[tile.rows, :, :, tile.queries],
                           keys.swapaxes(-1, -2))
        if self.bias is not None:
            bias = self.bias[..., tile.queries, :tile.keys] if self.bias.shape[-2] > 1 \
                else self.bias[..., :tile.keys]
            if bias.ndim == 5 and bias.shape[0] > 1:
                bias = bias[tile.rows]
            scores += bias
        return scores

    def tiles(self, start: int, stop: int):
        """The tiles of batch rows [start, stop) (Note [Attention in blocks]): blocks of
        queries whose matmuls stay single-threaded in BLAS, and of batch rows sized to
        keep their scores in cache; with a causal mask a block of queries skips the
        keys after it."""
        dim = max(self.key.shape[-1], self.value.shape[-1], 1)
        span = max(1, min(self.length, _SERIAL_GEMM // (max(self.kv_length, 1) * dim)))
        per_row = self.kv_heads * self.group * span * max(self.kv_length, 1) * 4
        step = max(1, _BLOCK_BYTES // per_row)
        for first in range(start, stop, step):
            rows = slice(first, min(first + step, stop))
            for begin in range(0, max(self.length, 1), max(span, 1)):
                end = min(begin + span, self.length)
                keys = min(end, self.kv_length) if self.is_causal else self.kv_length
                yield _Tile(rows, slice(begin, end), keys)

    def run(self, body) -> None:
        """`body(tile)` over every tile, blocks of batch rows spread over the pool."""
        def chunk(start: int, stop: int) -> None:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                for tile in self.tiles(start, stop):
                    body(tile)
        parallel_for(0, self.grouped[0], 1, chunk)


# ----------------------------------------------------------------------------------
# Forward
# ----------------------------------------------------------------------------------
@op("_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, "
    "float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) "
    "-> (Tensor output, Tensor logsumexp)", meta=_flash_meta,
    grad={"query, key, value": "_scaled_dot_product_flash_attention_for_cpu_backward(grad, "
                               "query, key, value, output, logsumexp, dropout_p, is_causal, "
                               "attn_mask, scale)",
          "attn_mask": "refuses_requires_grad", "output_differentiability": (True, False)})
def _scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p, is_causal,
                                                attn_mask, scale, *, out):
    """``softmax(query @ key^T * scale + mask) @ value`` and each row's log-sum-exp, in
    one kernel (torch's CPU "flash" attention; see `nn.functional.scaled_dot_product_attention`).

    Args:
        query: ``(B, H, L, E)``.
        key, value: ``(B, Hk, S, E)``; `Hk` divides `H` (grouped-query attention).
        dropout_p: must be 0.
        is_causal: mask the scores above the diagonal (top-left aligned).
        attn_mask: an additive float mask, 2-D or 4-D, broadcast to ``(B, H, L, S)``.
        scale: the scores' factor, default ``1 / sqrt(E)``.

    Returns:
        ``(output, logsumexp)``: ``(B, H, L, E)`` and ``(B, H, L)`` (float32 for float16 /
        bfloat16 inputs).

    Example::

        >>> q = torch.ones(1, 1, 2, 4)
        >>> torch._scaled_dot_product_flash_attention_for_cpu(q, q, q)[1]
        tensor([[[2.6931, 2.6931]]])
    """
    output, logsumexp = out
    problem = _Problem(query, key, value, attn_mask, is_causal, scale)
    if problem.kv_length == 0:          # nothing to attend to: as a fully masked row
        output[...] = 0
        logsumexp[...] = 0
        return
    grouped_output = problem.grouped_view(output)
    grouped_lse = problem.grouped_view(logsumexp)

    def block(tile: _Tile) -> None:
        scores = problem.scores(tile)
        top = scores.max(axis=-1, keepdims=True)
        top[top == -np.inf] = 0                 # a fully masked row: exp gives zeros
        scores -= top
        np.exp(scores, out=scores)
        total = scores.sum(axis=-1, keepdims=True)
        values = problem.value[tile.rows, :, :, :tile.keys]
        result = np.matmul(problem.low_precision(scores), values)
        empty = total == 0
        result /= np.where(empty, 1, total)
        grouped_output[tile.rows, :, :, tile.queries] = result
        lse = np.log(total, out=total)
        lse += top
        lse[empty] = 0
        grouped_lse[tile.rows, :, :, tile.queries] = lse[..., 0]
    problem.run(block)


register_meta(_scaled_dot_product_flash_attention_for_cpu, _flash_results)


# ----------------------------------------------------------------------------------
# Backward
# ----------------------------------------------------------------------------------
def _flash_backward_meta(grad_out, query, key, value, output, logsumexp, dropout_p,
                         is_causal, attn_mask=None, scale=None):
    _check_flash(query, key, value, dropout_p, attn_mask)
    return _flash_gradients(grad_out, query, key, value)


def _flash_gradients(grad_out, query, key, value, *unchecked):
    """The three gradients, unchecked: the Meta registration."""
    return tuple(TensorMeta(t._size, t._dtype, _heads_inner_strides(t._size))
                 for t in (query, key, value))


def _heads_inner_strides(size: tuple) -> tuple:
    """(B, H, L, E) laid out as (B, L, H, E): how torch allocates attention gradients."""
    batch, heads, length, dim = size
    return (length * heads * dim, dim, heads * dim, 1)


@op("_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, "
    "Tensor key, Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, "
    "*, Tensor? attn_mask=None, float? scale=None) "
    "-> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
    meta=_flash_backward_meta, function=False)
def _scaled_dot_product_flash_attention_for_cpu_backward(grad_out, query, key, value, output,
                                                         logsumexp, dropout_p, is_causal,
                                                         attn_mask, scale, *, out):
    """The gradients of `_scaled_dot_product_flash_attention_for_cpu` with respect to
    query, key and value, in one kernel (torch.ops.aten only).

    With ``P = exp(scores - logsumexp)`` (the forward's probabilities, recomputed) and
    ``D = rowsum(grad_out * out)``: ``grad_value = P^T grad_out``, ``grad_scores =
    P * (grad_out value^T - D)``, ``grad_query = grad_scores key * scale``, ``grad_key =
    grad_scores^T query * scale``.
    """
    grad_query, grad_key, grad_value = out
    problem = _Problem(query, key, value, attn_mask, is_causal, scale)
    if problem.kv_length == 0 or grad_query.size == 0:
        for grad in out:
            grad[...] = 0
        return
    grads = problem.read(grad_out).reshape(problem.grouped + (-1,))
    lse = problem.read(logsumexp).reshape(problem.grouped + (1,))
    # D = rowsum(grad_out * out): the softmax backward's per-row term, once for all tiles
    dots = np.einsum("bhgld,bhgld->bhgl", grads, problem.read(output).reshape(grads.shape))
    grouped_query = problem.grouped_view(grad_query)
    key_sums = np.zeros(problem.key.shape[:2] + problem.key.shape[3:], problem.compute)
    value_sums = np.zeros(problem.value.shape[:2] + problem.value.shape[3:], problem.compute)

    def block(tile: _Tile) -> None:
        rows, queries, keys = tile.rows, tile.queries, tile.keys
        probabilities = problem.scores(tile)
        probabilities -= lse[rows, :, :, queries]
        np.exp(probabilities, out=probabilities)
        grads_tile = grads[rows, :, :, queries]
        value_sums[rows, :, :keys] += np.matmul(
            problem.low_precision(probabilities).swapaxes(-1, -2), grads_tile).sum(axis=2)
        grad_scores = np.matmul(grads_tile,
                                problem.value[rows, :, :, :keys].swapaxes(-1, -2))
        grad_scores -= dots[rows, :, :, queries, None]
        grad_scores *= probabilities
        grad_scores = problem.low_precision(grad_scores)
        grouped_query[rows, :, :, queries] = np.matmul(
            grad_scores, problem.key[rows, :, :, :keys]) * problem.scale
        key_sums[rows, :, :keys] += np.matmul(
            grad_scores.swapaxes(-1, -2), problem.scaled_query[rows, :, :, queries]).sum(axis=2)
    problem.run(block)
    grad_key[...] = key_sums
    grad_value[...] = value_sums


register_meta(_scaled_dot_product_flash_attention_for_cpu_backward, _flash_gradients)
