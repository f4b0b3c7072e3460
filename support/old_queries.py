"""The queries of `stats`, head-to-head and the leaderboard before the running totals
(migration 0006), word for word: the test that the totals agree with them and the benchmark
that times them against the totals both use these (`{marks}`: a `?` per user asked for)."""

OLD_STATS = (
    "SELECT s.user_id, count(*), sum(s.winner), "
    "sum(g.result <> 'draw' AND s.winner = 0), sum(g.result = 'draw') "
    "FROM game_seats s JOIN games g ON g.id = s.game_id "
    "WHERE g.guild_id = ? AND g.status = 'finished' AND g.result <> 'aborted' "
    "AND g.opening IS NULL AND s.user_id IN ({marks}) GROUP BY s.user_id")
OLD_RATINGS = ("SELECT user_id, rating, rated_games FROM ratings "
               "WHERE guild_id = ? AND user_id IN ({marks})")
OLD_HEAD_TO_HEAD = (
    "SELECT coalesce(sum(me.winner), 0), "
    "coalesce(sum(g.result <> 'draw' AND me.winner = 0), 0), "
    "coalesce(sum(g.result = 'draw'), 0) "
    "FROM games g JOIN game_seats me ON me.game_id = g.id AND me.user_id = ? "
    "JOIN game_seats them ON them.game_id = g.id AND them.user_id = ? "
    "AND them.team <> me.team "
    "WHERE g.guild_id = ? AND g.status = 'finished' AND g.result <> 'aborted' "
    "AND g.opening IS NULL")
OLD_LEADERBOARD = ("SELECT user_id FROM ratings WHERE guild_id = ? "
                   "ORDER BY rating DESC, user_id LIMIT ? OFFSET ?")
