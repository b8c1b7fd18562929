"""torch.utils.flop_counter and torch.utils.module_tracker against torch."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def run_program(t):
    """A model's forward and backward and the matrix products outside it."""
    model = t.nn.Sequential(t.nn.Linear(4, 5), t.nn.ReLU(), t.nn.Sequential(t.nn.Linear(5, 3)))
    x = t.randn(2, 4, requires_grad=True)
    model(x).sum().backward()
    t.bmm(t.randn(2, 3, 4), t.randn(2, 4, 5))
    t.addmm(t.randn(3, 5), t.randn(3, 4), t.randn(4, 5))
    t.baddbmm(t.randn(2, 3, 5), t.randn(2, 3, 4), t.randn(2, 4, 5))
    t.matmul(t.randn(7, 3, 4), t.randn(4, 2))


def counts(t):
    from importlib import import_module
    counter = import_module(f"{t.__name__}.utils.flop_counter").FlopCounterMode(display=False)
    with counter:
        run_program(t)
    by_name = {module: {getattr(packet, "_name", None) or packet.__name__: flops
                        for packet, flops in table.items()}
               for module, table in counter.get_flop_counts().items()}
    return counter.get_total_flops(), by_name, counter


def test_counts_per_module_and_operator_as_torch():
    total, by_module, _ = counts(gt)
    their_total, theirs, _ = counts(torch)
    assert total == their_total == 1356
    assert by_module == theirs


def test_table():
    _, _, counter = counts(gt)
    lines = counter.get_table(1).splitlines()
    assert lines[0].split() == ["Module", "FLOP", "%", "Total"]
    assert lines[2].split() == ["Global", "1356.000", "100.00%"]
    assert " Sequential       420.000     30.97%" in lines
    assert not any("Sequential.0" in line for line in lines)       # depth 1
    empty = gt.utils.flop_counter.FlopCounterMode(display=False)
    assert empty.get_table().splitlines()[-1].split() == ["Global", "0.000", "0%"]


def test_display_prints_the_table(capsys):
    with gt.utils.flop_counter.FlopCounterMode():
        gt.mm(gt.ones(2, 3), gt.ones(3, 4))
    assert "aten.mm" in capsys.readouterr().out


def test_custom_mapping_and_register_flop_formula():
    fc = gt.utils.flop_counter
    counter = fc.FlopCounterMode(display=False, custom_mapping={
        gt.ops.aten.add: lambda a_shape, b_shape, *args, out_shape=None, **kw: 7})
    with counter:
        gt.ones(2) + gt.ones(2)
    assert counter.get_total_flops() == 7


def test_module_tracker_parents_forward_and_backward():
    seen = []
    for t in (torch, gt):
        from importlib import import_module
        tracker_class = import_module(f"{t.__name__}.utils.module_tracker").ModuleTracker

        class Probe(t.nn.Module):
            def forward(self, x):
                log.append(sorted(tracker.parents))
                return x * 1
        log = []
        model = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.Sequential(Probe()))
        x = t.ones(1, 2, requires_grad=True)
        with tracker_class() as tracker:
            y = model(x)
            y.register_hook(lambda g: log.append((sorted(tracker.parents), tracker.is_bw)))
            y.sum().backward()
        seen.append(log)
    assert seen[0] == seen[1]
