"""Command line: `python -m ascend_ext doctor`."""
import argparse
import sys


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m ascend_ext")
    sub = parser.add_subparsers(dest="command", required=True)
    doctor_parser = sub.add_parser("doctor", help="report what this machine has of CANN, torch_npu and the op package")
    doctor_parser.add_argument("--require", choices=["npu"], default=None,
                               help="exit with status 1 unless the NPU path is ready (the CPU twin is always "
                                    "required)")
    args = parser.parse_args()
    if args.command == "doctor":
        from .doctor import main as doctor

        return doctor(require=args.require)
    return 2


if __name__ == "__main__":
    sys.exit(main())
