"""Hostile: allocate (and touch) far more heap than its memory bound; report each 32 MB on
stderr. The kernel kills it at the bound."""

import sys

MB = 1 << 20
kept = []
for step in range(1, 129):  # 4 GB
    kept.append(bytearray(b"\x01" * (32 * MB)))
    print(f"allocated {32 * step} MB", file=sys.stderr, flush=True)
print("LEAK: allocated 4096 MB", file=sys.stderr, flush=True)
