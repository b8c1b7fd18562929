"""Batch, instance and group normalization, local response norm and the distance layers:
modules over several steps in train and eval mode (outputs, gradients, running
statistics, batch counts, reprs), lazy forms, SyncBatchNorm in one process, double
backward, layouts and refusals, against torch 2.13 (skipped without torch); plus
torch-free checks of what the operators promise."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass, to_torch

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")


# ----- torch-free --------------------------------------------------------------------
def test_training_updates_running_statistics_without_a_version_bump():
    x = gt.tensor([[1.0], [3.0]])
    mean, var = gt.zeros(1), gt.ones(1)
    out = gt.batch_norm(x, None, None, mean, var, True, 0.5, 0.0, False)
    assert out.tolist() == [[-1.0], [1.0]]
    assert mean.tolist() == [1.0] and var.tolist() == [1.5]    # unbiased variance 2
    assert mean._version == 0


def test_refused_call_changes_nothing():
    module = gt.nn.BatchNorm1d(3)
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        module(gt.randn(2, 3, 2, 2))
    assert int(module.num_batches_tracked) == 0
    mean = gt.zeros(3)
    with pytest.raises(RuntimeError, match="weight should contain 3 elements not 4"):
        gt.batch_norm(gt.randn(4, 3), gt.ones(4), None, mean, gt.ones(3), True, 0.1, 1e-5,
                      False)
    assert mean.tolist() == [0.0, 0.0, 0.0]


def test_momentum_none_is_the_cumulative_average():
    module = gt.nn.BatchNorm1d(1, momentum=None)
    batches = [gt.tensor([[0.0], [2.0]]), gt.tensor([[4.0], [6.0]])]
    for batch in batches:
        module(batch)
    assert module.running_mean.tolist() == [3.0]
    assert int(module.num_batches_tracked) == 2


def test_native_group_norm_statistics_are_per_sample_and_group():
    x = gt.arange(8.0).reshape(2, 4, 1)
    _, mean, rstd = gt.native_group_norm(x, None, None, 2, 4, 1, 2, 0.0)
    assert mean.tolist() == [[0.5, 2.5], [4.5, 6.5]]
    assert np.allclose(rstd.numpy(), 2.0)


def test_pdist_is_the_upper_triangle_row_by_row():
    x = gt.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
    assert gt.pdist(x).tolist() == [5.0, 10.0, 5.0]


# ----- differential ------------------------------------------------------------------
MODULES = [("BatchNorm1d", (3,), {}, (4, 3)), ("BatchNorm1d", (3,), {"momentum": None}, (4, 3, 5)),
           ("BatchNorm2d", (3,), {"track_running_stats": False}, (4, 3, 2, 2)),
           ("BatchNorm3d", (3,), {"affine": False}, (2, 3, 2, 2, 2)),
           ("BatchNorm2d", (3,), {"bias": False}, (2, 3, 2, 2)),
           ("InstanceNorm1d", (3,), {}, (4, 3, 5)),
           ("InstanceNorm2d", (3,), {"affine": True, "track_running_stats": True}, (4, 3, 2, 2)),
           ("InstanceNorm1d", (3,), {"affine": True}, (3, 5)),
           ("InstanceNorm3d", (3,), {"track_running_stats": True}, (2, 3, 2, 2, 2)),
           ("SyncBatchNorm", (3,), {}, (4, 3, 5)), ("LazyBatchNorm2d", (), {}, (4, 3, 2, 2)),
           ("LazyInstanceNorm1d", (), {"affine": True}, (4, 3, 5)),
           ("GroupNorm", (2, 4), {}, (3, 4, 5)), ("LocalResponseNorm", (3,), {}, (2, 6, 3, 3)),
           ("CrossMapLRN2d", (3,), {"alpha": 0.5}, (2, 6, 3, 3)),
           ("CrossMapLRN2d", (4,), {"alpha": 0.3, "beta": 0.6, "k": 1.5}, (2, 5, 3, 3))]


@needs_torch
@pytest.mark.parametrize("name, args, kwargs, shape", MODULES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MODULES)])
def test_module_steps_match_torch(name, args, kwargs, shape):
    """Three train steps and an eval step: outputs, input and parameter gradients, and
    every buffer afterwards."""
    torch.manual_seed(0)
    mine, theirs = getattr(gt.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    for step, training in enumerate((True, True, True, False)):
        mine.train(training)
        theirs.train(training)
        x = torch.randn(*shape, dtype=torch.float64).float().requires_grad_()
        mx = to_glass(x, requires_grad=True)
        out, my_out = theirs(x), mine(mx)
        assert_close(my_out, out, rtol=1e-5, atol=1e-5)
        grad = torch.randn(out.shape)
        out.backward(grad)
        my_out.backward(to_glass(grad))
        assert_close(mx.grad, x.grad, rtol=1e-4, atol=1e-5)
    assert repr(mine) == repr(theirs) and type(mine).__name__ == type(theirs).__name__
    for (key, value), (my_key, my_value) in zip(theirs.state_dict().items(),
                                                mine.state_dict().items()):
        assert key == my_key
        assert_close(my_value, value, rtol=1e-5, atol=1e-5)
    for param, my_param in zip(theirs.parameters(), mine.parameters()):
        if param.grad is None:
            assert my_param.grad is None
            continue
        assert_close(my_param.grad, param.grad, rtol=1e-4, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("train", (True, False))
def test_batch_norm_double_backward_matches_torch(train):
    torch.manual_seed(1)
    x, w, b = (torch.randn(4, 3, 2, dtype=torch.float64, requires_grad=True),
               torch.rand(3, dtype=torch.float64, requires_grad=True),
               torch.rand(3, dtype=torch.float64, requires_grad=True))
    mean, var = torch.rand(3, dtype=torch.float64), torch.rand(3, dtype=torch.float64) + 0.5
    mine = [to_glass(t, requires_grad=True) for t in (x, w, b)]

    def second(lib, inputs, stats):
        y = lib.batch_norm(*inputs[:1], *inputs[1:], *stats, train, 0.1, 1e-5, False)
        grads = lib.autograd.grad((y * y.detach().sin()).sum(), inputs, create_graph=True)
        # the bias's gradient is constant: it reaches nothing
        return lib.autograd.grad(sum((g * g).sum() for g in grads), inputs, allow_unused=True)
    expected = second(torch, (x, w, b), (mean.clone(), var.clone()))
    found = second(gt, mine, (to_glass(mean), to_glass(var)))
    for f, e in zip(found, expected):
        assert (f is None) == (e is None)
        if e is not None:
            assert_close(f, e, rtol=1e-7, atol=1e-9)


@needs_torch
def test_group_norm_double_backward_and_statistics_gradients_match_torch():
    x = torch.randn(2, 6, 3, dtype=torch.float64, requires_grad=True)
    w = torch.rand(6, dtype=torch.float64, requires_grad=True)
    mine = [to_glass(t, requires_grad=True) for t in (x, w)]

    def second(lib, inputs):
        out, mean, rstd = lib.native_group_norm(inputs[0], inputs[1], None, 2, 6, 3, 3, 1e-5)
        loss = (out * out.detach().cos()).sum() + (mean * 2).sum() + (rstd ** 2).sum()
        grads = lib.autograd.grad(loss, inputs, create_graph=True)
        return grads + lib.autograd.grad(sum((g * g).sum() for g in grads), inputs)
    for f, e in zip(second(gt, mine), second(torch, (x, w))):
        assert_close(f, e, rtol=1e-7, atol=1e-9)


@needs_torch
@pytest.mark.parametrize("op", ("batch_norm", "group_norm"))
def test_channels_last_results_stay_channels_last(op):
    x = torch.randn(2, 4, 3, 3).to(memory_format=torch.channels_last)

    def run(lib, t):
        if op == "group_norm":
            return lib.group_norm(t, 2)
        return lib.batch_norm(t, None, None, None, None, True, 0.1, 1e-5, False)
    expected = run(torch, x)
    found = run(gt, to_glass(x.contiguous()).to(memory_format=gt.channels_last))
    assert found.stride() == expected.stride()
    assert_close(found, expected, rtol=1e-5, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("dtype", ("float16", "bfloat16"))
def test_reduced_precision_batch_norm_is_within_torch_tolerance(dtype):
    x = torch.randn(8, 3, 4).to(getattr(torch, dtype))
    weight = torch.rand(3)                      # torch's mixed form: float32 parameters
    expected = torch.batch_norm(x, weight, None, torch.zeros(3), torch.ones(3), True, 0.1,
                                1e-5, False)
    found = gt.batch_norm(to_glass(x), to_glass(weight), None, gt.zeros(3), gt.ones(3), True,
                          0.1, 1e-5, False)
    assert str(found.dtype) == str(expected.dtype)
    torch.testing.assert_close(to_torch(found), expected)


@needs_torch
def test_empty_batch_and_module_errors_match_torch():
    assert gt.nn.BatchNorm1d(5)(gt.randn(0, 5, 9)).shape == torch.Size([0, 5, 9])
    cases = [lambda m: m.nn.BatchNorm2d(3)(m.randn(2, 3, 4)),
             lambda m: m.nn.InstanceNorm1d(3, affine=True)(m.randn(2, 4, 5)),
             lambda m: m.nn.functional.batch_norm(m.randn(1, 3), m.zeros(3), m.ones(3),
                                                  training=True),
             lambda m: m.nn.functional.batch_norm(m.randn(2, 3), None, None, training=True,
                                                  eps=0.0),
             lambda m: m.nn.functional.instance_norm(m.randn(2, 3, 1)),
             lambda m: m.nn.functional.group_norm(m.randn(3), 3),
             lambda m: m.nn.GroupNorm(3, 4),
             lambda m: m.nn.functional.local_response_norm(m.randn(2, 3), 2),
             lambda m: m.nn.CrossMapLRN2d(3)(m.randn(2, 3, 4)),
             lambda m: m.group_norm(m.randn(2, 6, 5), 0)]
    for case in cases:
        with pytest.raises(Exception) as theirs:
            case(torch)
        with pytest.raises(type(theirs.value), match="^" + __import__("re").escape(
                str(theirs.value)) + "$"):
            case(gt)


@needs_torch
def test_convert_sync_batchnorm_keeps_the_tensors():
    net = gt.nn.Sequential(gt.nn.Linear(4, 4), gt.nn.BatchNorm1d(4))
    weight = net[1].weight
    converted = gt.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    theirs = torch.nn.SyncBatchNorm.convert_sync_batchnorm(
        torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)))
    assert repr(converted) == repr(theirs)
    assert converted[1].weight is weight


@needs_torch
def test_distance_modules_match_torch():
    a, b = torch.randn(5, 4, requires_grad=True), torch.randn(1, 4, requires_grad=True)
    ga, gb = to_glass(a, requires_grad=True), to_glass(b, requires_grad=True)
    for mine, theirs in ((gt.nn.CosineSimilarity(dim=1), torch.nn.CosineSimilarity(dim=1)),
                         (gt.nn.PairwiseDistance(p=1.5, keepdim=True),
                          torch.nn.PairwiseDistance(p=1.5, keepdim=True))):
        out, my_out = theirs(a, b), mine(ga, gb)
        assert_close(my_out, out, rtol=1e-5, atol=1e-6)
        expected = torch.autograd.grad(out.sum(), (a, b))
        found = gt.autograd.grad(my_out.sum(), (ga, gb))
        for f, e in zip(found, expected):
            assert_close(f, e, rtol=1e-5, atol=1e-6)
    assert gt.nn.functional.pdist is gt.pdist


@needs_torch
def test_native_batch_norm_out_matches_torch():
    x = torch.randn(4, 3, 2)
    theirs = (torch.empty(0), torch.empty(0), torch.empty(0))
    mine = (gt.empty(0), gt.empty(0), gt.empty(0))
    expected = torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5, out=theirs)
    found = gt.native_batch_norm(to_glass(x), None, None, None, None, True, 0.1, 1e-5,
                                 out=mine)
    assert all(f is m for f, m in zip(found, mine))
    for f, e in zip(found, expected):
        assert_close(f, e)
