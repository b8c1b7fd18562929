"""torch.utils.file_baton: a lock between processes, made of a file's existence."""
from __future__ import annotations

import os
import time
import warnings
from typing import Optional


class FileBaton:
    """A primitive file-based lock: whoever creates the file holds the baton.

    Args:
        lock_file_path: the file standing for the lock.
        wait_seconds: how long `wait` sleeps between looks.
        warn_after_seconds: warn once `wait` has waited this long (None: never).
    """

    def __init__(self, lock_file_path: str, wait_seconds: float = 0.1,
                 warn_after_seconds: Optional[float] = None) -> None:
        self.lock_file_path = lock_file_path
        self.wait_seconds = wait_seconds
        self.warn_after_seconds = warn_after_seconds
        self.fd = None

    def try_acquire(self) -> bool:
        """Create the file atomically; whether it was created (the baton taken)."""
        try:
            self.fd = os.open(self.lock_file_path, os.O_CREAT | os.O_EXCL)
            return True
        except FileExistsError:
            return False

    def wait(self) -> None:
        """Sleep until the file is gone (another holder released the baton)."""
        start = time.time()
        while os.path.exists(self.lock_file_path):
            time.sleep(self.wait_seconds)
            if self.warn_after_seconds is not None and \
                    time.time() - start > self.warn_after_seconds:
                warnings.warn(f'Waited on lock file "{self.lock_file_path}" for '
                              f"{self.warn_after_seconds} seconds.", stacklevel=2)

    def release(self) -> None:
        """Give the baton back: close and remove the file."""
        if self.fd is not None:
            os.close(self.fd)
        os.remove(self.lock_file_path)
