"""bench/write_cost.py runs (so the figures bench/README.md quotes cannot rot): every kind of
request is measured and the SQLite write lock is seen taken and released. Never the times."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

COST_FILE = Path(__file__).resolve().parent.parent / "bench" / "write_cost.py"


def test_write_cost_measures_every_request_and_the_lock():
    spec = importlib.util.spec_from_file_location("bench_write_cost", COST_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)

    result = module.run(30, profile=5, lock=True)
    assert set(result["cpu_ms_median"]) == {
        "GET game (API)",
        "POST round",
        "PUT round",
        "DELETE round",
    }
    assert all(ms > 0 for ms in result["cpu_ms_median"].values()), result
    assert result["sqlite_write_lock_ms_median"] > 0
    assert "function calls" in result["profile"]
