"""What the tests and the benchmarks both need and neither owns: a throw-away PostgreSQL
server, a Discord-shaped fake server, real processes of the command line, and the queries of
an earlier version to measure against. Not installed with the bot (only `twixt` is)."""
