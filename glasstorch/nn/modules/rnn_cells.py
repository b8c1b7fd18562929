"""Recurrent cells: one time step of an RNN, LSTM or GRU (RNNCell, LSTMCell, GRUCell),
each a call of its operator (`torch.rnn_tanh_cell`, `torch.lstm_cell`, `torch.gru_cell`
of `aten/native/nn/rnn_cells.py`). torch exports them from `torch.nn.modules.rnn`, as
`rnn.py` does here.
"""
from __future__ import annotations

import math

import glasstorch as torch
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


class RNNCellBase(Module):
    """The base of the cells: ``weight_ih`` ``(chunks * hidden_size, input_size)``,
    ``weight_hh`` ``(chunks * hidden_size, hidden_size)`` and, with `bias`, ``bias_ih``
    and ``bias_hh``; all uniform in ``±1/sqrt(hidden_size)``.
    """

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(torch.empty((rows, input_size), **factory))
        self.weight_hh = Parameter(torch.empty((rows, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(torch.empty(rows, **factory))
            self.bias_hh = Parameter(torch.empty(rows, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        text = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            text += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            text += ", nonlinearity={nonlinearity}"
        return text.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, what: str = "hidden"):
        """torch's dimension checks; ``(input, hx, batched)`` with a batch dim added to an
        unbatched input and state."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D "
                             "instead")
        batched = input.dim() == 2
        if batched:
            return input, hx, batched
        return input.unsqueeze(0), None if hx is None else hx.unsqueeze(0), batched

    def _zeros(self, input):
        return torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                           device=input.device)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (ReLU
    with ``nonlinearity='relu'``).

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the hidden state.
        bias (bool): with ``b_ih`` and ``b_hh``. Default True.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default ``'tanh'``.

    Inputs: input ``(N, H_in)`` or ``(H_in)``; hidden ``(N, H_out)``, zeros if omitted.

    Example::

        >>> cell = nn.RNNCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device,
                         dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, batched = self._batched(input, hx)
        hx = self._zeros(input) if hx is None else hx
        if self.nonlinearity == "tanh":
            function = torch.rnn_tanh_cell
        elif self.nonlinearity == "relu":
            function = torch.rnn_relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        result = function(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                          self.bias_hh)
        return result if batched else result.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM: the next ``(h, c)`` from the input and ``(h, c)``.

    Args:
        input_size, hidden_size, bias: as `nn.RNNCell`.

    Inputs: input ``(N, H_in)`` or ``(H_in)``; ``(h_0, c_0)``, zeros if omitted.

    Example::

        >>> cell = nn.LSTMCell(10, 20)
        >>> h, c = cell(torch.randn(3, 10))
        >>> c.shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        for index, state in enumerate(hx or ()):
            if state.dim() not in (1, 2):
                raise ValueError(f"LSTMCell: Expected hx[{index}] to be 1D or 2D, got "
                                 f"{state.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = (self._zeros(input),) * 2
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        result = torch.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                                 self.bias_hh)
        return result if batched else (result[0].squeeze(0), result[1].squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU: the next hidden state from the input and the hidden state.

    Args:
        input_size, hidden_size, bias: as `nn.RNNCell`.

    Inputs: as `nn.RNNCell`.

    Example::

        >>> cell = nn.GRUCell(10, 20)
        >>> cell(torch.randn(3, 10), torch.zeros(3, 20)).shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, batched = self._batched(input, hx)
        hx = self._zeros(input) if hx is None else hx
        result = torch.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                                self.bias_hh)
        return result if batched else result.squeeze(0)
