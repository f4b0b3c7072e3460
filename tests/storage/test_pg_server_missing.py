"""Without PostgreSQL's programs the PostgreSQL tests fail and say how to install them: the
fixture fails (never skips) with this one line."""

from __future__ import annotations

import pytest

from support import pg_server


def test_no_server_programs_is_one_line_naming_the_package(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(pg_server.glob, "glob", lambda pattern: [])
    with pytest.raises(pg_server.PostgresMissing) as missing:
        pg_server.find_binaries()
    assert "\n" not in str(missing.value) and "postgresql" in str(missing.value)


def test_the_installed_server_programs_are_found():
    folder = pg_server.find_binaries()
    assert (folder / "initdb").exists() and (folder / "postgres").exists()
