"""The ruff part of ``make lint`` inside the fast suite, so that every landing keeps it clean
(ruff takes under a second; mypy, slower, runs in ``make lint`` and CI only)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.heavy
def test_ruff_finds_nothing() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    exe = str(ruff) if ruff.exists() else shutil.which("ruff")
    if exe is None:
        pytest.skip("ruff is not installed (make install puts it in .venv: the lint group)")
    done = subprocess.run([exe, "check", "--no-cache", "--output-format", "concise",
                           "src", "tests", "benchmarks", "setup.py"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
