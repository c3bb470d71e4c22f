"""An earlier version of gridsolve, built from git for a benchmark's "previous version" column.

    with built("fe9f875") as src:       # None when the revision cannot be archived or built
        env = dict(os.environ, PYTHONPATH=str(src))

The revision's tree is taken with ``git archive`` into a temporary directory, built into a
wheel there by pip (in its own build environment, as ``make test-sanitize`` builds) and
unpacked, so the earlier version runs in a child process beside this one, in the same run,
without touching .venv. The directory yielded holds the ``gridsolve`` package.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def built(rev: str) -> Iterator[Path | None]:
    """A directory holding ``rev``'s ``gridsolve``, extensions built (None if it could not be)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree, wheels, site = Path(tmp) / "tree", Path(tmp) / "wheel", Path(tmp) / "site"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True)
        if archive.returncode:
            yield None
            return
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        made = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                               str(wheels), f"{tree}/"], capture_output=True)
        wheel = sorted(wheels.glob("gridsolve-*.whl"))
        if made.returncode or not wheel:
            yield None
            return
        with zipfile.ZipFile(wheel[0]) as z:
            z.extractall(site)
        # compiled as pip installs it: a whole-process timing (jobs.py) would otherwise pay
        # for compiling every module at each start where no bytecode is written
        # (PYTHONDONTWRITEBYTECODE), 0.04-0.1 s a solve on this machine
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(site)],
                       capture_output=True, check=False)
        yield site
