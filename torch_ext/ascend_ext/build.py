"""Ahead-of-time builds of a package's declared ops: ``python -m ascend_ext build`` and a setuptools command.

A package that declares ops with ``ascend_ext.library`` can ship their kernels prebuilt, so that installing
its wheel needs no compiler at import time on the twin, and the NPU binaries are built where CANN is:

    python -m ascend_ext build mypkg.ops                  # or a .py file, or a package directory
    python -m ascend_ext build mypkg --targets twin,npu --soc Ascend910B2,Ascend910B3

or, in the package's setup.py (the wheel then carries them)::

    from ascend_ext.build import BuildAscendKernels
    setup(..., cmdclass={"build_py": BuildAscendKernels},
          options={"build_py": {"ascend_modules": "mypkg.ops"}})

Either imports the declaring modules, and for every op they declare builds its twin library and, where CANN
is present (ASCEND_HOME_PATH), its NPU library for each SoC (``--soc``, else ASCEND_EXT_SOC_VERSION, else the
visible NPU's) into ``_ascend_kernels/`` next to the file that declares the op, where the runtime loader looks
before compiling anything (``--out DIR`` puts them elsewhere: the loader then needs ASCEND_EXT_KERNEL_PATH=DIR).
Asked for explicitly (``--targets npu``), a missing CANN is an error; by default the NPU half is skipped there,
with a note.
"""
import argparse
import contextlib
import importlib
import importlib.util
import os
import sys
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

PREBUILT_DIR = "_ascend_kernels"  # where ascend_ext.library looks, next to the file that declares an op
TARGETS = ("twin", "npu")


class BuildError(RuntimeError):
    """The ahead-of-time build cannot run as asked (nothing to import, no ops declared, bad targets)."""


def prebuilt_dir(op, module_file: str) -> str:
    """Where the prebuilt kernels of a declared op live: next to the file that declared it (the op's base_dir),
    else next to the module imported."""
    base = getattr(op, "base_dir", None) or os.path.dirname(os.path.abspath(module_file))
    return os.path.join(base, PREBUILT_DIR)


def parse_targets(text: str) -> Tuple[str, ...]:
    targets = tuple(t.strip() for t in text.split(",") if t.strip())
    unknown = [t for t in targets if t not in TARGETS]
    if unknown or not targets:
        raise BuildError(f"--targets {text!r}: expected a comma-separated list of {', '.join(TARGETS)}")
    return targets


def import_target(target: str):
    """Imports a module name, a .py file or a package directory; returns the module."""
    path = os.path.abspath(target)
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, "__init__.py")):
            raise BuildError(f"{target} is a directory without __init__.py: give a package, a module or a .py file")
        parent, name = os.path.split(path.rstrip(os.sep))
        return _import_from(parent, name)
    if target.endswith(".py"):
        if not os.path.isfile(path):
            raise BuildError(f"{target}: no such file")
        directory, stem = os.path.dirname(path), os.path.basename(path)[:-3]
        # A module inside packages is imported under its dotted name, so that its relative imports work.
        parts = [stem]
        while os.path.isfile(os.path.join(directory, "__init__.py")):
            directory, package = os.path.split(directory)
            parts.insert(0, package)
        return _import_from(directory, ".".join(parts))
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name and target.startswith(exc.name):
            raise BuildError(f"cannot import {target!r}: no such module (give an importable module name, a .py "
                             "file or a package directory)") from None
        raise


def _import_from(directory: str, name: str):
    if directory not in sys.path:
        sys.path.insert(0, directory)
    return importlib.import_module(name)


def _library():
    return importlib.import_module("ascend_ext.library")


def _op_name(op) -> str:
    return str(getattr(op, "qualname", None) or getattr(op, "name", None) or op)


@contextlib.contextmanager
def _soc(soc: Optional[str]) -> Iterator[None]:
    """ASCEND_EXT_SOC_VERSION set to ``soc`` for the NPU half of a prebuild (the SoC npu_kernels.build uses)."""
    if soc is None:
        yield
        return
    old = os.environ.get("ASCEND_EXT_SOC_VERSION")
    os.environ["ASCEND_EXT_SOC_VERSION"] = soc
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ASCEND_EXT_SOC_VERSION", None)
        else:
            os.environ["ASCEND_EXT_SOC_VERSION"] = old


def build_modules(targets_to_import: Sequence[str], out_dir: Optional[str] = None,
                  targets: Sequence[str] = TARGETS, socs: Sequence[str] = (), explicit_targets: bool = False,
                  log: Callable[[str], None] = print) -> List[Tuple[str, str, str]]:
    """Imports each of ``targets_to_import`` and prebuilds the ops it declares (see the module docstring).

    Returns (op, target, directory) per build made. ``explicit_targets``: the caller asked for the targets
    (then a missing CANN for "npu" is an error rather than a skip)."""
    library = _library()
    targets = tuple(targets)
    if "npu" in targets and not os.environ.get("ASCEND_HOME_PATH") and not explicit_targets:
        log("NPU kernels skipped: ASCEND_HOME_PATH is not set (no CANN here); build them where CANN is present "
            "(python -m ascend_ext build ... --targets npu)")
        targets = tuple(t for t in targets if t != "npu")
    if "npu" in targets and not os.environ.get("ASCEND_HOME_PATH"):
        raise BuildError("--targets npu needs CANN: ASCEND_HOME_PATH is not set (run 'source <CANN "
                         "install>/set_env.sh')")
    done: List[Tuple[str, str, str]] = []
    for target in targets_to_import:
        before = {id(op) for op in library.declared_ops()}
        module = import_target(target)
        ops = [op for op in library.declared_ops() if id(op) not in before]
        if not ops:
            raise BuildError(f"{target}: importing it declared no ops (declare them with ascend_ext.library; a "
                             "module imported earlier in this process declared its ops then)")
        for op in ops:
            directory = out_dir or prebuilt_dir(op, module.__file__)
            host = tuple(t for t in targets if t != "npu")
            if host:
                op.prebuild(directory, targets=host)
                done += [(_op_name(op), t, directory) for t in host]
            if "npu" in targets:
                for soc in socs or [None]:
                    with _soc(soc):
                        op.prebuild(directory, targets=("npu",))
                    done.append((_op_name(op), f"npu({soc})" if soc else "npu", directory))
    return done


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="+", help="module name, .py file or package directory that declares ops")
    parser.add_argument("--out", default=None, help=f"directory for the built kernels (default: {PREBUILT_DIR}/ next "
                                                    "to the file declaring each op, where the loader looks; with "
                                                    "--out the loader needs ASCEND_EXT_KERNEL_PATH=DIR)")
    parser.add_argument("--targets", default=None, help="comma-separated: twin,npu (default both; npu is skipped "
                                                        "where CANN is absent unless asked for)")
    parser.add_argument("--soc", default=None, help="comma-separated SoCs to build the NPU kernels for (default: "
                                                    "ASCEND_EXT_SOC_VERSION, else the visible NPU's)")


def run(args: argparse.Namespace) -> int:
    from .npu_kernels import CannNotFoundError
    from .twin_kernels import KernelCompileError

    try:
        targets = parse_targets(args.targets) if args.targets else TARGETS
        socs = [s.strip() for s in args.soc.split(",") if s.strip()] if args.soc else []
        done = build_modules(args.target, args.out, targets, socs, explicit_targets=args.targets is not None)
    except (BuildError, CannNotFoundError) as exc:
        print(f"ascend-ext build: error: {exc}", file=sys.stderr)
        return 2
    except KernelCompileError as exc:
        print(f"ascend-ext build: kernel compile error: {exc}", file=sys.stderr)
        return 1
    for op, target, directory in done:
        print(f"  built {op:<32} {target:<22} -> {directory}")
    print(f"{len({op for op, _, _ in done})} op(s) prebuilt")
    return 0


# ---- setuptools ------------------------------------------------------------------------------------------------

def _build_py_base():
    from setuptools.command.build_py import build_py

    return build_py


def __getattr__(name: str):
    # BuildAscendKernels subclasses setuptools' build_py: made on first use, so that importing ascend_ext.build
    # does not import setuptools.
    if name == "BuildAscendKernels":
        command = _make_command()
        globals()[name] = command
        return command
    raise AttributeError(name)


def _make_command():
    base = _build_py_base()

    class BuildAscendKernels(base):
        """build_py that also prebuilds the kernels of the ops the package declares into the build tree
        (so the wheel carries them). Options: ascend_modules (comma-separated modules that declare ops;
        default: the distribution's top-level packages), ascend_targets (default twin,npu; npu skipped where
        CANN is absent), ascend_socs (default: ASCEND_EXT_SOC_VERSION, else the visible NPU's)."""

        description = base.description + ", and prebuild the kernels of the ops it declares (ascend_ext)"
        user_options = base.user_options + [
            ("ascend-modules=", None, "comma-separated modules that declare ops"),
            ("ascend-targets=", None, "comma-separated kernel targets: twin,npu"),
            ("ascend-socs=", None, "comma-separated SoCs for the NPU kernels"),
        ]

        def initialize_options(self):
            super().initialize_options()
            self.ascend_modules = None
            self.ascend_targets = None
            self.ascend_socs = None

        def run(self):
            super().run()
            modules = [m.strip() for m in (self.ascend_modules or "").split(",") if m.strip()]
            if not modules:
                modules = sorted({p.split(".")[0] for p in (self.packages or [])})
            if not modules:
                raise BuildError("BuildAscendKernels: no modules to import; set ascend_modules (the modules that "
                                 "declare ops)")
            targets = parse_targets(self.ascend_targets) if self.ascend_targets else TARGETS
            socs = [s.strip() for s in (self.ascend_socs or "").split(",") if s.strip()]
            build_lib = os.path.abspath(self.build_lib)
            sys.path.insert(0, build_lib)  # the modules as they will be installed, so prebuilt_dir lands in the wheel
            try:
                for op, target, directory in build_modules(modules, None, targets, socs,
                                                           explicit_targets=self.ascend_targets is not None,
                                                           log=lambda text: self.announce(text, level=2)):
                    self.announce(f"ascend_ext: prebuilt {op} ({target}) into {directory}", level=2)
            finally:
                sys.path.remove(build_lib)

    return BuildAscendKernels
