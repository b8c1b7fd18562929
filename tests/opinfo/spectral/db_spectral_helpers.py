"""OpInfo entries for `aten/native/spectral/` fft_helpers.py (fftfreq, rfftfreq,
fftshift, ifftshift), windows.py (the top-level window factories) and stft.py /
istft.py (their references: scipy.signal's windows and a NumPy short-time transform).
"""
import numpy as np
import pytest
import scipy.signal

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import ALL_DTYPES, ErrorInput, OpInfo, SampleInput, make_tensor, tensors

FLOATS = (gt.float32, gt.float64)


def sample_frequencies(dtype):
    for n, d in ((5, 1.0), (4, 0.3), (1, 2.0), (8, 0.5)):
        yield SampleInput(n, d, dtype=dtype)


def _frequencies(fn):
    return lambda n, d=1.0, dtype=None: fn(n, d).astype(numpy_dtype(dtype))


def sample_shift(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x)
            yield SampleInput(x, (0,))


def _window(name: str, periodic_default: bool = True):
    def ref(window_length, periodic=periodic_default, *params, dtype=None):
        values = scipy.signal.get_window((name, *params) if params else name, window_length,
                                         fftbins=periodic) if window_length else np.ones(0)
        return np.asarray(values).astype(numpy_dtype(dtype))
    return ref


def _window_samples(params: tuple = ()):
    def samples(dtype):
        for n in (0, 1, 2, 5, 8):
            yield SampleInput(n, True, *params, dtype=dtype)
            yield SampleInput(n, False, *params, dtype=dtype)
    return samples


def _window_entry(overload: str, scipy_name: str, params: tuple = (), covers: tuple = ()):
    """A window factory's entry: its own overload (torch's top-level binding runs the same
    body, and its periodic result is no view there: an aten call's is one)."""
    name = overload.split(".")[0]
    return OpInfo(overload, variants=(f"ops.aten.{overload}",), dtypes=FLOATS,
                  covers=(name,) + covers,
                  ref=_window(scipy_name), sample_inputs=_window_samples(params),
                  error_inputs=lambda: _window_errors(name, params), is_factory=True)


def _window_errors(name: str, params: tuple):
    yield ErrorInput(SampleInput(-1, True, *params, dtype=gt.float32), RuntimeError,
                     rf"^{name} requires non-negative window_length, got window_length=-1$")


def _frame_signal(a, n_fft, hop):
    count = 1 + (a.shape[-1] - n_fft) // hop
    return np.stack([a[..., i * hop:i * hop + n_fft] for i in range(count)], -2)


def _stft_ref(a, n_fft, hop_length=None, win_length=None, window=None, center=True,
              pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
              align_to_window=None):
    hop = hop_length or n_fft // 4
    if center:
        a = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=pad_mode)
    frames = _frame_signal(a.astype(np.float64), n_fft, hop) * window
    spectrum = np.fft.rfft(frames, axis=-1) / (np.sqrt(n_fft) if normalized else 1)
    return np.swapaxes(spectrum, -1, -2).astype(np.complex128 if a.dtype == np.float64
                                                else np.complex64)


def sample_stft(dtype):
    window = gt.hann_window(8, dtype=dtype)
    for shape in ((20,), (2, 17)):
        x = make_tensor(shape, dtype)
        yield SampleInput(x, 8, 2, None, window, return_complex=True)
        yield SampleInput(x, 8, 3, None, window, False, return_complex=True, normalized=True)


def sample_istft(dtype):
    window = gt.hann_window(8, dtype=dtype)
    for shape in ((20,), (2, 17)):
        x = make_tensor(shape, dtype)
        spectrum = gt.stft(x, 8, 2, window=window, return_complex=True)
        yield SampleInput(spectrum, 8, 2, None, window, length=shape[-1])


def _istft_ref(spectrum, n_fft, hop_length, win_length, window, length=None, **_):
    frames = np.fft.irfft(np.swapaxes(spectrum, -1, -2), n_fft, axis=-1) * window
    total = n_fft + hop_length * (frames.shape[-2] - 1)
    signal = np.zeros(frames.shape[:-2] + (total,))
    envelope = np.zeros(total)
    for i in range(frames.shape[-2]):
        signal[..., i * hop_length:i * hop_length + n_fft] += frames[..., i, :]
        envelope[i * hop_length:i * hop_length + n_fft] += window ** 2
    start = n_fft // 2
    return (signal / envelope)[..., start:start + length].astype(window.dtype)


OPS = [
    OpInfo("fft_fftfreq", variants=("fft.fftfreq",), dtypes=FLOATS, is_factory=True,
           ref=_frequencies(np.fft.fftfreq), sample_inputs=sample_frequencies),
    OpInfo("fft_rfftfreq", variants=("fft.rfftfreq",), dtypes=FLOATS, is_factory=True,
           ref=_frequencies(np.fft.rfftfreq), sample_inputs=sample_frequencies),
    OpInfo("fft_fftshift", variants=("fft.fftshift",), dtypes=ALL_DTYPES,
           ref=lambda a, dim=None: np.fft.fftshift(a, dim), sample_inputs=sample_shift),
    OpInfo("fft_ifftshift", variants=("fft.ifftshift",), dtypes=ALL_DTYPES,
           ref=lambda a, dim=None: np.fft.ifftshift(a, dim), sample_inputs=sample_shift),
    _window_entry("hann_window.periodic", "hann"),
    _window_entry("hamming_window.periodic", "hamming",
                  covers=("hamming_window.periodic_alpha", "hamming_window.periodic_alpha_beta")),
    _window_entry("blackman_window.periodic", "blackman"),
    _window_entry("bartlett_window.periodic", "bartlett"),
    _window_entry("kaiser_window.beta", "kaiser", (12.0,), covers=("kaiser_window.periodic",)),
    OpInfo("stft.center", variants=("stft", "Tensor.stft"), dtypes=FLOATS, ref=_stft_ref,
           sample_inputs=sample_stft, covers=("stft",)),
    OpInfo("istft", variants=("istft", "Tensor.istft"), dtypes=FLOATS, ref=_istft_ref,
           sample_inputs=sample_istft, marks={"test_meta": pytest.mark.xfail(
               strict=True, reason="spectral: istft checks the window envelope's values")}),
]
