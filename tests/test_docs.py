"""The project's documentation stands alone: nothing outside tests/ sends a reader to a folder
beside the repository, and every relative link in README.md and docs/ leads to a file of it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: what a reference to a folder outside the repository looks like
FORBIDDEN = (b"../shared", b"shared/RULES")
#: an inline Markdown link or image, `[text](target)` or `[text](target "title")`
_INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: a reference definition, `[label]: target`
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+).*?\1")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    return [ROOT / name for name in listing.decode("utf-8").split("\0") if name]


def test_nothing_outside_tests_points_beside_the_repository():
    offenders = []
    for path in _tracked_files():
        relative = path.relative_to(ROOT)
        if relative.parts[0] == "tests" or not path.is_file():
            continue
        data = path.read_bytes()
        offenders += [f"{relative}: {word.decode()}" for word in FORBIDDEN if word in data]
    assert offenders == []


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _links(text: str) -> list[str]:
    """The link targets of a Markdown text, leaving out code blocks and code spans."""
    prose, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            prose.append(_CODE_SPAN.sub("", line))
    body = "\n".join(prose)
    return _INLINE_LINK.findall(body) + _REFERENCE.findall(body)


def test_the_documents_exist():
    for name in ("rules.md", "move-language.md", "records.md", "architecture.md"):
        assert (ROOT / "docs" / name).is_file(), name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("rules.md", "move-language.md", "records.md", "architecture.md"):
        assert f"(docs/{name})" in readme, f"README.md does not link docs/{name}"


@pytest.mark.parametrize("document", _documents(), ids=lambda path: path.name)
def test_relative_links_lead_to_files_of_the_repository(document: Path):
    broken = []
    for target in _links(document.read_text(encoding="utf-8")):
        if _SCHEME.match(target) or target.startswith("#"):
            continue  # a web address, a mail address, or a place on the same page
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = (document.parent / path).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(target)
    assert broken == [], f"{document.relative_to(ROOT)}: links that lead nowhere: {broken}"


def test_the_link_reader_finds_links_and_skips_code():
    text = ("See [rules](docs/rules.md#swap) and [site](https://example.com).\n"
            "`[not](a-link.md)`\n```\n[also not](code.md)\n```\n[ref]: docs/records.md\n")
    assert _links(text) == ["docs/rules.md#swap", "https://example.com", "docs/records.md"]
