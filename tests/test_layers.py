"""Blueprints stand alone: no blueprint package imports another (STYLE.md, habit 14).

Shared access rules, forms and responses live outside them (scorekeeper.access, .forms, ...).
"""

import ast
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


# HTTP caching is decided in one place: every ETag comes from scorekeeper/etags.py (what a page
# shows), and only it answers If-None-Match. compression.py only makes a tag weak.
ETAG_SITES = {"scorekeeper/etags.py", "scorekeeper/compression.py"}
ETAG_MARKS = ("set_etag(", "if_none_match", "make_conditional(", "add_etag(")


def test_every_etag_comes_from_the_one_helper():
    found = {
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if any(mark in path.read_text() for mark in ETAG_MARKS)
    }
    assert found == ETAG_SITES
