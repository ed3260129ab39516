"""Blueprints stand alone: no blueprint package imports another (STYLE.md, habit 14).

Shared access rules, forms and responses live outside them (scorekeeper.access, .forms, ...).
"""

import ast
import inspect
import re
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent
BLUEPRINTS = (
    "games",
    "clubs",
    "accounts",
    "seasons",
    "nights",
    "players",
    "api",
    "main",
    "errors",
    "pwa",
    "ratings",
)


def imported_names(path: Path, package: str) -> set[str]:
    """Every name a file imports, anywhere in it (functions too), as a dotted path:
    `from a.b import c` gives `a.b.c` (c may be a module or a name in it); relative imports are
    made absolute from `package`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def blueprint_of(name: str) -> str | None:
    """The blueprint package an imported name belongs to, or None."""
    parts = name.split(".")
    if len(parts) >= 2 and parts[0] == "scorekeeper" and parts[1] in BLUEPRINTS:
        return parts[1]
    return None


def crossings() -> set[tuple[str, str, str]]:
    """(file, importing blueprint, imported name) for each import from another blueprint."""
    found: set[tuple[str, str, str]] = set()
    for blueprint in BLUEPRINTS:
        for path in sorted((PACKAGE / blueprint).rglob("*.py")):
            rel = path.relative_to(PACKAGE.parent).with_suffix("")
            package = ".".join(rel.parts if rel.name == "__init__" else rel.parts[:-1])
            for name in imported_names(path, package):
                other = blueprint_of(name)
                if other is not None and other != blueprint:
                    found.add((str(path.relative_to(PACKAGE.parent)), blueprint, name))
    return found


def within(name: str, module: str) -> bool:
    """True if the imported name is the module or something in it."""
    return name == module or name.startswith(module + ".")


def test_every_blueprint_is_checked(app):
    for blueprint in BLUEPRINTS:
        assert (PACKAGE / blueprint / "__init__.py").is_file()
    # Every blueprint the app registers is one of them: a new one is checked from its first day.
    registered = {bp.import_name.split(".")[1] for bp in app.blueprints.values()}
    assert registered == set(BLUEPRINTS)


def test_no_blueprint_imports_another():
    assert sorted((file, name) for file, _who, name in crossings()) == []


@pytest.mark.parametrize(
    ("source", "package", "expected"),
    [
        ("from scorekeeper.games.forms import SetupForm\n", "scorekeeper.clubs", True),
        ("from scorekeeper import games\n", "scorekeeper.clubs", True),
        ("import scorekeeper.games.access\n", "scorekeeper.clubs", True),
        ("def f():\n    from ..games import access\n", "scorekeeper.clubs", True),
        ("from . import forms\nfrom .forms import ClubForm\n", "scorekeeper.clubs", False),
        ("from scorekeeper.access import club_for\n", "scorekeeper.clubs", False),
    ],
)
def test_the_check_sees_an_import_of_another_blueprint(tmp_path, source, package, expected):
    sample = tmp_path / "sample.py"
    sample.write_text(source)
    names = imported_names(sample, package)
    assert any(blueprint_of(name) not in (None, "clubs") for name in names) is expected


# Every place that keeps something between requests, and why (docs/architecture.md). A cache
# is a last resort: a new one must earn its place in bench/ and be added here on purpose.
CACHE_SITES = {
    "scorekeeper/services/games/snapshot.py",  # a game version, read and added up once
    "scorekeeper/charts/cache.py",  # chart SVG files, drawn once
    "scorekeeper/charts/text.py",  # the words on charts, translated once per language
    "scorekeeper/services/accounts.py",  # the decoy hash that evens out sign-in timing
}
CACHE_MARKS = ("lru_cache", "functools.cache", "@cache", "cached_property", "Lru(", "SvgCache(")


def test_the_app_keeps_at_most_four_caches():
    found = {
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if path.name != "lru.py" and any(mark in path.read_text() for mark in CACHE_MARKS)
    }
    assert found == CACHE_SITES
    assert len(CACHE_SITES) <= 4


# Derived data kept in the database (every worker and server reads it), in tables named kept_*:
# caches too, each written by one module and read only at the mark it was made at.
KEPT_TABLES = {"kept_ratings": "scorekeeper/services/ratings_kept.py"}
# Besides the writer: the table's declaration and the club deletion that takes it with the club.
KEPT_BESIDE = {"scorekeeper/models.py", "scorekeeper/services/removals.py"}


def test_derived_data_in_the_database_is_listed():
    from scorekeeper.extensions import db

    kept = {table.name for table in db.metadata.sorted_tables if table.name.startswith("kept_")}
    assert kept == set(KEPT_TABLES)
    docs = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for mapper in db.Model.registry.mappers:
        table = mapper.local_table.name
        if table not in KEPT_TABLES:
            continue
        name = re.compile(rf"\b{mapper.class_.__name__}\b")
        users = {
            str(path.relative_to(PACKAGE.parent))
            for path in PACKAGE.rglob("*.py")
            if name.search(path.read_text(encoding="utf-8"))
        }
        assert users - KEPT_BESIDE == {KEPT_TABLES[table]}
        assert f"`{table}`" in docs and KEPT_TABLES[table].removeprefix("scorekeeper/") in docs


# STYLE.md and the working rules: a module that grows past this is split by what it owns.
MAX_LINES = 600


def test_no_module_is_longer_than_600_lines():
    long = {
        str(path.relative_to(PACKAGE.parent)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


# HTTP caching is decided in one place: every ETag comes from scorekeeper/web/etags.py (what an
# answer shows, or a body's own bytes), and only it reads If-None-Match and If-Match, in a request
# or in a WSGI environ before Flask. Anything else that sets, reads or names them is caught: the
# calls and attributes, Flask's `send_file(etag=...)`, and the header names as string literals.
ETAG_HOME = "scorekeeper/web/etags.py"
ETAG_ATTRIBUTES = {
    "set_etag",
    "get_etag",
    "add_etag",
    "make_conditional",
    "if_none_match",
    "if_match",
}
ETAG_LITERALS = {"etag", "if-none-match", "if-match", "http_if_none_match", "http_if_match"}


def etag_handling(source: str) -> list[str]:
    """What in `source` sets, reads or names an ETag or its conditional headers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ETAG_ATTRIBUTES:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "send_file"
            and any(keyword.arg == "etag" for keyword in node.keywords)
        ):
            found.append(f"line {node.lineno}: send_file(etag=...)")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.strip().lower() in ETAG_LITERALS
        ):
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


def test_every_etag_comes_from_the_one_helper():
    found = {
        str(path.relative_to(PACKAGE.parent)): marks
        for path in sorted(PACKAGE.rglob("*.py"))
        if (marks := etag_handling(path.read_text(encoding="utf-8")))
    }
    assert set(found) == {ETAG_HOME}


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("response.set_etag(tag)\n", True),
        ("if request.if_none_match.contains(tag): pass\n", True),
        ("pinned = request.if_match\n", True),
        ("etag, weak = response.get_etag()\n", True),
        ("send_file(data, etag=digest)\n", True),
        ("headers = {'ETag': f'\"{game.etag}\"'}\n", True),
        ("asked = environ.get('HTTP_IF_NONE_MATCH')\n", True),
        ("if 'If-Match' in request.headers: pass\n", True),
        ("parameters = ('If-None-Match',)\n", True),
        # Words about ETags, a game's version name and the helpers' own names are fine.
        ('"""The ETag of the page: 304 while If-None-Match names it."""\n', False),
        ("tag = game.etag\nresponse = conditional(etag_for(tag), render)\n", False),
        ("raise ApiError(409, body, etag=tag)\n", False),
        ("headers = [etag_header(tag)]\nfound = etag_in(headers)\n", False),
    ],
)
def test_the_etag_check_sees_a_hand_made_etag(source, caught):
    assert bool(etag_handling(source)) is caught


# A module's `_name` is its own: a helper another module needs gets a public name, in a
# `common.py` of the package that shares it (api/views/common.py, games/views/common.py) or in
# the module that owns it. Only the project's own modules are checked (scorekeeper.*).


def module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def private_imports(path: Path, module: str) -> set[str]:
    """Each `_name` the file takes from another of the project's modules, as `module._name`:
    `from scorekeeper.x import _f`, `from .x import _f`, and `x._f` where `x` was imported
    from the project (`import scorekeeper.x as x`, `from scorekeeper import x`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    ours: dict[str, str] = {}  # a local name -> the project's module or name it stands for

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if source.split(".")[0] != "scorekeeper":
                continue
            for alias in node.names:
                if private(alias.name) and source != module:
                    found.add(f"{source}.{alias.name}")
                ours[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "scorekeeper":
                    if any(private(part) for part in alias.name.split(".")[1:]):
                        found.add(alias.name)
                    if alias.asname:
                        ours[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ours
            and private(node.attr)
        ):
            found.add(f"{ours[node.value.id]}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_name():
    found = {
        (str(path.relative_to(PACKAGE.parent)), name)
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in private_imports(path, module_of(path))
    }
    assert sorted(found) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "from scorekeeper.api.views.common import _game_for\n",
            {"scorekeeper.api.views.common._game_for"},
        ),
        ("from .common import _stale, GAME\n", {"scorekeeper.api.views.common._stale"}),
        ("from .. import _hidden\n", {"scorekeeper.api._hidden"}),
        (
            "from scorekeeper.services import export_csv\nexport_csv._spreadsheet_safe('x')\n",
            {"scorekeeper.services.export_csv._spreadsheet_safe"},
        ),
        (
            "import scorekeeper.services.export_csv as csv\ncsv._safe('x')\n",
            {"scorekeeper.services.export_csv._safe"},
        ),
        (
            "def f():\n    from scorekeeper.games.views.pages import _print\n",
            {"scorekeeper.games.views.pages._print"},
        ),
        # Public names, dunders, a module's own names and other libraries' are not ours to judge.
        ("from .common import game_for\nfrom scorekeeper import __version__\n", set()),
        ("from flask_login import current_user\ncurrent_user._get_current_object()\n", set()),
        ("def _own():\n    pass\n\n\n_own()\n", set()),
    ],
)
def test_the_check_sees_a_private_import(tmp_path, source, expected):
    sample = tmp_path / "sample.py"
    sample.write_text(source)
    assert private_imports(sample, "scorekeeper.api.views.sample") == expected


def test_no_template_global_reads_the_database(app):
    """A template global runs wherever a template calls it, unseen by the view: what a page needs
    from the database its view reads and passes (the game page's "Move to a club" form).
    One is left, on purpose for now: base.html's banner for a club owner when the server sends
    no mail (infra/mail.py), on every page, where no one view could pass it."""
    readers = {
        name
        for name, value in app.jinja_env.globals.items()
        if callable(value)
        and getattr(value, "__module__", "").startswith("scorekeeper")
        and any(mark in inspect.getsource(value) for mark in ("services", "db.", "select("))
    }
    assert readers == {"mail_off_warning"}
