"""The elementwise machinery (aten/pointwise.py, meta/pointwise.py), tested through add/mul/exp."""
import numpy as np
import pytest

import glasstorch as torch
from glasstorch.aten.meta.pointwise import Promotion, permuted_strides, result_and_compute


def layouts():
    """(name, make) pairs building the same 2x3x4 values with different strides."""
    base = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    wide = np.arange(48, dtype=np.float32).reshape(2, 3, 8)
    return [
        ("contiguous", lambda t, d="cpu": t.tensor(base, device=d)),
        ("transposed", lambda t, d="cpu": t.tensor(base.transpose(2, 1, 0).copy(),
                                                   device=d).permute(2, 1, 0)),
        ("permuted", lambda t, d="cpu": t.tensor(base.transpose(1, 0, 2).copy(),
                                                 device=d).permute(1, 0, 2)),
        ("sliced", lambda t, d="cpu": t.tensor(wide, device=d)[..., ::2]),
        ("expanded", lambda t, d="cpu": t.tensor(base[:, :1, :].copy(),
                                                 device=d).expand(2, 3, 4)),
    ]


@pytest.mark.parametrize("left", range(5))
@pytest.mark.parametrize("right", range(5))
def test_result_layout_matches_torch(left, right):
    real = pytest.importorskip("torch")
    make_a, make_b = layouts()[left][1], layouts()[right][1]
    ours = make_a(torch) + make_b(torch)
    theirs = make_a(real) + make_b(real)
    assert ours.stride() == theirs.stride()
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    meta = make_a(torch, "meta") + make_b(torch, "meta")
    assert meta.stride() == theirs.stride() and meta.shape == theirs.shape


def test_layout_follows_single_operand():
    x = torch.ones(3, 2).t()
    assert (x + 1).stride() == (1, 2)
    assert torch.exp(x).stride() == (1, 2)
    assert permuted_strides([x], (2, 3)) == (1, 2)


@pytest.mark.parametrize("kind, common, expected", [
    (Promotion.DEFAULT, torch.int8, (torch.int8, torch.int8, torch.int8)),
    (Promotion.DEFAULT, torch.float16, (torch.float16, torch.float32, torch.float32)),
    (Promotion.INT_TO_FLOAT, torch.int64, (torch.float32, torch.float32, torch.float32)),
    (Promotion.INT_TO_FLOAT, torch.bfloat16, (torch.bfloat16, torch.float32, torch.float32)),
    (Promotion.ALWAYS_BOOL, torch.float16, (torch.bool, torch.float32, torch.bool)),
    (Promotion.COMPLEX_TO_FLOAT, torch.complex64, (torch.float32, torch.complex64, torch.float32)),
    (Promotion.BOOL_TO_LONG, torch.bool, (torch.int64, torch.int64, torch.int64)),
])
def test_result_and_compute_dtypes(kind, common, expected):
    assert result_and_compute(common, kind) == expected


def test_wrapped_numbers_follow_torch_category_rule():
    i8 = torch.tensor([1, 2], dtype=torch.int8)
    assert (i8 + 1000).dtype is torch.int8                  # same category: width kept
    assert (i8 + 1000).tolist() == [-23, -22]               # the number wraps, as in C
    assert (i8 + 1.5).dtype is torch.float32                # higher category: default float
    assert (i8 + torch.tensor(1000)).dtype is torch.int8    # 0-dim tensors behave alike
    assert torch.add(1, 2).shape == () and torch.add(1, 2).dtype is torch.int64
    assert torch.add(1, 2.5).dtype is torch.float32
    assert (torch.tensor([True]) + True).dtype is torch.bool


def test_half_computes_in_float32_and_rounds_once():
    h = torch.tensor([2048.0], dtype=torch.float16)
    # 2048 + 1 + 1 in float16 steps stays 2048; add(alpha) computes 2048 + 2 in float32.
    assert torch.add(h, torch.tensor([1.0], dtype=torch.float16), alpha=2).tolist() == [2050.0]


def test_inplace_and_out_rules():
    x = torch.ones(2, 3)
    before = x._version
    x.mul_(2)
    assert x._version == before + 1 and x.tolist() == [[2.0] * 3] * 2
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.ones(3).add_(torch.ones(2, 3))
    i = torch.ones(2, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        i.add_(1.5)
    assert i.tolist() == [1, 1] and i._version == 0          # nothing changed
    out = torch.empty(2, dtype=torch.float64)
    assert torch.add(i, i, out=out) is out and out.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.div(i, i, out=torch.empty(2, dtype=torch.int64))


def test_bool_subtraction_and_negation_refused():
    b = torch.tensor([True, False])
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool"):
        b - b
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        -b


def test_large_results_are_the_same_with_one_or_two_threads():
    values = np.random.default_rng(0).standard_normal((300, 700)).astype(np.float32)
    x = torch.tensor(values)
    y = torch.tensor(values[:1])                             # broadcast along dim 0
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = [(x + y).numpy().copy(), torch.exp(x.t()).numpy().copy()]
        torch.set_num_threads(2)
        two = [(x + y).numpy().copy(), torch.exp(x.t()).numpy().copy()]
    finally:
        torch.set_num_threads(threads)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


def test_fast_path_and_general_path_agree():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    with torch.dispatch_trace(fast_paths=False):     # the general route
        slow = x * x
    fast = x * x
    assert fast.tolist() == slow.tolist() and fast.stride() == slow.stride()


def test_partial_overlap_between_input_and_written_tensor_is_refused():
    # Regression: x[1:].add_(x[:-1]) computed (and a chunked write could race) where
    # torch refuses; overlapping the same elements exactly, or "too hard to tell"
    # (strided views), stays allowed.
    x = torch.arange(6.0)
    message = "some elements of the input tensor and the written-to tensor"
    with pytest.raises(RuntimeError, match=message):
        x[1:].add_(x[:-1])
    with pytest.raises(RuntimeError, match=message):
        torch.add(x[:-1], 1, out=x[1:])
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and x._version == 0
    x.add_(x)
    x[::2].add_(x[1::2])
    assert x.tolist() == [2.0, 2.0, 10.0, 6.0, 18.0, 10.0]


def test_masks_shape_the_result_but_take_no_part_in_promotion():
    # where's condition is a mask: it broadcasts, but a uint8 condition must not promote
    # int8 values to int16, and it reaches the kernel as bool (not converted to floats).
    cond = torch.tensor([[1], [0]], dtype=torch.uint8)
    values = torch.tensor([1, 2, 3], dtype=torch.int8)
    with pytest.warns(UserWarning, match="uint8 condition"):
        result = torch.where(cond, values, torch.zeros(3, dtype=torch.int8))
    assert result.dtype is torch.int8 and result.tolist() == [[1, 2, 3], [0, 0, 0]]
    nan = float("nan")
    picked = torch.where(torch.tensor([True, False]), torch.tensor([nan, 1.0]), -0.0)
    assert np.isnan(picked[0].item()) and np.signbit(picked[1].item())   # bits kept as they are


NUMBER_CALLS = {
    "add": lambda lib, t, s: t + s, "rsub": lambda lib, t, s: s - t,
    "remainder": lambda lib, t, s: t.remainder(s), "fmod": lambda lib, t, s: t.fmod(s),
    "pow": lambda lib, t, s: s ** (t / 50), "xlogy": lambda lib, t, s: lib.xlogy(t.abs(), s),
    "ge": lambda lib, t, s: t >= s, "mul": lambda lib, t, s: t * s,
    "div": lambda lib, t, s: t / s, "floor_divide": lambda lib, t, s: t // s,
    "trunc": lambda lib, t, s: t.div(s, rounding_mode="trunc"),
}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(NUMBER_CALLS))
def test_numbers_beside_float16_round_as_torchs(name, dtype):
    """Note [Numbers beside float16]: rounded to the tensors' dtype first, but by mul and
    the divisions."""
    real = pytest.importorskip("torch")
    values = np.arange(-50, 50, 0.37, dtype=np.float32)
    call = NUMBER_CALLS[name]
    for number in (0.4, 1.3, -2.7):
        mine = call(torch, torch.tensor(values).to(getattr(torch, dtype)), number)
        theirs = call(real, real.tensor(values).to(getattr(real, dtype)), number)
        a = mine.float().numpy() if mine.dtype != torch.bool else mine.numpy()
        b = theirs.float().numpy() if theirs.dtype != real.bool else theirs.numpy()
        np.testing.assert_array_equal(a, b)
