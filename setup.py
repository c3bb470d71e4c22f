"""Build the compiled cores (plain C, no Cython needed) with -O3 and without -fwrapv."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FLAGS = ["-O3", "-std=c99", "-Wall", "-Wno-unused-function"]


class BuildExt(build_ext):
    """Drop Python's default -fwrapv (measured ~7% slower on the hot loops)."""

    def build_extensions(self) -> None:
        for attr in ("compiler_so", "compiler"):
            cmd = getattr(self.compiler, attr, None)
            if isinstance(cmd, list):
                setattr(self.compiler, attr, [a for a in cmd if a != "-fwrapv"])
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "gridsolve.nonogram.engine._core",
            sources=["src/gridsolve/nonogram/engine/_core.c"],
            depends=["src/gridsolve/nonogram/engine/core.h", "src/gridsolve/nonogram/engine/solver.c"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "gridsolve.nonogram.engine._colour",
            sources=["src/gridsolve/nonogram/engine/_colour.c"],
            depends=["src/gridsolve/nonogram/engine/colour.h",
                     "src/gridsolve/nonogram/engine/colour.c"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "gridsolve.tiling.engine._exact",
            sources=["src/gridsolve/tiling/engine/_exact.c"],
            depends=["src/gridsolve/tiling/engine/exact.h", "src/gridsolve/tiling/engine/exact.c",
                     "src/gridsolve/tiling/engine/exact_impl.h"],
            extra_compile_args=FLAGS,
        ),
    ],
    cmdclass={"build_ext": BuildExt},
)
