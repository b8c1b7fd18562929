"""Spectral operators: the FFTs behind torch.fft, stft / istft, and the window
functions (see README.md)."""
