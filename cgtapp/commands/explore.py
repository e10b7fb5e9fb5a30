"""``cgt explore``: click through a game in the browser, every move coloured by its value.

``cgt explore control -p size=2`` starts a local web server on 127.0.0.1 and prints its
address; values come from the stored solution when there is one, otherwise each position is
solved on demand within ``--budget`` seconds. ``--host`` serves other machines too (with a
warning: the explorer has no authentication).
"""

from __future__ import annotations

import ipaddress
import math
import socket
from pathlib import Path
from typing import Any

import click

from cgt.errors import ParameterError
from cgtapp.commands.options import db_option, make_game, param_option
from cgtapp.commands.strategy import strategy_option

#: Longest solve budget a position may get (the server solves one position at a time).
MAX_BUDGET_SECONDS = 600.0


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


Address = tuple[socket.AddressFamily, socket.SocketKind, int, tuple[Any, ...]]


def resolve(host: str, port: int) -> Address:
    """The address to listen on (a one-line error for a host that does not resolve)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ParameterError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    return family, kind, proto, address


def listen(host: str, address: Address) -> socket.socket:
    """A listening socket (port 0: any free port), so the address printed is the real one."""
    family, kind, proto, where = address
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
    except OSError as exc:
        sock.close()
        raise ParameterError(f"cannot listen on {host}:{where[1]}: {exc.strerror}") from None
    sock.listen(128)
    return sock


def finite_budget(ctx: click.Context, param: click.Parameter, value: float) -> float:
    # FloatRange lets nan through (every comparison with nan is false)
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds", ctx, param)
    return value


@click.command("explore")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but loopback lets other machines in (a warning).",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True, max=MAX_BUDGET_SECONDS),
    callback=finite_budget,
    default=10.0,
    show_default=True,
    help="Seconds a position without a stored solution may take to solve.",
)
@db_option
@click.option(
    "--reports",
    "reports_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("reports"),
    show_default=True,
    help="Directory of the reports and claim certificates the page links to.",
)
@strategy_option(
    "Play through the proof: values come first from this winning strategy file "
    "(docs/strategy-format.md) where it covers the position."
)
def explore_command(
    game_name: str,
    params: tuple[str, ...],
    port: int,
    host: str,
    budget: float,
    db: Path | None,
    reports_dir: Path,
    strategy_file: Path | None,
) -> None:
    """Explore GAME in the browser: every legal move coloured by its value for the mover."""
    import uvicorn

    from cgtapp.explorer.app import Explorer, create_app
    from cgtapp.explorer.values import ValueSource

    game = make_game(game_name, params)
    if not reports_dir.is_dir():
        click.echo(
            f"cgt: warning: --reports {str(reports_dir)!r} is not a directory: the page links "
            "no reports",
            err=True,
        )
    source = ValueSource(game, db, max_seconds=budget)
    if strategy_file is not None:
        from cgtapp.explorer.values import StrategyValueSource
        from solvers.strategy import StrategyFile

        strategy = StrategyFile(strategy_file)
        source = StrategyValueSource(game, strategy, db, max_seconds=budget)
    explorer = Explorer(game, source, reports_dir)
    for warning in explorer.warnings:
        click.echo(f"cgt: warning: {warning}", err=True)
    address = resolve(host, port)
    # the names a client may give in its Host header besides addresses and localhost
    names = {host}
    if not is_loopback(str(address[3][0])):
        names |= {socket.gethostname(), socket.getfqdn()}
        click.echo(
            f"cgt: warning: listening on {host}: anyone who can reach this machine can use the "
            "explorer (and make it solve for up to --budget seconds per position)",
            err=True,
        )
    app = create_app(explorer, host_names={name.lower() for name in names})
    sock = listen(host, address)
    actual_host, actual_port = sock.getsockname()[:2]
    shown = f"[{actual_host}]" if ":" in actual_host else actual_host
    click.echo(f"cgt explore {game.label()}: http://{shown}:{actual_port}/  (Ctrl-C stops)")
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
