"""`python -m ascend_ext bench`: the project's benchmarks (installed as the package ascend_ext.bench).

Three sections, each printing ratios measured side by side in one run (these machines are noisy):
  1. host path: what a call costs on 1-element tensors (host_path.py);
  2. the twin's throughput against ATen on this CPU (throughput.py);
  3. the cost model: each kernel's time on a 910B modelled from the twin's per-core counters, against the
     roofline floor, and validated against published 910B measurements (costmodel.py, profiles.py).
Results go to stdout, to a JSON file and to a roofline PNG. The targets and what was measured are in
benchmarks/NOTES.md.
"""
import argparse
import os
import platform
import time
from typing import List, Optional

SECTIONS = ("host", "throughput", "model")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="small shapes, fewer repeats, no torch.compile and no one-thread run: under a minute")
    parser.add_argument("--json", metavar="PATH", default="ascend_ext_bench.json", help="where to write the results")
    parser.add_argument("--plot", metavar="PATH", default="ascend_ext_bench.png", help="where to write the roofline PNG")
    parser.add_argument("--section", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); default: all three")


def run(args: argparse.Namespace) -> int:
    import torch

    import ascend_ext

    from . import host_path, model_cases, profiles, report, throughput, validation

    sections: List[str] = args.section or list(SECTIONS)
    started = time.perf_counter()
    print(f"ascend_ext bench{' --quick' if args.quick else ''}: torch {torch.__version__}, "
          f"{os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), twin platform "
          f"{ascend_ext.twin.get_platform()}")
    result: dict = {"quick": args.quick, "torch": torch.__version__, "cpus": os.cpu_count()}
    if "host" in sections:
        result["host"] = host_path.run(args.quick)
        report.print_host(result["host"])
    if "throughput" in sections:
        result["throughput"] = throughput.run(args.quick)
        report.print_throughput(result["throughput"])
    if "model" in sections:
        result["model"] = model_cases.run(args.quick)
        report.print_model(result["model"])
        result["validation"] = validation.run(args.quick)
        report.print_validation(result["validation"])
        result["profiles"] = {name: p.as_dict() for name, p in profiles.PROFILES.items()}
    missed = [r for s in ("host", "throughput") for r in result.get(s, []) if r.get("target") and not r["met"]]
    result["seconds"] = time.perf_counter() - started
    report.write_json(args.json, result)
    print(f"\nwrote {args.json}")
    if "model" in sections:
        err = report.plot(args.plot, result["model"])
        print(err if err else f"wrote {args.plot}")
    print(f"{len(missed)} target(s) missed; {result['seconds']:.0f} s")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="ascend-ext bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))
