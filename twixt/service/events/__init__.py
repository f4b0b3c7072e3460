"""Events (tournaments and leagues; players type `tournament`): the pure mathematics below
the service's core, and the use cases above it.

`pairing`, `matching` and `standings` are pure: they see only the entrants and games they
are given and import nothing of the service (`tests/test_layers.py` guards it). `play` runs
an event's rounds and `table` draws its crosstables on the core; `actions` answers the
players' event commands and the tick. The options that make an event are parsed with the
other command words, in `twixt.service.event_options`, because the commands carry them.
"""
