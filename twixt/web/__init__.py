"""The web front end: the board on a web page (`twixt web`), in any browser through a signed
link (`twixt link`, `/twixt board`), and inside Discord as an Activity.

Like the terminal, it reaches the service only through its face (`TwixtService.answer` and
the public readers); the page draws the board itself (SVG) and hears of changes live.
"""

from twixt.web.links import (
    EPHEMERAL_SECRET,
    SECRET_VARIABLE,
    Signer,
    seat_link,
    signer_from_environment,
)
from twixt.web.server import WebBoard
from twixt.web.serving import WebServer, activity_from_environment, serve_beside

__all__ = [
    "EPHEMERAL_SECRET",
    "SECRET_VARIABLE",
    "Signer",
    "WebBoard",
    "WebServer",
    "activity_from_environment",
    "seat_link",
    "serve_beside",
    "signer_from_environment",
]
