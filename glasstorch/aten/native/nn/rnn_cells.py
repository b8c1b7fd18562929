"""Recurrent cells: one time step of a simple RNN (`rnn_tanh_cell`, `rnn_relu_cell`), an
LSTM (`lstm_cell`) and a GRU (`gru_cell`).

As in torch, the cells are composites of ordinary operators (`linear`, `sigmoid`,
`tanh`, `mul`, `add`), so autograd records their nodes and differentiates them again.
The step functions below are shared with the layers of `rnn.py`, which project the
input of every time step in one GEMM beforehand and hand each step its slice of the
projection (`projected=True`): only the hidden state's product is left inside the loop
over time (Note [One GEMM for the inputs] in rnn.py).
"""
from __future__ import annotations

from ...dispatcher import ops
from ...registry import composite

_aten = ops.aten


# ----------------------------------------------------------------------------------
# One step of each kind of cell; `input` is the input's projection when `projected`
# ----------------------------------------------------------------------------------
def _add(a, b):
    return _aten.add.Tensor.call(a, b, 1)


def _mul(a, b):
    return _aten.mul.Tensor.call(a, b)


def _sigmoid(x):
    return _aten.sigmoid.default.call(x)


def _tanh(x):
    return _aten.tanh.default.call(x)


def _linear(x, weight, bias):
    return _aten.linear.default.call(x, weight, bias)


def _gates(input, hidden, weights, projected: bool):
    """``W_hh h + b_hh + (W_ih x + b_ih)``, torch's order of the sums."""
    w_ih, w_hh, b_ih, b_hh = weights[:4]
    return _add(_linear(hidden, w_hh, b_hh),
                input if projected else _linear(input, w_ih, b_ih))


def simple_step(input, hidden, weights, projected: bool, activation: str):
    """``activation(W_hh h + b_hh + W_ih x + b_ih)`` (`activation` names the operator:
    "tanh" or "relu")."""
    return getattr(_aten, activation).default.call(_gates(input, hidden, weights, projected))


def lstm_step(input, state: tuple, weights, projected: bool) -> tuple:
    """The next ``(h, c)``: gates i, f, g, o from one product each of input and `h`;
    ``c' = f c + i g``, ``h' = o tanh(c')`` (projected by `w_hr` when there is one)."""
    hidden, cell = state
    gates = _gates(input, hidden, weights, projected)
    in_gate, forget_gate, cell_gate, out_gate = _aten.unsafe_chunk.default.call(gates, 4, 1)
    cell = _add(_mul(_sigmoid(forget_gate), cell), _mul(_sigmoid(in_gate), _tanh(cell_gate)))
    hidden = _mul(_sigmoid(out_gate), _tanh(cell))
    w_hr = weights[4]
    if w_hr is not None:
        hidden = _aten.matmul.default.call(hidden, _aten.t.default.call(w_hr))
    return hidden, cell


def gru_step(input, hidden, weights, projected: bool):
    """The next `h`: reset gate r and update gate z, candidate
    ``n = tanh(x_n + r (W_hn h + b_hn))``, then ``h' = (h - n) z + n``."""
    w_ih, w_hh, b_ih, b_hh = weights[:4]
    input_gates = _aten.unsafe_chunk.default.call(
        input if projected else _linear(input, w_ih, b_ih), 3, 1)
    hidden_gates = _aten.unsafe_chunk.default.call(_linear(hidden, w_hh, b_hh), 3, 1)
    reset_gate = _sigmoid(_add(hidden_gates[0], input_gates[0]))
    update_gate = _sigmoid(_add(hidden_gates[1], input_gates[1]))
    new_gate = _tanh(_add(input_gates[2], _mul(hidden_gates[2], reset_gate)))
    return _add(_mul(_aten.sub.Tensor.call(hidden, new_gate, 1), update_gate), new_gate)


# ----------------------------------------------------------------------------------
# The cell operators: torch's checks of the sizes, then one step
# ----------------------------------------------------------------------------------
def check_cell_input(input, w_ih) -> None:
    """The input's feature size must be the weight's."""
    if input._size[1] != w_ih._size[1]:
        raise RuntimeError(f"input has inconsistent input_size: got {input._size[1]} "
                           f"expected {w_ih._size[1]}")


def check_cell_hidden(input, hidden, hidden_size: int, label: int) -> None:
    """A hidden state must match the input's batch and the weights' hidden size."""
    if input._size[0] != hidden._size[0]:
        raise RuntimeError(f"Input batch size {input._size[0]} doesn't match hidden{label} "
                           f"batch size {hidden._size[0]}")
    if hidden._size[1] != hidden_size:
        raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got "
                           f"{hidden._size[1]}, expected {hidden_size}")


_CELL_ARGUMENTS = "Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None"


def _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh, activation):
    check_cell_input(input, w_ih)
    check_cell_hidden(input, hx, w_hh._size[1], 0)
    return simple_step(input, hx, (w_ih, w_hh, b_ih, b_hh), False, activation)


@composite(f"rnn_tanh_cell(Tensor input, Tensor hx, {_CELL_ARGUMENTS}) -> Tensor")
def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an Elman RNN: ``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``.

    Args:
        input (Tensor): ``(batch, input_size)``.
        hx (Tensor): the hidden state, ``(batch, hidden_size)``.
        w_ih, w_hh (Tensor): ``(hidden_size, input_size)``, ``(hidden_size, hidden_size)``.
        b_ih, b_hh (Tensor, optional): ``(hidden_size,)`` each.

    Returns:
        the next hidden state.

    Example::

        >>> torch.rnn_tanh_cell(torch.ones(1, 2), torch.zeros(1, 1), torch.ones(1, 2),
        ...                     torch.ones(1, 1))
        tensor([[0.9640]])
    """
    return _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh, "tanh")


@composite(f"rnn_relu_cell(Tensor input, Tensor hx, {_CELL_ARGUMENTS}) -> Tensor")
def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an Elman RNN with ReLU: ``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)``.

    Args and Returns: as `rnn_tanh_cell`.

    Example::

        >>> torch.rnn_relu_cell(torch.ones(1, 2), torch.ones(1, 1), torch.ones(1, 2),
        ...                     torch.ones(1, 1))
        tensor([[3.]])
    """
    return _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh, "relu")


@composite(f"lstm_cell(Tensor input, Tensor[] hx, {_CELL_ARGUMENTS}) -> (Tensor, Tensor)")
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an LSTM: the next hidden and cell states.

    Args:
        input (Tensor): ``(batch, input_size)``.
        hx (list of Tensor): ``[h, c]``, each ``(batch, hidden_size)``.
        w_ih, w_hh (Tensor): ``(4 * hidden_size, input_size)``, ``(4 * hidden_size,
            hidden_size)``: the input, forget, cell and output gates' rows, in that order.
        b_ih, b_hh (Tensor, optional): ``(4 * hidden_size,)`` each.

    Returns:
        ``(h', c')``.

    Example::

        >>> h, c = torch.lstm_cell(torch.ones(1, 1), [torch.zeros(1, 1)] * 2,
        ...                        torch.ones(4, 1), torch.ones(4, 1))
        >>> c
        tensor([[0.5568]])
    """
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    check_cell_input(input, w_ih)
    check_cell_hidden(input, hx[0], w_hh._size[1], 0)
    check_cell_hidden(input, hx[1], w_hh._size[1], 1)
    return lstm_step(input, tuple(hx), (w_ih, w_hh, b_ih, b_hh, None), False)


@composite(f"gru_cell(Tensor input, Tensor hx, {_CELL_ARGUMENTS}) -> Tensor")
def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of a GRU: the next hidden state.

    Args:
        input (Tensor): ``(batch, input_size)``.
        hx (Tensor): ``(batch, hidden_size)``.
        w_ih, w_hh (Tensor): ``(3 * hidden_size, input_size)``, ``(3 * hidden_size,
            hidden_size)``: the reset, update and new gates' rows, in that order.
        b_ih, b_hh (Tensor, optional): ``(3 * hidden_size,)`` each.

    Returns:
        the next hidden state.

    Example::

        >>> torch.gru_cell(torch.ones(1, 1), torch.zeros(1, 1), torch.ones(3, 1),
        ...                torch.ones(3, 1))
        tensor([[0.2048]])
    """
    check_cell_input(input, w_ih)
    check_cell_hidden(input, hx, w_hh._size[1], 0)
    return gru_step(input, hx, (w_ih, w_hh, b_ih, b_hh), False)
