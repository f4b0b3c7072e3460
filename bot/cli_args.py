"""Arguments that several `twixt` subcommands share."""

from __future__ import annotations

import argparse

from rules.records import FORMATS


def add_record_arguments(parser: argparse.ArgumentParser) -> None:
    """A record file and its format, as `replay` and `render` read them."""
    parser.add_argument("file", help="a transcript, Little Golem .tsgf or T1 file")
    parser.add_argument("--format", choices=FORMATS,
                        help="the record's format (default: guessed from the file's ending)")
