#!/usr/bin/env python3
"""Measures the twin's coverage with public Ascend C kernels written by others.

Each kernel source is compiled unchanged against the twin (ascend_ext.twin.compile_kernels), run on random
inputs with a tiling worked out the way the op's host tiling does, and compared with a float64 reference.
The result is a table: kernel, compiles?, runs clean (no rule violation)?, matches the reference?, first
error. docs/twin.md ("Measured with kernels written by others") records the last run.

The kernels are not part of this project and nothing of them is copied into it: check the repositories
out anywhere outside the project, one directory per repository named <owner>/<name> under a root (the
repositories and the commits of the last run are in docs/twin.md), and run, with the ascend_ext extension
built and installed (scripts/bootstrap.sh):

    .venv/bin/python scripts/measure_public_kernels.py --root /tmp/pubk [--only NAME ...] [--repo OWNER/NAME]

A kernel whose repository is missing under the root is listed as "source missing". Not run in CI (no
network there). The kernels, with the host-tiling formula and the float64 reference of each, are listed per
repository in scripts/public_kernels/.

What the script adds around a kernel is what the op build generates, never a change to the kernel: the
DTYPE_<INPUT> macros of the op definition, the tiling struct where the op declares it on the host side
(BEGIN_TILING_DATA_DEF) and the kernel only reads it through GET_TILING_DATA, the include directories and
macros of the kernel's own build, and, for a kernel that is a template over its tiling-key parameters
(ASCENDC_TPL_ARGS_DECL), the instantiation the tiling key selects. These go into a small wrapper translation
unit (in a temporary directory) that includes the kernel source.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from typing import Dict, List, Optional, Tuple

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from public_kernels import REPOSITORIES, all_kernels  # noqa: E402
from public_kernels.common import Kernel  # noqa: E402


def first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line:
            return re.sub(r"^.*?(error: )", r"\1", line).strip()
    return text.strip().splitlines()[0] if text.strip() else ""


# The qualifiers a kernel entry is declared with: __global__ with __aicore__ (op kernels) or with a kernel-type
# qualifier (__vector__, __cube__, __mix__(m, n): the kernel-launch examples), in either order.
_QUALIFIER = r"(?:__global__|__aicore__|__vector__|__cube__|__mix__\s*\([^()]*\))"
_KERNEL_TYPE = re.compile(r"__vector__|__cube__|__mix__\s*\([^()]*\)")


def entry_declaration(source: str, name: str) -> Optional[Tuple[str, List[Tuple[str, str]]]]:
    """The kernel-type qualifier (or "") and the (declaration, name) of each parameter of the template kernel
    entry `name` in a source file."""
    with open(source) as f:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
    m = re.search(r"((?:%s\s+)+)void\s+%s\s*\(([^)]*)\)" % (_QUALIFIER, name), text)
    if not m or "__global__" not in m.group(1):
        return None
    kind = _KERNEL_TYPE.search(m.group(1))
    params = [(p.strip(), re.findall(r"\w+", p)[-1]) for p in m.group(2).split(",") if p.strip() not in ("", "void")]
    return (kind.group(0) if kind else ""), params


def entry_params(source: str, name: str) -> Optional[List[Tuple[str, str]]]:
    """(declaration, name) of each parameter of the template kernel entry `name` in a source file."""
    found = entry_declaration(source, name)
    return None if found is None else found[1]


def template_bound(text: str, name: str, template: str, decl: str) -> str:
    """A parameter declaration of the template entry `name` with the entry's template parameters (`__gm__ T* x`
    of `template <typename T, ...>`) replaced by the template arguments the launch gives."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    m = re.search(r"template\s*<([^<>]*)>\s*(?:%s\s+)+void\s+%s\s*\(" % (_QUALIFIER, name), text)
    if not m:
        return decl
    names = [re.findall(r"\w+", p.split("=")[0])[-1] for p in m.group(1).split(",") if p.strip()]
    args = [a.strip() for a in template.split(",")]
    for pname, arg in zip(names, args):
        decl = re.sub(r"\b%s\b" % pname, arg, decl)
    return decl


def wrapper_source(k: Kernel, source: str, build: str) -> str:
    """For a template entry, the unit that instantiates it: an extern "C" twin_entry, of the entry's kernel type,
    calling the instantiation the tiling key selects. A source whose host code launches kernels with <<<>>>
    (a single-file example: kernels and host main) goes in as the twin reads such a file."""
    from ascend_ext.twin_kernels import translation_unit

    found = entry_declaration(source, k.entry)
    if found is None:
        raise LookupError(f"no kernel entry '{k.entry}' found")
    kind, params = found
    with open(source, errors="replace") as f:
        text = f.read()
    launches = "<<<" in text
    params = [(template_bound(text, k.entry, k.template, d), n) for d, n in params]
    head = f'#include "kernel_operator.h"\n{build}'
    body = translation_unit(source, head) if launches else f'{head}\n#include "{source}"\n'
    return textwrap.dedent("""\
        // Generated by scripts/measure_public_kernels.py: what the op build adds around {path}.
        {body}
        extern "C" __global__ {kind} __aicore__ void twin_entry({decl})
        {{
            {entry}<{template}>({args});
        }}
        """).format(path=k.path, body=body, kind=kind, decl=", ".join(d for d, _ in params), entry=k.entry,
                    template=k.template, args=", ".join(n for _, n in params))


def compare(where: str, name: str, got: torch.Tensor, expect: torch.Tensor, rtol: float, atol: float):
    if not got.dtype.is_floating_point:
        ok = torch.equal(got.to(expect.dtype), expect)
        return ok, f"{where}{name}: {'bit-equal' if ok else 'differs'}" + (
            "" if ok else f" ({int((got.to(expect.dtype) != expect).sum())} of {got.numel()} elements)")
    g, expect = got.double(), expect.double()
    bad = ~torch.isclose(g, expect, rtol=rtol, atol=atol, equal_nan=True)
    ok = not bool(bad.any())
    err = (g - expect).abs().nan_to_num(0.0).max().item() if g.numel() else 0.0
    return ok, f"{where}{name}: max |err| {err:.3g}" + ("" if ok else f", {int(bad.sum())} of {g.numel()} off")


def launch_printing(lib, name: str, case) -> str:
    """Launches and returns what the kernels printed to the process's stdout (file descriptor 1) meanwhile."""
    import ctypes

    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        try:
            lib.launch(name, case.block_dim, tiling_key=case.tiling_key, **case.args)
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode(errors="replace")


def measure(k: Kernel, root: str, tmp: str, seed: int, defines: Dict[str, str]) -> dict:
    from ascend_ext import twin

    row = {"name": k.name, "repo": k.repo, "kernel": f"`{k.path}`", "features": k.features, "compiles": "",
           "runs": "", "matches": "", "error": ""}
    source = os.path.join(root, k.repo, k.path)
    if not os.path.exists(source):
        row["error"] = "source missing (check the repository out under --root)"
        return row
    build = k.build(os.path.join(root, k.repo)) if callable(k.build) else k.build
    includes = [os.path.dirname(source)] + [os.path.join(root, k.repo, d) for d in k.include]
    for repo, commit, d in k.deps:
        if not os.path.isdir(os.path.join(root, repo, d)):
            row["error"] = (f"dependency missing: {repo} at {commit[:10]} (the kernel's build adds its {d}; check "
                            "it out under --root)")
            return row
        includes.append(os.path.join(root, repo, d))
    try:
        if not k.entry:  # an example without a run: compiled unchanged, counted as failing
            twin.compile_kernels([source], include_dirs=includes, defines={**k.defines, **defines})
            row["compiles"] = "yes"
            row["error"] = "compiles; no run specified yet"
            return row
        if k.template:  # a unit instantiating the template entry
            unit = os.path.join(tmp, f"{k.name}.cpp")
            with open(unit, "w") as f:
                f.write(wrapper_source(k, source, build))
            launch_name = "twin_entry"
            lib = twin.compile_kernels([unit], include_dirs=includes, defines={**k.defines, **defines})
        else:  # the source itself, after what its build generates
            launch_name = k.entry
            lib = twin.compile_kernels([source], include_dirs=includes, defines={**k.defines, **defines},
                                       prelude=f'#include "kernel_operator.h"\n{build}' if build else "")
    except LookupError as e:
        row["compiles"] = "no"
        row["error"] = str(e)
        return row
    except twin.KernelCompileError as e:
        row["compiles"] = "no"
        row["error"] = first_error(str(e))
        if k.not_measured:
            row["error"] = f"not measured: {k.not_measured} (compiling: {row['error']})"
        return row
    row["compiles"] = "yes"
    if k.not_measured:
        row["error"] = f"not measured: {k.not_measured}"
        return row
    if launch_name not in lib.entries:
        row["error"] = f"no kernel entry '{launch_name}' found; entries: {', '.join(sorted(lib.entries)) or 'none'}"
        return row
    if k.make_case is None:
        row["error"] = "no run specified"
        return row
    params = lib.entries[launch_name]
    gen = torch.Generator().manual_seed(seed)
    try:
        cases = k.make_case(os.path.dirname(source), gen)
    except (LookupError, OSError, ValueError) as e:  # the example's own host code, run to get its tiling
        row["error"] = f"inputs not built: {str(e).strip().splitlines()[0]}"
        return row
    cases = cases if isinstance(cases, list) else [cases]
    details, failures, runs, matches = [], [], [], []
    for case in cases:
        where = f"{case.label}: " if case.label else ""
        if list(case.args) != params:
            raise ValueError(f"{k.name}: the case gives ({', '.join(case.args)}), the kernel takes "
                             f"({', '.join(params)})")
        try:
            if case.stdout is None:
                lib.launch(launch_name, case.block_dim, tiling_key=case.tiling_key, **case.args)
            else:
                printed = launch_printing(lib, launch_name, case)
        except (twin.KernelRuleViolation, RuntimeError) as e:
            runs.append(False)
            message = str(e).strip().splitlines()[0]
            message = re.sub(r"ascend_ext twin: kernel '\w+', ", "", message)
            details.append(where + re.sub(r" at 0x[0-9a-f]+", "", message))  # no addresses: runs compare
            failures.append(details[-1])
            continue
        runs.append(True)
        if case.stdout is not None:
            got, want = printed.splitlines(), case.stdout.splitlines()
            ok = got == want
            bad = sum(a != b for a, b in zip(got, want)) + abs(len(got) - len(want))
            details.append(f"{where}stdout: {len(got)} lines" + (", as expected" if ok else f", {bad} differ"))
            matches.append(ok)
            if not ok:
                failures.append(details[-1])
        for name, expect in case.expect.items():
            got = case.args[name]
            got = getattr(got, "tensor", got)  # an UntypedGm's bytes
            if isinstance(expect, tuple):  # (expected values, the slice of the output they are)
                expect, part = expect
                got = got[part]
            ok, detail = compare(where, name, got, expect, case.rtol, case.atol)
            details.append(detail)
            matches.append(ok)
            if not ok:
                failures.append(detail)
    row["runs"] = "yes" if all(runs) else ("no" if not any(runs) else "partly")
    row["matches"] = "-" if not matches else ("yes" if all(matches) and all(runs) else
                                              ("no" if not any(matches) else "partly"))
    row["detail"] = "; ".join(details)
    row["error"] = "; ".join(failures)
    return row


def commit_of(root: str, repo: str) -> str:
    """The checkout's commit: its git HEAD, or the COMMIT file an export (git archive) leaves next to it."""
    path = os.path.join(root, repo)
    marker = os.path.join(path, "COMMIT")
    if os.path.exists(marker):
        with open(marker) as f:
            return f.read().strip()[:10]
    proc = subprocess.run(["git", "-C", path, "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else "unknown"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="directory holding <owner>/<name> checkouts")
    parser.add_argument("--only", nargs="*", help="kernel names to run (default: all)")
    parser.add_argument("--repo", action="append", default=[], help="only the kernels of this repository")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--list", action="store_true", help="list the kernels and exit")
    parser.add_argument("--define", action="append", default=[], metavar="NAME=VALUE",
                        help="an extra -D for every kernel, to look past a missing name (the kernels then no "
                             "longer compile unchanged; the table says so)")
    opts = parser.parse_args(argv)
    defines = dict(d.split("=", 1) if "=" in d else (d, None) for d in opts.define)
    kernels = all_kernels(opts.root)
    if opts.list:
        for k in kernels:
            print(f"{k.name:34} {k.repo:28} {k.path}")
        return 0
    chosen = [k for k in kernels if (not opts.only or k.name in opts.only) and (not opts.repo or k.repo in opts.repo)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pubk_") as tmp:
        for k in chosen:
            row = measure(k, opts.root, tmp, opts.seed, defines)
            rows.append(row)
            print(f"{k.name}: compiles {row['compiles'] or '-'}, runs {row['runs'] or '-'}, "
                  f"matches {row['matches'] or '-'}: {row.get('detail') or row['error']}", file=sys.stderr)
    print("| repository | kernel | API features | compiles | runs clean | matches | first error (or the largest error) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        err = (r["error"] or r.get("detail", "")).replace("|", "\\|")
        print(f"| {r['repo']} | {r['kernel']} | {r['features']} | {r['compiles'] or '-'} | {r['runs'] or '-'} | "
              f"{r['matches'] or '-'} | {err} |")
    print()
    for repo in REPOSITORIES:
        mine = [r for r in rows if r["repo"] == repo]
        if mine:
            passed = sum(r["matches"] == "yes" for r in mine)
            print(f"- {repo} ({commit_of(opts.root, repo)}): {passed} of {len(mine)} pass")
    passed = sum(r["matches"] == "yes" for r in rows)
    unrun = sum(1 for k in chosen if not k.entry)
    if unrun:
        print(f"\n{unrun} of the entries are asc-devkit A2 examples without a run (the compiler's first error, or "
              f"'no run specified yet'): counted as failures.")
    print(f"\n{passed} of {len(rows)} entries (a kernel, or one instantiation of a template kernel) compile, run "
          "clean and match the reference in every case"
          + (f" (with {' '.join('-D' + d for d in opts.define)})." if opts.define else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
