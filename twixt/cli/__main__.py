"""`python -m twixt.cli`: the `twixt` command where no script was installed for it (the tests
run it so, with the interpreter under test)."""

import sys

from twixt.cli import main

if __name__ == "__main__":  # imported (a check of every module), it runs nothing
    sys.exit(main())
