"""torch.fft against real torch: every transform's values, dtype, result layout and
conjugate bit; gradients (reverse and forward mode, real and complex inputs); errors;
meta tensors; single precision; out=; the frequency and shift helpers.

Differential tests skip without torch.
"""
import numpy as np
import pytest

import glasstorch as gt

ONE_DIM = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
MULTI_DIM = ("fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn",
             "hfft2", "ihfft2", "hfftn", "ihfftn")
REAL_ONLY = ("rfft", "ihfft", "rfft2", "rfftn", "ihfft2", "ihfftn")


def _torch():
    return pytest.importorskip("torch")


def _inputs(torch, dtype):
    """A row-major matrix, its transpose, a strided 3-D view and a vector."""
    base = torch.randn(4, 6, 5, dtype=dtype, generator=torch.Generator().manual_seed(0))
    return (base[0], base[0].t(), base[:, ::2, 1:], base[1, 2])


def _keywords(name: str, ndim: int):
    if name in ONE_DIM:
        return ({}, {"dim": 0}, {"n": 7, "norm": "ortho"}, {"n": 3, "norm": "forward"})
    dims = tuple(range(ndim))
    return ({}, {"dim": dims[::-1]}, {"s": (3,) * ndim, "dim": dims, "norm": "forward"},
            {"norm": "ortho"})


def _strided_copy(t):
    """`t` in glasstorch with its exact geometry (offset and strides over a copy of its
    storage)."""
    count = t.untyped_storage().nbytes() // t.element_size()
    flat = t.as_strided((count,), (1,), 0).resolve_conj().numpy()
    return gt.from_numpy(flat.copy()).as_strided(tuple(t.shape), t.stride(), t.storage_offset())


def _cases(torch, name, dtype, inputs: int = 4):
    for x in _inputs(torch, dtype)[:inputs]:
        if name in MULTI_DIM and x.dim() < 2:
            continue
        for kwargs in _keywords(name, x.dim()):
            yield x, kwargs


@pytest.mark.parametrize("name,dtype", [(name, dtype) for name in ONE_DIM + MULTI_DIM
                                         for dtype in ("float32", "complex64")
                                         if dtype == "float32" or name not in REAL_ONLY])
def test_transform_matches_torch(name, dtype):
    """Values, dtype (single precision kept), sizes, strides and the conjugate bit (real-only
    transforms refuse complex input: tested with the other refusals)."""
    torch = _torch()
    for x, kwargs in _cases(torch, name, getattr(torch, dtype)):
        theirs = getattr(torch.fft, name)(x, **kwargs)
        mine = getattr(gt.fft, name)(_strided_copy(x), **kwargs)
        assert str(mine.dtype) == str(theirs.dtype), (name, kwargs)
        assert tuple(mine.shape) == tuple(theirs.shape) and mine.stride() == theirs.stride()
        assert mine.is_conj() == theirs.is_conj()
        np.testing.assert_allclose(mine.resolve_conj().numpy(), theirs.resolve_conj().numpy(),
                                   rtol=1e-4, atol=1e-4)


def test_single_precision_is_computed_in_single_precision():
    """float32 input is transformed by scipy.fft in float32 (complex64 out, not a
    complex128 result rounded)."""
    import scipy.fft
    values = np.random.default_rng(0).standard_normal((3, 16)).astype(np.float32)
    result = gt.fft.rfft(gt.from_numpy(values))
    assert result.dtype == gt.complex64
    np.testing.assert_array_equal(result.numpy(), scipy.fft.rfft(values))
    assert gt.fft.fft(gt.arange(4)).dtype == gt.complex64


@pytest.mark.parametrize("name", ONE_DIM + MULTI_DIM)
def test_gradients_match_torch(name):
    """Reverse-mode gradients of real and complex inputs (conjugate Wirtinger, as torch)."""
    torch = _torch()
    for dtype in (torch.float64, torch.complex128):
        if dtype.is_complex and name in REAL_ONLY:
            continue
        for x, kwargs in _cases(torch, name, dtype, inputs=2):
            leaf = x.detach().clone().requires_grad_()
            theirs = getattr(torch.fft, name)(leaf, **kwargs)
            upstream = torch.randn(theirs.shape, dtype=theirs.dtype)
            (expected,) = torch.autograd.grad(theirs, leaf, upstream)
            mine_leaf = _strided_copy(x.detach()).detach().requires_grad_()
            mine = getattr(gt.fft, name)(mine_leaf, **kwargs)
            (got,) = gt.autograd.grad(mine, mine_leaf, gt.from_numpy(
                upstream.resolve_conj().numpy().copy()))
            np.testing.assert_allclose(got.resolve_conj().numpy(),
                                       expected.resolve_conj().numpy(),
                                       rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", ["fft", "irfft", "hfft", "fftn", "irfftn", "hfft2"])
def test_forward_mode_tangents_of_complex_inputs_match_torch(name):
    torch = _torch()
    import torch.autograd.forward_ad as tfw
    import glasstorch.autograd.forward_ad as gfw
    x = torch.randn(4, 6, dtype=torch.complex128)
    tangent = torch.randn(4, 6, dtype=torch.complex128)
    with tfw.dual_level():
        expected = tfw.unpack_dual(getattr(torch.fft, name)(tfw.make_dual(x, tangent))).tangent
    with gfw.dual_level():
        dual = gfw.make_dual(gt.from_numpy(x.numpy().copy()), gt.from_numpy(tangent.numpy().copy()))
        got = gfw.unpack_dual(getattr(gt.fft, name)(dual)).tangent
    np.testing.assert_allclose(got.resolve_conj().numpy(), expected.resolve_conj().numpy(),
                               rtol=1e-10, atol=1e-10)


def test_second_derivative_flows_through_the_backward_transforms():
    x = gt.randn(8, dtype=gt.float64, requires_grad=True)
    energy = gt.fft.rfft(x * x).abs().sum()
    (grad,) = gt.autograd.grad(energy, x, create_graph=True)
    (second,) = gt.autograd.grad(grad.sum(), x)
    assert second.shape == (8,) and np.isfinite(second.numpy()).all()
    assert gt.fft.rfft(x).grad_fn.name() == "FftR2CBackward0"


_BAD_CALLS = [
    lambda m: m.fft.fft(m.ones(4), n=0),
    lambda m: m.fft.fft(m.ones(4), norm="Ortho"),
    lambda m: m.fft.fft(m.ones(4), dim=2),
    lambda m: m.fft.fft(m.tensor(1.0)),
    lambda m: m.fft.fft(m.ones(4, dtype=m.float16)),
    lambda m: m.fft.irfft(m.ones(1, dtype=m.complex64)),
    lambda m: m.fft.rfft(m.ones(4, dtype=m.complex64)),
    lambda m: m.fft.rfftn(m.ones(4, 4, dtype=m.complex64)),
    lambda m: m.fft.ihfftn(m.ones(4, 4, dtype=m.complex64)),
    lambda m: m.fft.fftn(m.ones(4), s=(2, 3)),
    lambda m: m.fft.fftn(m.ones(4, 4), dim=(0, 0)),
    lambda m: m.fft.fftn(m.ones(4, 4), s=(2,), dim=(0, 1)),
    lambda m: m.fft.rfftn(m.tensor(2.0)),
    lambda m: m.fft.fftfreq(4, dtype=m.int64),
    lambda m: m.ops.aten._fft_c2c(m.ones(4), [0], 0, True),
    lambda m: m.fft.fft(m.ones(4), out=m.empty(4)),
    lambda m: m.fft.fft2(m.ones(2, 4), out=m.empty(4, dtype=m.int64)),
    lambda m: m.fft.irfft(m.ones(4, dtype=m.complex64), out=m.empty(6, dtype=m.complex64)),
    lambda m: m.fft.ifft(m.ones(4), out=m.empty(4, dtype=m.complex128)),
    lambda m: m.ops.aten._fft_r2c(m.ones(4, dtype=m.float16), [0], 0, True),
]


@pytest.mark.parametrize("index", range(len(_BAD_CALLS)))
def test_refusals_match_torch(index):
    torch = _torch()
    with pytest.raises(Exception) as theirs:
        _BAD_CALLS[index](torch)
    with pytest.raises(type(theirs.value), match=None) as mine:
        _BAD_CALLS[index](gt)
    assert str(mine.value) == str(theirs.value)


def test_meta_tensors_get_the_shape_dtype_and_layout():
    torch = _torch()
    for name, kwargs in (("fft", {"dim": 0}), ("rfftn", {"dim": (1,)}),
                         ("irfft2", {"dim": (1, 0)}), ("hfft", {"n": 9})):
        theirs = getattr(torch.fft, name)(torch.empty(4, 6, device="meta"), **kwargs)
        mine = getattr(gt.fft, name)(gt.empty(4, 6, device="meta"), **kwargs)
        assert (tuple(mine.shape), mine.stride(), str(mine.dtype)) == \
            (tuple(theirs.shape), theirs.stride(), str(theirs.dtype))
        assert mine.device.type == "meta"


def test_out_writes_the_given_tensor():
    """out= is resized and written (cast to a wider complex dtype), as torch writes it."""
    wide = gt.empty(0, dtype=gt.complex128)
    assert gt.fft.fft(gt.ones(4), out=wide) is wide and wide.dtype == gt.complex128
    np.testing.assert_array_equal(wide.numpy(), [4, 0, 0, 0])
    x = gt.randn(3, 8)
    out = gt.empty(3, 5, dtype=gt.complex64)
    result = gt.fft.rfft(x, out=out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), gt.fft.rfft(x).numpy(), rtol=1e-6)
    real = gt.empty(3, 8)
    gt.fft.irfft(gt.fft.rfft(x), n=8, out=real)
    np.testing.assert_allclose(real.numpy(), x.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n,d,dtype", [(5, 1.0, "float32"), (8, 0.1, "float64"),
                                       (7, 2.5, "float16"), (0, 1.0, "float32")])
def test_frequencies_match_torch_bit_for_bit(n, d, dtype):
    torch = _torch()
    for name in ("fftfreq", "rfftfreq"):
        theirs = getattr(torch.fft, name)(n, d, dtype=getattr(torch, dtype))
        mine = getattr(gt.fft, name)(n, d, dtype=getattr(gt, dtype))
        np.testing.assert_array_equal(mine.float().numpy(), theirs.float().numpy())
        assert str(mine.dtype) == str(theirs.dtype)


def test_shifts_match_torch():
    torch = _torch()
    values = np.arange(30).reshape(5, 6)
    for name in ("fftshift", "ifftshift"):
        for dim in (None, 0, (1,), (0, 1)):
            theirs = getattr(torch.fft, name)(torch.from_numpy(values), dim=dim)
            mine = getattr(gt.fft, name)(gt.from_numpy(values), dim=dim)
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_namespace_lists_every_torch_fft_name():
    torch = _torch()
    public = {name for name in dir(torch.fft) if not name.startswith("_")
              and callable(getattr(torch.fft, name)) and not isinstance(getattr(torch.fft, name),
                                                                        type)}
    assert public <= set(dir(gt.fft))
    for name in public:
        assert callable(getattr(gt.fft, name))
