"""The tests refuse to start, in one line, under a Python without the project's dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import NEEDED, environment_problem

ROOT = Path(__file__).resolve().parents[1]


def test_this_python_has_everything_the_project_needs():
    assert environment_problem() is None


def test_a_missing_dependency_is_named_with_the_command_that_installs_it():
    problem = environment_problem((*NEEDED, "no_such_module_twixt"))
    assert problem is not None and "\n" not in problem
    assert problem.startswith("no_such_module_twixt not installed for ")
    assert "python -m pip install -e '.[dev]'" in problem


def test_pytest_stops_at_once_and_says_why(tmp_path):
    # a package that hides aiosqlite from the child's imports, as a bare Python would
    hider = tmp_path / "sitecustomize.py"
    hider.write_text("import sys\nsys.modules['aiosqlite'] = None\n"
                     "import importlib.util as u\n_find = u.find_spec\n"
                     "u.find_spec = lambda name, *a: None if name == 'aiosqlite' "
                     "else _find(name, *a)\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/test_layers.py"],
                          cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode != 0
    assert "aiosqlite not installed for" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr + done.stdout
