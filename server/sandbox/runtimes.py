"""The runtimes a submitted bot may name, and what each shows inside the sandbox.

Everything under ``/usr`` is visible in every sandbox (read-only), so the Debian toolchains
(g++, CMake, node, Java under /usr/lib/jvm, Go under /usr/local/go) need nothing more than
their folder on ``PATH``. Two need a folder of their own:

* **python**: the interpreter this ladder runs on (it lives under /usr), and a read-only
  folder made at start-up holding copies of the Python SDK and what it imports (grpcio,
  protobuf, Kassen's messages) at ``/kassen/python``. Never the ladder's own environment:
  an editable install points into a folder that may hold the ladder's database.
* **rust**: a toolchain folder (``rustc --print sysroot``, or the organiser's), which must be
  reachable by the sandbox's unprivileged user: rustup's default home under /root is not.

Kassen's ``.proto`` files are shown at ``/kassen/proto`` (``KASSEN_PROTO``) for builds that
generate their stubs. A runtime whose folders the sandbox user cannot reach is unavailable,
and says why (``Runtime.problem``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PYTHON_INSIDE = "/kassen/python"
PROTO_INSIDE = "/kassen/proto"
#: What the Python SDK imports, copied into the python runtime's folder.
PYTHON_PACKAGES = (
    "client_sdk",
    "kassen",
    "games",
    "grpc",
    "google.protobuf",
    "google._upb",
    "typing_extensions",
)
#: Left out of the copies: the parts of kassen a bot never imports. Compiled bytecode is kept
#: (copies keep their sources' times, so it stays valid) and what is missing is compiled once.
PYTHON_IGNORED = ("commands",)
BASE_PATH = ("/usr/local/bin", "/usr/bin", "/bin")


@dataclass(frozen=True)
class Runtime:
    name: str
    #: Read-only folders shown at their own path (outside /usr).
    read_only: tuple[Path, ...] = ()
    #: Read-only folders shown elsewhere: (outside, inside).
    mounts: tuple[tuple[Path, str], ...] = ()
    #: Folders put before ``BASE_PATH`` (paths inside the sandbox).
    path: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    #: Why it cannot be used on this host (None: it can).
    problem: str | None = None

    def environment(self) -> dict[str, str]:
        """The variables a build or a run of this runtime starts with (``HOME``, ``TMPDIR``
        and the bot's own variables are added by the sandbox)."""
        return {"PATH": ":".join((*self.path, *BASE_PATH)), **self.env}


def proto_folder() -> Path | None:
    """Kassen's ``proto`` folder (a source checkout has it beside the packages)."""
    spec = importlib.util.find_spec("kassen")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).resolve().parents[1] / "proto"
    return folder if (folder / "kassen" / "v1").is_dir() else None


def make_python_folder(destination: Path) -> Path:
    """Copy the Python SDK and its imports into ``destination`` (made fresh, world-readable)
    and link the interpreter this process runs on as ``bin/python``. Returns it."""
    if destination.exists():
        shutil.rmtree(destination)
    site = destination / "site"
    site.mkdir(parents=True)
    for name in PYTHON_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        source = Path(spec.origin)
        target = site.joinpath(*name.split("."))
        target.parent.mkdir(parents=True, exist_ok=True)
        if spec.submodule_search_locations:
            shutil.copytree(source.parent, target, ignore=shutil.ignore_patterns(*PYTHON_IGNORED))
        else:
            shutil.copy2(source, target.with_suffix(source.suffix))
    (destination / "bin").mkdir()
    interpreter = python_interpreter()
    if interpreter is not None:
        for link in ("python", "python3"):
            (destination / "bin" / link).symlink_to(interpreter)
        # Compiled now (what was not yet), by the interpreter the bots run: the folder is
        # read-only to them, so without this each bot would compile the SDK at each start
        # (~140 ms of its start-up).
        subprocess.run(
            [str(interpreter), "-m", "compileall", "-q", "-j", "0", str(site)],
            capture_output=True,
            check=False,
            timeout=300,
        )
    _world_readable(destination)
    return destination


def python_interpreter() -> Path | None:
    """An interpreter the sandbox user can run, of this process's Python version (the copied
    packages hold compiled modules for it): ours, else the system's of the same version
    (ours may live in a home folder, e.g. pyenv's)."""
    ours = Path(os.path.realpath(sys.executable))
    if unreachable(ours.parent) is None:
        return ours
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    return system if system.exists() else None


def host_runtimes(
    python_folder: Path | None,
    rust_sysroot: Path | None = None,
    allowed: Sequence[str] = ("python", "node", "go", "rust", "java", "cpp", "binary"),
) -> dict[str, Runtime]:
    """The runtimes ``allowed`` as this host offers them."""
    proto = proto_folder()
    common: tuple[tuple[Path, str], ...] = ((proto, PROTO_INSIDE),) if proto else ()
    env = {"KASSEN_PROTO": PROTO_INSIDE} if proto else {}
    found: dict[str, Runtime] = {}
    for name in allowed:
        if name == "python":
            found[name] = _python(python_folder, common, env)
        elif name == "go":
            found[name] = _go(common, env)
        elif name == "rust":
            found[name] = _rust(rust_sysroot, common, env)
        elif name == "java":
            found[name] = _on_path(name, "java", common, env)
        elif name == "node":
            found[name] = _on_path(name, "node", common, env)
        else:  # cpp, binary: /usr alone
            found[name] = Runtime(name, mounts=common, env=env)
    return found


def _python(
    folder: Path | None, common: tuple[tuple[Path, str], ...], env: Mapping[str, str]
) -> Runtime:
    problem = None if folder is not None else "the SDK folder was not made"
    if python_interpreter() is None:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        problem = f"no Python {version} the sandbox user can run (ours is {sys.executable})"
    elif folder is not None:
        problem = unreachable(folder)
    return Runtime(
        "python",
        mounts=(*common, *(((folder, PYTHON_INSIDE),) if folder else ())),
        path=(f"{PYTHON_INSIDE}/bin",),
        env={**env, "PYTHONPATH": f"{PYTHON_INSIDE}/site", "PYTHONDONTWRITEBYTECODE": "1"},
        problem=problem,
    )


def _go(common: tuple[tuple[Path, str], ...], env: Mapping[str, str]) -> Runtime:
    go = shutil.which("go")
    root = Path(os.path.realpath(go)).parents[1] if go else None
    if root is None:
        return Runtime("go", problem="go is not installed")
    return Runtime(
        "go",
        read_only=() if _under_usr(root) else (root,),
        mounts=common,
        path=(str(root / "bin"),),
        env={
            **env,
            "GOCACHE": "/tmp/go-cache",
            "GOPATH": "/tmp/go",
            "GOFLAGS": "-mod=vendor",
            "GOPROXY": "off",
            "GOTOOLCHAIN": "local",
            "CGO_ENABLED": "0",
        },
        problem=unreachable(root),
    )


def _rust(
    sysroot: Path | None, common: tuple[tuple[Path, str], ...], env: Mapping[str, str]
) -> Runtime:
    if sysroot is None:
        sysroot = _rust_sysroot()
    if sysroot is None:
        return Runtime("rust", problem="rustc is not installed")
    return Runtime(
        "rust",
        read_only=() if _under_usr(sysroot) else (sysroot,),
        mounts=common,
        path=(str(sysroot / "bin"),),
        env={**env, "CARGO_HOME": "/tmp/cargo", "CARGO_NET_OFFLINE": "true"},
        problem=_rust_problem(sysroot),
    )


def _rust_problem(sysroot: Path) -> str | None:
    """Why the sandbox cannot use ``sysroot``, and what to do about it."""
    problem = unreachable(sysroot)
    if problem is None:
        return None
    return (
        f"{problem}; set KASSEN_RUST_SYSROOT (or rust_sysroot in ladder.toml) to a copy it can reach"
        ' (e.g. cp -al "$(rustc --print sysroot)" /srv/rust, on the same filesystem)'
    )


def _rust_sysroot() -> Path | None:
    rustc = shutil.which("rustc")
    if rustc is None:
        return None
    try:
        done = subprocess.run(
            [rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


def _on_path(
    name: str, program: str, common: tuple[tuple[Path, str], ...], env: Mapping[str, str]
) -> Runtime:
    found = shutil.which(program)
    if found is None:
        return Runtime(name, problem=f"{program} is not installed")
    home = Path(os.path.realpath(found)).parent
    return Runtime(
        name,
        read_only=() if _under_usr(home) else (home.parent,),
        mounts=common,
        path=(str(home),),
        env=dict(env),
        problem=unreachable(home),
    )


def _under_usr(path: Path) -> bool:
    return path.resolve().is_relative_to("/usr")


def unreachable(folder: Path) -> str | None:
    """Why the sandbox's unprivileged user cannot read ``folder`` (None: it can): every
    folder above it must let others pass, and it must let others read and pass."""
    folder = folder.resolve()
    for each in (*reversed(folder.parents), folder):
        try:
            mode = each.stat().st_mode
        except OSError as error:
            return f"{each}: {error.strerror}"
        if not mode & stat.S_IXOTH:
            return (
                f"{each} is closed to other users (mode {stat.filemode(mode)}), so the sandbox"
                f" user cannot reach {folder}"
            )
    if not folder.stat().st_mode & stat.S_IROTH:
        return f"{folder} is not readable by other users"
    return None


def _world_readable(root: Path) -> None:
    for folder, _subfolders, files in os.walk(root):
        os.chmod(folder, 0o755)
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():
                os.chmod(path, 0o755 if os.access(path, os.X_OK) else 0o644)
