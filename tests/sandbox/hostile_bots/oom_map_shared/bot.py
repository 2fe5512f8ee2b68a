"""Hostile: a shared anonymous mapping far beyond its memory bound, touched page by page in
32 MB steps reported on stderr. The kernel kills it at the bound."""

import mmap
import sys

MB = 1 << 20
size = 4096 * MB
shared = mmap.mmap(-1, size, flags=mmap.MAP_SHARED)
for offset in range(0, size, 4096):
    shared[offset] = 1
    if offset % (32 * MB) == 0 and offset:
        print(f"touched {offset // MB} MB", file=sys.stderr, flush=True)
print("LEAK: touched 4096 MB", file=sys.stderr, flush=True)
