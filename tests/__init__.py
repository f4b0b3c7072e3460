"""The tests mirror the package: those of `twixt/service/cases/turns.py` are in
`tests/service/cases/`, of `twixt/storage/` in `tests/storage/`, of the terminal table in
`tests/terminal/`, each file named by the behaviour it holds (`test_turns.py`), not by its
folder again. What checks the whole tree stays at the top: the layers (`test_layers.py`), the
front ends' reach (`test_front_ends.py`), the docs (`test_docs.py`,
`test_architecture_doc.py`), the packaging and the image (`test_environment.py`,
`test_docker_context.py`, `test_compose.py`).

Shared words live beside each folder's tests: `tests/service/people.py` (who and where) and
`helpers.py` (a started game, a tick); `tests/discord/people.py` (spec'd members and
channels), `helpers.py` (a slash command, a press, a message) and `reading.py` (what the bot
sent); `refusals.py` here (the one line a call is refused with). What the tests and the
benchmarks both use lives in `support/`.
"""
