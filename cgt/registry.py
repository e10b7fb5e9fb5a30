"""Registry of games by name.

Built-in games are imported on first use (their modules are listed in :data:`BUILTIN_GAMES`);
a user's game registers itself with the :func:`register` decorator when its file is imported,
for instance with ``cgt --load mygame.py solve mygame``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from pathlib import Path
from typing import Any, TypeVar

from cgt.errors import CGTError, UnknownGameError
from cgt.protocol import Game

G = TypeVar("G", bound=type[Game[Any, Any]])

#: Registry name -> module that defines it (imported lazily).
BUILTIN_GAMES: dict[str, str] = {
    # the five seed games
    "control": "cgt.games.control",
    "lag": "cgt.games.lag",
    "interleave": "cgt.games.interleave",
    "super-nonnect": "cgt.games.super_nonnect",
    "entropy": "cgt.games.entropy",
    # reference games with published numbers
    "tictactoe": "cgt.games.tictactoe",
    "nim": "cgt.games.nim",
    "octal": "cgt.games.octal",
    "kayles": "cgt.games.octal",
    "dawsons-kayles": "cgt.games.octal",
    "grundys-game": "cgt.games.octal",
    "subtraction": "cgt.games.octal",
    "domineering": "cgt.games.domineering",
    "snort": "cgt.games.snort",
}

_REGISTRY: dict[str, type[Game[Any, Any]]] = {}


def register(cls: G) -> G:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    _REGISTRY[cls.name] = cls
    return cls


def game_class(name: str) -> type[Game[Any, Any]]:
    """The game class registered under ``name``; :class:`UnknownGameError` if none."""
    if name not in _REGISTRY and name in BUILTIN_GAMES:
        importlib.import_module(BUILTIN_GAMES[name])
    if name not in _REGISTRY:
        known = ", ".join(sorted(set(BUILTIN_GAMES) | set(_REGISTRY)))
        raise UnknownGameError(f"unknown game {name!r} (known games: {known})")
    return _REGISTRY[name]


def load_game(name: str, **parameters: Any) -> Game[Any, Any]:
    """An instance of the game ``name`` with validated parameters."""
    return game_class(name)(**parameters)


def game_names() -> list[str]:
    """Names of every known game, built-in modules included."""
    return sorted(games_in_order())


def games_in_order() -> list[str]:
    """Names of every known game: the built-in ones in the order listed above (the seed games
    first), then the user's games in the order they registered."""
    for name in BUILTIN_GAMES:
        try:
            game_class(name)
        except (ImportError, UnknownGameError):
            continue  # a built-in module that is not written yet
    return [n for n in BUILTIN_GAMES if n in _REGISTRY] + [
        n for n in _REGISTRY if n not in BUILTIN_GAMES
    ]


def load_plugin(path_or_module: str) -> None:
    """Import a user's game file (``mygame.py``) or module (``mypkg.games``)."""
    path = Path(path_or_module)
    if path.suffix == ".py":
        if not path.is_file():
            raise CGTError(f"game file {path_or_module!r} does not exist")
        spec = importlib.util.spec_from_file_location(f"cgt_plugin_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise CGTError(f"cannot import game file {path_or_module!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            del sys.modules[spec.name]
            raise _plugin_failure(f"game file {path_or_module!r}", exc, str(path)) from None
    else:
        try:
            importlib.import_module(path_or_module)
        except BaseException as exc:
            raise _plugin_failure(f"game module {path_or_module!r}", exc, None) from None


def _plugin_failure(what: str, exc: BaseException, path: str | None) -> BaseException:
    """One line saying why a plug-in did not load (its line number when it is a file); Ctrl-C
    stays an interruption."""
    if isinstance(exc, KeyboardInterrupt):
        return exc
    if isinstance(exc, SystemExit):
        return CGTError(
            f"{what} called sys.exit({exc.code!r}) while loading: a plug-in must not exit"
        )
    if isinstance(exc, SyntaxError):
        return CGTError(f"{what} has a syntax error at line {exc.lineno}: {exc.msg}")
    if isinstance(exc, ModuleNotFoundError) and path is None and exc.name == what.split("'")[1]:
        return CGTError(f"cannot import {what}: no such module")
    where = ""
    if path is not None:
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        where = f" at line {lines[-1]}" if lines else ""
    message = (str(exc).splitlines() or [""])[0][:300]
    return CGTError(f"{what} failed while loading{where}: {type(exc).__name__}: {message}")
