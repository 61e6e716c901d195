"""What the per-repository kernel lists share: a launch (Case), a kernel (Kernel), and the host-tiling helpers
that re-express the tiling formulas of the kernels' own host code."""
import dataclasses
import os
import re
import struct
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import torch

UB_BYTES = 192 * 1024  # A2 (Ascend910B) UB, what PlatformAscendC::GetCoreMemSize(UB) reports to host tilings
CORE_NUM = 8  # the coreNum given to the host tiling formulas (the real ones ask the platform: 40 or 48 AIV)


@dataclasses.dataclass
class Case:
    """One launch: the entry's arguments in order, and the expected value of each output."""
    block_dim: int
    args: Dict[str, object]
    expect: Dict[str, torch.Tensor]
    rtol: float = 1e-5
    atol: float = 1e-6
    label: str = ""  # names the case when a kernel has several
    tiling_key: int = 0
    stdout: Optional[str] = None  # what the launch must print (AscendC::printf), for kernels whose output is text


@dataclasses.dataclass
class Kernel:
    name: str  # short name for --only
    repo: str  # owner/name
    path: str  # kernel source inside the repository
    entry: str  # the __global__ function (as the compiler sees it: macro-declared names expanded)
    features: str  # API families it exercises (for the doc table)
    # (kernel dir, generator) -> a Case or a list of them; None: compile only
    make_case: Optional[Callable[[str, torch.Generator], object]]
    template: str = ""  # template arguments of the entry ("0" -> entry<0>)
    build: object = ""  # C++ the op build would generate (DTYPE_* macros, the tiling struct), or (repo dir) -> it
    include: Sequence[str] = ()  # include directories the kernel's build adds, relative to the repository
    # other repositories the kernel's build takes include directories from: (owner/name, the commit measured,
    # the directory inside it), each checked out under the same root
    deps: Sequence[Tuple[str, str, str]] = ()
    defines: Dict[str, Optional[str]] = dataclasses.field(default_factory=dict)  # -D the kernel's build passes
    # why the kernel is not run (its host tiling not re-expressed, no A2 build, ...): compiled only, counted
    # as a failure with "not measured: <reason>"
    not_measured: str = ""


# ---- tiling helpers: the host tiling formulas of the kernels, re-expressed ----------------------------------

def blocked_split(n: int, elem_bytes: int, ub_parts: int, core_num: int = CORE_NUM, block: int = 32,
                  ub: int = UB_BYTES) -> Dict[str, int]:
    """The elementwise split most ops-math experimental kernels share: the input, rounded up to whole
    blocks, is spread over the cores in whole blocks (the first tailBlockNum cores get one block more),
    and each core walks its part in tiles of ub / block / ub_parts blocks, the last tile shorter."""
    aligned = (n * elem_bytes + block - 1) // block * block
    tile_blocks = (ub // block) // ub_parts
    tile = tile_blocks * block // elem_bytes
    cores = 1 if tile >= n else min(core_num, aligned // block)
    every = aligned // block // cores
    out = {"blockDim": cores, "tailBlockNum": (aligned // block) % cores, "tileDataNum": tile}
    for kind, blocks in (("small", every), ("big", every + 1)):
        data = blocks * block // elem_bytes
        tiles = blocks // tile_blocks
        out[f"{kind}CoreDataNum"] = data
        out[f"final{kind.capitalize()}TileNum"] = tiles if blocks % tile_blocks == 0 else tiles + 1
        tail = data - tile * tiles
        out[f"{kind}TailDataNum"] = tail if tail else tile
    return out


_CTYPES = {"uint32_t": "I", "int32_t": "i", "uint64_t": "Q", "int64_t": "q", "float": "f", "uint16_t": "H",
           "int16_t": "h", "uint8_t": "B", "int8_t": "b", "bool": "?", "int": "i", "uint32": "I", "int32": "i",
           "uint64": "Q", "int64": "q", "double": "d", "size_t": "Q", "uint16": "H", "int16": "h", "uint8": "B",
           "int8": "b", "unsigned": "I", "float32_t": "f", "char": "b"}


def _strip(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def read_struct(header: str, name: str) -> List[tuple]:
    """The fields (type, name, count) of a plain tiling struct in a kernel header."""
    with open(header) as f:
        text = _strip(f.read())
    start = re.search(r"struct\s+%s\s*\{" % name, text)
    if not start:
        raise ValueError(f"no struct {name} in {header}")
    depth, end = 1, start.end()
    while depth:  # to the struct's closing brace (member initializers such as `= {0}` have braces too)
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    # array counts named by a constant of the header (`constexpr uint32_t N = 8;` or `#define N 8`)
    consts = dict(re.findall(r"(?:constexpr|const)\s+\w+\s+(\w+)\s*=\s*(\d+)\w*\s*;", text))
    consts.update(re.findall(r"#define\s+(\w+)\s+\(?(\d+)\w*\)?\s*$", text, re.M))
    fields = []
    for decl in text[start.end():end - 1].split(";"):
        m = re.match(r"\s*(?:const\s+)?(\w+)\s+(\w+)\s*(?:\[(\w+)\])?\s*(?:=.*)?$", decl.strip())
        if m:
            fields.append((m.group(1), m.group(2), consts.get(m.group(3), m.group(3))))
    return fields


def read_tiling_def(header: str, name: Optional[str] = None) -> Tuple[str, List[tuple]]:
    """The name and fields (type, name, count) of a host tiling struct declared with
    BEGIN_TILING_DATA_DEF(name) / TILING_DATA_FIELD_DEF(type, field) / TILING_DATA_FIELD_DEF_ARR(type, count,
    field); without a name, the header's first."""
    with open(header) as f:
        text = _strip(f.read())
    body = re.search(r"BEGIN_TILING_DATA_DEF\s*\(\s*(%s)\s*\)(.*?)END_TILING_DATA_DEF" % (name or r"\w+"), text, re.S)
    if not body:
        raise ValueError(f"no BEGIN_TILING_DATA_DEF({name or '...'}) in {header}")
    fields = []
    for m in re.finditer(r"TILING_DATA_FIELD_DEF(_ARR)?\s*\(([^)]*)\)", body.group(2)):
        parts = [p.strip() for p in m.group(2).split(",")]
        fields.append((parts[0], parts[2], parts[1]) if m.group(1) else (parts[0], parts[1], None))
    return body.group(1), fields


def tiling_struct_source(fields: List[tuple], name: str) -> str:
    """The C struct the op build generates from a host tiling definition, registered as the default tiling
    (what GET_TILING_DATA reads)."""
    body = "".join(f"    {t} {n}{f'[{c}]' if c else ''};\n" for t, n, c in fields)
    return f"struct {name} {{\n{body}}};\nREGISTER_TILING_DEFAULT({name});\n"


def pack_struct(fields: List[tuple], values: Dict[str, object]) -> bytes:
    """Packs values by field name with C layout (natural alignment); absent fields are zero. An array field
    takes a sequence (zero-padded to its count); the count must be a number."""
    fmt, data = "@", []
    for ctype, name, count in fields:
        code = _CTYPES[ctype]
        if count is not None:
            n = int(count)
            seq = list(values.get(name, ()))
            fmt += f"{n}{code}"
            data += seq + [0] * (n - len(seq))
        else:
            fmt += code
            data.append(values.get(name, 0))
    size = struct.calcsize(fmt)
    widest = max(struct.calcsize("@" + _CTYPES[c]) for c, _, _ in fields)
    return struct.pack(fmt, *data) + b"\0" * ((-size) % widest)


def header_struct(kdir: str, header: str, struct_name: str, values: Dict[str, object]) -> bytes:
    return pack_struct(read_struct(os.path.join(kdir, header), struct_name), values)


def _list_layout(tensors: List[torch.Tensor]) -> Tuple[int, List[int], int]:
    desc_words = sum(1 + t.dim() for t in tensors)
    header = 8 * (1 + desc_words)
    data_at, size = [], header + 8 * len(tensors)
    for t in tensors:
        size = (size + 31) // 32 * 32
        data_at.append(size)
        size += t.numel() * t.element_size()
    return header, data_at, size


def list_tensor(tensors: List[torch.Tensor]):
    """A dynamic input list as the op framework lays it out in GM (ListTensorDesc), with the tensors' data
    inside the same buffer: [offset of the pointers][index << 32 | dim, shape...] per tensor, the pointers,
    then the data; launched as untyped GM (twin.UntypedGm: it holds words and the tensors' elements)."""
    header, data_at, size = _list_layout(tensors)
    buf = torch.zeros(size, dtype=torch.uint8)
    base = buf.data_ptr()
    words = [header]
    for i, t in enumerate(tensors):
        words.append((i << 32) | t.dim())
        words += list(t.shape)
    words += [base + off for off in data_at]
    buf[:8 * len(words)] = torch.tensor(words, dtype=torch.int64).view(torch.uint8)
    buf.copy_(list_expect(buf, tensors))
    from ascend_ext.twin import UntypedGm
    return UntypedGm(buf)


def list_expect(buf, tensors: List[torch.Tensor]) -> torch.Tensor:
    """`buf` (a list_tensor of tensors shaped as these) with these tensors' data: what a kernel writing a list
    in place should leave."""
    out = getattr(buf, "tensor", buf).clone()
    for t, off in zip(tensors, _list_layout(tensors)[1]):
        out[off:off + t.numel() * t.element_size()] = t.contiguous().view(-1).view(torch.uint8)
    return out


def host_tiling(rel_header: str):
    """The op build's tiling struct, from the op's host tiling definition (BEGIN_TILING_DATA_DEF)."""
    def build(repo_dir: str) -> str:
        return tiling_struct_source(*reversed(read_tiling_def(os.path.join(repo_dir, rel_header))))
    return build


def rand(gen: torch.Generator, n, lo: float = -1.0, hi: float = 1.0, dtype=torch.float32) -> torch.Tensor:
    shape = (n,) if isinstance(n, int) else tuple(n)
    return (torch.rand(shape, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


def tol(dtype) -> Tuple[float, float]:
    """(rtol, atol) for results rounded once to `dtype` from float32 arithmetic."""
    return {torch.float16: (2e-3, 1e-3), torch.bfloat16: (1e-2, 8e-3)}.get(dtype, (1e-5, 1e-6))
