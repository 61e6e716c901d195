"""Command line: `python -m ascend_ext doctor`."""
import argparse
import sys


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m ascend_ext")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("doctor", help="report what this machine has of CANN, torch_npu and the op package")
    args = parser.parse_args()
    if args.command == "doctor":
        from .doctor import main as doctor

        return doctor()
    return 2


if __name__ == "__main__":
    sys.exit(main())
