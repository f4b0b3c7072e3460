"""`python -m twixt.cli`: the `twixt` command where no script was installed for it (the tests
run it so, with the interpreter under test). Guarded, because the image's build imports every
module of the package to prove it ships whole."""

import sys

from twixt.cli import main

if __name__ == "__main__":
    sys.exit(main())
