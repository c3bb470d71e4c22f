"""Run a notebook's code cells as a script, the way Jupyter would show them.

Jupyter itself (ipykernel, nbclient) is a heavy test dependency, so the code cells run here in
one namespace, and each cell's last expression is shown as Jupyter shows it: its
``_repr_html_`` or ``_repr_svg_`` when it has one, else its ``repr``.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

#: The picture hooks Jupyter asks for, with the MIME type each fills.
HOOKS = (("_repr_html_", "text/html"), ("_repr_svg_", "image/svg+xml"))


def code_cells(path: Path) -> list[str]:
    """The source of each code cell, in order."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def shown(value: Any) -> dict[str, str]:
    """What Jupyter would display for a value: MIME type -> text."""
    data = {"text/plain": repr(value)}
    for hook, mime in HOOKS:
        method = getattr(value, hook, None)
        text = method() if method is not None else None
        if text is not None:
            data[mime] = text
    return data


def run_cell(source: str, namespace: dict[str, Any]) -> Any:
    """Run one cell; the value of its last line when that is an expression, else None."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - our own notebook
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)  # noqa: S307


def run(path: Path) -> list[Any]:
    """Every code cell's shown value (None for a cell that ends in a statement)."""
    from gridsolve.notebook import install
    install()  # what ``import gridsolve`` does in Jupyter, where IPython is loaded
    namespace: dict[str, Any] = {"__name__": "__main__"}
    return [run_cell(source, namespace) for source in code_cells(path)]
