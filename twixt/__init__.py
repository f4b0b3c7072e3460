"""TwixT and Double TwixT by correspondence, as one installed package.

The layers, each importing only those below it (tests/test_layers.py keeps them so):

- `twixt.rules`: the game itself, pure: positions, moves, the move language, records.
- `twixt.engine`: a player and an analyst, on the rules alone.
- `twixt.rendering`: a position to picture bytes.
- `twixt.storage`: games, turns and players behind one async interface (SQLite or PostgreSQL).
- `twixt.language`: the words players read, in English, German, French, Spanish and Dutch.
- `twixt.service`: where a command becomes a turn; every front end calls it.
- the front ends: `twixt.discord` (the bot), `twixt.web` (the board on a page),
  `twixt.terminal` (the table); none imports the storage or another front end.
- `twixt.app`: the composition root, the one place that opens the storage and puts a
  process together; `twixt.cli`, the `twixt` command, reads its arguments and calls it.
"""
