"""What the tests and the benchmarks both need and neither owns: a throw-away PostgreSQL
server, a Discord-shaped fake server, real processes of the command line, the web board
driven in headless Chromium, the queries of an
earlier version to measure against, and what PostgreSQL read for a storage call (its plan's
counts). Not installed with the bot (only `twixt` is)."""
