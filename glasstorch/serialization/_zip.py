"""The checkpoint archive: a zip file of uncompressed records, as torch writes it.

torch's format (since 1.6) is a zip archive whose records all sit under one folder,
``<name>/``: ``data.pkl`` (the pickled object, tensors as references to storages),
``data/<key>`` (one record per storage, its raw bytes), ``byteorder``, ``version``,
``.format_version``, ``.storage_alignment`` and ``.data/serialization_id``. Records are
stored uncompressed, and each storage's bytes start at a multiple of 64 bytes from the
archive's start (padding goes in the local header's extra field), so that a loader can
map the file into memory and view each storage where it lies (Note [Mapped loads]).

Note [Mapped loads]
    ``torch.load(path, mmap=True)`` maps the whole file copy-on-write and makes each
    storage a NumPy view of its record's bytes: no read, no copy, memory paid only for
    the pages a program touches, and writes to a loaded tensor never reach the file.
    Only uncompressed records can be viewed this way (every record torch writes is).

The writer is written out here (it is short, and it controls the alignment); the
reader is Python's `zipfile`, with each record's size checked against what the
checkpoint's pickle claims before a byte is allocated.
"""
from __future__ import annotations

import struct
import zipfile
import zlib

import numpy as np

_LOCAL = struct.Struct("<IHHHHHIIIHH")          # local file header, without name/extra
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")   # central directory entry
_END = struct.Struct("<IHHHHIIH")                # end of central directory
_ZIP64_END = struct.Struct("<IQHHIIQQQQ")
_ZIP64_LOCATOR = struct.Struct("<IIQI")
_LIMIT = 0xFFFFFFFF
_ZIP64_VERSION, _PLAIN_VERSION = 45, 20
_PAD_ID = 0x4246                                 # "FB", torch's padding field id


class ArchiveWriter:
    """Writes records one after another into `file` (any object with ``write``).

    Args:
        file: a binary file object.
        folder (str): the folder every record is under (torch uses the file's stem,
            or ``'archive'`` for buffers).
        alignment (int): each record's bytes start at a multiple of this.
        compute_crc32 (bool): write each record's CRC-32 (else 0).
    """

    def __init__(self, file, folder: str, alignment: int = 64, compute_crc32: bool = True) -> None:
        self._file = file
        self._folder = folder
        self._alignment = alignment
        self._compute_crc32 = compute_crc32
        self._offset = 0
        self._entries: list[tuple[bytes, int, int, int]] = []   # name, crc, size, offset

    def write_record(self, name: str, data) -> None:
        """Add record `name` holding `data` (bytes, str, or a uint8 array), aligned."""
        if isinstance(data, str):
            data = data.encode()
        view = memoryview(data).cast("B")
        full_name = f"{self._folder}/{name}".encode()
        size = view.nbytes
        zip64 = size >= _LIMIT or self._offset >= _LIMIT
        extra = struct.pack("<HHQQ", 1, 16, size, size) if zip64 else b""
        start = self._offset + _LOCAL.size + len(full_name) + len(extra)
        padding = -start % self._alignment
        while padding and padding < 4:
            padding += self._alignment
        if padding:
            extra += struct.pack("<HH", _PAD_ID, padding - 4) + b"Z" * (padding - 4)
        crc = zlib.crc32(view) if self._compute_crc32 else 0
        short = _LIMIT if zip64 else size
        header = _LOCAL.pack(0x04034B50, _ZIP64_VERSION if zip64 else _PLAIN_VERSION, 0, 0,
                             0, 0x21, crc, short, short, len(full_name), len(extra))
        self._file.write(header + full_name + extra)
        self._file.write(view)
        self._entries.append((full_name, crc, size, self._offset))
        self._offset += len(header) + len(full_name) + len(extra) + size

    def finish(self) -> None:
        """Write the central directory: the archive is complete."""
        directory_start = self._offset
        for name, crc, size, offset in self._entries:
            self._write_central(name, crc, size, offset)
        directory_size = self._offset - directory_start
        count = len(self._entries)
        if directory_start >= _LIMIT or count >= 0xFFFF:
            self._write_zip64_end(count, directory_size, directory_start)
            count, directory_size, directory_start = 0xFFFF, _LIMIT, _LIMIT
        self._emit(_END.pack(0x06054B50, 0, 0, count, count, directory_size,
                             directory_start, 0))

    def _write_central(self, name: bytes, crc: int, size: int, offset: int) -> None:
        fields = [v for v in (size, size, offset) if v >= _LIMIT]
        extra = struct.pack(f"<HH{len(fields)}Q", 1, 8 * len(fields), *fields) if fields else b""
        short_size = _LIMIT if size >= _LIMIT else size
        version = _ZIP64_VERSION if fields else _PLAIN_VERSION
        entry = _CENTRAL.pack(0x02014B50, version, version, 0, 0, 0, 0x21, crc, short_size,
                              short_size, len(name), len(extra), 0, 0, 0, 0,
                              min(offset, _LIMIT))
        self._emit(entry + name + extra)

    def _write_zip64_end(self, count: int, directory_size: int, directory_start: int) -> None:
        end_offset = self._offset
        self._emit(_ZIP64_END.pack(0x06064B50, _ZIP64_END.size - 12, _ZIP64_VERSION,
                                   _ZIP64_VERSION, 0, 0, count, count, directory_size,
                                   directory_start))
        self._emit(_ZIP64_LOCATOR.pack(0x07064B50, 0, end_offset, 1))

    def _emit(self, data: bytes) -> None:
        self._file.write(data)
        self._offset += len(data)


_READ_ERROR = ("PytorchStreamReader failed reading zip archive: {}. This is an internal miniz "
               "error. If you are seeing this error, there is a high likelihood that your "
               "checkpoint file is corrupted. This can happen if the checkpoint was not saved "
               "properly, was transferred incorrectly, or the file was modified after saving.")
_FILE_ERROR = ("PytorchStreamReader failed reading file {}: {}. This is an internal miniz error. "
               "If you are seeing this error, there is a high likelihood that your checkpoint "
               "file is corrupted. This can happen if the checkpoint was not saved properly, was "
               "transferred incorrectly, or the file was modified after saving.")
_LOCATE_ERROR = ("PytorchStreamReader failed locating file {}: file not found. This is an "
                 "internal miniz error. If you are seeing this error, there is a high "
                 "likelihood that your checkpoint file is corrupted. This can happen if the "
                 "checkpoint was not saved properly, was transferred incorrectly, or the file "
                 "was modified after saving.")
# The most a DEFLATE stream can expand (about 1032:1): a larger claimed size is a lie.
_MAX_DEFLATE_RATIO = 1032


def is_zip(file) -> bool:
    """Whether `file` (a seekable binary file) starts, at its position, with a zip header."""
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    return magic == b"PK\x03\x04"


class ArchiveReader:
    """The records of a checkpoint archive, read from a seekable binary file.

    Raises:
        RuntimeError: with torch's message, for a file that is no readable zip archive.
    """

    def __init__(self, file) -> None:
        self._file = file
        start = file.tell()
        file.seek(0, 2)
        self._length = file.tell()
        file.seek(start)
        try:
            self._zip = zipfile.ZipFile(file)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, struct.error) as error:
            reason = "not a ZIP archive" if self._length - start < 22 else \
                "failed finding central directory"
            raise RuntimeError(_READ_ERROR.format(reason)) from error
        infos = self._zip.infolist()
        if not infos:
            raise RuntimeError(_READ_ERROR.format("failed finding central directory"))
        self.folder = infos[0].filename.partition("/")[0]
        self._infos = {info.filename: info for info in infos}
        if not (self.has_record("version") or self.has_record(".data/version")):
            raise RuntimeError('Expected hasRecord("version") to be true, but got false.  (Could '
                               "this error message be improved?  If so, please report an "
                               "enhancement request to PyTorch.)")

    def has_record(self, name: str) -> bool:
        return f"{self.folder}/{name}" in self._infos

    def record_names(self) -> list[str]:
        prefix = self.folder + "/"
        return [n[len(prefix):] for n in self._infos if n.startswith(prefix)]

    def _info(self, name: str) -> zipfile.ZipInfo:
        info = self._infos.get(f"{self.folder}/{name}")
        if info is None:
            raise RuntimeError(_LOCATE_ERROR.format(name))
        return info

    def record_size(self, name: str) -> int:
        return self._info(name).file_size

    def read_record(self, name: str) -> np.ndarray:
        """The bytes of record `name` as a fresh writable uint8 array.

        An uncompressed record is read straight into the array, without checking its
        CRC: torch does not check it either, and a file written through a shared
        mapping (``MAP_SHARED``) keeps its old CRCs.
        """
        info = self._info(name)
        self._check_plausible(name, info)
        data = np.empty(info.file_size, np.uint8)
        try:
            if info.compress_type == zipfile.ZIP_STORED:
                self._file.seek(self.record_offset(name))
                filled = self._file.readinto(memoryview(data))
            else:
                with self._zip.open(info) as record:
                    filled = record.readinto(memoryview(data))
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error, NotImplementedError) as error:
            raise RuntimeError(_READ_ERROR.format(f"failed reading file {name}")) from error
        if filled != info.file_size:
            raise RuntimeError(_READ_ERROR.format(f"failed reading file {name}"))
        return data

    def record_offset(self, name: str) -> int:
        """Where record `name`'s bytes start in the file (an uncompressed record)."""
        info = self._info(name)
        if info.compress_type != zipfile.ZIP_STORED:
            raise RuntimeError(f"record {name} is compressed and cannot be memory-mapped")
        self._file.seek(info.header_offset)
        header = self._file.read(_LOCAL.size)
        if len(header) != _LOCAL.size or header[:4] != b"PK\x03\x04":
            raise RuntimeError(_READ_ERROR.format("invalid header or archive is corrupted"))
        fields = _LOCAL.unpack(header)
        offset = info.header_offset + _LOCAL.size + fields[-2] + fields[-1]
        if offset + info.file_size > self._length:
            raise RuntimeError(_READ_ERROR.format("invalid header or archive is corrupted"))
        return offset

    def _check_plausible(self, name: str, info: zipfile.ZipInfo) -> None:
        """Refuse a record whose claimed size its stored bytes cannot hold, before
        allocating for it."""
        if info.compress_size > self._length or (
                info.compress_type == zipfile.ZIP_STORED and info.file_size > info.compress_size):
            raise RuntimeError(_READ_ERROR.format("invalid header or archive is corrupted"))
        if info.file_size > info.compress_size * _MAX_DEFLATE_RATIO:
            raise RuntimeError(_FILE_ERROR.format(name, "unexpected decompressed size"))

    def close(self) -> None:
        self._zip.close()
