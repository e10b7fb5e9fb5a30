"""Compile the engine for one game: a copy of a template module with the game's plug-in
imported, written to a cache folder, so that numba's disk cache serves the next process.

Why a copy and not a function taking the plug-in's functions as arguments: numba specialises
such a function for the functions passed, but cannot cache it on disk (its index would have to
pickle the plug-in's modules), so every process compiled the engine again, seconds per game.
A copy that imports the plug-in by name is an ordinary module: numba caches it next to the
file like any other.

The copy's name carries a digest of the template, the import block and the source of every
module the block imports from, so a changed rule or engine gets a new copy (numba's cache
checks only the copy's own file, not what it calls). Folder: ``$CGT_ENGINE_CACHE``, else
``~/.cache/cgt/engine``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from cgt.errors import ParameterError

#: The hooks a plug-in must give, and those with a default in solvers.engine_defaults.
REQUIRED_HOOKS = ("generate", "final", "play", "mover")
OPTIONAL_HOOKS = ("key", "order", "move_to_key", "move_from_key", "final_remoteness")
#: Built from ``play`` and ``key`` when a plug-in does not give it.
CHILD_KEY = "child_key"

_BEGIN = "# <plug-in>\n"
_END = "# </plug-in>\n"
_DEFAULT_CHILD_KEY = """

@njit(cache=True, inline="always")
def child_key(state, code, tables, scratch):  # type: ignore[no-untyped-def]
    play(state, code, tables, scratch)
    return key(scratch, tables)


"""

_built: dict[str, ModuleType] = {}
#: Compiled functions not importable by name (defined inside a function, or in a module
#: without a name), reached by the copies through this table. Such a copy is compiled in
#: every process: its name carries the function's identity, not a digest of its source.
loose: dict[str, Any] = {}


def cache_folder() -> Path:
    folder = os.environ.get("CGT_ENGINE_CACHE")
    return Path(folder) if folder else Path.home() / ".cache" / "cgt" / "engine"


def _origin(function: Any, hook: str) -> tuple[str, str]:
    """(module, name) under which ``function`` can be imported; for a function that cannot
    be, its entry in :data:`loose`."""
    if not hasattr(function, "py_func"):
        raise ParameterError(f"the plug-in's {hook} is not a numba-compiled function")
    python = function.py_func
    module, name = getattr(python, "__module__", None), getattr(python, "__name__", None)
    if not module or not name or getattr(sys.modules.get(module), name, None) is not function:
        name = f"{hook}_{id(function):x}"
        loose[name] = function
        return __name__, f"loose[{name!r}]"
    return module, name


def _binding(hook: str, function: Any) -> tuple[str, list[str]]:
    """(module, the block's lines) binding ``function`` to the name ``hook``."""
    module, name = _origin(function, hook)
    if name.startswith("loose["):
        return module, [
            f"from {module} import loose as _loose_{hook}\n",
            f"{hook} = _loose_{hook}{name[5:]}\n",
        ]
    return module, [f"from {module} import {name} as {hook}\n"]


def import_block(
    hooks: dict[str, Any],
    required: tuple[str, ...] = REQUIRED_HOOKS,
    optional: tuple[str, ...] = OPTIONAL_HOOKS,
    defaults: str = "solvers.engine_defaults",
) -> tuple[str, list[str]]:
    """The template's plug-in block binding ``hooks`` (name -> compiled function; optional
    ones may be missing; ``nrt``: whether the plug-in needs numba's reference counting), and
    the modules it imports from. ``required`` and ``optional`` name the hooks a template
    binds (the searches': :data:`REQUIRED_HOOKS`, :data:`OPTIONAL_HOOKS` and ``child_key``);
    a missing optional one is imported from ``defaults`` by its name where that module has
    one, else left to the template (which then makes its own default)."""
    searches = (required, optional) == (REQUIRED_HOOKS, OPTIONAL_HOOKS)
    default_module = importlib.import_module(defaults)
    lines = []
    modules = []
    for hook in required + optional + ((CHILD_KEY,) if searches else ()):
        function = hooks.get(hook)
        if function is None:
            if hook in required:
                raise ParameterError(f"the plug-in gives no {hook} function")
            if hook in optional and hasattr(default_module, hook):
                lines.append(f"from {defaults} import {hook}\n")
            continue
        module, binding = _binding(hook, function)
        modules.append(module)
        lines += binding
    block = "".join(lines) + f"\nNRT = {bool(hooks.get('nrt', True))}\n"
    if searches and hooks.get(CHILD_KEY) is None:
        block += _DEFAULT_CHILD_KEY
    return block, sorted(set(modules))


def _compiled_dependencies(module_names: list[str]) -> set[str]:
    """The toolkit's modules (``solvers``, ``cgt``) whose functions or constants the named
    modules import: numba inlines those into the copy, but its disk cache checks only the
    copy's own file, so their source must change the copy's name."""
    found: set[str] = set()
    for module_name in module_names:
        module = sys.modules.get(module_name)
        for value in vars(module).values() if module is not None else ():
            python = getattr(value, "py_func", value)
            origin = value.__name__ if isinstance(value, ModuleType) else None
            origin = origin or getattr(python, "__module__", None)
            if isinstance(origin, str) and origin.split(".")[0] in ("solvers", "cgt"):
                found.add(origin)
    return found - set(module_names)


def _source_of(module_name: str) -> str:
    module = sys.modules.get(module_name)
    try:
        return inspect.getsource(module) if module is not None else ""
    except (OSError, TypeError):  # no file (an interactive module): no digest of it
        return ""


def specialise(template: str, hooks: dict[str, Any]) -> ModuleType:
    """The template module ``template`` (e.g. ``solvers.engine_search``) compiled for the
    plug-in ``hooks``: its copy in :func:`cache_folder`, imported (once per process). A
    template whose hooks are not the searches' names them in ``PLUG_IN_HOOKS`` (required,
    optional, and optionally the module of the optional ones' defaults)."""
    template_module = sys.modules.get(template) or importlib.import_module(template)
    required, optional, *defaults = getattr(
        template_module, "PLUG_IN_HOOKS", (REQUIRED_HOOKS, OPTIONAL_HOOKS)
    )
    source = inspect.getsource(template_module)
    if source.count(_BEGIN) != 1 or source.count(_END) != 1:
        raise ValueError(f"{template} has no single plug-in block")
    head, rest = source.split(_BEGIN)
    _, tail = rest.split(_END)
    block, modules = import_block(hooks, required, optional, *defaults)
    text = head + _BEGIN + block + _END + tail
    sources = sorted(set(modules) | _compiled_dependencies([template, *modules]))
    digest = hashlib.sha256(
        "\0".join([text, *(_source_of(m) for m in sources)]).encode()
    ).hexdigest()[:20]
    name = f"cgt_engine_{template.rsplit('.', 1)[-1]}_{digest}"
    if name in _built:
        return _built[name]
    folder = cache_folder()
    path = folder / f"{name}.py"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text() != text:
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(text)
            partial.replace(path)  # whole or absent, for a process reading it meanwhile
    except OSError as exc:
        raise ParameterError(f"cannot write the engine's cache folder {folder}: {exc}") from None
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _built[name] = module
    return module
