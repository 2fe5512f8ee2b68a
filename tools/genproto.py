"""Regenerate the Python code of the wire contract: ``python tools/genproto.py [--check]``.

Writes ``kassen/v1/*_pb2.py``, ``*_pb2_grpc.py`` and typed stubs (``*.pyi``, mypy-protobuf)
from ``proto/kassen/v1/*.proto``. With ``--check`` it writes nothing and exits 1 if the
committed files differ from what the protos generate (CI runs this through tox).
The generator versions are pinned in tox.ini (env ``proto``) so the output is reproducible.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
OUT_PACKAGE = ROOT / "kassen" / "v1"


def generate(out_root: Path) -> list[Path]:
    protos = sorted((PROTO_ROOT / "kassen" / "v1").glob("*.proto"))
    command = [
        sys.executable,
        "-m",
        "grpc_tools.protoc",
        f"--proto_path={PROTO_ROOT}",
        f"--python_out={out_root}",
        f"--grpc_python_out={out_root}",
        f"--mypy_out={out_root}",
        f"--mypy_grpc_out={out_root}",
        *[str(p.relative_to(PROTO_ROOT)) for p in protos],
    ]
    subprocess.run(command, check=True, cwd=PROTO_ROOT)
    generated = out_root / "kassen" / "v1"
    return sorted(p for p in generated.iterdir() if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(Path(tmp))
        if args.check:
            stale = [
                f.name
                for f in files
                if not (OUT_PACKAGE / f.name).exists()
                or not filecmp.cmp(f, OUT_PACKAGE / f.name, shallow=False)
            ]
            extra = sorted(
                p.name for p in OUT_PACKAGE.glob("*_pb2*") if p.name not in {f.name for f in files}
            )
            if stale or extra:
                print(
                    f"generated code is out of date: {', '.join(stale + extra)}; "
                    "run: python tools/genproto.py",
                    file=sys.stderr,
                )
                return 1
            print(f"generated code is up to date ({len(files)} files)")
            return 0
        OUT_PACKAGE.mkdir(parents=True, exist_ok=True)
        for old in OUT_PACKAGE.glob("*_pb2*"):
            old.unlink()
        for f in files:
            shutil.copy2(f, OUT_PACKAGE / f.name)
        (OUT_PACKAGE / "__init__.py").write_text(
            '"""Generated from proto/kassen/v1 by tools/genproto.py; do not edit."""\n'
        )
    print(f"wrote {len(files)} files to {OUT_PACKAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
