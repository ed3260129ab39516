"""The photo reader's networks as declared artefacts (scorekeeper/photos/models.py): each shipped
file is the network its declaration says, and says what made it (commit, seed, data hash)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.photos import models

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "scorekeeper" / "photos"


@pytest.mark.parametrize("spec", list(models.SPECS.values()), ids=list(models.SPECS))
def test_each_model_file_is_the_network_its_declaration_says(spec):
    session = models.session(spec)
    (given,) = session.get_inputs()
    assert given.name == spec.input
    assert given.shape[1:] == [3, spec.height, spec.width]
    assert session.get_outputs()[0].shape[-1] == spec.labels


@pytest.mark.parametrize("spec", list(models.SPECS.values()), ids=list(models.SPECS))
def test_each_model_file_says_what_made_it(spec):
    meta = models.metadata(spec)
    assert set(models.METADATA) <= set(meta)
    assert meta["model"] == spec.name
    assert meta["version"] == str(spec.version)
    assert re.fullmatch(r"[0-9a-f]{40}", meta["commit"])
    assert meta["seed"].isdigit()
    assert meta["data"]
    assert re.fullmatch(r"[0-9a-f]{64}", meta["data_sha256"])
    git = shutil.which("git")
    if git and (ROOT / ".git").exists():
        # The commit it was trained from is in this repository's history.
        found = subprocess.run([git, "cat-file", "-e", meta["commit"] + "^{commit}"], cwd=ROOT)
        assert found.returncode == 0


def _imports(path: Path) -> set[str]:
    """The modules of scorekeeper.photos that `path` imports."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                out.update(n.split(".")[0] for n in names)
            elif (node.module or "").startswith("scorekeeper.photos."):
                out.add(node.module.split(".")[2])
    return out


def test_the_reader_modules_import_each_other_one_way():
    graph = {p.stem: _imports(p) for p in PHOTOS.glob("*.py")}
    seen: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in seen:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        seen.add(module)

    for module in graph:
        visit(module, ())


def test_the_app_ships_no_training_code():
    assert not (PHOTOS / "synthetic.py").exists()
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        assert "training" not in _top_imports(path), path


def _top_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out
