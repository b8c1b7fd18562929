"""The short-time Fourier transform and its inverse: stft, istft.

`stft` cuts the signal into frames of `n_fft` samples, `hop_length` apart (a strided
view, no copy), multiplies each by the window and transforms it (`_fft_r2c` or
`_fft_c2c`); the result is (freq, frame). `istft` transforms each frame back, multiplies
it by the window again and overlap-adds the frames (`col2im`), dividing by the
overlap-added squared window, which undoes the analysis exactly where that sum is
non-zero (the window overlap condition).

With ``center=True`` (the default of torch.stft) the signal is first padded by
``n_fft // 2`` on each side (`pad_mode`, reflect by default), so frame t is centred on
sample ``t * hop_length``; istft's `center` cuts that padding off again.
"""
from __future__ import annotations

from ....c10.dtype import scalar_type_name
from ...context import warn_once
from ...dispatcher import ops
from ...registry import composite
from .fft import BY_ROOT_N, NO_SCALING

_STFT_OPTIONS = ("bool normalized=False, bool? onesided=None, bool? return_complex=None, "
                 "bool? align_to_window=None")


def _flag(value) -> str:
    return "None" if value is None else str(int(value))


def _window_text(window) -> str:
    if window is None:
        return "None"
    return f"torch.{scalar_type_name(window._dtype)}Tensor{{{list(window._size)}}}"


def padded_window(window, n_fft: int, win_length: int):
    """The window zero-padded on both sides to `n_fft` samples (None stays None)."""
    if window is None or win_length == n_fft:
        return window
    left = (n_fft - win_length) // 2
    return ops.aten.constant_pad_nd.default.call(window, [left, n_fft - win_length - left], 0)


def _check_stft(self, n_fft, hop_length, win_length, window, prefix) -> None:
    if self.dim() not in (1, 2):
        raise RuntimeError(f"{prefix}expected a 1D or 2D tensor")
    length = self._size[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"{prefix}expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(f"{prefix}expected hop_length > 0, but got hop_length={hop_length}")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{prefix}expected 0 < win_length <= n_fft, but got "
                           f"win_length={win_length}")
    if window is not None and (window.dim() != 1 or window._size[0] != win_length):
        raise RuntimeError(f"{prefix}expected a 1D window tensor of size equal to "
                           f"win_length={win_length}, but got window with size "
                           f"{list(window._size)}")


def _stft_return_complex(self, window, return_complex) -> bool:
    if return_complex is None:
        if self._dtype.is_complex or (window is not None and window._dtype.is_complex):
            return True
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    if not return_complex:
        warn_once("stft with return_complex=False is deprecated. In a future pytorch release, "
                  "stft will return complex tensors for all inputs, and return_complex=False "
                  "will raise an error.\nNote: you can still call torch.view_as_real on the "
                  "complex output to recover the old return format.")
    return return_complex


@composite(f"stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
           f"Tensor? window=None, bool center=True, str pad_mode=\"reflect\", {_STFT_OPTIONS}) "
           f"-> Tensor", method=True)
def stft_center(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
                pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
                align_to_window=None):
    """The short-time Fourier transform of `input`: the FFT of each windowed frame.

    Args:
        input (Tensor): a signal (1-D) or a batch of signals (2-D).
        n_fft (int): the frame length.
        hop_length (int, optional): the distance between frames. Default: n_fft // 4.
        win_length (int, optional): the window's length (<= n_fft; the window is
            zero-padded to n_fft on both sides). Default: n_fft.
        window (Tensor, optional): the window (default: rectangular, with a warning).
        center (bool, optional): pad the signal by n_fft // 2 on both sides, so frame
            t is centred on sample t * hop_length. Default: True.
        pad_mode (str, optional): how `center` pads: "reflect" (default), "constant",
            "replicate" or "circular".
        normalized (bool, optional): divide by sqrt(n_fft). Default: False.
        onesided (bool, optional): only the non-negative frequencies (default for a
            real input and window).
        return_complex (bool, optional): a complex result; required for real inputs
            (False, deprecated, gives real and imaginary parts in a last dim of 2).
        align_to_window (bool, optional): with ``center=False``, start frame t where
            its window starts (sample t * hop_length) rather than its n_fft frame.

    Returns:
        Tensor: ``(*, freq, frames)``.

    Example::

        >>> torch.stft(torch.ones(8), 4, window=torch.ones(4), return_complex=True).shape
        torch.Size([3, 9])
    """
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        ndim = self.dim()
        padded = ops.aten.view.default.call(self, [1] * (3 - ndim) + list(self._size))
        padded = ops.aten.pad.default.call(padded, [n_fft // 2, n_fft // 2], pad_mode, None)
        self = ops.aten.view.default.call(padded, list(padded._size[3 - ndim:]))
    return stft.call(self, n_fft, hop_length, win_length, window, normalized, onesided,
                     return_complex, align_to_window)


def _windowed_frames(self, n_fft, hop_length, win_length, window, align_to_window):
    """``(batch, frames, n_fft)``: frames `hop_length` apart (a strided view of the
    signals), times the window zero-padded to `n_fft`."""
    signals = self if self.dim() == 2 else ops.aten.unsqueeze.default.call(self, 0)
    if align_to_window and win_length < n_fft:     # frames start where their window does
        left = (n_fft - win_length) // 2
        signals = ops.aten.constant_pad_nd.default.call(
            signals, [left, n_fft - win_length - left], 0)
    count = 1 + (signals._size[1] - n_fft) // hop_length
    step = signals._stride[1]
    framed = ops.aten.as_strided.default.call(
        signals, (signals._size[0], count, n_fft), (signals._stride[0], hop_length * step, step),
        signals._offset)
    window = padded_window(window, n_fft, win_length)
    return framed if window is None else ops.aten.mul.Tensor.call(framed, window)


@composite(f"stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
           f"Tensor? window=None, {_STFT_OPTIONS}) -> Tensor", method=True)
def stft(self, n_fft, hop_length=None, win_length=None, window=None, normalized=False,
         onesided=None, return_complex=None, align_to_window=None):
    """The short-time Fourier transform without centring; see `torch.stft`."""
    return_complex = _stft_return_complex(self, window, return_complex)
    if window is None:
        warn_once("A window was not provided. A rectangular window will be applied,which is "
                  "known to cause spectral leakage. Other windows such as torch.hann_window or "
                  "torch.hamming_window are recommended to reduce spectral leakage.To suppress "
                  "this warning and use a rectangular window, explicitly set "
                  "`window=torch.ones(n_fft, device=<device>)`.")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    prefix = (f"stft(torch.{scalar_type_name(self._dtype)}Tensor{list(self._size)}, "
              f"n_fft={n_fft}, hop_length={hop_length}, win_length={win_length}, "
              f"window={_window_text(window)}, normalized={int(normalized)}, "
              f"onesided={_flag(onesided)}, return_complex={int(return_complex)}, "
              f"align_to_window={_flag(align_to_window)}) : ")
    _check_stft(self, n_fft, hop_length, win_length, window, prefix)
    framed = _windowed_frames(self, n_fft, hop_length, win_length, window, align_to_window)
    code = BY_ROOT_N if normalized else NO_SCALING
    if framed._dtype.is_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        spectra = ops.aten._fft_c2c.default.call(framed, [2], code, True)
    else:
        onesided = True if onesided is None else onesided
        spectra = ops.aten._fft_r2c.default.call(framed, [2], code, onesided)
    spectra = ops.aten.transpose_.default.call(spectra, 1, 2)
    if self.dim() == 1:
        spectra = ops.aten.squeeze_.dim.call(spectra, 0)
    return spectra if return_complex else ops.aten.view_as_real.default.call(spectra)
