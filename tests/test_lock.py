"""The venv is the lock: `make venv` installs exactly requirements-test.txt, and this fails when
what is installed differs from it (a package missing, another version, or one the lock does not
name), so a newer release upstream can never change a clean checkout without a `make lock`."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-test.txt"
APP_LOCK = ROOT / "requirements.txt"
# The venv's own installers come with `python -m venv`, and the project itself is installed
# from the work tree: none of them is a locked dependency.
NOT_LOCKED = {"pip", "setuptools", "scorekeeper"}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(path: Path) -> dict[str, str]:
    """The lock's name -> version for this interpreter (markers evaluated), every pin hashed."""
    found: dict[str, str] = {}
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if not match:
            continue
        name, version, marker = match.groups()
        assert "--hash=sha256:" in lines[number + 1], f"{name} is pinned without a hash"
        if marker is None or Marker(marker).evaluate():
            found[canonicalize_name(name)] = version
    return found


def installed() -> dict[str, str]:
    return {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in metadata.distributions()
        if canonicalize_name(dist.metadata["Name"]) not in NOT_LOCKED
    }


def test_the_installed_packages_are_exactly_the_lock():
    locked, present = pins(LOCK), installed()
    wrong = {
        name: (locked[name], present[name])
        for name in locked.keys() & present.keys()
        if locked[name] != present[name]
    }
    assert wrong == {}, "installed versions differ from the lock (locked, installed)"
    assert sorted(locked.keys() - present.keys()) == [], "locked but not installed"
    assert sorted(present.keys() - locked.keys()) == [], "installed but not in the lock"


def test_the_app_lock_and_the_test_lock_agree():
    """A server installs requirements.txt: the versions the tests ran with."""
    app, test = pins(APP_LOCK), pins(LOCK)
    assert app, "requirements.txt pins nothing"
    assert {name: test.get(name) for name in app} == app


def test_every_direct_dependency_is_locked():
    required = metadata.requires("scorekeeper") or []
    names = {
        canonicalize_name(re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0])
        for spec in required
        if "extra ==" not in spec or 'extra == "test"' in spec
    }
    assert sorted(names - pins(LOCK).keys()) == []
