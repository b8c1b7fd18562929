"""FFTs and the short-time transform: the workloads of signal processing.

A batch of 64 float32 signals of 16384 samples (1M elements): `rfft` (scipy.fft in
single precision, the batch split over the thread pool), its inverse, a complex `fft`
over the signals' dim, and the STFT of a batch of 8 signals with a Hann window (framing
is a strided view; one batched transform). A single short signal measures the cost of a call. The NumPy column is numpy.fft, which widens
float32 to complex128.
"""
from bench import case

GROUP = "spectral: rfft, fft, stft"


def _signals(torch, np):
    torch.manual_seed(0)
    x = torch.randn(64, 16384)
    a = np.random.default_rng(0).standard_normal((64, 16384), dtype=np.float32)
    spectrum = torch.fft.rfft(x)
    return {"torch": torch, "np": np, "x": x, "a": a, "X": spectrum,
            "z": torch.randn(64, 4096, dtype=torch.complex64),
            "signals": torch.randn(8, 16000), "window": torch.hann_window(512),
            "short": torch.randn(256)}


case("torch.fft.rfft(x)", group=GROUP, name="rfft (64, 16384) float32",
     numpy="np.fft.rfft(a)")(_signals)
case("torch.fft.rfft(short)", group=GROUP, name="rfft (256,) float32: per-call cost")(_signals)
case("torch.fft.irfft(X)", group=GROUP, name="irfft (64, 8193) complex64")(_signals)
case("torch.fft.fft(z)", group=GROUP, name="fft (64, 4096) complex64")(_signals)
case("torch.stft(signals, 512, 128, window=window, return_complex=True)", group=GROUP,
     name="stft (8, 16000) n_fft 512 hop 128")(_signals)
