"""Sine-wave prediction in the style of pytorch/examples' time_sequence_prediction: two
stacked LSTMCells and a linear read-out, unrolled over each wave, in double precision,
trained with L-BFGS; after training it also predicts `future` steps past the input. A
plain PyTorch script (only its import names glasstorch); prints one loss per step.
"""
import sys

import numpy as np

import glasstorch as torch

nn = torch.nn


class Sequence(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):           # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


def waves(count=6, length=24, period=6.0):
    """Sine waves of shifted phases (the example's generate_sine_wave, smaller)."""
    rng = np.random.RandomState(2)
    x = np.arange(length) + rng.randint(-16, 16, count).reshape(count, 1)
    return np.sin(x / period).astype("float64")


def main(steps: int) -> None:
    np.random.seed(0)
    torch.manual_seed(0)
    data = waves()
    input = torch.from_numpy(data[2:, :-1])
    target = torch.from_numpy(data[2:, 1:])
    test_input = torch.from_numpy(data[:2, :-1])
    test_target = torch.from_numpy(data[:2, 1:])
    seq = Sequence()
    seq.double()
    criterion = nn.MSELoss()
    optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8, max_iter=1)
    for step in range(steps):
        def closure():
            optimizer.zero_grad()
            out = seq(input)
            loss = criterion(out, target)
            loss.backward()
            return loss
        loss = optimizer.step(closure)
        with torch.no_grad():
            future = 5
            pred = seq(test_input, future=future)
            test_loss = criterion(pred[:, :-future], test_target)
        print(f"step {step} loss {loss.item():.10f} test {test_loss.item():.10f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
