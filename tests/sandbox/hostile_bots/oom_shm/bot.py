"""Hostile: fill /dev/shm (a tmpfs: its pages are memory) far beyond its memory bound, in
32 MB steps reported on stderr. The kernel kills it at the bound."""

import sys

MB = 1 << 20
with open("/dev/shm/hog", "wb") as file:
    for step in range(1, 129):  # 4 GB
        file.write(b"\x01" * (32 * MB))
        file.flush()
        print(f"wrote {32 * step} MB to /dev/shm", file=sys.stderr, flush=True)
print("LEAK: wrote 4096 MB to /dev/shm", file=sys.stderr, flush=True)
