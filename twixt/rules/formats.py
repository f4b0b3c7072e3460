"""The formats a game record may be written in: this project's transcript, Little Golem's
`.tsgf` ("lg") and T1's `.T1` (`rules.records` reads and writes them). A module of its own, so
that a help text can list them without loading the readers.
"""

FORMATS = ("transcript", "lg", "t1")
