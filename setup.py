"""Build the compiled cores (plain C, no Cython needed) with -O3 and without -fwrapv.

With GRIDSOLVE_SANITIZE=1 in the environment they are built for AddressSanitizer and
UndefinedBehaviorSanitizer instead (``make test-sanitize``), stopping at the first error.
"""

import os
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The engines' parts: each extension includes its own as one compilation unit (a unity
#: build, so the hot calls between parts inline); a change to any part rebuilds both.
NONOGRAM_PARTS = sorted(glob("src/gridsolve/nonogram/engine/*.[ch]"))

FLAGS = ["-O3", "-std=c99", "-Wall", "-Wno-unused-function"]
LINK: list[str] = []
SANITIZING = bool(os.environ.get("GRIDSOLVE_SANITIZE"))
if SANITIZING:
    SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    # -DTL_WAIT=2: the tiling memo's in-place growth sends more of its few waiting entries down
    # its fallback (a rebuild in a new block), so that the sanitizers run both ways out
    FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-std=c99", "-Wall",
             "-Wno-unused-function", "-DTL_WAIT=2", *SANITIZE]
    LINK = SANITIZE


class BuildExt(build_ext):
    """Drop Python's default -fwrapv (measured ~7% slower on the hot loops)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if SANITIZING:
            self.force = True  # never link objects left by a build without the sanitizers

    def build_extensions(self) -> None:
        for attr in ("compiler_so", "compiler"):
            cmd = getattr(self.compiler, attr, None)
            if isinstance(cmd, list):
                setattr(self.compiler, attr, [a for a in cmd if a != "-fwrapv"])
        super().build_extensions()


setup(
    ext_modules=[
        Extension(  # the engines' SIGINT handler (Ctrl-C), which each of the others imports
            "gridsolve._interrupt",
            sources=["src/gridsolve/_interrupt.c"],
            depends=["src/gridsolve/nonogram/engine/interrupt.h"],
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
        ),
        Extension(
            "gridsolve.nonogram.engine._core",
            sources=["src/gridsolve/nonogram/engine/_core.c"],
            depends=NONOGRAM_PARTS,
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
        ),
        Extension(
            "gridsolve.nonogram.engine._colour",
            sources=["src/gridsolve/nonogram/engine/_colour.c"],
            depends=NONOGRAM_PARTS,
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
        ),
        Extension(  # the SAT models' compiled parts: pure functions, no engine state
            "gridsolve.nonogram.backends._cnf",
            sources=["src/gridsolve/nonogram/backends/_cnf.c"],
            depends=["src/gridsolve/nonogram/engine/alloc.h"],
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
        ),
        Extension(
            "gridsolve.tiling.engine._exact",
            sources=["src/gridsolve/tiling/engine/_exact.c"],
            depends=[f"src/gridsolve/tiling/engine/{name}" for name in (
                "exact.h", "exact.c", "exact_impl.h", "alloc.h", "vectors.h", "problem.c",
                "table_impl.h", "state_impl.h", "prune_impl.h", "count_impl.h", "enum_impl.h")]
            + ["src/gridsolve/nonogram/engine/interrupt.h"],
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
        ),
    ],
    cmdclass={"build_ext": BuildExt},
)
