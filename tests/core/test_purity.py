"""The rules core imports nothing but the standard library and itself (STYLE.md)."""

import ast
import sys
from pathlib import Path

import pytest

import scorekeeper.core

CORE = Path(scorekeeper.core.__file__).parent
FILES = sorted(CORE.rglob("*.py"))
WEB_STACK = {
    "flask",
    "sqlalchemy",
    "flask_sqlalchemy",
    "wtforms",
    "flask_wtf",
    "matplotlib",
    "flask_babel",
    "flask_migrate",
    "scorekeeper",
}


def imported_modules(path: Path) -> list[str]:
    """Top-level names of every absolute import in a file (relative imports stay in core)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module or "").split(".")[0])
    return found


def test_every_core_module_is_checked():
    assert {path.name for path in FILES} >= {
        "__init__.py",
        "problems.py",
        "tiles.py",
        "setup.py",
        "engines.py",
        "rounds.py",
        "standings.py",
        "game.py",
    }


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_core_module_imports_only_the_standard_library(path):
    modules = imported_modules(path)
    assert not set(modules) & WEB_STACK
    outside = [name for name in modules if name not in sys.stdlib_module_names]
    assert outside == []


def test_the_check_sees_a_forbidden_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom flask import Flask\nfrom . import tiles\nimport matplotlib.pyplot\n"
    )
    assert imported_modules(sample) == ["os", "flask", "matplotlib"]
