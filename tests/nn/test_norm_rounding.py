"""Normalization's float16 / bfloat16 rounding against torch 2.13, element for element:
batch statistics summed in torch's order and kept in its dtypes (Note [Reduced-precision
batch statistics]), the affine map with torch's fused multiply-adds."""
import math

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.functional as F

from nn_compare import numpy_of, to_glass

torch = pytest.importorskip("torch")
# glasstorch rounds as torch's kernels on an AVX-512 CPU do (their vector width and uint8
# path); torch on another CPU rounds differently, so bit-for-bit comparisons need that CPU
pytestmark = pytest.mark.skipif(torch.backends.cpu.get_cpu_capability() != "AVX512",
                                reason="torch's rounding here comes from its AVX-512 kernels")

# (input shape, channels last): whole vector loads and leftovers, one sample, 1-d
SHAPES = [((8, 16, 4, 4), False), ((3, 12, 5, 6), False), ((16, 8, 33), False),
          ((1, 40, 30), False), ((4, 20, 5, 6), True)]


def _case(shape, dtype, parameters, seed=0):
    generator = torch.Generator().manual_seed(seed)
    x = (torch.randn(shape, generator=generator) * 3 + 2).to(getattr(torch, dtype))
    channels = shape[1]
    weight, bias, mean = (torch.randn(channels, generator=generator) for _ in range(3))
    var = torch.rand(channels, generator=generator) + 0.5
    return x, [t.to(getattr(torch, parameters)) for t in (weight, bias, mean, var)]


def _assert_same(mine, theirs):
    assert str(mine.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(numpy_of(mine), numpy_of(theirs))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,last", SHAPES, ids=[str(s) for s in SHAPES])
def test_batch_norm_training_rounds_as_torch(dtype, shape, last):
    x, (weight, bias, mean, var) = _case(shape, dtype, dtype)
    mine_x, mine_params = to_glass(x), [to_glass(t) for t in (weight, bias, mean, var)]
    if last:
        x = x.contiguous(memory_format=torch.channels_last)
        mine_x = mine_x.contiguous(memory_format=gt.channels_last)
    theirs = torch.native_batch_norm(x, weight, bias, mean, var, True, 0.1, 1e-5)
    mine = gt.native_batch_norm(mine_x, *mine_params, True, 0.1, 1e-5)
    for a, b in zip(mine, theirs):          # output, saved mean and inverse std
        _assert_same(a, b)
    _assert_same(mine_params[2], mean)      # the running statistics
    _assert_same(mine_params[3], var)
    # evaluation normalizes with the running statistics just updated
    _assert_same(gt.native_batch_norm(mine_x, *mine_params, False, 0.1, 1e-5)[0],
                 torch.native_batch_norm(x, weight, bias, mean, var, False, 0.1, 1e-5)[0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_instance_norm_rounds_as_torch(dtype):
    x, (weight, bias, _, _) = _case((4, 3, 5, 6), dtype, dtype, seed=1)
    theirs = torch.nn.functional.instance_norm(x, weight=weight, bias=bias)
    _assert_same(F.instance_norm(to_glass(x), weight=to_glass(weight), bias=to_glass(bias)),
                 theirs)


# (rows, row length) of layer norm: whole float16/bfloat16 vectors and leftovers, fewer
# rows than threads, one row (Note [Reduced-precision layer norm])
LAYER_SHAPES = [(64, 256), (33, 100), (7, 20), (1, 50)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("parameters", ["same", "float32"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", LAYER_SHAPES, ids=[str(s) for s in LAYER_SHAPES])
def test_layer_norm_parameter_gradients_sum_as_torch(shape, dtype, parameters, threads):
    generator = torch.Generator().manual_seed(4)
    x = (torch.randn(shape, generator=generator) * 3 + 1).to(getattr(torch, dtype))
    stored = x.dtype if parameters == "same" else torch.float32
    weight, bias = (torch.randn(shape[1], generator=generator).to(stored) for _ in range(2))
    _, mean, rstd = torch.native_layer_norm(x, [shape[1]], weight, bias, 1e-5)
    grad = torch.randn(shape, generator=generator).to(x.dtype)
    args = (grad, x, [shape[1]], mean, rstd, weight, bias, [False, True, True])
    saved = torch.get_num_threads(), gt.get_num_threads()
    torch.set_num_threads(threads)
    gt.set_num_threads(threads)
    try:
        theirs = torch.ops.aten.native_layer_norm_backward(*args)
        mine = gt.ops.aten.native_layer_norm_backward(
            *[to_glass(a) if isinstance(a, torch.Tensor) else a for a in args])
    finally:
        torch.set_num_threads(saved[0])
        gt.set_num_threads(saved[1])
    _assert_same(mine[1], theirs[1])
    _assert_same(mine[2], theirs[2])


# (rows, row length): the values past the last vector alone, one chunk of vectors, a
# stack of chunks that carries, 33 chunks (a leftover beside a deep stack) (Note
# [Welford moments in torch's order])
def _normalized_inputs(shape, dtype: str, parameters: str, seed: int):
    """torch inputs of a norm: x of `dtype`, and per-channel weight and bias of x's dtype
    (`parameters` "same"), float32 ("float32"), or none ("none")."""
    generator = torch.Generator().manual_seed(seed)
    x = (torch.randn(shape, generator=generator) * 3 + 1).to(getattr(torch, dtype))
    if parameters == "none":
        return x, None, None
    stored = x.dtype if parameters == "same" else torch.float32
    weight, bias = (torch.randn(shape[1], generator=generator).to(stored) for _ in range(2))
    return x, weight, bias


MOMENT_SHAPES = [(16, 7), (12, 100), (8, 600), (4, 3000), (2, 8200)]


@pytest.mark.parametrize("parameters", ["none", "same", "float32"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", MOMENT_SHAPES, ids=[str(s) for s in MOMENT_SHAPES])
def test_layer_norm_statistics_and_output_as_torch(shape, dtype, parameters):
    """Mean and rstd in torch's Welford order, then the output's two fused steps. An
    rstd may still round an ulp apart now and then (a fused step emulated through
    float64 rounds twice), too rarely to move the float16 / bfloat16 output."""
    x, weight, bias = _normalized_inputs(shape, dtype, parameters, seed=5)
    theirs = torch.native_layer_norm(x, [shape[1]], weight, bias, 1e-5)
    mine = gt.native_layer_norm(to_glass(x), [shape[1]], *(
        None if t is None else to_glass(t) for t in (weight, bias)), 1e-5)
    _assert_same(mine[0], theirs[0])
    _assert_same(mine[1], theirs[1])
    mine_rstd, their_rstd = numpy_of(mine[2]), numpy_of(theirs[2])
    np.testing.assert_array_max_ulp(mine_rstd, their_rstd, maxulp=1)
    assert (mine_rstd == their_rstd).mean() >= 0.9


# (input shape, groups, channels last): one chunk and a stack of chunks of Welford
# moments; channels last under and over 1024 positions (lanes, then threads' runs)
GROUP_FORWARD = [((4, 8, 5, 5), 2, False), ((3, 12, 33), 4, False),
                 ((2, 16, 20, 20), 4, False), ((4, 20, 5, 6), 4, True),
                 ((2, 8, 32, 40), 2, True)]


@pytest.mark.parametrize("dtype,parameters", [("float16", "none"), ("float16", "same"),
                                              ("float16", "float32"), ("bfloat16", "same"),
                                              ("bfloat16", "float32")])
@pytest.mark.parametrize("shape,groups,last", GROUP_FORWARD, ids=[str(c) for c in GROUP_FORWARD])
def test_group_norm_forward_as_torch(shape, groups, last, dtype, parameters):
    """The statistics in torch's order (Note [Welford moments in torch's order], Note
    [Group norm statistics, channels last]), rstd through float64, the per-channel scale
    and shift fused: mean and rstd bit for bit (two threads on both sides), the output
    too but for an element in thousands an ulp apart with float16 parameters."""
    x, weight, bias = _normalized_inputs(shape, dtype, parameters, seed=7)
    mine_x = to_glass(x)
    if last:
        x, mine_x = (x.contiguous(memory_format=torch.channels_last),
                     mine_x.contiguous(memory_format=gt.channels_last))
    sizes = (shape[0], shape[1], math.prod(shape[2:]), groups, 1e-5)
    saved = torch.get_num_threads(), gt.get_num_threads()
    torch.set_num_threads(2)
    gt.set_num_threads(2)
    try:
        theirs = torch.native_group_norm(x, weight, bias, *sizes)
        mine = gt.native_group_norm(mine_x, *(None if t is None else to_glass(t)
                                              for t in (weight, bias)), *sizes)
    finally:
        torch.set_num_threads(saved[0])
        gt.set_num_threads(saved[1])
    _assert_same(mine[1], theirs[1])
    _assert_same(mine[2], theirs[2])
    assert str(mine[0].dtype) == str(theirs[0].dtype)
    mine_out, their_out = numpy_of(mine[0]), numpy_of(theirs[0])
    np.testing.assert_allclose(mine_out, their_out, rtol=torch.finfo(theirs[0].dtype).eps)
    assert (mine_out == their_out).mean() >= 0.999


# (input shape, groups, channels last): positions fewer than one float16/bfloat16 vector,
# whole vectors and leftovers, 1-d (Note [Reduced-precision group norm gradients])
GROUP_CASES = [((8, 16, 5, 5), 4, False), ((8, 16, 5, 5), 4, True), ((4, 32, 40), 8, False),
               ((2, 6, 100), 3, False), ((3, 8, 9, 9), 2, True)]


@pytest.mark.parametrize("parameters", ["same", "float32"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,groups,last", GROUP_CASES, ids=[str(c) for c in GROUP_CASES])
def test_group_norm_parameter_gradients_sum_as_torch(shape, groups, last, dtype, parameters):
    generator = torch.Generator().manual_seed(6)
    x = (torch.randn(shape, generator=generator) * 3 + 1).to(getattr(torch, dtype))
    channels, positions = shape[1], math.prod(shape[2:])
    stored = x.dtype if parameters == "same" else torch.float32
    weight, bias = (torch.randn(channels, generator=generator).to(stored) for _ in range(2))
    grad = torch.randn(shape, generator=generator).to(x.dtype)
    mine_x, mine_grad = to_glass(x), to_glass(grad)
    if last:
        x, grad = (t.contiguous(memory_format=torch.channels_last) for t in (x, grad))
        mine_x, mine_grad = (t.contiguous(memory_format=gt.channels_last)
                             for t in (mine_x, mine_grad))
    _, mean, rstd = torch.native_group_norm(x, weight, bias, shape[0], channels, positions,
                                            groups, 1e-5)
    sizes = (shape[0], channels, positions, groups, [True, True, True])
    theirs = torch.ops.aten.native_group_norm_backward(grad, x, mean, rstd, weight, *sizes)
    mine = gt.ops.aten.native_group_norm_backward(mine_grad, mine_x, to_glass(mean),
                                                  to_glass(rstd), to_glass(weight), *sizes)
    _assert_same(mine[1], theirs[1])
    _assert_same(mine[2], theirs[2])
