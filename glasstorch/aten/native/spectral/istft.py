"""The inverse short-time Fourier transform, istft (see `stft.py` for the method)."""
from __future__ import annotations

from ....c10.dtype import scalar_type_name
from ...context import warn_once
from ...dispatcher import ops
from ...registry import composite
from .fft import BY_N, BY_ROOT_N
from .stft import _flag, _window_text, padded_window


def _check_istft(self, n_fft, hop_length, win_length, window, onesided, prefix) -> None:
    if self.numel() == 0:
        raise RuntimeError(f"{prefix}input tensor cannot be empty.")
    if self.dim() not in (2, 3):
        raise RuntimeError(f"{prefix}expected a tensor with 2 or 3 dimensions of complex "
                           f"dtype, but got {self.dim()}")
    bins = self._size[-2]
    if not onesided and bins != n_fft:
        raise RuntimeError(f"{prefix}expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft when onesided=False, but got {bins}")
    if onesided and bins != n_fft // 2 + 1:
        raise RuntimeError(f"{prefix}expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft / 2 + 1 when onesided=True, but got "
                           f"{bins}")
    if not 0 < hop_length <= win_length:
        raise RuntimeError(f"{prefix}expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{prefix}expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window._size[0] != win_length):
        raise RuntimeError(f"{prefix}Invalid window shape. window has to be 1D and length of "
                           f"`win_length`")


def overlap_add(frames, hop_length: int, length: int):
    """Sum frames ``(batch, count, n)`` placed `hop_length` apart into ``(batch, length)``."""
    if frames._dtype.is_complex:
        parts = [overlap_add(ops.aten.real.default.call(frames), hop_length, length),
                 overlap_add(ops.aten.imag.default.call(frames), hop_length, length)]
        return ops.aten.complex.default.call(*parts)
    n = frames._size[2]
    columns = ops.aten.transpose.int.call(frames, 1, 2)
    summed = ops.aten.col2im.default.call(columns, (length, 1), (n, 1), (1, 1), (0, 0),
                                          (hop_length, 1))
    return ops.aten.view.default.call(summed, (frames._size[0], length))


@composite("istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
           "Tensor? window=None, bool center=True, bool normalized=False, bool? onesided=None, "
           "int? length=None, bool return_complex=False) -> Tensor", method=True)
def istft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """The inverse of `torch.stft`: the signal whose short-time Fourier transform
    `input` is (exactly, for a window whose overlap-added square has no zero).

    Args:
        input (Tensor): ``(*, freq, frames)`` complex, as `torch.stft` returns it.
        n_fft, hop_length, win_length, window, center, normalized, onesided: as
            given to `torch.stft`.
        length (int, optional): the signal length (trimmed or zero-padded to it).
        return_complex (bool, optional): a complex signal (the input was two-sided).

    Example::

        >>> x = torch.arange(8.)
        >>> w = torch.hann_window(4)
        >>> torch.istft(torch.stft(x, 4, 1, window=w, return_complex=True), 4, 1, window=w)
        tensor([0., 1., 2., 3., 4., 5., 6., 7.])
    """
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not self._dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    prefix = (f"istft(CPU{scalar_type_name(self._dtype)}Type{list(self._size)}, n_fft={n_fft}, "
              f"hop_length={hop_length}, win_length={win_length}, window={_window_text(window)}, "
              f"center={int(center)}, normalized={int(normalized)}, onesided={_flag(onesided)}, "
              f"length={_flag(length)}, return_complex={int(return_complex)}) ")
    if onesided is None:              # a spectrum of n_fft bins is two-sided
        onesided = self.dim() < 2 or self._size[-2] != n_fft
    _check_istft(self, n_fft, hop_length, win_length, window, onesided, prefix + ": ")
    if window is None:
        warn_once("A window was not provided. A rectangular window will be applied.Please "
                  "provide the same window used by stft to make the inversion lossless.To "
                  "suppress this warning and use a rectangular window, explicitly set "
                  "`window=torch.ones(n_fft, device=<device>)`.")
        window = ops.aten.ones.default.call((win_length,), self._dtype.to_real(), None, None,
                                            None)
    window = padded_window(window, n_fft, win_length)
    spectra = self if self.dim() == 3 else ops.aten.unsqueeze.default.call(self, 0)
    spectra = ops.aten.transpose.int.call(spectra, 1, 2)          # (batch, frames, freq)
    code = BY_ROOT_N if normalized else BY_N
    if return_complex:
        if onesided:
            raise RuntimeError("cannot have onesided output if window or input is complex")
        frames = ops.aten._fft_c2c.default.call(spectra, [2], code, False)
    else:
        if window._dtype.is_complex:
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided:
            spectra = ops.aten.narrow.default.call(spectra, 2, 0, n_fft // 2 + 1)
        frames = ops.aten._fft_c2r.default.call(spectra, [2], code, n_fft)
    return _overlap_added(self, frames, window, hop_length, n_fft, center, length, prefix)


def _overlap_added(self, frames, window, hop_length, n_fft, center, length, prefix):
    """The frames, windowed and overlap-added, divided by the window's overlap-added
    square, cut to the signal (and zero-padded to `length` when it asks for more)."""
    count = frames._size[1]
    total = n_fft + hop_length * (count - 1)
    signal = overlap_add(ops.aten.mul.Tensor.call(frames, window), hop_length, total)
    square = ops.aten.expand.default.call(ops.aten.mul.Tensor.call(window, window),
                                          (1, count, n_fft), False)
    envelope = overlap_add(square, hop_length, total)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = total - n_fft // 2 if center else total
    signal = ops.aten.slice.Tensor.call(signal, 1, start, end, 1)
    envelope = ops.aten.slice.Tensor.call(envelope, 1, start, end, 1)
    smallest = ops.aten.min.default.call(ops.aten.abs.default.call(envelope))
    if bool(ops.aten._local_scalar_dense.default.call(ops.aten.lt.Tensor.call(smallest, 1e-11))):
        raise RuntimeError(f"{prefix}window overlap add min: 1\n[ CPUBoolType{{}} ]")
    signal = ops.aten.div.Tensor.call(signal, envelope)
    if self.dim() == 2:
        signal = ops.aten.squeeze.dim.call(signal, 0)
    if end > total:
        warn_once("The length of signal is shorter than the length parameter. Result is being "
                  "padded with zeros in the tail. Please check your center and hop_length "
                  "settings.")
        signal = ops.aten.constant_pad_nd.default.call(signal, [0, end - total], 0)
    return signal
