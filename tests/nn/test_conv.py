"""Convolution layers and functions against torch: seeded initialisation, values and
gradients (double backward too), padding modes, lazy layers, memory formats, and the
refusals (torch's exception types and words, nothing changed by a failed call)."""
import re

import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, numpy_of, to_glass, to_torch

torch = pytest.importorskip("torch")

LAYERS = [
    ("Conv1d", (4, 6, 3), {}, (2, 4, 9)),
    ("Conv2d", (4, 6, 3), {"stride": 2, "padding": 1}, (2, 4, 9, 9)),
    ("Conv2d", (4, 6, (3, 2)), {"padding": "same", "padding_mode": "reflect", "dilation": 2},
     (2, 4, 9, 9)),
    ("Conv2d", (4, 6, 3), {"padding": 2, "padding_mode": "circular", "groups": 2},
     (2, 4, 9, 9)),
    ("Conv2d", (3, 3, 3), {"groups": 3, "bias": False}, (3, 7, 7)),          # depthwise
    ("Conv3d", (4, 6, 3), {"padding": 1, "padding_mode": "replicate", "bias": False},
     (2, 4, 5, 5, 5)),
    ("ConvTranspose1d", (4, 6, 3), {"stride": 2, "dilation": 2}, (4, 5)),
    ("ConvTranspose2d", (4, 6, 3), {"stride": 2, "output_padding": 1, "groups": 2},
     (2, 4, 5, 5)),
    ("ConvTranspose3d", (4, 6, 3), {"stride": 2}, (1, 4, 3, 3, 3)),
    ("LazyConv2d", (6, 3), {"padding": 1}, (2, 4, 9, 9)),
    ("LazyConv1d", (6, 3), {}, (4, 9)),
    ("LazyConvTranspose2d", (6, 3), {"stride": 2}, (2, 4, 5, 5)),
]


def _run_layer(lib, name, args, kwargs, shape):
    lib.manual_seed(0)
    layer = getattr(lib.nn, name)(*args, **kwargs)
    x = lib.randn(*shape, requires_grad=True)
    y = layer(x)
    y.square().sum().backward()
    return layer, x, y


@pytest.mark.parametrize("name, args, kwargs, shape", LAYERS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(LAYERS)])
def test_layer_matches_torch(name, args, kwargs, shape):
    """Seeded parameters bit for bit, the printed form, the class a lazy layer becomes,
    the output and every gradient."""
    theirs = _run_layer(torch, name, args, kwargs, shape)
    ours = _run_layer(gt, name, args, kwargs, shape)
    assert repr(ours[0]) == repr(theirs[0])
    assert type(ours[0]).__name__ == type(theirs[0]).__name__
    for (key, mine), (_, their) in zip(ours[0].named_parameters(),
                                       theirs[0].named_parameters()):
        np.testing.assert_array_equal(numpy_of(mine), numpy_of(their), err_msg=key)
        assert_close(mine.grad, their.grad, rtol=1e-4, atol=1e-4)
    assert_close(ours[2], theirs[2], rtol=1e-4, atol=1e-5)
    assert_close(ours[1].grad, theirs[1].grad, rtol=1e-4, atol=1e-4)


CONFIGS = [  # dims, transposed, groups, stride, padding, dilation, output_padding
    (1, False, 1, 1, 0, 1, 0), (2, False, 2, 2, 1, 1, 0), (2, False, 2, 1, 2, 2, 0),
    (2, False, 1, 2, 0, 2, 0),         # the last window ends short of the input's end
    (3, False, 1, 2, 1, 1, 0), (1, True, 2, 2, 1, 1, 1), (2, True, 1, 3, 1, 2, 2),
    (3, True, 2, 1, 0, 1, 0),
]


def _convolution_case(lib, dims, transposed, groups, stride, padding, dilation, out_pad,
                      values):
    x, w, b, g = (lib.tensor(v, requires_grad=True) for v in values)
    y = lib.convolution(x, w, b, [stride] * dims, [padding] * dims, [dilation] * dims,
                        transposed, [out_pad] * dims, groups)
    grads = lib.autograd.grad(y, (x, w, b), g, create_graph=True)
    total = sum((grad * grad).sum() for grad in grads)
    second = lib.autograd.grad(total, (x, w, g))
    return (y,) + grads + second


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_values_gradients_and_double_backward(config):
    """torch.convolution's values, its three gradients, and the gradients of a function
    of those gradients (through convolution_backward's own derivatives)."""
    dims, transposed, groups, stride, padding, dilation, out_pad = config
    rng = np.random.default_rng(sum(config))
    x = rng.standard_normal((2, 4) + (6,) * dims)
    w_shape = (4, 6 // groups) if transposed else (6, 4 // groups)
    w = rng.standard_normal(w_shape + (3,) * dims)
    b = rng.standard_normal(6)
    y = torch.convolution(torch.tensor(x), torch.tensor(w), torch.tensor(b),
                          [stride] * dims, [padding] * dims, [dilation] * dims, transposed,
                          [out_pad] * dims, groups)
    values = (x, w, b, rng.standard_normal(tuple(y.shape)))
    theirs = _convolution_case(torch, *config, values)
    ours = _convolution_case(gt, *config, values)
    for mine, their in zip(ours, theirs):
        assert_close(mine, their, rtol=1e-9, atol=1e-9)


@pytest.fixture
def two_threads():
    """glasstorch on two threads for one test (its kernels then share out their work)."""
    before = gt.get_num_threads()
    gt.set_num_threads(2)
    yield
    gt.set_num_threads(before)


@pytest.mark.parametrize("transposed", [False, True], ids=["conv2d", "conv_transpose2d"])
def test_convolution_in_chunks_matches_torch(transposed, two_threads):
    """Shapes large enough for the kernels to cut their work (Note [Convolution as
    GEMM]): runs of a few images, a weight's gradient summed over several chunks of
    images on two threads, col2im over strided slices; values and gradients as torch's."""
    rng = np.random.default_rng(3)
    values = (rng.standard_normal((16, 8, 20, 20)),
              rng.standard_normal((8, 12, 3, 3) if transposed else (12, 8, 3, 3)),
              rng.standard_normal(12))
    args = ([2, 2], [1, 1], [1, 1], True, [1, 1], 1) if transposed else \
        ([1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    results = []
    for lib in (torch, gt):
        x, w, b = (lib.tensor(v, requires_grad=True) for v in values)
        y = lib.convolution(x, w, b, *args)
        y.backward(lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape))))
        results.append((y, x.grad, w.grad, b.grad))
    for their, mine in zip(*results):
        assert_close(mine, their, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("x_shape, w_shape, stride, padding, dilation, groups", [
    ((3, 4, 9, 40), (6, 4, 3, 3), [1, 1], [1, 1], [1, 1], 1),
    ((2, 4, 11, 37), (6, 2, 3, 2), [2, 1], [2, 1], [1, 2], 2),          # H stride, groups
    ((2, 2, 5, 4, 36), (3, 2, 2, 3, 3), [1, 2, 1], [0, 1, 1], [1, 1, 1], 1),   # 3d
], ids=["3x3", "strided rows, dilated, grouped", "3d"])
def test_columns_over_widened_rows_match_the_plain_columns(x_shape, w_shape, stride, padding,
                                                           dilation, groups, monkeypatch):
    """Note [Columns over widened rows]: the plain im2col's products (up to BLAS's
    rounding of its edge tiles), and torch's values."""
    from glasstorch.aten.native.nn import convolution_kernels
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
    b = rng.standard_normal(w_shape[0])
    args = (stride, padding, dilation, False, [0] * len(stride), groups)
    theirs = torch.convolution(*(torch.tensor(v, dtype=torch.float32) for v in (x, w, b)),
                               *args)
    assert convolution_kernels._widen_rows(tuple(theirs.shape[2:]), x_shape[-1] +
                                           2 * padding[-1], stride)
    wide = gt.convolution(*(gt.tensor(v, dtype=gt.float32) for v in (x, w, b)), *args)
    monkeypatch.setattr(convolution_kernels, "_widen_rows", lambda *args: False)
    plain = gt.convolution(*(gt.tensor(v, dtype=gt.float32) for v in (x, w, b)), *args)
    assert_close(wide, plain, rtol=1e-6, atol=1e-6)
    assert_close(wide, theirs, rtol=1e-5, atol=1e-5)


def test_convolution_backward_output_mask():
    """Results left out by output_mask are None, the others as torch computes them."""
    x, w, grad = (torch.randn(*s, dtype=torch.float64) for s in
                  ((2, 3, 6, 6), (4, 3, 3, 3), (2, 4, 4, 4)))
    args = ([4], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [False, True, False])
    theirs = torch.ops.aten.convolution_backward(grad, x, w, *args)
    ours = gt.ops.aten.convolution_backward(to_glass(grad), to_glass(x), to_glass(w), *args)
    assert ours[0] is None and ours[2] is None and theirs[0] is None
    assert_close(ours[1], theirs[1], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("x_shape, w_shape, args", [
    ((2, 2, 6, 5), (4, 1, 3, 3), ([2, 1], [1, 2], [1, 1], False, [0, 0], 2)),
    ((1, 1, 2), (1, 1, 3), ([1], [1], [2], True, [1], 1)),
    ((1, 1, 5, 6), (1, 1, 2, 3), ([1, 3], [2, 2], [2, 1], True, [1, 2], 1)),
], ids=["weight with a size-1 dim", "transposed 1d", "transposed, size-1 dims"])
def test_convolution_backward_strides_as_torch(x_shape, w_shape, args):
    """Gradients dense and row-major as torch returns them, also where a size-1 dim or
    a cut-off border would leave a view that passes for contiguous."""
    x, w = torch.randn(x_shape), torch.randn(w_shape)
    y = torch.convolution(x, w, None, *args)
    grad = torch.randn(y.shape)
    channels = w_shape[1] * args[-1] if args[3] else w_shape[0]
    theirs = torch.ops.aten.convolution_backward(grad, x, w, [channels], *args,
                                                 [True, True, True])
    ours = gt.ops.aten.convolution_backward(to_glass(grad), to_glass(x), to_glass(w),
                                            [channels], *args, [True, True, True])
    for mine, their in zip(ours, theirs):
        assert mine.stride() == their.stride()
        assert_close(mine, their, rtol=1e-5, atol=1e-5)


def test_complex_convolution_matches_torch():
    """Complex inputs: torch's three real convolutions, gradients too."""
    x = torch.randn(2, 3, 7, dtype=torch.complex128, requires_grad=True)
    w = torch.randn(4, 3, 2, dtype=torch.complex128, requires_grad=True)
    b = torch.randn(4, dtype=torch.complex128, requires_grad=True)
    y = torch.nn.functional.conv1d(x, w.conj(), b, padding=1)
    y.abs().sum().backward()
    xs, ws, bs = to_glass(x), to_glass(w), to_glass(b)
    ours = gt.nn.functional.conv1d(xs, ws.conj(), bs, padding=1)
    ours.abs().sum().backward()
    for mine, their in ((ours, y), (xs.grad, x.grad), (ws.grad, w.grad), (bs.grad, b.grad)):
        assert_close(mine.resolve_conj(), their.resolve_conj(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.conv2d(x, lib.ones(4, 3, 3, 3)),
    lambda lib, x: lib.nn.functional.conv_transpose2d(x, lib.ones(3, 4, 3, 3), stride=2),
    lambda lib, x: lib.nn.functional.conv2d(x, lib.ones(4, 3, 1, 1).to(
        memory_format=lib.channels_last)),
], ids=["conv2d", "conv_transpose2d", "channels_last weight"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
def test_result_layout_as_torch(call, layout):
    """channels_last inputs (or weights) give channels_last results, with torch's
    strides; on meta tensors too."""
    x = torch.randn(2, 3, 6, 6)
    if layout == "channels_last":
        x = x.to(memory_format=torch.channels_last)
    theirs = call(torch, x)
    ours = call(gt, to_glass(x.contiguous()).contiguous(
        memory_format=gt.channels_last if layout == "channels_last" else gt.contiguous_format))
    assert ours.stride() == theirs.stride()
    assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
    meta = call(gt, gt.empty(tuple(x.shape), device="meta").as_strided(tuple(x.shape),
                                                                       x.stride()))
    assert meta.stride() == theirs.stride()


@pytest.mark.parametrize("batch, kernel, dtype", [(1, 2, "float32"), (2, 2, "float32"),
                                                  (1, 4, "float32"), (2, 2, "float64")])
def test_conv3d_channels_last_3d(batch, kernel, dtype):
    """3D results are channels-last only where torch runs oneDNN (float32, a batch or a
    kernel larger than 3x3)."""
    x = torch.randn(batch, 2, 5, 5, 5, dtype=getattr(torch, dtype))
    w = torch.randn((3, 2) + (kernel,) * 3, dtype=getattr(torch, dtype))
    theirs = torch.nn.functional.conv3d(x.to(memory_format=torch.channels_last_3d), w)
    ours = gt.nn.functional.conv3d(to_glass(x).contiguous(memory_format=gt.channels_last_3d),
                                   to_glass(w))
    assert ours.stride() == theirs.stride()
    assert_close(ours, theirs, rtol=1e-5, atol=1e-5)


def test_failed_call_changes_nothing():
    """A refused convolution leaves its arguments (values and versions) as they were."""
    x, w = gt.randn(1, 3, 5, 5), gt.randn(4, 2, 3, 3)
    before = (x.clone(), w.clone(), x._version, w._version)
    with pytest.raises(RuntimeError, match="expected input"):
        gt.nn.functional.conv2d(x, w)
    assert gt.equal(x, before[0]) and gt.equal(w, before[1])
    assert (x._version, w._version) == before[2:]


def test_same_padding_warns_as_torch():
    """An even kernel with 'same' padding pads asymmetrically, with torch's warning."""
    x, w = torch.randn(1, 2, 6), torch.randn(3, 2, 4)
    with pytest.warns(UserWarning, match="zero-padded copy"):
        ours = gt.nn.functional.conv1d(to_glass(x), to_glass(w), padding="same")
    assert_close(ours, torch.nn.functional.conv1d(x, w, padding="same"), 1e-5, 1e-5)


@pytest.mark.parametrize("build", [
    lambda nn: nn.Conv2d(4, 6, 3, groups=0),
    lambda nn: nn.Conv2d(3, 6, 3, groups=2),
    lambda nn: nn.Conv2d(4, 5, 3, groups=2),
    lambda nn: nn.Conv2d(4, 6, 3, padding="full"),
    lambda nn: nn.Conv2d(4, 6, 3, padding="same", stride=2),
    lambda nn: nn.Conv2d(4, 6, 3, padding_mode="mirror"),
    lambda nn: nn.ConvTranspose2d(4, 6, 3, padding_mode="reflect"),
])
def test_layer_argument_errors(build):
    """torch's words; a set in a message is compared as a set (its order is a hash's)."""
    with pytest.raises(ValueError) as theirs:
        build(torch.nn)
    with pytest.raises(ValueError) as ours:
        build(gt.nn)
    assert _sets_sorted(str(ours.value)) == _sets_sorted(str(theirs.value))


def _sets_sorted(message: str) -> str:
    return re.sub(r"\{([^}]*)\}", lambda m: str(sorted(m.group(1).split(", "))), message)


def test_conv_transpose_output_size():
    """forward(output_size=...) picks the output padding; sizes out of range refused."""
    for lib in (torch, gt):
        lib.manual_seed(0)
    layers = [lib.nn.ConvTranspose2d(3, 2, 3, stride=3) for lib in (torch, gt)]
    x = torch.randn(1, 3, 4, 4)
    theirs = layers[0](x, output_size=[1, 2, 13, 14])
    ours = layers[1](to_glass(x), output_size=[1, 2, 13, 14])
    assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
    outcomes = []
    for lib, layer, value in ((torch, layers[0], x), (gt, layers[1], to_glass(x))):
        with pytest.raises(ValueError) as error:
            layer(value, output_size=[20, 20])
        outcomes.append(str(error.value))
    assert outcomes[0] == outcomes[1]


def test_lazy_layer_errors_and_state_dict():
    """A lazy layer refuses inputs of the wrong rank as torch does, and loads a state
    dict before its first input."""
    messages = []
    for lib in (torch, gt):
        with pytest.raises(RuntimeError) as error:
            lib.nn.LazyConv2d(4, 3)(lib.ones(2, 3))
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    source = gt.nn.Conv2d(3, 4, 3)
    lazy = gt.nn.LazyConv2d(4, 3)
    lazy.load_state_dict(source.state_dict())
    assert gt.equal(lazy.weight, source.weight)


def test_functional_names_are_torch_functions():
    for name in ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                 "conv_transpose3d", "conv_tbc"):
        assert getattr(gt.nn.functional, name) is getattr(gt, name)


def test_conv_tbc_gradients_match_torch():
    x, w, b = (torch.randn(*s, dtype=torch.float64, requires_grad=True)
               for s in ((6, 2, 3), (3, 3, 4), (4,)))
    y = torch.conv_tbc(x, w, b, 1)
    y.square().sum().backward()
    xs, ws, bs = (to_glass(t) for t in (x, w, b))
    ours = gt.conv_tbc(xs, ws, bs, 1)
    ours.square().sum().backward()
    assert type(ours.grad_fn).__name__ == "ConvTbcBackward0"
    for mine, their in ((ours, y), (xs.grad, x.grad), (ws.grad, w.grad), (bs.grad, b.grad)):
        assert_close(mine, their, rtol=1e-9, atol=1e-9)


def test_records_convolution_backward():
    x = to_torch(gt.randn(1, 2, 5, 5), requires_grad=True)
    ours = gt.nn.functional.conv2d(to_glass(x), gt.randn(3, 2, 3, 3))
    theirs = torch.nn.functional.conv2d(x, torch.randn(3, 2, 3, 3))
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__ == \
        "ConvolutionBackward0"


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_nn_grad_functions_match_torch(dims):
    """torch.nn.grad's input and weight gradients, strided and grouped."""
    x = torch.randn((2, 4) + (7,) * dims, dtype=torch.float64)
    w = torch.randn((6, 2) + (3,) * dims, dtype=torch.float64)
    g = torch.randn((2, 6) + (4,) * dims, dtype=torch.float64)
    kwargs = {"stride": 2, "padding": 1, "groups": 2}
    input_grad = getattr(torch.nn.grad, f"conv{dims}d_input")(x.shape, w, g, **kwargs)
    weight_grad = getattr(torch.nn.grad, f"conv{dims}d_weight")(x, w.shape, g, **kwargs)
    ours = gt.nn.grad
    assert_close(getattr(ours, f"conv{dims}d_input")(tuple(x.shape), to_glass(w), to_glass(g),
                                                     **kwargs), input_grad, 1e-9, 1e-9)
    assert_close(getattr(ours, f"conv{dims}d_weight")(to_glass(x), tuple(w.shape), to_glass(g),
                                                      **kwargs), weight_grad, 1e-9, 1e-9)


def test_nn_grad_refuses_a_wrong_input_size():
    messages = []
    for lib in (torch, gt):
        with pytest.raises(RuntimeError) as error:
            lib.nn.grad.conv2d_input((1, 3, 5, 5, 1), lib.ones(4, 3, 3, 3), lib.ones(1, 4, 3, 3))
        messages.append(str(error.value))
    assert messages[0] == messages[1]
