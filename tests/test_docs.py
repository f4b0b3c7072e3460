"""The project's documentation stands alone: nothing outside tests/ sends a reader to a folder
beside the repository, every relative link in README.md and docs/ leads to a file of it (and
to a heading there, when it names one), and the README stays a front door: short, linking
every page of docs/, its set-up commands the ones CI runs and its quick start working."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the front door's length: what it is, set-up, quick start, the bot, Discord
MAX_README_LINES = 250
#: what a reference to a folder outside the repository looks like
FORBIDDEN = (b"../shared", b"shared/RULES")
#: an inline Markdown link or image, `[text](target)` or `[text](target "title")`
_INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: a reference definition, `[label]: target`
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+).*?\1")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")


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


def _prose(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    prose, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            prose.append(line)
    return prose


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as
    hyphens, and `-1`, `-2` … after a heading's second and later namesakes."""
    anchors: set[str] = set()
    for line in _prose(text):
        heading = _HEADING.match(line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            anchor, seen = slug, 0
            while anchor in anchors:
                seen += 1
                anchor = f"{slug}-{seen}"
            anchors.add(anchor)
    return anchors


def _links(text: str) -> list[str]:
    """The link targets of a Markdown text, leaving out code blocks and code spans."""
    body = "\n".join(_CODE_SPAN.sub("", line) for line in _prose(text))
    return _INLINE_LINK.findall(body) + _REFERENCE.findall(body)


def test_the_documents_exist():
    for name in ("rules.md", "move-language.md", "records.md", "architecture.md", "commands.md",
                 "slow-games.md", "tournaments.md", "limits.md", "deployment.md"):
        assert (ROOT / "docs" / name).is_file(), name


def test_the_readme_is_a_front_door_that_links_every_page_of_docs():
    assert len(README.splitlines()) <= MAX_README_LINES
    unlinked = [path.name for path in sorted((ROOT / "docs").glob("*.md"))
                if f"(docs/{path.name})" not in README]
    assert unlinked == [], f"README.md does not link {unlinked}"


@pytest.mark.parametrize("document", _documents(), ids=lambda path: path.name)
def test_relative_links_lead_to_files_of_the_repository(document: Path):
    broken = []
    for target in _links(document.read_text(encoding="utf-8")):
        if _SCHEME.match(target):
            continue  # a web address or a mail address
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(target)
        elif "#" in target and resolved.suffix == ".md" and target.split("#", 1)[1] not in \
                _anchors(resolved.read_text(encoding="utf-8")):
            broken.append(target)  # the page is there, the heading is not
    assert broken == [], f"{document.relative_to(ROOT)}: links that lead nowhere: {broken}"


def test_the_link_reader_finds_links_and_skips_code():
    text = ("See [rules](docs/rules.md#swap) and [site](https://example.com).\n"
            "`[not](a-link.md)`\n```\n[also not](code.md)\n```\n[ref]: docs/records.md\n")
    assert _links(text) == ["docs/rules.md#swap", "https://example.com", "docs/records.md"]
    assert _anchors("# A\n## Swap (the pie rule)\n## `twixt check`\n## Notes\n## Notes\n"
                    "```\n# not a heading\n```\n") == {"a", "swap-the-pie-rule", "twixt-check",
                                                       "notes", "notes-1"}


def _section(heading: str) -> str:
    """The README's section under `heading`, up to the next heading of its level or above."""
    lines = README.splitlines()
    start = next(number for number, line in enumerate(lines) if line.lstrip("#").strip() == heading
                 and line.startswith("#"))
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((number for number in range(start + 1, len(lines))
                if _HEADING.match(lines[number]) and lines[number] in _prose(README)
                and len(lines[number]) - len(lines[number].lstrip("#")) <= level), len(lines))
    return "\n".join(lines[start + 1:end])


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"^```\w*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def _shell_commands(script: str) -> list[str]:
    """The commands of a shell text: comments dropped, `&&` chains split, `$ ` prompts and
    `--quiet` left out, the CI's own venv folder named as the README names it."""
    commands = []
    for line in script.splitlines():
        line = line.split(" #", 1)[0].removeprefix("$ ").replace(" --quiet", "")
        commands += [part.strip().replace(".ci-venv", ".venv") for part in line.split("&&")]
    return [command for command in commands if command and not command.startswith("#")]


def test_ci_runs_the_readmes_set_up_commands():
    """.ci/run is "the README's install command, ruff, mypy, the README's tests": every command
    of the README's Set up is one CI runs, so the README cannot promise what CI never tried."""
    set_up = _shell_commands(_code_blocks(_section("Set up"))[0])
    assert {"python -m pip install -e '.[dev]'", "python -m pytest"} <= set(set_up)
    ci = _shell_commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert [command for command in set_up if command not in ci] == []


def _twixt(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).with_name("twixt")), *args], cwd=cwd,
                          input=stdin, capture_output=True, text=True, check=False, timeout=120)


def test_the_quick_start_works_as_written(tmp_path: Path):
    """The README's transcript replays to the JSON it shows, and its terminal table plays
    every line it shows without a refusal (a refused line is printed after `! `)."""
    quick_start = _section("Quick start")
    blocks = _code_blocks(quick_start)
    play, replay = (next(block for block in blocks if block.startswith(f"$ twixt {command}"))
                    for command in ("play", "replay"))
    transcript = next(block for block in blocks if block.startswith("[Board"))
    (tmp_path / "game.twixt").write_text(transcript, encoding="utf-8")
    command, shown = replay.splitlines()
    replayed = _twixt(*_shell_commands(command)[0].split()[1:], cwd=tmp_path)
    assert (replayed.returncode, replayed.stdout) == (0, shown + "\n")
    invocation, *lines = play.splitlines()
    played = _twixt(*_shell_commands(invocation)[0].split()[1:], cwd=tmp_path,
                    stdin="\n".join(lines) + "\n")
    assert played.returncode == 0 and "\n! " not in "\n" + played.stdout, played.stdout
    assert "wins — Black resigned" in played.stdout


def test_the_readmes_web_example_opens_a_game_in_play(tmp_path: Path):
    """The README's web example, run as written but for serving the page, prints a link to a
    seat of a game in progress (not the quick start's, which is over)."""
    [block] = _code_blocks(_section("On a web page"))
    commands = [command for command in _shell_commands(block)
                if command.startswith(("export", "printf", "twixt link"))]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    shown = subprocess.run(["bash", "-c", "set -e; " + "; ".join(commands)], cwd=tmp_path,
                           env={**os.environ, "PATH": path}, capture_output=True, text=True,
                           check=False, timeout=120)
    assert shown.returncode == 0 and "/g/v1." in shown.stdout.splitlines()[-1], shown.stderr
    channel = re.search(r"twixt link .*--channel (\w+)", block)
    assert channel is not None
    status = _twixt("play", "--db", "twixt.db", "--channel", channel.group(1), cwd=tmp_path,
                    stdin="bob: status\n")
    assert "bob (Black) to move" in status.stdout, status.stdout


def test_the_readmes_games_against_the_bot_start_as_written(tmp_path: Path):
    """Each `alice: challenge bot …` line of Playing the bot starts a game against the bot."""
    lines = re.findall(r"`(alice: challenge bot[^`]*)`", _section("Playing the bot"))
    assert len(lines) >= 2
    for number, line in enumerate(lines):
        played = _twixt("play", "--db", "bot.db", "--channel", f"c{number}", cwd=tmp_path,
                        stdin=f"{line}\nalice: resign yes\n")
        assert played.returncode == 0 and "bot (level" in played.stdout, (line, played.stdout)


def test_the_readmes_numbers_for_the_bot_are_the_codes():
    """Playing the bot promises levels 1 to 5 (3 without `level`), resigning below 2% on three
    turns in a row and accepting a draw below 40%: the constants the bot plays by."""
    from twixt.engine import LEVELS
    from twixt.service.cases.engine_player import ACCEPT_DRAW_BELOW, HOPELESS_TURNS, RESIGN_BELOW
    from twixt.service.desk.engine_seats import DEFAULT_LEVEL

    words = {3: "three"}
    section = " ".join(_section("Playing the bot").split())
    assert f"a level from {LEVELS[0]} to {LEVELS[-1]}" in README
    assert f"without `level`, {DEFAULT_LEVEL}." in section
    assert (f"below {RESIGN_BELOW:.0%} on {words[HOPELESS_TURNS]} of its turns in a row"
            in section)
    assert f"accepts when its chance of winning is below {ACCEPT_DRAW_BELOW:.0%}" in section


def test_replay_refuses_an_illegal_line_as_the_readme_says(tmp_path: Path):
    """`twixt replay` prints `line N: why` on stderr and exits 1 at the first illegal line."""
    (tmp_path / "bad.twixt").write_text('[Board "24x24"]\n[Players "alice, bob"]\n'
                                        "alice: G6\nbob: G6\n", encoding="utf-8")
    replayed = _twixt("replay", "bad.twixt", cwd=tmp_path)
    assert replayed.returncode == 1
    assert replayed.stderr.startswith("line 4: "), replayed.stderr  # bob: G6, taken


def test_at_the_table_a_person_typing_as_bot_is_not_the_bot(tmp_path: Path):
    """Playing the bot: `bot` in a command is the bot; a line typed as `bot:` is a person's."""
    played = _twixt("play", "--db", "bot.db", "--channel", "den", cwd=tmp_path,
                    stdin="bot: challenge alice size 12\n")
    assert played.returncode == 0 and "**bot (person)** challenges alice" in played.stdout, \
        played.stdout
    assert "(level" not in played.stdout


def test_the_move_languages_refusals_are_the_words_the_table_prints():
    """Each `invalid` row of docs/move-language.md's table is what `parse_command` says of
    the text (the table prints it after the name, as it is)."""
    from twixt.rules import TwixtError, parse_command

    rows = re.findall(r"^\| `([^`]+)` \| invalid \| (.+) \|$",
                      (ROOT / "docs" / "move-language.md").read_text(), flags=re.MULTILINE)
    assert len(rows) >= 10
    for typed, said in rows:
        with pytest.raises(TwixtError) as refused:
            parse_command(typed)
        assert str(refused.value) == said, typed
