"""Command line: `python -m ascend_ext {demo,doctor,bench,build}` (also installed as the `ascend-ext` script)."""
import argparse
import sys
from typing import List, Optional


def _bench_package():
    """ascend_ext.bench when installed; in a source tree (PYTHONPATH=torch_ext), the repository's benchmarks/."""
    try:
        from . import bench

        return bench
    except ImportError:
        import importlib.util
        import os

        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks")
        spec = importlib.util.spec_from_file_location("ascend_ext.bench", os.path.join(root, "__init__.py"),
                                                      submodule_search_locations=[root])
        if spec is None:
            raise
        module = importlib.util.module_from_spec(spec)
        sys.modules["ascend_ext.bench"] = module
        spec.loader.exec_module(module)
        return module


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="ascend-ext", description="ascend_ext: custom Ascend C operators for PyTorch")
    sub = parser.add_subparsers(dest="command", required=True)
    demo_parser = sub.add_parser("demo", help="train a small model built from ascend_ext's layers next to the same "
                                              "model built from torch's, and report",
                                 description="Trains a small residual MLP built from ascend_ext's layers on a "
                                             "synthetic task (no download), next to the same model built from torch's "
                                             "layers; reports loss and accuracy of both, each op's error vs float64 "
                                             "and the CPU twin's counters per kernel, and plots the loss curves.")
    from .demo import add_arguments

    add_arguments(demo_parser)
    bench_parser = sub.add_parser("bench", help="benchmarks: host path, the twin's throughput vs ATen, and the 910B cost "
                                                "model from the twin's counters (table, JSON, roofline PNG)",
                                  description="Runs the benchmarks in benchmarks/ (installed as ascend_ext.bench): "
                                              "ratios measured side by side in one run, and each kernel's modelled "
                                              "910B time against the roofline. See benchmarks/NOTES.md.")
    bench = _bench_package()
    bench.add_arguments(bench_parser)
    doctor_parser = sub.add_parser("doctor", help="report the active backend, a self-check of every op, and what this "
                                                  "machine has of CANN, torch_npu and the op package")
    doctor_parser.add_argument("--require", choices=["npu"], default=None,
                               help="exit with status 1 unless the NPU path is ready (the CPU twin is always "
                                    "required)")
    build_parser = sub.add_parser("build", help="prebuild the kernels of the ops a package declares (twin, and NPU "
                                                "where CANN is present) so that its users need no compiler",
                                  description="Imports the given modules and, for every op they declare with "
                                              "ascend_ext.library, builds its twin library and (where CANN is "
                                              "present) its NPU kernel-launch library into the package's "
                                              "_ascend_kernels/ directory next to the declaring file, where the "
                                              "loader looks first.")
    from .build import add_arguments as add_build_arguments

    add_build_arguments(build_parser)
    args = parser.parse_args(argv)
    if args.command == "build":
        from .build import run as run_build

        return run_build(args)
    if args.command == "doctor":
        from .doctor import main as doctor

        return doctor(require=args.require)
    if args.command == "bench":
        return bench.run(args)
    if args.command == "demo":
        from .demo import DemoError, run

        try:
            return run(args)
        except DemoError as exc:
            parser.exit(2, f"ascend-ext demo: error: {exc}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
