"""What each example needs to build, and the one line that says what is missing.

Go and Rust need no system protoc: their builds get ``PROTOC`` = tools/protoc, the protobuf
compiler that grpcio-tools (a dependency of kassen) ships, run by this test's Python. C++ needs
the protoc that matches the installed libprotobuf, and gRPC C++; where something is missing, its
skip line names the Debian packages to install.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: protoc without a system install (python -m grpc_tools.protoc), for Go and Rust.
PROTOC_SHIM = ROOT / "tools" / "protoc"

#: language -> programs its build needs on PATH (C++: see :func:`cpp_missing`).
TOOLCHAINS: dict[str, list[str]] = {
    "go": ["go"],
    "typescript": ["node", "npm"],
    "rust": ["cargo"],
    "java": ["java", "mvn"],
    "cpp": [],
}
LANGUAGES = sorted(TOOLCHAINS)


def build_environment(language: str) -> dict[str, str]:
    """Extra environment for a build: Go and Rust get PROTOC (the caller's, else the shim)."""
    if language not in ("go", "rust"):
        return {}
    return {"PROTOC": os.environ.get("PROTOC") or str(PROTOC_SHIM), "KASSEN_PYTHON": sys.executable}


@dataclass(frozen=True)
class CppProbe:
    """What the C++ example's CMake build uses, found or not."""

    cmake: bool
    compiler: bool
    protoc: bool
    grpc_cpp_plugin: bool
    grpcpp_headers: bool
    protobuf_headers: bool


def _include_dirs() -> list[Path]:
    prefixes = [p for p in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep) if p]
    return [Path("/usr/include"), Path("/usr/local/include")] + [
        Path(p) / "include" for p in prefixes
    ]


def _header(name: str) -> bool:
    return any((directory / name).is_file() for directory in _include_dirs())


def probe_cpp() -> CppProbe:
    return CppProbe(
        cmake=shutil.which("cmake") is not None,
        compiler=any(shutil.which(c) for c in (os.environ.get("CXX", ""), "c++", "g++") if c),
        protoc=shutil.which("protoc") is not None,
        grpc_cpp_plugin=shutil.which("grpc_cpp_plugin") is not None,
        grpcpp_headers=_header("grpcpp/grpcpp.h"),
        protobuf_headers=_header("google/protobuf/message.h"),
    )


#: (what is missing, the Debian package that provides it), in install-line order.
_CPP_PACKAGES = (
    ("cmake", "cmake", "cmake"),
    ("compiler", "a C++ compiler", "g++"),
    ("grpcpp_headers", "gRPC C++", "libgrpc++-dev"),
    ("protobuf_headers", "protobuf headers", "libprotobuf-dev"),
    ("protoc", "protoc", "protobuf-compiler"),
    ("grpc_cpp_plugin", "grpc_cpp_plugin", "protobuf-compiler-grpc"),
)


def cpp_missing(probe: CppProbe) -> tuple[list[str], list[str]]:
    """What the C++ build lacks, and the Debian packages that provide exactly that."""
    missing = [
        (what, package) for field, what, package in _CPP_PACKAGES if not getattr(probe, field)
    ]
    return [what for what, _ in missing], [package for _, package in missing]


def cpp_skip_reason(probe: CppProbe) -> str | None:
    what, packages = cpp_missing(probe)
    if not what:
        return None
    return (
        f"cpp: skipped: {', '.join(what)} not installed"
        f" (Debian: apt-get install {' '.join(packages)})"
    )


def skip_reason(language: str) -> str | None:
    """Why a language's example cannot be built here (one line), or None."""
    if language == "cpp":
        return cpp_skip_reason(probe_cpp())
    absent = [tool for tool in TOOLCHAINS[language] if shutil.which(tool) is None]
    if absent:
        return f"{language}: skipped: toolchain not installed ({', '.join(absent)})"
    return None
