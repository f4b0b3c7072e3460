"""The use cases, one subject a module: what happens when a player asks (a challenge, a turn,
a claim, an export …), each over the shared desk (`twixt.service.desk`) and given only the
subjects of storage it uses; tournaments in a package of their own.

`TwixtService` holds one object a subject (named here by its module), each marking the
methods that do its commands (`commands.handles`):

- `challenges`: challenge, team, accept, decline, rematch, starting games;
- `turns`: moves, resign, takeback, board, status, abort, help;
- `conditionals`: conditional moves stored, shown and cleared, and a stored reply played
  after the opponent's move (given `turns`' automatic links);
- `confirmation`: a move shown privately first and played on Confirm (handed to `turns`);
- `picker`: the move picker's steps (column, row, links, Place), each checked for the player
  to move; `board_controls` puts it and Offer draw / Resign under a board;
- `clocks`: claim, and the tick's reminders, time-up notices, forfeits and vacation days;
- `vacations`: days off that stop a player's clocks;
- `records`: export, history, replay, import (an import ends in a challenge: it holds
  `challenges`);
- `stats`: stats and the leaderboard (Glicko-2 ratings, `twixt/storage/ratings.py`);
- `preferences`: a player's and a server's settings;
- `my_games`: the asker's games in progress across the server;
- `your_move`: `next` (the asker's most urgent waiting game) and the daily digest;
- `notes`: private notes on a game, never in its record;
- `game_view`: what a front end shows of a game to one person (board, seats, clocks, offers)
  and the controls open to them now;
- `analysis`: a finished game's curve and swings, searched in the engine pool;
- `engine_player`: the engine at the table: its moves, its answers to offers, resigning when
  hopeless (it plays through `turns`);
- `tournaments/`: tournaments and leagues (`organising`), their pairing and scoring
  (`rounds`, over `twixt.service.pure.tournaments`) and standings (`crosstables`).

Subjects hold the desk; where one needs another (records, picker, conditionals,
confirmation and the engine player), it is handed to its constructor in `TwixtService`.
"""
