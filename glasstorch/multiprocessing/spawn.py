"""`spawn` and `start_processes`: one function run in N processes, failures raised here."""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import tempfile
import traceback
from typing import Callable, Optional


class ProcessException(Exception):
    """A child process of `spawn` failed."""

    def __init__(self, msg: str, error_index: int, pid: int) -> None:
        super().__init__(msg)
        self.msg, self.error_index, self.pid = msg, error_index, pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child process raised: the message holds its traceback."""

    def __init__(self, msg: str, error_index: int, error_pid: int) -> None:
        super().__init__(msg, error_index, error_pid)


class ProcessExitedException(ProcessException):
    """A child process exited with a nonzero code or was killed by a signal."""

    def __init__(self, msg: str, error_index: int, error_pid: int, exit_code: int,
                 signal_name: Optional[str] = None) -> None:
        super().__init__(msg, error_index, error_pid)
        self.exit_code, self.signal_name = exit_code, signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code,
                            self.signal_name)


def _run(fn: Callable, index: int, args: tuple, error_file: str) -> None:
    """A child's body: call ``fn(index, *args)``; on an exception, leave its traceback
    in `error_file` for the parent and exit with code 1."""
    try:
        fn(index, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        with open(error_file, "w", encoding="utf-8") as file:
            file.write(traceback.format_exc())
        raise SystemExit(1)


class ProcessContext:
    """The processes `start_processes` started; `join` waits for them."""

    def __init__(self, processes: list, error_files: list) -> None:
        self.processes, self.error_files = processes, error_files
        self.sentinels = {process.sentinel: index for index, process in enumerate(processes)}

    def pids(self) -> list:
        return [int(process.pid) for process in self.processes]

    def join(self, timeout: Optional[float] = None, grace_period: Optional[float] = None) -> bool:
        """Wait for a process to end; True once all have ended well.

        Raises:
            ProcessRaisedException: a process raised (the others are terminated).
            ProcessExitedException: a process exited with a nonzero code.
        """
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(self.sentinels, timeout=timeout)
        failed = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            self.processes[index].join()
            if self.processes[index].exitcode != 0 and failed is None:
                failed = index
        if failed is None:
            if self.sentinels:
                return False
            self._remove_error_files()
            return True
        self._stop_others(grace_period)
        failure = self._failure(failed)
        self._remove_error_files()
        raise failure

    def _remove_error_files(self) -> None:
        for error_file in self.error_files:
            if os.path.exists(error_file):
                os.remove(error_file)

    def _stop_others(self, grace_period: Optional[float]) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join(grace_period)

    def _failure(self, index: int) -> ProcessException:
        process, error_file = self.processes[index], self.error_files[index]
        code = process.exitcode
        if os.path.exists(error_file) and os.path.getsize(error_file):
            with open(error_file, encoding="utf-8") as file:
                original = file.read()
            return ProcessRaisedException(
                f"\n\n-- Process {index} terminated with the following error:\n{original}",
                index, process.pid)
        if code < 0:
            name = signal.Signals(-code).name
            return ProcessExitedException(f"process {index} terminated with signal {name}",
                                          index, process.pid, code, name)
        return ProcessExitedException(f"process {index} terminated with exit code {code}",
                                      index, process.pid, code)


class SpawnContext(ProcessContext):
    """The context of processes started by `spawn`."""


def start_processes(fn: Callable, args: tuple = (), nprocs: int = 1, join: bool = True,
                    daemon: bool = False, start_method: str = "spawn"):
    """Run ``fn(i, *args)`` in `nprocs` new processes, i = 0 .. nprocs - 1.

    Args:
        fn: a function picklable by reference (defined at a module's top level).
        args: the rest of its arguments.
        nprocs: how many processes.
        join: wait for them all (else return the ProcessContext).
        daemon: make them daemonic.
        start_method: ``"spawn"``, ``"fork"`` or ``"forkserver"``.

    Returns:
        None once all have ended when `join`, else the ProcessContext.

    Raises:
        ProcessRaisedException, ProcessExitedException: a process failed.
    """
    context = multiprocessing.get_context(start_method)
    processes, error_files = [], []
    for index in range(nprocs):
        handle, error_file = tempfile.mkstemp(prefix="glasstorch-spawn-")
        os.close(handle)
        process = context.Process(target=_run, args=(fn, index, args, error_file),
                                  daemon=daemon)
        process.start()
        processes.append(process)
        error_files.append(error_file)
    process_context = ProcessContext(processes, error_files)
    if not join:
        return process_context
    while not process_context.join():
        pass
    return None


def spawn(fn: Callable, args: tuple = (), nprocs: int = 1, join: bool = True,
          daemon: bool = False, start_method: str = "spawn"):
    """`start_processes` (torch's spawn entry point; see there)."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
