"""The process's composition root: the one place that opens the storage and puts a process
together — the service over it, with the port its front end lends, and the front ends beside
each other (the web board beside the Discord bot, their links and announcements).

- `bot`: `twixt run`, the Discord bot (and the web board beside it when asked);
- `web`: `twixt web`, the web board alone, and `twixt link`;
- `table`: `twixt play` and `twixt export`, the terminal table and records;
- `database`: `twixt check` and `twixt migrate`, the database itself.

The front ends import nothing of the storage, nor each other (`tests/test_layers.py`); the
command line (`twixt.cli`) reads its arguments and calls these.
"""
