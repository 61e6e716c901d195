"""Counts which advanced (高阶) Ascend C APIs public kernels call, per family and repository: the survey behind
docs/twin.md, "The advanced API in public kernels", which ordered the twin's work on the advanced API.

The repositories are read with `git grep` at their HEAD, from outside the project (nothing of them is copied
into it): each is a git directory, a checkout `<root>/<owner>/<name>` or a bare mirror
`<root>/<owner>+<name>/repo`. A kernel file is a .cpp/.h/.hpp/.cc/.asc file that includes kernel_operator.h or
declares `__aicore__`; a kernel is an op's directory (the part before `/op_kernel/`, else the file's folder);
files under the Ascend 950-only directories (arch35, regbase, ..._apt, v35, ascend950) are left out, and so are
definitions, comments and, for names a scalar helper often has (Ceil, Floor, Round, Log, Power, Sum, ...),
calls of fewer than three arguments. APIs whose name a basic API shares (Exp, Axpy, Select, Transpose) are not
counted, but for the reductions over a Pattern (ReduceSum/Max/Min/Prod/Any/All/Mean<T, Pattern::Reduce::..>), which
count when their template arguments name a Pattern. The count is by name: a kernel's own function of an API's
name counts too.

    python scripts/survey_adv_api.py --root /work/.mirror [--implemented Floor,Log,...]
"""
import argparse
import collections
import os
import re
import subprocess
import sys
from typing import Dict, List, Optional, Set

REPOS = ["hicann/ops-math", "hicann/ops-nn", "vllm-project/vllm-ascend", "sgl-project/sgl-kernel-npu",
         "By-gitee/opDev", "cannmirror/asc-devkit"]
ONLY_UNDER = {"cannmirror/asc-devkit": "examples/"}  # its samples, not the library itself

# The kernel-side API names under asc-devkit include/adv_api/, by family (checked against the headers).
FAMILIES = {
    "activation": "GeGLU FasterGelu FasterGeluV2 Gelu ReGlu Sigmoid Silu SwiGLU Swish",
    "SoftMax": "LogSoftMax SimpleSoftMax SoftMax AdjustSoftMaxRes SoftmaxFlash SoftmaxFlashV2 SoftmaxFlashV3 "
               "SoftmaxGrad SoftmaxGradFront",
    "math": "Acos Acosh Asin Asinh Atan Atanh BitwiseAnd BitwiseNot BitwiseOr BitwiseXor Ceil Clamp ClampMax ClampMin "
            "Cos Cosh CumSum Digamma Erf Erfc Floor Fma Fmod Frac Hypot IsFinite IsInf IsNan Lgamma Log Log10 Log2 "
            "LogicalAnd LogicalAnds LogicalNot LogicalOr LogicalOrs LogicalXor PhiloxRandom Power Rint Round Sign Sin "
            "SinCos Sinh Tan Tanh Trunc Where Xor",
    "normalization": "BatchNorm DeepNorm GroupNorm LayerNorm WelfordUpdate LayerNormGrad LayerNormGradBeta Normalize "
                     "RmsNorm WelfordFinalize",
    "reduce": "Mean Sum ReduceAll ReduceAny ReduceMean ReduceProd ReduceXorSum",
    "reduce (Pattern)": "ReduceSum<Pattern> ReduceMax<Pattern> ReduceMin<Pattern> ReduceProd<Pattern> "
                        "ReduceAny<Pattern> ReduceAll<Pattern> ReduceMean<Pattern>",
    "pad/transpose": "Pad UnPad ConfusionTranspose TransData",
    "quantization": "AntiQuantize AscendAntiQuant AscendDequant AscendQuant Dequantize Quantize",
    "index/sort/filter": "TopK ArithProgression DropOut",
}
SCALAR_HELPER_NAMES = {"Ceil", "Floor", "Round", "Trunc", "Log", "Log2", "Power", "Sum", "Sign", "Clamp"}
A5_ONLY = re.compile(r"(arch35|regbase|arch_35|/v35|ascend950|_apt)")
SOURCE_GLOBS = ["*.cpp", "*.h", "*.hpp", "*.cc", "*.asc"]


def git_dir(root: str, repo: str) -> Optional[str]:
    owner, name = repo.split("/")
    for candidate in (os.path.join(root, f"{owner}+{name}", "repo"), os.path.join(root, owner, name)):
        if os.path.isdir(candidate):
            return candidate
    return None


def git(gdir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir" if gdir.endswith("repo") else "-C", gdir, *args],
                          capture_output=True, text=True, errors="replace").stdout


def unit_of(path: str) -> str:
    m = re.match(r"(.*?)/op_kernel(/|$)", path)
    return m.group(1) if m else path.rsplit("/", 1)[0]


def survey(gdir: str, repo: str, names: Dict[str, str]) -> Dict[str, Set[str]]:
    """API name -> the kernels (op directories) of the repository that call it. A name "Xxx<Pattern>" is the
    call Xxx<..Pattern..>(...) only."""
    patterned = {n[:-len("<Pattern>")] for n in names if n.endswith("<Pattern>")}
    alternation = "|".join(sorted({n.replace("<Pattern>", "") for n in names}, key=len, reverse=True))
    call = re.compile(r"(?<![\w.>:])((?:AscendC::)?)(" + alternation + r")\s*(<[^;(){}]*>)?\s*\(")
    kernel_files = {line.split(":", 1)[1] for line in
                    git(gdir, "grep", "-l", "-E", "__aicore__|kernel_operator.h", "HEAD", "--", *SOURCE_GLOBS).split()}
    prefix = ONLY_UNDER.get(repo)
    hits: Dict[str, Set[str]] = collections.defaultdict(set)
    out = git(gdir, "grep", "-n", "-E", "(" + alternation + r")\s*(<[^;(]*>)?\s*\(", "HEAD", "--", *SOURCE_GLOBS)
    for line in out.splitlines():
        _, path, _, code = line.split(":", 3)
        if path not in kernel_files or A5_ONLY.search(path) or (prefix and not path.startswith(prefix)):
            continue
        code = re.sub(r"//.*", "", code)
        for m in call.finditer(code):
            before = code[:m.start()]
            if re.search(r"(void|inline|auto|static|define|[\w>&*]\s)\s*$", before) and \
                    not re.search(r"(return|[;{}=,(?:])\s*$", before):
                continue  # a definition or declaration
            rest, depth, args = code[m.end():], 1, 1
            for ch in rest:
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0:
                    break
                args += ch == "," and depth == 1
            if m.group(2) in SCALAR_HELPER_NAMES and args < 3 and depth == 0:
                continue
            name = m.group(2)
            if name in patterned:
                if "Pattern" not in (m.group(3) or ""):
                    if name not in names:
                        continue  # the basic API of that name
                else:
                    name += "<Pattern>"
            hits[name].add(unit_of(path))
    return hits


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="holds <owner>+<name>/repo mirrors or <owner>/<name> checkouts")
    parser.add_argument("--implemented", default="", help="comma list of API names the twin has, for the last line")
    opts = parser.parse_args(argv)
    names = {n: fam for fam, ns in FAMILIES.items() for n in ns.split()}
    results: Dict[str, Dict[str, Set[str]]] = {}
    for repo in REPOS:
        gdir = git_dir(opts.root, repo)
        if gdir is None:
            print(f"{repo}: not under {opts.root}, skipped", file=sys.stderr)
            continue
        head = git(gdir, "rev-parse", "--short", "HEAD").strip()
        print(f"{repo} {head}", file=sys.stderr)
        results[repo] = survey(gdir, repo, names)
    short = {r: r.split("/")[1] for r in results}
    print("| family | kernels | " + " | ".join(short.values()) + " | most used |")
    print("| --- | --- | " + " | ".join("---" for _ in short) + " | --- |")
    for fam in FAMILIES:
        per = {r: set().union(*[u for n, u in h.items() if names[n] == fam]) for r, h in results.items()}
        counts = collections.Counter({n: sum(len(h.get(n, ())) for h in results.values())
                                      for n in FAMILIES[fam].split()})
        top = ", ".join(f"{n} {c}" for n, c in counts.most_common(4) if c)
        print(f"| {fam} | {sum(len(u) for u in per.values())} | " +
              " | ".join(str(len(per[r])) for r in results) + f" | {top} |")
    implemented = {n for n in opts.implemented.split(",") if n}
    users = full = 0
    for h in results.values():
        units: Dict[str, Set[str]] = collections.defaultdict(set)
        for n, us in h.items():
            for u in us:
                units[u].add(n)
        users += len(units)
        full += sum(1 for called in units.values() if called <= implemented)
    print(f"\n{users} kernels call an advanced API; {full} call only ones in --implemented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
