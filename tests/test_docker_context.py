"""The Docker image holds a bot that starts, checked without a Docker daemon: the build
context is made as Docker makes it (the Dockerfile's COPY lines, filtered by .dockerignore),
installed as the Dockerfile installs it (`pip install .`, not editable) into a fresh virtual
environment, and run from another folder: every package of the project imports, `twixt run`
without a token says how to set one, and `twixt think` answers, with the engine's compiled
core; installed where the C compiler fails, the install still succeeds and the engine
searches with its Python fallback.

The packages are read from the source tree (every folder with an `__init__.py` beside
pyproject.toml, tests aside), so a package added later and left out of the image or of the
install fails here. The fresh environment gets the project's declared dependencies only,
linked from this Python's own (the distributions `twixt-bot` requires, and theirs): no
network and no second download of aiohttp and Pillow per run, and an undeclared dependency
fails the imports as it would in the image. pip builds the wheel in its usual isolated build
environment, from the index pip is configured with (setuptools only).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import venv
from importlib import metadata
from pathlib import Path, PurePosixPath

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

from twixt.rules import records

ROOT = Path(__file__).resolve().parents[1]
#: folders of the tree that are no part of the bot: its tests and what they share with the
#: benchmarks
NOT_SHIPPED = {"tests", "support"}

OPEN_GAME = '[Board "8x8"]\n[Rules "classic"]\n[Swap "no"]\n[Players "ann, bob"]\nann: D4\n'


def project_packages(root: Path = ROOT) -> list[str]:
    """The top-level packages of the source tree, as the Dockerfile's check finds them."""
    return sorted(init.parent.name for init in root.glob("*/__init__.py")
                  if init.parent.name not in NOT_SHIPPED)


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments out."""
    lines = [line for line in dockerfile.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [(word.upper(), rest.strip()) for word, _, rest in
            (line.strip().partition(" ") for line in joined.splitlines() if line.strip())]


def ignore_rules(dockerignore: str) -> list[tuple[re.Pattern[str], bool]]:
    """.dockerignore as (pattern, excludes) in order: Go's filepath.Match, `**` for any
    number of folders, `!` for an exception; the last rule that matches decides."""
    rules = []
    for line in dockerignore.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = str(PurePosixPath(line.removeprefix("!").lstrip("/")))
        regex = "".join(".*" if part == "**" else
                        "[^/]*" if part == "*" else
                        "[^/]" if part == "?" else re.escape(part)
                        for part in re.split(r"(\*\*|\*|\?)", pattern))
        rules.append((re.compile(regex.replace(".*/", "(.*/)?")), not keep))
    return rules


def ignored(relative: str, rules: list[tuple[re.Pattern[str], bool]]) -> bool:
    """Whether Docker leaves a path of the context out: it, or a folder it is in, matches."""
    parts = relative.split("/")
    verdict = False
    for pattern, excludes in rules:
        if any(pattern.fullmatch("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            verdict = excludes
    return verdict


def build_context(root: Path, image: Path) -> Path:
    """Copy what the Dockerfile's COPY lines take from `root` into `image` (the image's
    file system, `/` → `image`); the folder that `pip install .` runs in."""
    rules = ignore_rules((root / ".dockerignore").read_text(encoding="utf-8"))
    workdir, installed_from = PurePosixPath("/"), None
    for instruction, arguments in instructions((root / "Dockerfile").read_text("utf-8")):
        if instruction == "FROM":
            workdir = PurePosixPath("/")   # a stage starts in the base image's folder
        elif instruction == "WORKDIR":
            workdir = workdir / arguments
        elif instruction == "COPY" and "--from=" not in arguments:  # another stage's files
            words = [word for word in shlex.split(arguments) if not word.startswith("--")]
            *sources, destination = words
            target = image / (workdir / destination).relative_to("/")
            into = destination.endswith("/") or len(sources) > 1 or target.is_dir()
            for source in sources:
                _copy(root, root / source, target, into, rules)
        elif instruction == "RUN" and re.search(r"pip (install|wheel)\b.* \.( |$)", arguments):
            installed_from = image / workdir.relative_to("/")
    assert installed_from is not None, "the Dockerfile builds no `pip install .`/`pip wheel .`"
    return installed_from


def stages(dockerfile: str) -> list[list[tuple[str, str]]]:
    """The Dockerfile's instructions, stage by stage (each from its FROM)."""
    found: list[list[tuple[str, str]]] = []
    for instruction, arguments in instructions(dockerfile):
        if instruction == "FROM":
            found.append([])
        found[-1].append((instruction, arguments))
    return found


def _copy(root: Path, source: Path, target: Path, into: bool,
          rules: list[tuple[re.Pattern[str], bool]]) -> None:
    """COPY's rules: a folder's contents go into the target folder; a file goes into it
    (`into`: the target ends in `/`, is a folder, or takes several sources), else becomes it."""
    files = [source] if source.is_file() else context_files(root, source, rules)
    for file in files:
        if ignored(file.relative_to(root).as_posix(), rules):
            continue
        destination = (target / file.relative_to(source) if source.is_dir()
                       else target / file.name if into else target)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file, destination)


def context_files(root: Path, folder: Path,
                  rules: list[tuple[re.Pattern[str], bool]]) -> list[Path]:
    """The files under `folder`, not descending into a folder that .dockerignore leaves out
    when no `!` exception could take anything under it back in (none is written). A clone's
    `.git`, `.venv` and `.ci-venv` (PyTorch's tens of thousands of files) are then not read,
    nor each of their files matched against every rule: that walk was seconds of CPU for each
    context built. What the walk skips is ignored whole anyway (`ignored`, the last rule that
    matches decides), so the context is the same."""
    keeps = any(not excludes for _, excludes in rules)
    found = []
    for here, folders, names in os.walk(folder, followlinks=True):
        if not keeps:
            folders[:] = [name for name in folders
                          if not ignored(Path(here, name).relative_to(root).as_posix(), rules)]
        found.extend(Path(here, name) for name in names)
    return sorted(path for path in found if path.is_file())


def dependency_folder(folder: Path) -> Path:
    """The distributions twixt-bot requires (and theirs), linked from this Python: what
    `pip install .` would fetch, without fetching it."""
    folder.mkdir()
    environment = default_environment()
    todo, seen = ["twixt-bot"], set()
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        distribution = metadata.distribution(name)
        for text in distribution.requires or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate(
                    {**environment, "extra": ""}):
                todo.append(requirement.name)
        if key == "twixt-bot":
            continue
        for top in {PurePosixPath(str(file)).parts[0] for file in distribution.files or ()}:
            here = Path(str(distribution.locate_file(top)))
            if top != ".." and here.exists() and not (folder / top).exists():
                (folder / top).symlink_to(here)
    return folder


def install(base: Path, compiler: str | None = None) -> Path:
    """A fresh environment under `base` with the image's package installed in it (built with
    the C compiler `compiler`, or the usual one); its bin folder."""
    source = build_context(ROOT, base / "image")
    environment = base / "venv"
    venv.create(environment, with_pip=False)
    site = next((environment / "lib").glob("python*/site-packages"))
    (site / "dependencies.pth").write_text(f"{dependency_folder(base / 'deps')}\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(environment / "bin" / "python"),
         "install", "--quiet", "--no-deps", str(source)],
        capture_output=True, text=True, cwd=base,
        env={**os.environ, **({"CC": compiler} if compiler else {})})
    assert done.returncode == 0, done.stderr
    return environment / "bin"


#: the installs the tests use, by name: the C compiler each is built with (None: the usual
#: one; `/bin/false`: as on a machine without one)
INSTALLS: dict[str, str | None] = {"docker": None, "no-compiler": "/bin/false"}


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's own temporary folder, which every pytest-xdist worker's folder is in."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def install_once(root: Path, name: str) -> Path:
    """The install `name` (`INSTALLS`) made once for the whole run in the run's folder `root`,
    by whichever asks first — a worker's fixture, or the process tests/conftest.py starts in
    the background when the run begins (`start_installs`) — the others waiting on a lock,
    then using it. One that failed left no mark, so the next to ask installs again (a
    fixture, whose assertion then says why)."""
    base = root / name
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = base / "installed"
        if not made.exists():
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir()
            bin_folder = install(base, INSTALLS[name])
            made.write_text(str(bin_folder))
    return Path(made.read_text())


def start_installs(root: Path) -> list[subprocess.Popen[bytes]]:
    """Every install of `INSTALLS` begun in a process of its own, for a run whose folder is
    `root`: they are the run's longest set-ups (half a minute each by the clock, much of it
    waiting on pip), so they go on beside the first worker's collection and the other tests
    instead of keeping one worker from its tests. The fixtures wait for them (`install_once`)."""
    return [subprocess.Popen([sys.executable, "-m", "tests.test_docker_context", str(root), name],
                             cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)  # pip's processes stopped with it
            for name in INSTALLS]


@pytest.fixture(scope="session")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The image's package installed as the Dockerfile installs it, with a compiler."""
    return install_once(run_folder(tmp_path_factory), "docker")


@pytest.fixture(scope="session")
def no_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same install where the C compiler fails (as on a machine without one)."""
    return install_once(run_folder(tmp_path_factory), "no-compiler")


def run(image: Path, *command: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """A command of the installed environment, from a folder that holds no project source
    and no .env, with no token and no project path in its environment."""
    folder = image.parent / "elsewhere"
    folder.mkdir(exist_ok=True)
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("DISCORD_", "TWIXT_", "PYTHON"))}
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=folder,
                          env={**environment, "PATH": f"{image}:{environment['PATH']}"},
                          timeout=120)


def test_the_context_leaves_out_tests_and_local_state(tmp_path):
    source = build_context(ROOT, tmp_path)
    shipped = {path.name for path in source.iterdir()}
    assert {"pyproject.toml", "README.md", *project_packages()} <= shipped
    assert not shipped & {"tests", "benchmarks", ".venv", ".git", "Dockerfile", "docs"}
    assert not list(source.rglob("__pycache__"))
    assert not list(source.rglob("*.so")), "a compiled core built here must not ship"


def test_every_package_of_the_tree_imports_from_the_installed_image(image):
    packages = project_packages()
    assert packages == ["twixt"]
    check = ("import importlib, pkgutil, sys\n"
             "for name in sys.argv[1:]:\n"
             "    package = importlib.import_module(name)\n"
             "    assert 'site-packages' in package.__file__, package.__file__\n"
             "    for module in pkgutil.walk_packages(package.__path__, name + '.'):\n"
             "        importlib.import_module(module.name)\n")
    done = run(image, str(image / "python"), "-c", check, *packages)
    assert done.returncode == 0, done.stderr


def test_the_install_puts_one_name_into_site_packages(image):
    """`pip install .` adds `twixt` and its metadata, nothing with a generic name (`bot`,
    `rules`, ...) that another distribution could hold too."""
    check = ("from importlib.metadata import distribution\n"
             "files = distribution('twixt-bot').files or ()\n"
             "print(*sorted({f.parts[0] for f in files}))\n")
    done = run(image, str(image / "python"), "-c", check)
    assert done.returncode == 0, done.stderr
    tops = {top for top in done.stdout.split() if top != ".." and not top.endswith(".dist-info")}
    assert tops == {"twixt"}


def test_twixt_run_without_a_token_says_how_to_set_one(image):
    done = run(image, "twixt", "run")
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and done.stderr.count("\n") == 1


def test_twixt_think_answers(image):
    done = run(image, "twixt", "think", "-", "--level", "1", stdin=OPEN_GAME)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"[A-H][1-8]( link [A-H][1-8])*\n", done.stdout), done.stdout


def test_a_package_left_out_of_the_context_is_missed(tmp_path):
    # a project with this Dockerfile whose new package .dockerignore forgets: the tree has
    # it, the context lacks it (so the imports from the installed image fail)
    project = tmp_path / "project"
    for package in ("rules", "extras"):
        (project / package).mkdir(parents=True)
        (project / package / "__init__.py").write_text("")
    for name in ("Dockerfile", ".dockerignore", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    with (project / ".dockerignore").open("a") as dockerignore:
        dockerignore.write("extras\n")
    source = build_context(project, tmp_path / "image")
    assert project_packages(project) == ["extras", "rules"]
    assert (source / "rules").is_dir() and not (source / "extras").exists()


def test_the_image_builds_the_compiled_core_in_a_stage_of_its_own():
    builder, final = stages((ROOT / "Dockerfile").read_text("utf-8"))
    assert builder[0][1].endswith(" AS builder") and final[0][1] == "python:3.11-slim"
    built = " ".join(arguments for instruction, arguments in builder if instruction == "RUN")
    assert "gcc" in built and "libc6-dev" in built and "pip wheel" in built
    installed = " ".join(arguments for instruction, arguments in final if instruction == "RUN")
    assert "gcc" not in installed
    assert ("COPY", "--from=builder /wheels /wheels") in final
    assert "assert engine.CORE == 'compiled'" in installed


def test_the_installed_engine_searches_with_its_compiled_core(image):
    done = run(image, "twixt", "think", "-", "--level", "1", "--json", stdin=OPEN_GAME)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["core"] == "compiled"


def test_without_a_compiler_the_install_succeeds_and_the_engine_searches_in_python(
        no_compiler):
    done = run(no_compiler, "twixt", "think", "-", "--level", "1", "--json", stdin=OPEN_GAME)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["core"] == "python"
    game = records.read(OPEN_GAME)
    game.play(answer["move"])
    helped = run(no_compiler, "twixt", "think", "--help")
    assert "engine core: Python (no compiled core: twixt.engine._core is not built" in " ".join(
        helped.stdout.split())


if __name__ == "__main__":  # `start_installs`: python -m tests.test_docker_context ROOT NAME
    install_once(Path(sys.argv[1]), sys.argv[2])
