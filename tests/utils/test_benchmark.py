"""torch.utils.benchmark against torch: Measurements and Compare tables built from the
same recorded times print the same (the object address aside); Timer runs statements
with torch in their globals, under the requested thread count, and its autoranges
stop by torch's rules."""
import random

import pytest

import glasstorch as gt
from glasstorch.utils import benchmark


def _measurements(lib_benchmark, seed: int, spread: float = 2.0) -> list:
    rng = random.Random(seed)
    made = []
    for label in ("add", "matmul"):
        for sub_label in ("float", "int", None):
            for description in ("n=1", "n=1000"):
                for threads in (1, 4):
                    if rng.random() < 0.15:
                        continue                 # a missing cell
                    base = rng.choice([3e-8, 2e-6, 4e-4, 0.02]) * (100 if description == "n=1000" else 1)
                    times = [base * rng.uniform(1, spread) for _ in range(rng.choice([1, 3, 7]))]
                    spec = lib_benchmark.TaskSpec(stmt="x + y" if label == "add" else "x @ y\nz = 1",
                                                  setup=rng.choice(["pass", "x = 1", "x = 1\ny = 2"]),
                                                  label=label, sub_label=sub_label,
                                                  description=description, num_threads=threads)
                    made.append(lib_benchmark.Measurement(number_per_run=rng.choice([1, 10, 1000]),
                                                          raw_times=times, task_spec=spec))
    return made


def _without_address(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if " object at 0x" not in line)


@pytest.mark.parametrize("seed", range(6))
def test_measurements_print_as_torch(seed):
    torch = pytest.importorskip("torch")
    from torch.utils import benchmark as theirs
    for spread in (1.05, 1.3, 3.0):
        for ours, their in zip(_measurements(benchmark, seed, spread),
                               _measurements(theirs, seed, spread)):
            assert _without_address(repr(ours)) == _without_address(repr(their))
            for name in ("median", "mean", "iqr"):
                assert getattr(ours, name) == pytest.approx(getattr(their, name), rel=1e-12)
            assert ours.significant_figures == their.significant_figures
            assert (ours.has_warnings, ours.meets_confidence(0.2), ours.title, ours.env) == \
                (their.has_warnings, their.meets_confidence(0.2), their.title, their.env)
    assert repr(ours).startswith("<glasstorch.utils.benchmark.utils.common.Measurement object")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", ["", "trim", "trim highlight", "colorize", "colorize rowwise"])
def test_compare_tables_print_as_torch(seed, options):
    torch = pytest.importorskip("torch")
    from torch.utils import benchmark as theirs
    tables = []
    for lib in (benchmark, theirs):
        compare = lib.Compare(_measurements(lib, seed))
        if "trim" in options:
            compare.trim_significant_figures()
        if "highlight" in options:
            compare.highlight_warnings()
        if "colorize" in options:
            compare.colorize(rowwise="rowwise" in options)
        tables.append(str(compare))
    assert tables[0] == tables[1]


def test_helpers_as_torch():
    torch = pytest.importorskip("torch")
    from torch.utils.benchmark.utils import common as theirs
    from glasstorch.utils.benchmark.utils import common as ours
    for t in (3e-10, 1e-9, 5e-8, 1e-6, 2.5e-4, 0.999, 1.0, 42.0):
        assert ours.select_unit(t) == theirs.select_unit(t)
    for x, n in ((3.14159, 2), (12.345, 3), (0.000123456, 2), (98765.4, 1)):
        assert ours.trim_sigfig(x, n) == theirs.trim_sigfig(x, n)
    merged = benchmark.Measurement.merge(_measurements(benchmark, 1) * 2)
    assert all(m.number_per_run == 1 for m in merged)
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`, got <class 'int'>"):
        benchmark.Compare([1])


def test_timer_measures_with_torch_in_globals():
    timer = benchmark.Timer("torch.add(x, 1)", setup="y = 2", globals={"x": gt.ones(3)},
                            label="add", description="n=3")
    measurement = timer.timeit(50)
    assert measurement.number_per_run == 50 and len(measurement.raw_times) == 1
    assert measurement.stmt == "torch.add(x, 1)" and measurement.setup == "y = 2"
    assert measurement.median > 0 and "add" in repr(measurement)
    blocks = []
    result = timer.blocked_autorange(callback=lambda n, t: blocks.append((n, t)),
                                     min_run_time=0.02)
    assert sum(t for _, t in blocks) >= 0.02 and result.raw_times == [t for _, t in blocks]
    assert all(n == result.number_per_run for n, _ in blocks)
    adaptive = timer.adaptive_autorange(threshold=0.5, min_run_time=0.005, max_run_time=0.5)
    assert len(adaptive.raw_times) > 3 or sum(adaptive.raw_times) > 0.5


def test_timer_runs_under_its_thread_count():
    seen = []
    benchmark.Timer("seen.append(torch.get_num_threads())", globals={"seen": seen},
                    num_threads=1).timeit(3)
    assert set(seen) == {1}


def test_timer_dedents_and_refuses_as_torch():
    torch = pytest.importorskip("torch")
    from torch.utils import benchmark as theirs
    stmt = "\n    a = 1\n    b = a + 1\n"
    assert benchmark.Timer(stmt)._task_spec == benchmark.TaskSpec(stmt="a = 1\nb = a + 1",
                                                                  setup="pass")
    assert theirs.Timer(stmt)._task_spec.stmt == "a = 1\nb = a + 1"
    calls = [lambda b: b.Timer(3), lambda b: b.Timer("x", global_setup="y"),
             lambda b: b.Timer("x", language="rust"), lambda b: b.Timer().repeat(),
             lambda b: b.Timer().autorange()]
    for call in calls:
        outcomes = []
        for lib in (benchmark, theirs):
            with pytest.raises(Exception) as caught:
                call(lib)
            outcomes.append((type(caught.value), str(caught.value)))
        assert outcomes[0] == outcomes[1]
