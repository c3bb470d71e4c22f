"""The JSON locator that gives errors about a value their line: checked against an oracle
that puts a marker where the value was and finds the marker's line in the same layout."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.nonogram.formats._json_lines import item_lines, json_line

MARK = "\u2063mark\u2063"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.text(alphabet=st.sampled_from('ab"\\\n\u00e9[]{},: '), max_size=6))
docs = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.text(alphabet=st.sampled_from('ab"\\[]{}:, '), max_size=3), inner,
                    max_size=4)), max_leaves=20)


def paths(doc: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix]
    if isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*prefix, i))
    elif isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    return out


def marked(doc: Any, path: tuple[str | int, ...]) -> Any:
    if not path:
        return MARK
    head, *rest = path
    if isinstance(doc, list):
        return [marked(v, tuple(rest)) if i == head else v for i, v in enumerate(doc)]
    return {k: marked(v, tuple(rest)) if k == head else v for k, v in doc.items()}


def line_of_mark(text: str) -> int:
    return text[:text.index(MARK)].count("\n") + 1


@pytest.mark.heavy
@settings(max_examples=300, deadline=None)
@given(docs, st.sampled_from([None, 0, 1, 2]), st.booleans())
def test_every_path_is_found_at_its_line(doc: Any, indent: int | None, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + json.dumps(doc, indent=indent, ensure_ascii=False)
    for path in paths(doc):
        expected = line_of_mark(json.dumps(marked(doc, path), indent=indent, ensure_ascii=False))
        assert json_line(text, path) == expected, path
        value = doc
        for step in path:
            value = value[step]
        if isinstance(value, list):
            assert item_lines(text, path) == [line_of_mark(json.dumps(
                marked(doc, (*path, i)), indent=indent, ensure_ascii=False))
                for i in range(len(value))]


def test_absent_paths_and_repeated_keys() -> None:
    text = '{"a": [1,\n 2],\n "b": {"c": 3},\n "a":\n [4]}'
    assert json_line(text, ("a",)) == 5  # json.loads keeps the last "a"
    assert json_line(text, ("a", 0)) == 5 and json_line(text, ("a", 1)) is None
    assert json_line(text, ("b", "c")) == 3 and json_line(text, ("b", "d")) is None
    assert json_line(text, ("b", 0)) is None and json_line(text, ("z",)) is None
    assert json_line(text, ()) == 1 and item_lines(text, ("b",)) == []
    assert json_line("[1, [2,\n[3]]]", (1, 1, 0)) == 2
    # lines end as the other readers end them: LF, CRLF or CR
    assert item_lines('[\r1,\r\n2,\n"a\\r"]', ()) == [2, 3, 4]
    assert json_line('{"a":\r\r[1,\r\n {"b\\"": 2}]}', ("a", 1, 'b"')) == 4


def test_deep_nesting_is_walked_without_recursion() -> None:
    text = "[" * 50_000 + "]" * 50_000
    assert json_line(text, (0,) * 49_999) == 1 and json_line(text, (0,) * 50_000) is None
    assert json_line("[" * 50_000 + "1" + "]" * 50_000 + "\n", ()) == 1
