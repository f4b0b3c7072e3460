"""The web board's server: the page, its scripts, and the game's API, over the bot's service.

Every request is hostile until shown otherwise. A page's key to a game is either a signed
link (`/g/TOKEN`, see `links`) or, inside Discord, a Discord access token checked against
Discord and the Activity instance's participants (`activity`). Reading needs a valid key;
a write needs a seat, and the service checks the turn as for any typed move. Bodies are
bounded (`MAX_BODY`), writes and reads limited per player (`limits`), live pages per game and
in all (`live`); every answer carries the headers a security review expects, and whatever
fails inside is said in one line, never as a traceback.

Routes (the API of a link: `/api/g/TOKEN/…`; of the Activity: `/api/a/INSTANCE/…` with
`Authorization: Bearer ACCESS_TOKEN`):

    GET  /g/TOKEN          the page (403 for a link changed or expired)
    GET  /                 the page as a Discord Activity
    GET  /favicon.ico      the page's icon
    GET  …/state[?step=N]  the game's view (a finished game: after N turns), with the
                           controls open to the page's player now
    GET  …/preview?hole=G6 the links a peg there would make, or why it cannot go there
    POST …/act             {"control": NAME, "text": …}: one of the view's controls (as
                           the commands declare them: "move" with "G6 link E5", "swap",
                           "takeback-accept", "note" with its text, …)
    GET  …/live            server-sent events: the page's view after every change anyone
                           makes (a turn, an offer made or answered, the end)
    GET  /api/g/TOKEN/games  the link's player's other games in progress, each with its link

The page reaches the games only through the service's door: its view of a game
(`TwixtService.game_view`), its controls (`commands.of_control`, done through `answer`), the
links a peg would make (`peg_links`), a user's seat (`seat_in_channel`) and the games' live
versions (`following`), a player's other games (`other_games`). It imports nothing of
the storage.
    POST /api/activity/token   {"code": …}: the OAuth2 code exchanged for an access token
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from importlib import resources
from typing import TYPE_CHECKING, Any

from aiohttp import web

from twixt.language import Message, locale_of, message, translation, unmarked
from twixt.service import (
    BusyError,
    Button,
    ButtonKind,
    ConflictError,
    FaultError,
    LimitError,
    MalformedError,
    MissingError,
    NotAllowedError,
    NotYourTurnError,
    Reply,
    ServiceError,
    TwixtService,
)
from twixt.service import commands as cmd
from twixt.web import words
from twixt.web.activity import ActivityAuth, DiscordRefused
from twixt.web.colours import COLOURS, colours_css
from twixt.web.connections import gone
from twixt.web.limits import Network, RateLimit, client_address
from twixt.web.links import Signer, ascii_number, link_to
from twixt.web.live import Full, Hub, Page, SeenBy
from twixt.web.view import view_json, views_text

if TYPE_CHECKING:  # a view's module, imported when the first view is made
    from twixt.service import GameView

log = logging.getLogger(__name__)

#: the largest request body read (a move is a few dozen bytes)
MAX_BODY = 4096
#: the longest a request's body may take to arrive
BODY_SECONDS = 10.0
#: a heartbeat on a quiet live page, so that proxies keep it open
HEARTBEAT = 15.0
#: the scripts, styles and icon the page loads: from the package's static folder, and the board's
#: colours made from the service's (`colours`)
STATIC = ("drawing.js", "board.js", "board.css", COLOURS, "activity.js", "favicon.ico")
#: the icon browsers ask for at `/favicon.ico`, kept a day (it changes with a release)
FAVICON = "favicon.ico"
FAVICON_CACHE = "public, max-age=86400"
#: the Content-Security-Policy: only this server's own scripts, styles and connections
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {frames}")
#: who may frame a page: nobody for a link; Discord for the Activity (and Discord's local
#: development client, whose origin the Embedded App SDK accepts too)
FRAMES_NONE = "'none'"
FRAMES_DISCORD = ("https://discord.com https://*.discord.com https://*.discordsays.com "
                  "http://localhost:3333")
#: who may frame a response, as its handler said (read by the headers' middleware)
FRAMES = web.ResponseKey("frames", str)

class Refused(Exception):
    """A request answered with `status` and one line (in the asker's language)."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status
        self.line = line


@dataclass(frozen=True)
class Access:
    """Who a request is, for which game: `seat` None for an onlooker (the service says
    whether the game and the seat are there); `key` names them for the rate limits."""

    game_id: int
    seat: int | None
    key: str
    locale: str


Announce = Callable[[Reply], Awaitable[object]]


class WebBoard:
    """The web front end over one service.

    `announce` (inside `twixt run`) posts what a move made on the page says into the game's
    Discord channel, as if it had been typed there; alone (`twixt web`) there is nobody to
    tell but the game's live pages."""

    def __init__(self, service: TwixtService, signer: Signer, *,
                 activity: ActivityAuth | None = None, announce: Announce | None = None,
                 writes: RateLimit | None = None, reads: RateLimit | None = None,
                 trusted_proxies: tuple[Network, ...] = ()) -> None:
        self.service = service
        self.signer = signer
        self.activity = activity
        self._announce = announce
        self.writes = writes or RateLimit(per_second=2, burst=10)
        self.reads = reads or RateLimit(per_second=20, burst=60)
        #: the proxies whose `X-Forwarded-For` names the client (`limits.client_address`)
        self.trusted_proxies = trusted_proxies
        self.hub = Hub(service.following, self._events)
        self._closing = asyncio.Event()
        #: the static files (the board's colours made when first asked for: `_asset`)
        self._static = {name: _Asset.load(name) for name in STATIC if name != COLOURS}

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY,
                              middlewares=[_guarded])
        app.router.add_get("/", self._activity_page)
        app.router.add_get("/g/{token}", self._link_page)
        app.router.add_get("/static/{name}", self._static_file)
        app.router.add_get("/favicon.ico", self._favicon)
        app.router.add_get("/api/words", self._words)
        app.router.add_post("/api/activity/token", self._token_exchange)
        for mode in ("g", "a"):
            app.router.add_get(f"/api/{mode}/{{key}}/state", self._state)
            app.router.add_get(f"/api/{mode}/{{key}}/preview", self._preview)
            app.router.add_post(f"/api/{mode}/{{key}}/act", self._act)
            app.router.add_get(f"/api/{mode}/{{key}}/live", self._live)
        app.router.add_get("/api/g/{key}/games", self._other_games)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._shutdown)
        return app

    @property
    def runs_activity(self) -> bool:
        """Whether the board runs as the Discord Activity too."""
        return self.activity is not None

    async def seat_link(self, channel_id: int, user_id: int, base_url: str) -> str | None:
        """The link to a user's seat in the channel's game in progress, else its last one
        (to watch it, without a seat); None when the channel has no game."""
        try:
            game_id, seat = await self.service.seat_in_channel(channel_id, user_id)
        except ServiceError:
            return None
        return link_to(self.signer, base_url, game_id, seat)

    # --- pages ------------------------------------------------------------------------

    async def _link_page(self, request: web.Request) -> web.Response:
        locale = _locale(request)
        granted = self.signer.check(request.match_info["token"])
        if granted is None or not await self.service.has_seat(granted.game_id, granted.seat):
            return _html(words.refused_page(locale), status=403)
        return _html(words.page(locale, activity=None))

    async def _activity_page(self, request: web.Request) -> web.Response:
        client_id = self.activity.client_id if self.activity else None
        return _html(words.page(_locale(request), activity=client_id or ""),
                     frames=FRAMES_DISCORD)

    async def _static_file(self, request: web.Request) -> web.Response:
        asset = self._asset(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        return asset.response(request)

    def _asset(self, name: str) -> _Asset | None:
        """The static file `name` (None: there is none); the board's colours are made from
        the service's when first asked for, so that a start loads no drawing's colours
        before a page asks for its styles."""
        if name == COLOURS and COLOURS not in self._static:
            colours = colours_css(self.service.board_colours())
            self._static[COLOURS] = _Asset(COLOURS, colours.encode())
        return self._static.get(name)

    async def _favicon(self, request: web.Request) -> web.Response:
        return self._static[FAVICON].response(request, cache=FAVICON_CACHE)

    async def _words(self, request: web.Request) -> web.Response:
        return _json(words.page_words(_locale(request)), cache=True)

    # --- the game ---------------------------------------------------------------------

    async def _state(self, request: web.Request) -> web.Response:
        step = request.query.get("step")
        if step is not None and not ascii_number(step, 4):
            raise Refused(400, _said(_locale(request), message("a step is a number of turns")))
        access = await self._access(request, self.reads)
        view = await self._view(access, None if step is None else int(step))
        return _json(view_json(view, translation(access.locale)))

    async def _preview(self, request: web.Request) -> web.Response:
        access = await self._access(request, self.reads)
        seat = _seated(access)
        try:
            links = await self.service.peg_links(access.game_id, seat,
                                                 request.query.get("hole", "")[:8])
        except ServiceError as error:
            raise Refused(refusal_status(type(error)), _said(access.locale, error.message)
                          ) from None
        return _json({"links": [[str(a), str(b)] for a, b in links]})

    async def _other_games(self, request: web.Request) -> web.Response:
        """A link's player's other games in progress, each with a link of its own (a seat's
        link: the link opens what the player could open in Discord with `/twixt board`)."""
        access = await self._access(request, self.reads)
        seat = _seated(access)
        try:
            games = await self.service.other_games(access.game_id, seat, access.locale)
        except ServiceError:  # its game gone, its seat none of the game's
            raise _link_gone(access.locale) from None
        return _json({"games": [
            {"summary": unmarked(game.summary), "yours": game.yours,
             "link": "/g/" + self.signer.token(game.game_id, game.seat)} for game in games]})

    async def _act(self, request: web.Request) -> web.Response:
        access = await self._access(request, self.writes)
        try:
            asker = await self.service.seat_request(access.game_id, _seated(access),
                                                    access.locale)
        except ServiceError:  # its game gone, its seat none of the game's
            raise _link_gone(access.locale) from None
        asked = _command(await _body(request), access.game_id, access.locale)
        context = {"command": "web", "game_id": access.game_id, "seat": access.seat}
        reply = await self.service.answer(asker, asked, context)
        confirm = _confirm_button(reply)
        if confirm is not None:  # the page's Place was the player's confirmation
            reply = await self.service.answer(asker, cmd.of_button(confirm.kind,
                                                                   confirm.target), context)
        if reply.refused is not None:
            raise Refused(refusal_status(reply.refused), reply.plain.splitlines()[0] if reply.plain
                          else "")
        if self._announce is not None and not reply.ephemeral:
            try:  # the move is stored: a channel that cannot be told is only logged
                await self._announce(replace(reply, channel_id=asker.channel_id))
            except Exception:
                log.exception("a web move not announced", extra={"game_id": access.game_id})
        # what was said to the player alone (their notes, their conditional moves) is shown
        # on the page; what everyone is told, the board shows
        return _json({"ok": True, "said": reply.plain if reply.ephemeral else ""})

    async def _live(self, request: web.Request) -> web.StreamResponse:
        access = await self._access(request, self.reads)
        game_id = access.game_id
        view = await self._view(access)
        try:
            listening = self.hub.listen(game_id, view.live_version, access.key,
                                        (access.seat, access.locale),
                                        seated=access.seat is not None)
            page = await listening.__aenter__()
        except Full:
            raise Refused(503, _said(access.locale, message(
                "too many pages watch this game; try again later"))) from None
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        add_security_headers(response, FRAMES_NONE)
        try:
            await response.prepare(request)
            await response.write(_event(json.dumps(view_json(view, translation(access.locale)))))
            left = await self._stream(page, response, gone(request))
        except ConnectionError:  # the page went away while it was written to
            left = True
        finally:
            await listening.__aexit__(None, None, None)
        if left:
            log.info("a live page closed", extra={"game_id": game_id})
        return response

    async def _stream(self, page: Page, response: web.StreamResponse,
                      closed: asyncio.Event) -> bool:
        """The page's view of the game after each change (made by the hub for every page
        of the game at once), until it closes (its connection gone: told at once, not at the
        next heartbeat; True), or the game goes or the server closes (False); a comment on a
        quiet page. What ends it wakes the page's wait, so that an event costs one future."""
        ending = (asyncio.ensure_future(self._closing.wait()),
                  asyncio.ensure_future(closed.wait()))
        for waiting in ending:
            waiting.add_done_callback(page.wake)
        try:
            while True:
                if not await page.wait(HEARTBEAT):
                    await response.write(b": still here\n\n")
                    continue
                if any(waiting.done() for waiting in ending):
                    return closed.is_set()
                for event in page.take():
                    if event is None:  # the game is gone: nothing more to show
                        return False
                    await response.write(event)
        finally:
            for waiting in ending:
                waiting.cancel()

    async def _token_exchange(self, request: web.Request) -> web.Response:
        locale = _locale(request)
        if self.activity is None:
            raise Refused(404, _said(locale, message("this server runs no Discord Activity")))
        address = client_address(request.remote, request.headers.get("X-Forwarded-For"),
                                 self.trusted_proxies)
        if not self.writes.allow("exchange:" + address):
            raise Refused(429, _said(locale, message("too many requests; wait a moment")))
        body = await _body(request)
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            raise Refused(400, _said(locale, message("the sign-in sent no code")))
        try:
            token = await self.activity.exchange(code)
        except DiscordRefused:
            raise Refused(403, _said(locale, message("Discord refused the sign-in"))) from None
        return _json({"access_token": token})

    # --- who asks -----------------------------------------------------------------------

    async def _access(self, request: web.Request, limit: RateLimit) -> Access:
        """The game and seat a request's key opens: 404 for a link that is not one of ours
        (or expired), 403 for a Discord user who is not in the Activity."""
        locale = _locale(request)
        tr = translation(locale)
        key = request.match_info["key"]
        if request.path.startswith("/api/g/"):
            granted = self.signer.check(key)
            if granted is None:
                raise Refused(404, tr("this link is not valid or has expired"))
            game_id, seat = granted.game_id, granted.seat
            who = f"g{game_id}:{seat}"
        else:
            if self.activity is None:
                raise Refused(404, tr("this server runs no Discord Activity"))
            try:
                user_id, channel_id, locale = await self.activity.participant(
                    request.headers.get("Authorization", ""), key)
            except DiscordRefused:
                raise Refused(403, tr("Discord does not know you in this Activity")) from None
            tr = translation(locale)
            try:
                game_id, seat = await self.service.seat_in_channel(channel_id, user_id)
            except ServiceError:
                raise Refused(404, tr("there is no game in this channel")) from None
            who = f"u{user_id}"
        if not limit.allow(who):
            raise Refused(429, tr("too many requests; wait a moment"))
        return Access(game_id, seat, who, locale)

    async def _view(self, access: Access, step: int | None = None) -> GameView:
        """The game as the page's player sees it (at `step` turns of a finished game); 404
        when its game is gone or the seat is none of the game's."""
        try:
            return await self.service.game_view(access.game_id, seat=access.seat,
                                                locale=access.locale, step=step)
        except ServiceError:
            raise _link_gone(access.locale) from None

    async def _events(self, game_id: int, version: int, seen_by: Collection[SeenBy]
                      ) -> dict[SeenBy, bytes] | None:
        """The game's event now (its pages were told of live version `version`) for each
        (seat, language) among its live pages, from one reading of it, what the pages of
        one language share encoded once (`views_text`); None once it is gone."""
        asked = list(seen_by)
        try:
            views = await self.service.game_views(game_id, asked, version)
        except ServiceError:
            return None
        by_language: dict[str, list[tuple[SeenBy, GameView]]] = {}
        for key, view in zip(asked, views, strict=True):
            by_language.setdefault(key[1], []).append((key, view))
        events: dict[SeenBy, bytes] = {}
        for locale, seen in by_language.items():
            texts = views_text([view for _key, view in seen], translation(locale))
            events.update((key, _event(text)) for (key, _view), text in zip(seen, texts,
                                                                             strict=True))
        return events

    # --- life -------------------------------------------------------------------------

    async def _start(self, app: web.Application) -> None:
        self.hub.start()

    async def _shutdown(self, app: web.Application) -> None:
        """Before the server closes: end every live page (they reconnect elsewhere)."""
        self._closing.set()
        await self.hub.stop()


def _said(locale: str, text: Message) -> str:
    """A refusal's line in the asker's language, as plain text (what a player typed in it
    shown as typed)."""
    return unmarked(translation(locale).say(text))


async def _body(request: web.Request) -> object:
    """A request's JSON body; None for one that is not JSON (or nested beyond reading).
    408 for a body that takes too long to arrive."""
    try:
        if request.content.is_eof():  # all there already (a move's few bytes): no wait
            return await request.json()
        async with asyncio.timeout(BODY_SECONDS):
            return await request.json()
    except TimeoutError:
        raise Refused(408, _said(_locale(request), message(
            "the request took too long to arrive"))) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def _link_gone(locale: str) -> Refused:
    """The refusal of a link whose game is gone, or whose seat is none of the game's."""
    return Refused(404, _said(locale, message("this link is not valid or has expired")))


def _seated(access: Access) -> int:
    if access.seat is None:
        raise Refused(403, _said(access.locale, message(
            "you watch this game: only its players move")))
    return access.seat


def _command(body: object, game_id: int, locale: str) -> cmd.ServiceCommand:
    """The command of the control a page's body names (`{"control": NAME, "text": …}`), in
    game `game_id`; Refused (400) for anything else."""
    control = body.get("control") if isinstance(body, dict) else None
    text = body.get("text", "") if isinstance(body, dict) else None
    if not isinstance(control, str) or not isinstance(text, str):
        raise Refused(400, translation(locale)("the page asked for something it cannot do"))
    try:
        return cmd.of_control(control[:40], game_id, text)
    except ServiceError as error:  # no such control, text that is no command of its kind
        raise Refused(refusal_status(type(error)), _said(locale, error.message)) from None


#: the HTTP status of each kind of the service's refusals: the one place where a refusal
#: becomes a status (`tests/web/test_api.py` holds it to every kind)
REFUSAL_STATUS: dict[type[ServiceError], int] = {
    MalformedError: 400,
    MissingError: 404,
    NotAllowedError: 403,
    NotYourTurnError: 409,
    ConflictError: 409,
    LimitError: 422,
    BusyError: 503,
    FaultError: 500,
}


def refusal_status(kind: type[ServiceError]) -> int:
    """The HTTP status of a refusal of `kind` (a refused answer's `Reply.refused`, or the
    class of what the service raised), never of its text."""
    return next(REFUSAL_STATUS[cause] for cause in kind.__mro__ if cause in REFUSAL_STATUS)


def _confirm_button(reply: Reply) -> Button | None:
    return next((b for b in reply.buttons if b.kind is ButtonKind.CONFIRM_MOVE), None)


def _locale(request: web.Request) -> str:
    """The page's language: `?lang=`, else the browser's (`browser_locale`)."""
    asked = request.query.get("lang")
    if asked:
        return locale_of(asked[:16])
    return browser_locale(request.headers.get("Accept-Language", ""))


#: of an `Accept-Language` header, the characters and the languages read at most
MAX_ACCEPT_LANGUAGE = 512
MAX_BROWSER_LANGUAGES = 16
#: the `Accept-Language` headers whose language is kept (browsers send a few)
BROWSER_HEADERS = 256


def browser_locale(accept_language: str) -> str:
    """The first language of the browser's list, best `q` first, that the page speaks
    (`language.LOCALES`): a Brazilian who also reads Spanish gets Spanish; English when none
    is spoken, or English comes first.

    >>> browser_locale("pt-BR,pt;q=0.9,es-419;q=0.8"), browser_locale("nl-BE, fr;q=0.5")
    ('es', 'nl')
    >>> browser_locale("en-GB,fr;q=0.8"), browser_locale("fr;q=0.2, de"), browser_locale("")
    ('en', 'de', 'en')
    """
    return _browser_locale(accept_language[:MAX_ACCEPT_LANGUAGE])


@functools.lru_cache(maxsize=BROWSER_HEADERS)
def _browser_locale(accept_language: str) -> str:
    """`browser_locale` of a header cut to `MAX_ACCEPT_LANGUAGE`, worked out once a header
    (a page sends its browser's with every request)."""
    ranked = []
    parts = accept_language.split(",")[:MAX_BROWSER_LANGUAGES]
    for position, part in enumerate(parts):
        tag, _, parameters = part.partition(";")
        ranked.append((-_quality(parameters), position, tag.strip()))
    for weight, _, tag in sorted(ranked):
        spoken = locale_of(tag)
        if weight < 0 and (spoken != "en" or tag.lower().startswith("en")):
            return spoken
    return "en"


def _quality(parameters: str) -> float:
    """A language's `q` (1 when not given, 0 when unreadable: not wanted)."""
    name, _, value = parameters.strip().partition("=")
    if name.strip() != "q":
        return 1.0
    try:
        quality = float(value)
    except ValueError:
        return 0.0
    return quality if 0 <= quality <= 1 else 0.0


def _event(data: str) -> bytes:
    return f"data: {data}\n\n".encode()


def _json(data: object, status: int = 200, cache: bool = False) -> web.Response:
    response = web.json_response(data, status=status)
    response.headers["Cache-Control"] = "max-age=300" if cache else "no-store"
    return response


def _html(text: str, status: int = 200, frames: str = FRAMES_NONE) -> web.Response:
    response = web.Response(text=text, status=status, content_type="text/html")
    response.headers["Cache-Control"] = "no-store"
    response[FRAMES] = frames
    return response


def add_security_headers(response: web.StreamResponse, frames: str = FRAMES_NONE) -> None:
    """The headers every answer carries (`frames`: who may frame it)."""
    response.headers.update(_security_headers(frames))


@functools.lru_cache(maxsize=4)
def _security_headers(frames: str) -> dict[str, str]:
    """`add_security_headers`'s headers for `frames`, made once (every answer carries them)."""
    headers = {
        "Content-Security-Policy": CSP.format(frames=frames),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    }
    if frames == FRAMES_NONE:
        headers["X-Frame-Options"] = "DENY"
    return headers


@web.middleware
async def _guarded(request: web.Request, handler: Any) -> web.StreamResponse:
    """Every answer carries the security headers (a live page sets its own before it
    begins), and whatever goes wrong is one line of JSON (or plain text), never a traceback:
    a refusal with its status, aiohttp's own errors (a body too large: 413) as they are, a
    client gone one line of the log, and anything else logged and answered 500. One
    middleware, not two: each is a layer of calls around every request."""
    try:
        answered: web.StreamResponse = await handler(request)
    except ConnectionError:  # the client went away: nothing to answer, nothing wrong here
        log.info("a client went away", extra={"path": request.path[:80]})
        raise
    except Refused as refused:
        response = _json({"error": refused.line}, status=refused.status)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        response = web.Response(text=f"{error.status} {error.reason}", status=error.status)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("web request failed", extra={"path": request.path[:80]})
        tr = translation(_locale(request))
        response = _json({"error": tr("something went wrong on the server; nothing was "
                                      "changed")}, status=500)
    else:
        if not answered.prepared:
            add_security_headers(answered, answered.get(FRAMES, FRAMES_NONE))
        return answered
    add_security_headers(response, FRAMES_NONE)
    return response


class _Asset:
    """A static file, read once, with its gzip form (made when first asked for: a start of
    the server waits for none of them) and an ETag."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self.data = data
        self.etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
        self.content_type = {"js": "text/javascript", "css": "text/css",
                             "ico": "image/x-icon"}[name.rpartition(".")[2]]

    @functools.cached_property
    def gzipped(self) -> bytes:
        return gzip.compress(self.data, 9, mtime=0)

    @classmethod
    def load(cls, name: str) -> _Asset:
        return cls(name, resources.files("twixt.web").joinpath("static", name).read_bytes())

    def response(self, request: web.Request, cache: str = "no-cache") -> web.Response:
        """The file, gzipped for a client that takes it; 304 for one that has it."""
        headers = {"ETag": self.etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == self.etag:
            return web.Response(status=304, headers=headers)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = self.gzipped
        else:
            body = self.data
        return web.Response(body=body, headers=headers, content_type=self.content_type,
                            charset=None if self.content_type.startswith("image/") else "utf-8")
