"""The web front end: the board on a web page (`twixt web`), in any browser through a signed
link (`twixt link`, `/twixt board`), and inside Discord as an Activity.

Like the terminal, it reaches the games only through the service's door (`TwixtService.
game_view` and its controls, `answer`, `following`) and imports nothing of the storage;
the page draws the board itself (SVG) and hears of changes live. The composition root
(`twixt.app`) opens the storage and serves it.
"""

from twixt.web.links import (
    EPHEMERAL_SECRET,
    MAX_HOURS,
    SECRET_VARIABLE,
    SecretError,
    Signer,
    link_to,
    signer_from_environment,
)
from twixt.web.server import WebBoard
from twixt.web.serving import (
    WebServer,
    activity_from_environment,
    board_from_environment,
    serve_beside,
)

__all__ = [
    "EPHEMERAL_SECRET",
    "MAX_HOURS",
    "SECRET_VARIABLE",
    "SecretError",
    "Signer",
    "WebBoard",
    "WebServer",
    "activity_from_environment",
    "board_from_environment",
    "link_to",
    "serve_beside",
    "signer_from_environment",
]
