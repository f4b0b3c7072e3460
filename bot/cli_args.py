"""Arguments that several `twixt` subcommands share."""

from __future__ import annotations

import argparse

from rules.records import FORMATS


def add_record_arguments(parser: argparse.ArgumentParser) -> None:
    """A record file and its format, as `replay` and `render` read them."""
    parser.add_argument("file", help="a transcript, Little Golem .tsgf or T1 file")
    parser.add_argument("--format", choices=FORMATS,
                        help="the record's format (default: guessed from the file's ending)")


def add_shard_arguments(parser: argparse.ArgumentParser) -> None:
    """Which shards a `twixt run` process runs (several processes share one PostgreSQL)."""
    parser.add_argument("--shard-count", metavar="N",
                        help="how many shards the bot has in all (default: "
                             "$TWIXT_SHARD_COUNT, else as many as Discord recommends)")
    parser.add_argument("--shard-ids", metavar="0,1",
                        help="the shards this process runs, 0 to N-1 (default: "
                             "$TWIXT_SHARD_IDS, else all N)")


def shard_overrides(args: argparse.Namespace) -> dict[str, str]:
    """The shard options given on the command line, as the settings' variables."""
    given = {"TWIXT_SHARD_COUNT": args.shard_count, "TWIXT_SHARD_IDS": args.shard_ids}
    return {name: value for name, value in given.items() if value is not None}
