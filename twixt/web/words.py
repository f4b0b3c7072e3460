"""What the page says, in English and each language of `language.LOCALES` (the catalogues
`locales/<language>/web.po`), and the page itself: a shell of HTML whose board and words the
script fills in.

The page holds no script of its own and no secret (the Content-Security-Policy allows only
this server's files): its mode (a link, or the Activity with its public application id)
stands in data attributes, and its words come from `/api/words`.
"""

from __future__ import annotations

from html import escape

from twixt.language import Message, message, translation, unmarked


def page_words(locale: str) -> dict[str, str]:
    """The page's words, by the names the script uses (`{…}` filled in by the script)."""
    tr = translation(locale)
    return {key: tr.template(text) for key, text in _WORDS.items()}


#: where to get a link, wherever the reader is: Discord, or the command line
_GET_A_LINK = message("Open your board from Discord with /twixt board, or get its link at "
                      "the command line with twixt link.")

_WORDS: dict[str, Message] = {
    "board": message("TwixT board"),
    "whole_board": message("Whole board"),
    "zoom_hint": message("Tap the board to zoom in, then tap a hole."),
    "your_move": message("Your move"),
    "to_move": message("{name} to move"),
    "you_play": message("You play {colour}"),
    "watching": message("You are watching"),
    "red": message("red"),
    "black": message("black"),
    "Red": message("Red"),
    "Black": message("Black"),
    "hole_empty": message("{hole}, empty"),
    "hole_peg": message("{hole}, {colour} peg"),
    "hole_last": message("last move"),
    "hole_new": message("{hole}, your new peg"),
    "place": message("Place {hole}"),
    "cancel": message("Cancel"),
    "link_to": message("Link to {hole}"),
    "auto_links": message("Links are added by themselves (pp rules)."),
    "no_links": message("No links from here."),
    "swap": message("Swap"),
    "privilege": message("Privilege"),
    "offer_draw": message("Offer draw"),
    "accept_draw": message("Accept draw"),
    "decline_draw": message("Decline draw"),
    "resign": message("Resign"),
    "resign_sure": message("Really resign? Press Resign again to confirm."),
    "takeback": message("Ask to take back"),
    "takeback_accept": message("Accept takeback"),
    "takeback_decline": message("Decline takeback"),
    "draw_offered": message("{colour} offers a draw."),
    "takeback_asked": message("{name} asks to take back their turn."),
    "won": message("{colour} wins ({reason})."),
    "drawn": message("Drawn ({reason})."),
    "aborted": message("The game was aborted."),
    "reason_connection": message("connection"),
    "reason_resignation": message("resignation"),
    "reason_time": message("time"),
    "reason_agreement": message("agreement"),
    "reason_blockade": message("blockade"),
    "reason_no-moves": message("no moves left"),
    "first": message("First"),
    "back": message("Back"),
    "forward": message("Forward"),
    "last": message("Last"),
    "step": message("Turn {step} of {turns}"),
    "moves": message("Moves"),
    "last_move": message("Last: {move}"),
    "reconnecting": message("Connection lost; reconnecting…"),
    "signing_in": message("Signing in with Discord…"),
    "not_in_discord": _GET_A_LINK,
    "sign_in_failed": message("Sign-in failed: {reason}"),
    "keys": message("Arrow keys move between holes; Enter chooses one."),
    "other_games": message("Your other games"),
}


def page(locale: str, activity: str | None) -> str:
    """The page: for a link (`activity` None), or as the Activity of the application
    `activity` (its public id; empty when this server runs none)."""
    tr = translation(locale)
    bundle = ('<script src="/static/activity.js" defer></script>\n'
              if activity is not None else "")
    mode = "link" if activity is None else "activity"
    needs_script = escape(tr("The board needs JavaScript."))
    return f"""<!doctype html>
<html lang="{escape(tr.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>TwixT</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/static/board.css">
<link rel="stylesheet" href="/static/colours.css">
<script src="/static/drawing.js" defer></script>
{bundle}<script src="/static/board.js" defer></script>
</head>
<body data-mode="{mode}" data-client-id="{escape(activity or '')}">
<main>
<header id="players"></header>
<p id="status" role="status" aria-live="polite"></p>
<ul id="clocks" hidden></ul>
<div id="board-wrap"></div>
<div id="choice" hidden></div>
<div id="actions"></div>
<p id="message" role="alert"></p>
<nav id="steps" hidden></nav>
<p id="help" class="hint"></p>
<section id="moves" aria-labelledby="moves-title"><h2 id="moves-title"></h2><ol></ol></section>
<nav id="games" hidden><h2></h2><ul></ul></nav>
<noscript>{needs_script}</noscript>
</main>
</body>
</html>
"""


def refused_page(locale: str) -> str:
    """What a link changed or expired shows instead of a board."""
    tr = translation(locale)
    refused = escape(unmarked(tr("This link is not valid or has expired.") + " "
                              + tr.say(_GET_A_LINK)))
    return f"""<!doctype html>
<html lang="{escape(tr.locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>TwixT</title><link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/static/colours.css">
<link rel="stylesheet" href="/static/board.css"></head>
<body><main><p id="message" role="alert">{refused}</p>
</main></body></html>
"""
