"""The API as people try it first: a path, a pathlib.Path or puzzle text; a clean namespace;
a missing file is a FileNotFoundError (issue 54.12)."""

from __future__ import annotations

import pickle
import types
from pathlib import Path

import pytest

import gridsolve
import gridsolve.nonogram

DUCK = Path(gridsolve.__file__).parent / "examples" / "duck.txt"
TWO_BY_THREE = "1 1\n3\n--\n2\n1\n2\n"


def test_solve_takes_a_path_a_pathlib_path_or_puzzle_text() -> None:
    want = gridsolve.solve(gridsolve.read_puzzle(str(DUCK)), method="native").solutions
    for source in (str(DUCK), DUCK, DUCK.read_text(encoding="utf-8")):
        result = gridsolve.solve(source, method="native")
        assert result.status == "unique" and result.solutions == want, source
    assert gridsolve.first(TWO_BY_THREE) == ("#.#", "###")
    assert gridsolve.count(TWO_BY_THREE) == 1 and gridsolve.unique(TWO_BY_THREE)


def test_a_str_naming_an_existing_file_is_the_file(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule: a str naming a file is read as that file, whatever else it could be."""
    (tmp_path / "p.txt").write_text(TWO_BY_THREE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert gridsolve.first("p.txt") == ("#.#", "###")


def test_a_missing_file_is_a_file_not_found_error_in_the_one_tree(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.txt"
    for source in (missing, str(missing)):
        with pytest.raises(FileNotFoundError) as caught:
            gridsolve.solve(source)
        assert isinstance(caught.value, gridsolve.ParseError)
        assert isinstance(caught.value, gridsolve.MissingFile)
        assert caught.value.filename == str(missing) and str(missing) in str(caught.value)
    with pytest.raises(FileNotFoundError):
        gridsolve.read_puzzle(str(missing))
    copy = pickle.loads(pickle.dumps(gridsolve.MissingFile(str(missing))))
    assert str(copy) == str(gridsolve.MissingFile(str(missing)))


def test_text_that_is_no_puzzle_is_a_parse_error_not_a_missing_file() -> None:
    with pytest.raises(gridsolve.ParseError, match="unknown puzzle format") as caught:
        gridsolve.solve("hello world\nthis is not a puzzle\n")
    assert not isinstance(caught.value, FileNotFoundError)
    with pytest.raises(TypeError, match="a path or puzzle text"):
        gridsolve.solve(42)  # type: ignore[arg-type]


def test_dir_lists_the_api_only() -> None:
    """dir() minus dunders is __all__ and the subpackages; nothing else public lies around."""
    shown = {n for n in dir(gridsolve) if not n.startswith("__")}
    assert shown - set(gridsolve.__all__) <= {"nonogram", "tiling", "errors"}
    assert set(gridsolve.__all__) <= shown
    stray = {n for n, v in vars(gridsolve).items() if not n.startswith("_")
             and n not in gridsolve.__all__ and not isinstance(v, types.ModuleType)}
    assert stray == set()
    stray = {n for n, v in vars(gridsolve.nonogram).items() if not n.startswith("_")
             and n not in gridsolve.nonogram.__all__ and not isinstance(v, types.ModuleType)}
    assert stray == set()
