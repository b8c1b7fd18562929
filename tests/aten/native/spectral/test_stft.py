"""stft and istft against real torch: values, layout and dtype over their options;
istft's inverse (round trip) and its refusals; gradients through both; the
once-per-process warnings.

Differential tests skip without torch.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt


def _torch():
    return pytest.importorskip("torch")


def _mine(value):
    if hasattr(value, "numpy") and not isinstance(value, gt.Tensor):
        return gt.from_numpy(value.resolve_conj().numpy().copy())
    return value


def _options(torch, dtype):
    window = torch.hann_window(16, dtype=dtype)
    return (dict(n_fft=16, window=window, return_complex=True),
            dict(n_fft=16, hop_length=3, window=window, return_complex=True, normalized=True),
            dict(n_fft=16, win_length=10, window=torch.hann_window(10, dtype=dtype),
                 center=False, return_complex=True),
            dict(n_fft=16, win_length=10, window=torch.hann_window(10, dtype=dtype),
                 center=False, align_to_window=True, return_complex=True),
            dict(n_fft=8, pad_mode="constant", window=torch.ones(8, dtype=dtype),
                 return_complex=False),
            dict(n_fft=8, onesided=False, return_complex=True),
            dict(n_fft=8, hop_length=8, pad_mode="circular", return_complex=True))


@pytest.mark.parametrize("shape", [(40,), (2, 50)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_stft_matches_torch(shape, dtype):
    torch = _torch()
    dtype = getattr(torch, dtype)
    signal = torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(0))
    for options in _options(torch, dtype.to_real()):
        if dtype.is_complex and (options.get("onesided") is not False):
            options = dict(options, onesided=False, return_complex=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = torch.stft(signal, **options)
            mine = gt.stft(_mine(signal), **{k: _mine(v) for k, v in options.items()})
        assert tuple(mine.shape) == tuple(theirs.shape) and mine.stride() == theirs.stride()
        assert str(mine.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-4)


def test_tensor_methods_are_the_functions():
    x, window = gt.randn(64), gt.hann_window(16)
    spectrum = x.stft(16, window=window, return_complex=True)
    assert gt.equal(spectrum, gt.stft(x, 16, window=window, return_complex=True))
    back = spectrum.istft(16, window=window, length=64)
    np.testing.assert_allclose(back.numpy(), x.numpy(), atol=1e-5)


@pytest.mark.parametrize("options", [dict(hop_length=4), dict(hop_length=2, normalized=True),
                                     dict(hop_length=4, win_length=12, center=True)])
def test_istft_inverts_stft_as_torch_does(options):
    torch = _torch()
    signal = torch.randn(2, 70, dtype=torch.float64)
    window = torch.hann_window(options.get("win_length", 16), dtype=torch.float64)
    spectrum = torch.stft(signal, 16, window=window, return_complex=True, **options)
    theirs = torch.istft(spectrum, 16, window=window, length=70, **options)
    mine = gt.istft(_mine(spectrum), 16, window=_mine(window), length=70, **options)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=1e-12)
    np.testing.assert_allclose(mine.numpy(), signal.numpy(), atol=1e-12)


def test_istft_two_sided_and_complex_results_match_torch():
    torch = _torch()
    spectrum = torch.randn(16, 9, dtype=torch.complex128)
    window = torch.hann_window(16, dtype=torch.float64)
    for options in (dict(), dict(return_complex=True), dict(onesided=False)):
        theirs = torch.istft(spectrum, 16, window=window, **options)
        mine = gt.istft(_mine(spectrum), 16, window=_mine(window), **options)
        assert str(mine.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=1e-12)


def test_gradients_through_stft_and_istft_match_torch():
    torch = _torch()
    x = torch.randn(2, 50, dtype=torch.float64, requires_grad=True)
    window = torch.hann_window(16, dtype=torch.float64)
    spectrum = torch.stft(x, 16, 4, window=window, return_complex=True)
    y = torch.istft(spectrum * spectrum.abs(), 16, 4, window=window, length=50)
    upstream = torch.randn(y.shape, dtype=torch.float64)
    (expected,) = torch.autograd.grad(y, x, upstream)
    mine_x = _mine(x.detach()).requires_grad_()
    mine_spectrum = gt.stft(mine_x, 16, 4, window=_mine(window), return_complex=True)
    assert mine_spectrum.grad_fn.name() == "TransposeBackward1"
    mine_y = gt.istft(mine_spectrum * mine_spectrum.abs(), 16, 4, window=_mine(window),
                      length=50)
    (got,) = gt.autograd.grad(mine_y, mine_x, _mine(upstream))
    np.testing.assert_allclose(got.numpy(), expected.numpy(), atol=1e-12)


_BAD_CALLS = [
    lambda m: m.stft(m.ones(40), 16),
    lambda m: m.stft(m.ones(2, 2, 40), 16, return_complex=True),
    lambda m: m.stft(m.ones(40), 16, hop_length=0, center=False, return_complex=True),
    lambda m: m.stft(m.ones(40), 16, win_length=20, return_complex=True),
    lambda m: m.stft(m.ones(40), 16, window=m.ones(10), return_complex=True),
    lambda m: m.stft(m.ones(10), 16, center=False, return_complex=True),
    lambda m: m.stft(m.ones(40), 16, window=m.ones(16), pad_mode="wrap", return_complex=True),
    lambda m: m.stft(m.ones(40), 16, window=m.ones(16), align_to_window=True,
                     return_complex=True),
    lambda m: m.istft(m.ones(9, 5), 16),
    lambda m: m.istft(m.ones(8, 5, dtype=m.complex64), 16, window=m.ones(16)),
    lambda m: m.istft(m.ones(9, 5, dtype=m.complex64), 16, hop_length=20, window=m.ones(16)),
    lambda m: m.istft(m.ones(9, 5, dtype=m.complex64), 16, window=m.ones(12)),
    lambda m: m.istft(m.ones(0, 5, dtype=m.complex64), 16, window=m.ones(16)),
    lambda m: m.istft(m.ones(9, 5, dtype=m.complex64), 16, window=m.hann_window(16),
                      center=False),
]


@pytest.mark.parametrize("index", range(len(_BAD_CALLS)))
def test_refusals_match_torch(index):
    torch = _torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as theirs:
            _BAD_CALLS[index](torch)
        with pytest.raises(type(theirs.value)) as mine:
            _BAD_CALLS[index](gt)
    assert str(mine.value) == str(theirs.value)


def test_a_missing_window_warns():
    """torch's warning (once per process, unless warnings are set to always)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gt.set_warn_always(True)
        try:
            gt.stft(gt.ones(32), 8, return_complex=True)
        finally:
            gt.set_warn_always(False)
    assert any("A window was not provided" in str(w.message) for w in caught)


def test_complex_signal_gradients_match_torch():
    """A complex signal through a two-sided stft and a complex istft, differentiated."""
    torch = _torch()
    x = torch.randn(2, 40, dtype=torch.complex128)
    window = torch.hann_window(8, dtype=torch.float64)

    def run(module, signal, window):
        signal = signal.detach().requires_grad_()
        spectrum = module.stft(signal, 8, 2, window=window, return_complex=True, onesided=False)
        return signal, module.istft(spectrum * spectrum.abs(), 8, 2, window=window,
                                    onesided=False, return_complex=True, length=40)

    leaf, result = run(torch, x, window)
    upstream = torch.randn(result.shape, dtype=result.dtype)
    (expected,) = torch.autograd.grad(result, leaf, upstream)
    mine_leaf, mine = run(gt, _mine(x), _mine(window))
    (got,) = gt.autograd.grad(mine, mine_leaf, _mine(upstream))
    np.testing.assert_allclose(mine.detach().numpy(), result.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(got.resolve_conj().numpy(), expected.resolve_conj().numpy(),
                               atol=1e-12)
