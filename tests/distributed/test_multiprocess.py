"""Multi-process tests: jobs started by the launcher (python -m glasstorch.distributed.run)
on loopback, 2 and 4 processes, each under a timeout so that none can hang the suite.
The workers (workers/*.py) assert; a job passes when every rank exits 0."""
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("mpi4py")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workers")


def run(command, timeout=60):
    """Run `command` in its own session; past `timeout` the whole session is killed (the
    launcher, mpiexec and every rank), so a hung job cannot outlive the test."""
    process = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def launch(script, nproc, *args, extra=("--standalone",)):
    return run([sys.executable, "-m", "glasstorch.distributed.run", "--nproc_per_node",
                str(nproc), *extra, os.path.join(WORKERS, script), *map(str, args)])


def passed(job, nproc, marker):
    assert job.returncode == 0, job.stderr[-3000:]
    for rank in range(nproc):
        assert f"rank {rank}: {marker} OK" in job.stdout


@pytest.mark.parametrize("nproc", [2, 4])
def test_every_collective_against_numpy(nproc):
    passed(launch("collectives.py", nproc), nproc, "collectives")


def test_ddp_on_shards_matches_one_process_and_zero():
    passed(launch("ddp.py", 2), 2, "ddp")


def test_bad_input_refused_as_torch():
    passed(launch("errors.py", 2), 2, "errors")


def test_a_failing_rank_ends_the_job_non_zero():
    job = launch("fails.py", 2)
    assert job.returncode != 0
    assert "rank 1 fails on purpose" in job.stderr


def test_nanogpt_ddp_branch_matches_the_single_process_curve(tmp_path):
    alone = run([sys.executable, "-m", "glasstorch", os.path.join(WORKERS, "nanogpt_ddp.py"),
                 str(tmp_path)])
    assert alone.returncode == 0, alone.stderr[-3000:]
    (tmp_path / "ddp").mkdir()
    job = launch("nanogpt_ddp.py", 2, tmp_path / "ddp")
    assert job.returncode == 0, job.stderr[-3000:]
    curve = [line for line in job.stdout.splitlines() if line.startswith("iter")]
    assert len(curve) == 6 and curve == alone.stdout.splitlines()
    assert (tmp_path / "ddp" / "ckpt.pt").exists()


def test_two_launches_meet_as_two_nodes():
    # each "node" is its own mpiexec: their worlds merge through rank 0's store
    with socket.socket() as probe:
        probe.bind(("", 0))
        port = probe.getsockname()[1]
    common = ("--nnodes", "2", "--master_port", str(port))
    nodes = [subprocess.Popen(
        [sys.executable, "-m", "glasstorch.distributed.run", "--nproc_per_node", "1",
         *common, "--node_rank", str(node), os.path.join(WORKERS, "collectives.py")],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True) for node in (0, 1)]
    try:
        outputs = [node.communicate(timeout=60) for node in nodes]
    finally:
        for node in nodes:
            if node.poll() is None:
                os.killpg(node.pid, signal.SIGKILL)
    assert [node.returncode for node in nodes] == [0, 0], outputs[0][1][-2000:]
    assert "rank 1: collectives OK" in outputs[1][0]


def test_launcher_gives_torchrun_environment():
    shown = "echo $RANK $LOCAL_RANK $WORLD_SIZE $LOCAL_WORLD_SIZE $MASTER_ADDR " \
            "${TORCHELASTIC_RUN_ID:+set}"
    job = run([sys.executable, "-m", "glasstorch.distributed.run", "--nnodes", "1",
               "--nproc-per-node", "2", "--standalone", "--no-python", "sh", "-c", shown])
    assert job.returncode == 0, job.stderr
    assert sorted(job.stdout.split("\n")[:2]) == ["0 0 2 2 127.0.0.1 set",
                                                  "1 1 2 2 127.0.0.1 set"]


def test_stopping_the_launcher_stops_every_rank():
    launcher = subprocess.Popen(
        [sys.executable, "-m", "glasstorch.distributed.run", "--nproc_per_node", "2",
         "--standalone", os.path.join(WORKERS, "hangs.py")], cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        seen = ""              # (the ranks' lines may arrive run together)
        while not all(f"rank {r} waiting" in seen for r in (0, 1)):
            line = launcher.stdout.readline()
            assert line, "the job ended before its ranks waited"
            seen += line
        launcher.terminate()
        assert launcher.wait(timeout=20) != 0
        # the ranks were in the launcher's session: none is left (after a moment to exit)
        deadline = time.monotonic() + 10
        while subprocess.run(["pgrep", "-s", str(launcher.pid)], capture_output=True).stdout:
            assert time.monotonic() < deadline, "ranks outlived the launcher"
            time.sleep(0.1)
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
