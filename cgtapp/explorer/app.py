"""The explorer's web application (Starlette): the page, its static files and the JSON API.

Routes (all read-only; nothing the client sends names a file):

* ``GET /`` the page; ``GET /static/NAME`` its script and style sheet, read once from the
  package at start-up and served from memory.
* ``GET /api/game`` the game, its title and rules (:mod:`cgtapp.explorer.rules`), its
  parameters, players, start position and report links.
* ``GET /api/position?position=TEXT`` the position (default: the start), its board, its value
  and every legal move with its value.
* ``POST /api/play`` with JSON ``{"position": TEXT, "move": NAME}``: the position after the
  move, answered as ``/api/position``.
* ``POST /api/computer`` with JSON ``{"position": TEXT, "playouts": N, "perfect": BOOL,
  "seed": S}``: the computer's move, answered as ``/api/play`` plus ``estimate`` (its value
  for the computer), ``choice`` (``stored``, ``solved`` or ``search``) and ``candidates``.
  ``perfect`` (the default) plays a best move wherever the position's value is known (stored
  or solved within the budget) and searches ``N`` playouts elsewhere; ``false`` always
  searches.
* ``GET /reports/N`` the N-th report or certificate of ``/api/game``'s list, from the reports
  directory fixed when the server starts.

Values come from :class:`~cgtapp.explorer.values.ValueSource`, seeded with the positions the
reports' stored results hold (:mod:`cgtapp.explorer.report_values`).

Bad input (a malformed position, an illegal move, a body too large or not JSON) is answered
with HTTP 400 and ``{"error": message}``, as is every other failure (404, 405, 415, 503, and
500 should the explorer fail); the server keeps serving. Another web page must not drive the
explorer: a request whose ``Host`` (or ``Origin``) names a host other than this machine's is
refused (DNS rebinding), and a body must be sent as ``application/json``, which a page of
another site cannot send without the browser asking the explorer first (CORS).
"""

from __future__ import annotations

import ipaddress
import json
import math
import threading
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from cgt.errors import CGTError
from cgt.protocol import Game, Outcome
from cgtapp.explorer.board_view import board_data, move_cells
from cgtapp.explorer.report_values import report_values
from cgtapp.explorer.rules import game_rules
from cgtapp.explorer.values import NotSolved, PositionValues, ValueSource
from solvers.player import Estimate, MoveChoice, search_move
from solvers.result import MoveValue

#: Largest request body accepted (a position string and a move name need far less).
MAX_BODY_BYTES = 8192
#: Longest position string or move name accepted.
MAX_TEXT_CHARS = 4096
#: Longest error message sent (one quoting a long input is cut).
MAX_MESSAGE_CHARS = 300
#: The page's files, served from memory: name -> media type.
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
}
#: Report files the explorer links to: suffix -> media type.
REPORT_TYPES = {
    ".md": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


#: Requests that may wait for a solve at once (lookups in stored solutions do not count);
#: more are answered 503 at once, so the work queued behind the one-at-a-time solver stays
#: bounded (at most this many budgets).
MAX_WAITING = 16


#: Playouts the computer searches when the page names none, and the most a request may ask.
DEFAULT_PLAYOUTS = 1000
MAX_PLAYOUTS = 100_000
#: Host names always accepted in the ``Host`` header besides IP addresses (a DNS rebinding
#: attack needs a name of the attacker's; an address names this machine or nothing).
LOCAL_NAMES = frozenset({"localhost"})


class BadRequest(CGTError):
    """A request the API cannot answer because of its input."""


class Busy(CGTError):
    """Too many requests are already waiting for solves (HTTP 503)."""


@dataclass(frozen=True)
class ReportFile:
    """One report or claim certificate the page links to."""

    title: str
    path: Path
    media_type: str


def game_reports(game: Game[Any, Any], reports_dir: Path | None) -> list[ReportFile]:
    """The game's reports (``reports/GAME*.md``) and claim certificates
    (``reports/claims/GAME.*.md``), listed once when the server starts."""
    if reports_dir is None or not reports_dir.is_dir():
        return []
    found: list[ReportFile] = []
    for path in sorted(reports_dir.glob(f"{game.name}*.md")):
        stem = path.stem
        if stem == game.name or stem.startswith(game.name + "_"):
            found.append(ReportFile(f"report {stem}", path, REPORT_TYPES[".md"]))
    claims = reports_dir / "claims"
    if claims.is_dir():
        for path in sorted(claims.glob(f"{game.name}.*.md")):
            found.append(ReportFile(f"claim {path.stem}", path, REPORT_TYPES[".md"]))
    return found


def outcome_data(
    game: Game[Any, Any], position: Any, outcome: Outcome, remoteness: int | None
) -> dict[str, Any]:
    """A value for the player to move, with the winner's name."""
    mover = game.to_move(position)
    if outcome == Outcome.DRAW:
        winner = "draw"
    else:
        winner = game.players[mover if outcome == Outcome.WIN else 1 - mover]
    return {"outcome": outcome.label, "remoteness": remoteness, "winner": winner}


def best_move(found: PositionValues) -> MoveValue | None:
    """A move that keeps the position's value, the fastest win or the slowest loss (``None``
    when the moves known do not include one: the search plays instead)."""
    keeping = [m for m in found.moves if m.outcome == found.outcome]
    if not keeping:
        return None
    if found.outcome == Outcome.WIN:
        return min(keeping, key=lambda m: m.remoteness if m.remoteness is not None else math.inf)
    if found.outcome == Outcome.LOSS:
        return max(keeping, key=lambda m: m.remoteness if m.remoteness is not None else -1)
    return keeping[0]


def estimate_data(game: Game[Any, Any], mover: int, estimate: Estimate) -> dict[str, Any]:
    """The computer's estimate of the position it moved in, for itself (``player``): a proven
    outcome with its remoteness, or the search's win rate after so many playouts."""
    return {
        "kind": estimate.kind,
        "player": game.players[mover],
        "outcome": None if estimate.outcome is None else estimate.outcome.label,
        "remoteness": estimate.remoteness,
        "win_rate": estimate.win_rate,
        "playouts": estimate.playouts,
    }


class Explorer:
    """The answers of the API for one game, independent of the web framework."""

    def __init__(
        self,
        game: Game[Any, Any],
        values: ValueSource,
        reports_dir: Path | None = None,
    ) -> None:
        self.game = game
        self.values = values
        self.reports = game_reports(game, reports_dir)
        known, self.warnings = report_values(game, reports_dir)
        values.known.update(known)
        self.title, self.rules = game_rules(game)
        #: requests waiting for a solve or a search (each runs one at a time)
        self.waiting = 0
        self._search_lock = threading.Lock()

    # -------------------------------------------------------------- input
    def parse_position(self, text: str | None) -> Any:
        if text is None or not text.strip():
            return self.game.initial_position()
        if len(text) > MAX_TEXT_CHARS:
            raise BadRequest(f"position string longer than {MAX_TEXT_CHARS} characters")
        try:
            return self.game.parse(text)
        except CGTError:
            raise
        except Exception as exc:  # a game's parser failing on odd input is still bad input
            raise BadRequest(f"cannot read position {text!r}: {exc}") from None

    def find_move(self, position: Any, name: Any) -> Any:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_TEXT_CHARS:
            raise BadRequest("'move' must be a move name (a non-empty string)")
        if self.game.result(position) is not None:
            raise BadRequest(
                f"the game is over in {self.game.render(position)!r}: no move is legal"
            )
        for move in self.game.moves(position):
            if self.game.move_name(position, move) == name.strip():
                return move
        raise BadRequest(f"{name!r} is not a legal move in {self.game.render(position)!r}")

    # ------------------------------------------------------------ answers
    def game_data(self) -> dict[str, Any]:
        game = self.game
        return {
            "game": game.name,
            "title": self.title,
            "label": game.label(),
            "summary": game.summary,
            "rules": self.rules,
            "params": game.parameters,
            "players": list(game.players),
            "start": game.render(game.initial_position()),
            "budget_seconds": self.values.max_seconds,
            "playouts": {"default": DEFAULT_PLAYOUTS, "max": MAX_PLAYOUTS},
            "reports": [
                {"title": r.title, "url": f"/reports/{i}"} for i, r in enumerate(self.reports)
            ],
        }

    def position_data(
        self, position: Any, found: PositionValues | None, message: str | None
    ) -> dict[str, Any]:
        """The API's answer for ``position`` given its values (``None``: not solved)."""
        game = self.game
        mover = game.to_move(position)
        result = game.result(position)
        data: dict[str, Any] = {
            "game": game.name,
            "params": game.parameters,
            "position": game.render(position),
            "to_move": game.players[mover],
            "to_move_index": mover,
            "game_over": result is not None,
            "board": board_data(game, position),
        }
        if result is not None:
            data["value"] = outcome_data(game, position, result, 0)
            data["source"] = "rules"
        elif found is not None:
            data["value"] = outcome_data(game, position, found.outcome, found.remoteness)
            data["source"] = found.source
            data["solver"] = found.solver
        else:
            data["value"] = None
            data["source"] = None
            data["solver"] = None
            data["message"] = message
        by_name = {m.name: m for m in found.moves} if found is not None else {}
        moves = []
        if result is None:
            for move in game.moves(position):
                name = game.move_name(position, move)
                source, target = move_cells(game, position, move)
                known = by_name.get(name)
                moves.append(
                    {
                        "move": name,
                        "from": source,
                        "to": target,
                        "outcome": None if known is None else known.outcome.label,
                        "remoteness": None if known is None else known.remoteness,
                        "position": game.render(game.play(position, move)),
                    }
                )
        data["moves"] = moves
        if found is not None and moves:
            best = [
                m["move"]
                for m in moves
                if m["outcome"] == found.outcome.label
                and (found.remoteness is None or m["remoteness"] == found.remoteness)
            ]
            data["best_moves"] = best
        return data

    async def known(self, position: Any) -> tuple[PositionValues | None, str | None]:
        """The values of ``position`` (a position not over) and, when there are none, why;
        solving (if needed) runs in a worker thread so that the server keeps answering other
        requests meanwhile."""
        found = self.values.cached(position)
        if found is not None:
            return found, None
        try:  # stored or in memory: a quick look in a worker thread
            found = await anyio.to_thread.run_sync(self.values.lookup, position)
            if found is None:
                found = await self.queued(self.values.values, position)
        except NotSolved as exc:
            return None, str(exc)
        return found, None

    async def queued(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker thread, counted among the requests that wait for the
        one-at-a-time solver or search (503 beyond :data:`MAX_WAITING`)."""
        if self.waiting >= MAX_WAITING:
            raise Busy(
                f"the server is busy with {self.waiting} positions (each solved within "
                f"{self.values.max_seconds:g} s); ask again in a moment"
            )
        self.waiting += 1
        try:
            return await anyio.to_thread.run_sync(work, *args)
        finally:
            self.waiting -= 1

    async def answer(self, position: Any) -> dict[str, Any]:
        """Everything about ``position``: its board, value and every move's value."""
        if self.game.result(position) is not None:
            return self.position_data(position, None, None)
        found, message = await self.known(position)
        return self.position_data(position, found, message)

    # ---------------------------------------------------------- the computer
    async def computer_move(
        self, position: Any, playouts: int, perfect: bool, seed: int
    ) -> dict[str, Any]:
        """The computer's move in ``position``: a best move where the value is known and
        ``perfect`` asks for it, else the search's choice after ``playouts`` playouts; the
        answer of ``/api/play`` for the position it leads to, plus how it was chosen."""
        game = self.game
        if game.result(position) is not None:
            raise BadRequest(f"the game is over in {game.render(position)!r}: no move is legal")
        found = None
        if perfect:
            found, _ = await self.known(position)
        best = None if found is None else best_move(found)
        if found is not None and best is not None:
            proven = Estimate("proven", found.outcome, found.remoteness, None, 0)
            choice = MoveChoice(best.move, best.name, found.source, proven, ())
        else:
            choice = await self.queued(self.search, position, playouts, seed)
        data = await self.answer(game.play(position, choice.move))
        data["played"] = game.move_name(position, choice.move)
        data["previous"] = game.render(position)
        data["choice"] = choice.source
        data["estimate"] = estimate_data(game, game.to_move(position), choice.estimate)
        data["candidates"] = [
            {"move": c.move, "visits": c.visits, "win_rate": c.win_rate} for c in choice.candidates
        ]
        return data

    def search(self, position: Any, playouts: int, seed: int) -> MoveChoice:
        """The search's move (one search at a time: the machine has few cores)."""
        with self._search_lock:
            return search_move(self.game, position, playouts=playouts, seed=seed)


def error_response(message: str, status: int = 400, headers: Any = None) -> JSONResponse:
    if len(message) > MAX_MESSAGE_CHARS:  # a message quoting a long input does not echo it
        message = f"{message[:MAX_MESSAGE_CHARS]}... ({len(message):,} characters)"
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def host_name(netloc: str) -> str:
    """The host of a ``Host`` header or an origin's ``host[:port]``, lower case, no port."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):  # an IPv6 address
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def is_local_host(name: str, names: Collection[str]) -> bool:
    """True for an IP address, ``localhost`` and the names the server listens under."""
    if name in LOCAL_NAMES or name in names:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class SameSiteOnly:
    """Refuses, before any route runs, what another web page could make a browser send: a
    ``Host`` naming another host (a DNS-rebinding page), an ``Origin`` other than the
    explorer's own, and a body that is not ``application/json`` (a form or ``text/plain``
    needs no CORS preflight)."""

    def __init__(self, app: ASGIApp, names: Collection[str] = ()) -> None:
        self.app = app
        self.names = frozenset(n.lower() for n in names)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal is not None:
                await error_response(*refusal)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[str, int] | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not is_local_host(host_name(host), self.names):
            return f"Host {host[:100]!r} is not this explorer's address", 403
        origin = headers.get("origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
            return f"requests from {origin[:100]!r} are not accepted (another site)", 403
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if has_body:
            media_type = headers.get("content-type", "").split(";")[0].strip().lower()
            if media_type != "application/json":
                return "the body must be sent as Content-Type: application/json", 415
        return None


async def read_json(request: Request, example: str) -> dict[str, Any]:
    """The request's JSON object body (at most :data:`MAX_BODY_BYTES`)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise BadRequest(f"request body larger than {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise BadRequest(f"request body larger than {MAX_BODY_BYTES} bytes")
    try:
        payload = json.loads(body.decode("utf-8"))  # JSON between systems is UTF-8 (RFC 8259)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise BadRequest(f"the body must be JSON: {example}") from None
    if not isinstance(payload, dict):
        raise BadRequest(f"the body must be a JSON object: {example}")
    text = payload.get("position")
    if text is not None and not isinstance(text, str):
        raise BadRequest("'position' must be a position string")
    return payload


def whole_number(payload: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    """``payload[key]``, an integer from ``low`` to ``high`` (``default`` when absent)."""
    value = payload.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{key!r} must be a whole number from {low:,} to {high:,}")
    return value


def create_app(explorer: Explorer, host_names: Collection[str] = ()) -> Starlette:
    """The Starlette application serving ``explorer``; ``host_names``: names besides IP
    addresses and ``localhost`` under which clients may reach it (the ``--host`` given)."""
    package = resources.files("cgtapp.explorer") / "static"
    static = {name: (package / name).read_bytes() for name in STATIC_FILES}

    def handles_bad_input(
        endpoint: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await endpoint(request)
            except Busy as exc:
                return error_response(str(exc), 503)
            except CGTError as exc:
                return error_response(str(exc))

        return wrapped

    async def index(request: Request) -> Response:
        return Response(static["index.html"], media_type=STATIC_FILES["index.html"])

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            return error_response(f"no static file {name!r}", 404)
        return Response(
            static[name], media_type=STATIC_FILES[name], headers={"Cache-Control": "no-cache"}
        )

    async def game_endpoint(request: Request) -> Response:
        return JSONResponse(explorer.game_data())

    @handles_bad_input
    async def position_endpoint(request: Request) -> Response:
        position = explorer.parse_position(request.query_params.get("position"))
        return JSONResponse(await explorer.answer(position))

    @handles_bad_input
    async def play_endpoint(request: Request) -> Response:
        payload = await read_json(request, '{"position": ..., "move": ...}')
        position = explorer.parse_position(payload.get("position"))
        move = explorer.find_move(position, payload.get("move"))
        child = explorer.game.play(position, move)
        data = await explorer.answer(child)
        data["played"] = explorer.game.move_name(position, move)
        data["previous"] = explorer.game.render(position)
        return JSONResponse(data)

    @handles_bad_input
    async def computer_endpoint(request: Request) -> Response:
        payload = await read_json(request, '{"position": ..., "playouts": N}')
        position = explorer.parse_position(payload.get("position"))
        playouts = whole_number(payload, "playouts", DEFAULT_PLAYOUTS, 1, MAX_PLAYOUTS)
        seed = whole_number(payload, "seed", 0, 0, 2**32 - 1)
        perfect = payload.get("perfect", True)
        if not isinstance(perfect, bool):
            raise BadRequest("'perfect' must be true or false")
        return JSONResponse(await explorer.computer_move(position, playouts, perfect, seed))

    async def report_endpoint(request: Request) -> Response:
        number = request.path_params["number"]
        if not 0 <= number < len(explorer.reports):
            return error_response(f"no report number {number}", 404)
        report = explorer.reports[number]
        try:
            content = report.path.read_bytes()
        except OSError as exc:
            return error_response(f"report {report.title} cannot be read: {exc.strerror}", 404)
        return Response(content, media_type=report.media_type)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        path = request.url.path[:200]
        if exc.status_code == 404:
            message = f"no such address: {path}"
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            message = f"{request.method} is not allowed on {path} (allowed: {allowed})"
        else:
            message = str(exc.detail)
        return error_response(message, exc.status_code, exc.headers)

    async def internal_error(request: Request, exc: Exception) -> Response:
        return error_response(f"internal error of the explorer ({type(exc).__name__})", 500)

    routes = [
        Route("/", index),
        Route("/static/{name}", static_file),
        Route("/api/game", game_endpoint),
        Route("/api/position", position_endpoint),
        Route("/api/play", play_endpoint, methods=["POST"]),
        Route("/api/computer", computer_endpoint, methods=["POST"]),
        Route("/reports/{number:int}", report_endpoint),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(SameSiteOnly, names=host_names)],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
    )
