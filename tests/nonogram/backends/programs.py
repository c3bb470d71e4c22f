"""What the tests of the SAT solvers run as programs (Kissat, glucose-syrup) share: random
pictures, counting a program's running children, and a stand-in program."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from gridsolve.nonogram.model import Puzzle, puzzle_from_grid


def random_puzzle(seed: int, h: int, w: int) -> Puzzle:
    rng = random.Random(seed)
    return puzzle_from_grid(["".join(rng.choice("#.") for _ in range(w)) for _ in range(h)])


def running_children(path: str | None) -> int:
    """Running processes of the program at ``path`` whose parent is this process."""
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if (parent == os.getpid()
                            and f.read().split(b"\0")[0].decode(errors="replace") == path):
                        count += 1
            except (OSError, ValueError, IndexError):
                pass
    return count


def fake_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: str, name: str,
                 message: str, code: int) -> Path:
    """$``env`` names a script ``name`` that reads its input, says ``message`` on its error
    output and exits ``code``; its path."""
    fake = tmp_path / name
    fake.write_text(f"#!/bin/sh\ncat > /dev/null\necho '{message}' >&2\nexit {code}\n")
    fake.chmod(0o755)
    monkeypatch.setenv(env, str(fake))
    return fake
