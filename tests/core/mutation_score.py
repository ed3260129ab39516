"""`make mutation`'s report: the mutation score of the rules core and any unexplained survivor.

Reads what `mutmut export-cicd-stats` and `mutmut results` wrote under mutants/, and the
survivors explained in tests/core/EQUIVALENT_MUTANTS.md. Exits 1 when a survivor is neither
killed nor explained there.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATS = ROOT / "mutants" / "mutmut-cicd-stats.json"
SURVIVORS = ROOT / "mutants" / "survivors.txt"
EQUIVALENT = Path(__file__).with_name("EQUIVALENT_MUTANTS.md")


def explained() -> set[str]:
    """Mutant names listed (in backticks, at the start of a list item) as equivalent."""
    text = EQUIVALENT.read_text(encoding="utf-8")
    return set(re.findall(r"^- `([^`]+)`", text, flags=re.MULTILINE))


def survivors() -> list[str]:
    """Mutants `mutmut results` reports as not killed (survived, no tests, timeout...)."""
    lines = SURVIVORS.read_text(encoding="utf-8").splitlines()
    return [line.split(":")[0].strip() for line in lines if ":" in line]


def main() -> int:
    """Print the score; list survivors not explained as equivalent (exit 1 if any)."""
    stats = json.loads(STATS.read_text(encoding="utf-8"))
    total = stats["total"] - stats["skipped"]
    killed = stats["killed"]
    left = survivors()
    known = explained()
    unexplained = [name for name in left if name not in known]
    stale = sorted(known - set(left))
    print(f"Mutation score: {killed}/{total} killed ({100 * killed / max(total, 1):.1f}%)")
    print(f"Survivors: {len(left)}, explained as equivalent: {len(left) - len(unexplained)}")
    for name in stale:
        print(f"  listed as equivalent but killed or gone: {name}")
    for name in unexplained:
        print(f"  not killed and not explained: {name} (see `mutmut show {name}`)")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
