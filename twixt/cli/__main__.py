"""`python -m twixt.cli`: the `twixt` command where no script was installed for it (the tests
run it so, with the interpreter under test)."""

import sys

from twixt.cli import main

sys.exit(main())
