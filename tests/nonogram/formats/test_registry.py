"""The table of formats (``DETECT_ORDER``) says what each module says, and a module is
imported only when a file needs it (issue 56: a solve's start-up)."""

from __future__ import annotations

import importlib
import pkgutil

import gridsolve.nonogram.formats as formats
from gridsolve.nonogram.formats import DETECT_ORDER, EXTENSIONS, FORMATS


def test_the_table_says_what_each_module_says() -> None:
    for name, module, extensions in DETECT_ORDER:
        mod = importlib.import_module(f"gridsolve.nonogram.formats.{module}")
        assert (mod.NAME, mod.EXTENSIONS) == (name, extensions)
        assert FORMATS[name] is mod
    assert list(FORMATS) == [name for name, _, _ in DETECT_ORDER] and len(FORMATS) == 19
    assert EXTENSIONS == {ext for mod in FORMATS.values() for ext in mod.EXTENSIONS}


def test_every_reader_of_the_package_is_in_the_table() -> None:
    """A module with ``detect`` and ``parse`` is a format: it must be registered."""
    readers = set()
    for info in pkgutil.iter_modules(formats.__path__):
        mod = importlib.import_module(f"gridsolve.nonogram.formats.{info.name}")
        if hasattr(mod, "detect") and hasattr(mod, "parse"):
            readers.add(info.name)
    assert readers == {module for _, module, _ in DETECT_ORDER}


def test_an_unknown_name_is_no_format() -> None:
    assert "bogus" not in FORMATS and FORMATS.get("bogus") is None

