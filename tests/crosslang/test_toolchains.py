"""The skip lines of the example bots (no toolchain needed: runs with the quick tests)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.crosslang.toolchains import (
    PROTOC_SHIM,
    ROOT,
    CppProbe,
    build_environment,
    cpp_skip_reason,
    skip_reason,
)

EVERYTHING = CppProbe(
    cmake=True,
    compiler=True,
    protoc=True,
    grpc_cpp_plugin=True,
    grpcpp_headers=True,
    protobuf_headers=True,
)


def test_cpp_builds_when_everything_is_there() -> None:
    assert cpp_skip_reason(EVERYTHING) is None


def test_cpp_without_grpc_names_exactly_the_debian_packages() -> None:
    probe = dataclasses.replace(EVERYTHING, grpcpp_headers=False, grpc_cpp_plugin=False)
    assert cpp_skip_reason(probe) == (
        "cpp: skipped: gRPC C++, grpc_cpp_plugin not installed"
        " (Debian: apt-get install libgrpc++-dev protobuf-compiler-grpc)"
    )


def test_cpp_on_a_bare_machine_lists_every_package_once() -> None:
    bare = CppProbe(*[False] * len(dataclasses.fields(CppProbe)))
    assert cpp_skip_reason(bare) == (
        "cpp: skipped: cmake, a C++ compiler, gRPC C++, protobuf headers, protoc,"
        " grpc_cpp_plugin not installed (Debian: apt-get install cmake g++ libgrpc++-dev"
        " libprotobuf-dev protobuf-compiler protobuf-compiler-grpc)"
    )


def test_a_missing_program_skips_its_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert skip_reason("go") == "go: skipped: toolchain not installed (go)"
    assert skip_reason("java") == "java: skipped: toolchain not installed (java, mvn)"


def test_go_and_rust_need_no_system_protoc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Their builds get the shim (grpcio-tools' protoc, run by this Python); C++ does not."""
    monkeypatch.delenv("PROTOC", raising=False)
    for language in ("go", "rust"):
        env = build_environment(language)
        assert env == {"PROTOC": str(PROTOC_SHIM), "KASSEN_PYTHON": sys.executable}
    assert build_environment("cpp") == {}
    # Whatever else is on PATH, the shim runs this Python's grpc_tools.
    done = subprocess.run(
        [str(PROTOC_SHIM), "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, **build_environment("go"), "PATH": "/bin"},
        cwd=ROOT,
        check=True,
    )
    assert done.stdout.startswith("libprotoc ")
