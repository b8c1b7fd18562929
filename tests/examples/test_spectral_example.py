"""A spectral-analysis program, written as a torch user writes it, run on glasstorch and
on torch: the same numbers.

The program denoises a sampled signal (two tones and noise) by zeroing its spectrum
above a cut-off (rfft, rfftfreq, irfft), finds the tones' frequencies, and takes a
short-time Fourier transform with a Hann window, inverting it (istft) back to the
signal; then it fits the cut-off's gain by gradient descent through the transforms.
"""
import math

import numpy as np
import pytest

import glasstorch


def spectral_program(torch, noise):
    rate = 200.0
    t = torch.arange(400, dtype=torch.float64) / rate
    signal = torch.sin(2 * math.pi * 12.0 * t) + 0.5 * torch.sin(2 * math.pi * 31.0 * t)
    noisy = signal + noise
    spectrum = torch.fft.rfft(noisy)
    frequencies = torch.fft.rfftfreq(noisy.numel(), d=1 / rate, dtype=torch.float64)
    tones = frequencies[torch.topk(spectrum.abs(), 2).indices].sort().values
    denoised = torch.fft.irfft(spectrum * (frequencies < 40.0), n=noisy.numel())

    window = torch.hann_window(64, dtype=torch.float64)
    frames = torch.stft(noisy, 64, hop_length=16, window=window, return_complex=True)
    restored = torch.istft(frames, 64, hop_length=16, window=window, length=noisy.numel())

    gain = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    for _ in range(20):
        filtered = torch.fft.irfft(spectrum * torch.where(frequencies < 40.0, gain, 0.0),
                                   n=noisy.numel())
        loss = ((filtered - signal) ** 2).mean()
        (step,) = torch.autograd.grad(loss, gain)
        with torch.no_grad():
            gain -= 0.5 * step
    return {"tones": tones.tolist(), "denoised": denoised.numpy(),
            "error": float(((denoised - signal) ** 2).mean()),
            "frames": frames.abs().numpy(), "restored": restored.numpy(),
            "gain": float(gain.detach()), "loss": float(loss.detach())}


def test_spectral_program_gives_torch_s_numbers():
    torch = pytest.importorskip("torch")
    noise = np.random.default_rng(0).normal(0, 0.3, 400)
    mine = spectral_program(glasstorch, glasstorch.from_numpy(noise.copy()))
    theirs = spectral_program(torch, torch.from_numpy(noise.copy()))
    assert mine["tones"] == theirs["tones"] == [12.0, 31.0]
    for key in ("denoised", "frames", "restored"):
        np.testing.assert_allclose(mine[key], theirs[key], rtol=1e-10, atol=1e-10)
    for key in ("error", "gain", "loss"):
        assert mine[key] == pytest.approx(theirs[key], rel=1e-10)
    assert mine["error"] < 0.3 ** 2


def test_stft_istft_round_trip_restores_the_signal():
    noise = glasstorch.from_numpy(np.random.default_rng(1).normal(0, 0.3, 400))
    result = spectral_program(glasstorch, noise)
    t = np.arange(400) / 200.0
    signal = np.sin(2 * np.pi * 12.0 * t) + 0.5 * np.sin(2 * np.pi * 31.0 * t)
    np.testing.assert_allclose(result["restored"], signal + noise.numpy(), atol=1e-12)
