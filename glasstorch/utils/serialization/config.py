"""torch.utils.serialization.config: the process-wide settings of `torch.save` and
`torch.load`, as two classes of plain attributes a program sets
(``config.load.mmap = True``).
"""
import mmap as _mmap
import sys as _sys


class load:
    """Settings of `torch.load`."""
    # mmap=None in torch.load means this
    mmap: bool = False
    # the byte order of checkpoints that do not record theirs (a LoadEndianness; None
    # means little endian)
    endianness = None
    # mmap.MAP_PRIVATE (writes stay in memory) or mmap.MAP_SHARED (writes reach the file)
    mmap_flags = None if _sys.platform == "win32" else _mmap.MAP_PRIVATE
    # torch computes record offsets instead of reading them; glasstorch always reads them
    calculate_storage_offsets: bool = False


class save:
    """Settings of `torch.save`."""
    # write each record's CRC-32 (else 0)
    compute_crc32: bool = True
    # accepted for torch's settings; glasstorch has no device memory to pin
    use_pinned_memory_for_d2h: bool = False
    # where each storage's bytes start: a multiple of this many bytes in the archive
    storage_alignment: int = 64
