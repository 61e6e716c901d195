"""cannmirror/asc-devkit: the single-file examples (examples/01_simd_cpp_api/03_basic_api/ and 04_advanced_api/),
those whose README lists Atlas A2 (dav-2201).

Each example is one .asc file: its kernels and a host main (ACL runtime, the example's data_utils.h, sometimes the
host tiling API) that launches them with <<<>>>. The file is compiled unchanged as the twin compiles a kernel file
with host code (ascend_ext.twin.compile_kernels: the launches compile, calling them raises); around it only what
its build adds: the CMakeLists' compile definitions (SCENARIO_NUM, ...), and, as include directories of this
harness, host_stand_in/ (acl/acl.h: the ACL declarations its host code uses, raising if called; tiling/tiling_api.h:
the host tiling headers the twin provides). The kernel is launched through the twin with the template arguments,
block count, tiling and arguments the example's host main computes; a template kernel (most examples pass their
sizes as template arguments) through the generated twin_entry instantiating it (scripts/measure_public_kernels.py).
References are computed here in float64 (or exactly, for integers and bit masks) from the API's documented
semantics, not from the example's gen_data.py golden."""
import hashlib
import math
import os
import re
import struct
import subprocess
import tempfile
from typing import List

import torch

from .common import Case, Kernel, list_tensor, rand

REPO = "cannmirror/asc-devkit"
BASIC = "examples/01_simd_cpp_api/03_basic_api"
ADV = "examples/01_simd_cpp_api/04_advanced_api"
STAND_IN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "host_stand_in")
HALF = (2e-3, 1e-3)


def example(name: str, path: str, entry: str, features: str, make_case, template: str = "", scenario=None,
            defines=None) -> Kernel:
    d = dict(defines or {})
    if scenario is not None:
        d["SCENARIO_NUM"] = str(scenario)
    return Kernel(name, REPO, path, entry, features, make_case, template=template, include=(STAND_IN,), defines=d)


def sdk_includes() -> List[str]:
    """The include directories of host code built against the twin's host tiling headers: the harness's stand-ins,
    then the twin SDK's host_include and include, as installed with ascend_ext."""
    import ascend_ext.twin_kernels as tk

    sdk = os.path.join(os.path.dirname(os.path.abspath(tk.__file__)), "twin_sdk")
    return ["-I", STAND_IN, "-I", os.path.join(sdk, "host_include"), "-I", os.path.join(sdk, "include")]


def host_program_output(tag: str, unit: str, flags=(), what: str = "host program") -> str:
    """What the C++ program `unit` prints: compiled with g++ (C++17, -O0, `flags`) once per content, flags and twin
    SDK (cached in the temporary directory as pubk_<tag>_<digest>), then run. A unit that does not compile raises
    LookupError naming `what` and the compiler's first error."""
    import ascend_ext.twin_kernels as tk

    digest = hashlib.sha256((unit + " ".join(flags) + tk.sdk_digest()).encode()).hexdigest()[:16]
    exe = os.path.join(tempfile.gettempdir(), f"pubk_{tag}_{digest}")
    if not os.path.exists(exe):
        with open(exe + ".cpp", "w") as f:
            f.write(unit)
        proc = subprocess.run(["g++", "-std=c++17", "-O0", *flags, exe + ".cpp", "-o", exe + ".tmp"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise LookupError(f"{what} does not compile: " +
                              next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr[:300]))
        os.replace(exe + ".tmp", exe)
    return subprocess.run([exe], check=True, capture_output=True, text=True).stdout


def host_value(code: str) -> int:
    """The uint32_t a few lines of an example's host code compute with the host tiling API (the twin's,
    twin/host_include, as the example's own host main would call it): `code` ends with `return <value>;`."""
    unit = f'#include <cstdint>\n#include <cstdio>\n#include "tiling/tiling_api.h"\n' \
           f'static uint32_t Value() {{ {code} }}\nint main() {{ std::printf("%u\\n", Value()); return 0; }}\n'
    return int(host_program_output("host_value", unit, sdk_includes(), "host tiling code").split()[-1])


def half(gen, n, lo=-4.0, hi=4.0):
    return rand(gen, n, lo, hi, torch.float16)


def bits_le(mask: torch.Tensor) -> torch.Tensor:
    """A bool vector packed 8 per byte, element i in bit i % 8 of byte i // 8 (the vector unit's bit masks)."""
    m = mask.to(torch.uint8).view(-1, 8)
    return (m << torch.arange(8, dtype=torch.uint8)).sum(1).to(torch.uint8)


# ---- 03_basic_api/01_memory_vector_compute --------------------------------------------------------------------

def brcb_case(kdir, gen) -> Case:
    # 16 uint16 in; Brcb(repeat 2, dstBlkStride 1, dstRepStride 8): element i fills 32-byte block i (16 elements).
    x = torch.randint(0, 65536, (16,), generator=gen, dtype=torch.int32).to(torch.uint16)
    expect = x.to(torch.int32).repeat_interleave(16).to(torch.uint16)
    return Case(1, {"x": x, "y": torch.zeros(256, dtype=torch.uint16)}, {"y": expect})


def cast_case(scenario: int):
    # 512 halves, one core; scenario 0: half -> int4b_t (CAST_CEIL, mask 128, 4 repeats, dstRepStride 2: packed
    # two per byte, the first element in the low nibble); 1: half -> int32_t (CAST_CEIL).
    def make(kdir, gen) -> Case:
        if scenario == 0:
            x = half(gen, 512, -7.9, 6.9)
            v = torch.ceil(x.double()).to(torch.int16)
            lo, hi = v[0::2] & 0xF, v[1::2] & 0xF
            packed = (lo | (hi << 4)).to(torch.uint8).view(torch.int8)
            return Case(1, {"x": x, "y": torch.zeros(256, dtype=torch.int8)}, {"y": packed})
        x = half(gen, 512, -1000, 1000)
        return Case(1, {"x": x, "y": torch.zeros(512, dtype=torch.int32)},
                    {"y": torch.ceil(x.double()).to(torch.int32)})
    return make


def compare_case(scenario: int):
    # float, CMPMODE::LT, 32 bytes of bit mask out. 1: Compare of 256 and 256; 2: Compare of 64 into the
    # comparison register, GetCmpMask (the first 8 bytes are the 64 results); 3: Compares with y[0] as the scalar.
    def make(kdir, gen) -> Case:
        n = 64 if scenario == 2 else 256
        ny = {1: 256, 2: 64, 3: 16}[scenario]
        x, y = rand(gen, n), rand(gen, ny)
        z = torch.zeros(32, dtype=torch.uint8)
        if scenario == 3:
            return Case(1, {"x": x, "y": y, "z": z}, {"z": bits_le(x < y[0])})
        if scenario == 2:
            return Case(1, {"x": x, "y": y, "z": z}, {"z": (bits_le(x < y), slice(0, 8))})
        return Case(1, {"x": x, "y": y, "z": z}, {"z": bits_le(x < y)})
    return make


def duplicate_case(kdir, gen) -> Case:
    x = half(gen, 256)
    return Case(1, {"x": x, "y": torch.zeros(256, dtype=torch.float16)},
                {"y": torch.full((256,), 18.0, dtype=torch.float64)})


def create_vec_index_case(kdir, gen) -> Case:
    # CreateVecIndex<int16_t, 128> from 0 after a Duplicate of 0, on each of the 8 cores into the same 128 int16;
    # the output starts as random values, so that an element left unwritten shows.
    dst = torch.randint(-32768, 32767, (128,), generator=gen, dtype=torch.int32).to(torch.int16)
    return Case(8, {"dstGm": dst}, {"dstGm": torch.arange(128, dtype=torch.int64).to(torch.int16)})


def logic_case(scenario: int):
    """element_wise_logic on 512 uint16: And (scenario 1), ShiftRight by SHIFT_BITS = 2 (scenario 4)."""

    def make(kdir, gen) -> Case:
        a, b, junk = (torch.randint(0, 65536, (512,), generator=gen, dtype=torch.int32) for _ in range(3))
        expect = a & b if scenario == 1 else torch.div(a, 4, rounding_mode="floor")  # logical shift of uint16
        u16 = lambda t: t.to(torch.uint16)  # noqa: E731
        return Case(1, {"src0": u16(a), "src1": u16(b), "dst": u16(junk)}, {"dst": u16(expect)})
    return make


def compound_case(scenario: int):
    """element_wise_compound_compute on 512 halves: AddRelu (scenario 1), Axpy dst = src1 + 2 * src0 (scenario 2)."""

    def make(kdir, gen) -> Case:
        a, b, junk = half(gen, 512), half(gen, 512), half(gen, 512)
        ad, bd = a.double(), b.double()
        expect = torch.clamp(ad + bd, min=0) if scenario == 1 else bd + 2.0 * ad
        return Case(1, {"src0Gm": a, "src1Gm": b, "dstGm": junk}, {"dstGm": expect}, *HALF)
    return make


def select_case(scenario: int):
    """select on 256 floats, a uint8 bit mask (bit i % 8 of byte i // 8 set: src0): scenario 1 VSEL_CMPMASK_SPR with
    8 mask bytes (SetPadValue and DataCopyPad pad them to 32; every 64-element repeat uses the same 64 bits),
    2 VSEL_TENSOR_SCALAR_MODE (src1 = y[0], 32 mask bytes), 3 VSEL_TENSOR_TENSOR_MODE (32 mask bytes)."""

    def make(kdir, gen) -> Case:
        x = rand(gen, 256, -4.0, 4.0, torch.float32)
        y = rand(gen, 8 if scenario == 2 else 256, -4.0, 4.0, torch.float32)
        sel = torch.randint(0, 256, (8 if scenario == 1 else 32,), generator=gen, dtype=torch.int32).to(torch.uint8)
        bits = ((sel.to(torch.int64).repeat_interleave(8) >> torch.arange(8).repeat(sel.numel())) & 1).bool()
        if scenario == 1:
            bits = bits.repeat(4)
        other = y.double()[0].expand(256) if scenario == 2 else y.double()
        expect = torch.where(bits, x.double(), other)
        return Case(1, {"x": x, "y": y, "sel": sel, "z": rand(gen, 256, -4.0, 4.0, torch.float32)}, {"z": expect})
    return make


def data_copy_pad_case(scenario: int):
    """data_copy_pad: scenario 1 one row of 20 halves padded to 32 with SetPadValue(1) (isPad false), scenario 2 32
    rows of 59 floats padded to 64 with isPad (0); each copied back to GM whole."""

    def make(kdir, gen) -> Case:
        rows, cols, width, dtype, pad = (1, 20, 32, torch.float16, 1.0) if scenario == 1 else \
            (32, 59, 64, torch.float32, 0.0)
        x = rand(gen, rows * cols, -4.0, 4.0, dtype)
        expect = torch.full((rows, width), pad, dtype=torch.float64)
        expect[:, :cols] = x.double().view(rows, cols)
        return Case(1, {"x": x, "z": rand(gen, rows * width, -4.0, 4.0, dtype)}, {"z": expect.flatten()})
    return make


def leaky_relu_case(kdir, gen) -> Case:
    # LeakyRelu with the half scalar 0.01, mask 128, 4 repeats: 512 halves.
    x = half(gen, 512)
    slope = float(torch.tensor(0.01, dtype=torch.float16))
    xd = x.double()
    return Case(1, {"src": x, "dstGm": torch.zeros(512, dtype=torch.float16)},
                {"dstGm": torch.where(xd >= 0, xd, xd * slope)}, *HALF)


def reduce_data_block_case(scenario: int):
    # ReduceDataBlock: each 32-byte block of each repeat to one value. 1: MAX over 256 halves (2 repeats);
    # 2: MIN over 512 halves (4 repeats); 3: SUM over 128 floats (2 repeats).
    def make(kdir, gen) -> Case:
        if scenario == 3:
            x = rand(gen, 128)
            return Case(1, {"x": x, "y": torch.zeros(16)}, {"y": x.double().view(16, 8).sum(1)}, 1e-5, 1e-5)
        n = 256 if scenario == 1 else 512
        x = half(gen, n)
        blocks = x.double().view(-1, 16)
        expect = blocks.amax(1) if scenario == 1 else blocks.amin(1)
        return Case(1, {"x": x, "y": torch.zeros(n // 16, dtype=torch.float16)}, {"y": expect})
    return make


def reduce_pair_case(kdir, gen) -> Case:
    x = half(gen, 128, -2, 2)
    return Case(1, {"x": x, "z": torch.zeros(64, dtype=torch.float16)}, {"z": x.double().view(64, 2).sum(1)}, *HALF)


def reduce_case(kdir, gen) -> Case:
    # The host main's tiling {totalLength 4096, outLength 32} (by value): 16 KiB, the two-level ReduceRepeat path;
    # z[0] is the sum, the other 31 are the zeros the kernel duplicates in.
    x = rand(gen, 4096)
    expect = torch.zeros(32, dtype=torch.float64)
    expect[0] = x.double().sum()
    return Case(1, {"x": x, "z": torch.zeros(32), "tiling": struct.pack("<II", 4096, 32)}, {"z": expect}, 1e-5, 1e-4)


# ---- 03_basic_api/00_data_movement, 04_memory_management -----------------------------------------------------

def copy_case(scenario: int):
    # Copy between two static UB tensors, int32. 1: mask 64 x 8 repeats (512); 2: mask 8 x 18 repeats, src
    # repeat stride 8 blocks, dst 1 ([18, 64] -> [18, 8]); 3: counter mode 144, src block stride 8 (the same).
    def make(kdir, gen) -> Case:
        n_src, n_dst = (512, 512) if scenario == 1 else (18 * 64, 18 * 8)
        x = torch.randint(-2 ** 31, 2 ** 31 - 1, (n_src,), generator=gen, dtype=torch.int64).to(torch.int32)
        if scenario == 1:
            expect = x.clone()
        elif scenario == 2:
            expect = x.view(18, 64)[:, :8].reshape(-1)
        else:  # dst block k = 8 * (k // 8) + k % 8 (repeat, block) comes from src block 8 * (repeat + block)
            blocks = x.view(-1, 8)
            expect = torch.cat([blocks[8 * (k // 8 + k % 8)] for k in range(18)])
        return Case(1, {"x": x, "z": torch.zeros(n_dst, dtype=torch.int32)}, {"z": expect})
    return make


def tmp_buffer_case(kdir, gen) -> Case:
    # bfloat16 x + y through float temporaries (TBuf), rounded back with CAST_RINT; 2048 elements.
    x, y = rand(gen, 2048, -4, 4, torch.bfloat16), rand(gen, 2048, -4, 4, torch.bfloat16)
    return Case(1, {"x": x, "y": y, "z": torch.zeros(2048, dtype=torch.bfloat16)},
                {"z": x.double() + y.double()}, 8e-3, 8e-3)


# ---- 03_basic_api: memory management, TPipe, synchronisation --------------------------------------------------

def list_tensor_add_case(kdir, gen) -> Case:
    # The host main's ListTensorDesc of two [8, 2048] float tensors; 8 cores, tileNum 8, static ping-pong tensors.
    x, y = rand(gen, (8, 2048)), rand(gen, (8, 2048))
    return Case(8, {"srcList": list_tensor([x, y]), "z": torch.zeros(8 * 2048)},
                {"z": (x.double() + y.double()).reshape(-1)})


def tpipe_add_case(kdir, gen) -> Case:
    # GetTPipePtr: 8 cores, 8 * 2048 floats, tileNum 8.
    x, y = rand(gen, 8 * 2048), rand(gen, 8 * 2048)
    return Case(8, {"x": x, "y": y, "z": torch.zeros(8 * 2048)}, {"z": x.double() + y.double()})


def tpipe_reuse_case(kdir, gen) -> Case:
    # Two TPipes one after the other, each Muls(3) over the 128 floats.
    x = rand(gen, 128)
    return Case(1, {"x": x, "z": torch.zeros(128)}, {"z": 3 * x.double()})


def ib_set_wait_case(kdir, gen) -> Case:
    # 2 cores: core 0 stores z[:256] = x[:256] + y[:256] and IBSets; core 1 IBWaits, then z[256:] = z[:256] + y[256:].
    x, y = half(gen, 512, -2, 2), half(gen, 512, -2, 2)
    first = (x[:256].double() + y[:256].double()).half().double()
    return Case(2, {"x": x, "y": y, "sync": torch.zeros(256, dtype=torch.int32),
                    "z": torch.zeros(512, dtype=torch.float16)},
                {"z": torch.cat([first, first + y[256:].double()])}, *HALF)


def sync_all_case(kdir, gen) -> Case:
    # 8 cores of 32 floats: each doubles its tile, publishes it, SyncAll, then adds every other core's.
    x = rand(gen, 256)
    total = 2 * x.double().view(8, 32).sum(0)
    return Case(8, {"srcGm": x, "dstGm": torch.zeros(256), "workGm": torch.zeros(256),
                    "syncGm": torch.zeros(8 * 8, dtype=torch.int32)}, {"dstGm": total.repeat(8)}, 1e-5, 1e-5)


# ---- 04_advanced_api: math, activation, reduce ---------------------------------------------------------------

TRANSCENDENTAL = (1e-4, 1e-5)


def unary_tmp_case(n: int, fn, lo: float, hi: float, tmp_code: str, tmp_name: str = "tmpBufSize"):
    """A one-input float kernel (srcGm, dstGm, <tmp_name>) whose host main passes the temporary-buffer size its
    host tiling call returns."""
    def make(kdir, gen) -> Case:
        x = rand(gen, n, lo, hi)
        return Case(1, {"srcGm": x, "dstGm": torch.zeros(n), tmp_name: host_value(tmp_code)},
                    {"dstGm": fn(x.double())}, *TRANSCENDENTAL)
    return make


def shape_tmp(fn: str, n: int, type_size: str = "sizeof(float)") -> str:
    return (f"ge::Shape shape{{{{{n}}}}}; uint32_t maxValue = 0, minValue = 0; "
            f"AscendC::{fn}(shape, {type_size}, false, maxValue, minValue); return minValue;")


def gelu_case(kdir, gen) -> Case:
    x = rand(gen, 32, -4, 4)
    xd = x.double()
    expect = 0.5 * xd * (1 + torch.tanh((2 / torch.pi) ** 0.5 * (xd + 0.044715 * xd ** 3)))
    tmp = host_value("std::vector<int64_t> v = {32}; ge::Shape s(v); return AscendC::GetGeluMinTmpSize(s, sizeof(float));")
    return Case(1, {"srcGm": x, "dstGm": torch.zeros(32), "dataSize": 32, "tmpBufSize": tmp}, {"dstGm": expect},
                *TRANSCENDENTAL)


def sigmoid_case(kdir, gen) -> Case:
    x = rand(gen, 1024, -8, 8)
    return Case(1, {"srcGm": x, "dstGm": torch.zeros(1024), "srcSize": 1024, "calCount": 1024,
                    "tmpBufSize": host_value(shape_tmp("GetSigmoidMaxMinTmpSize", 1024))},
                {"dstGm": torch.sigmoid(x.double())}, *TRANSCENDENTAL)


def swish_case(kdir, gen) -> Case:
    x = rand(gen, 32, -6, 6)  # USE_SILU_MODE off (the CMake default): Swish with beta 1.702
    beta = float(torch.tensor(1.702, dtype=torch.float32))
    return Case(1, {"srcGm": x, "dstGm": torch.zeros(32)}, {"dstGm": x.double() * torch.sigmoid(beta * x.double())},
                *TRANSCENDENTAL)


def sum_case(kdir, gen) -> Case:
    # GenerateTilingData(M 3, N 32): inner 32, outter 3, n 32, tmpBufSize (GetSumMaxMinTmpSize), outInner 8.
    x = rand(gen, (3, 32))
    tmp = host_value("uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetSumMaxMinTmpSize(32, sizeof(uint32_t), false, maxValue, minValue); return minValue;")
    expect = torch.zeros(8, dtype=torch.float64)
    expect[:3] = x.double().sum(1)
    return Case(1, {"srcGm": x.reshape(-1), "dstGm": torch.zeros(8), "tiling": struct.pack("<5I", 32, 3, 32, tmp, 8)},
                {"dstGm": expect}, 1e-5, 1e-5)


def logsoftmax_case(kdir, gen) -> Case:
    # main(): 128 x 128 float rows, tmpBufSize = GetLogSoftMaxMinTmpSize({128, 128}, 4, false); shapeInfo (8
    # uint32) is bound to a GlobalTensor and never read. The kernel's own LogSoftMaxTiling is left
    # default-initialised: LogSoftMax works its tiling out from the shape and the buffer. The API's documented
    # result is log10 of the softmax (LogSoftMax docs), not the natural log.
    x = rand(gen, (128, 128), -8, 8)
    tmp = host_value("std::vector<int64_t> v = {128, 128}; ge::Shape s(v); "
                     "return AscendC::GetLogSoftMaxMinTmpSize(s, sizeof(float), false);")
    return Case(1, {"shapeInfo": torch.tensor([128, 128] + [0] * 6, dtype=torch.int32), "srcGm": x.reshape(-1),
                    "dstGm": torch.zeros(128 * 128), "tmpBufSize": tmp},
                {"dstGm": torch.log10(torch.softmax(x.double(), 1)).reshape(-1)}, *TRANSCENDENTAL)


def rmsnorm_case(kdir, gen) -> Case:
    # rmsnorm_custom: B 4, S 8, H 64 float, epsilon 5e-05, memMode 3 (the whole PopStackBuffer as the temporary
    # buffer, tiled by the example's own kernel-side GetRmsNormTilingInfo), one core.
    x = rand(gen, (4 * 8, 64), -3, 3)
    gamma = rand(gen, 64, -2, 2)
    eps = float(torch.tensor(5e-05, dtype=torch.float32))
    xd = x.double()
    expect = xd / torch.sqrt((xd * xd).mean(1, keepdim=True) + eps) * gamma.double()
    return Case(1, {"srcGm": x.reshape(-1), "gammaGm": gamma, "dstGm": torch.zeros(32 * 64)},
                {"dstGm": expect.reshape(-1)}, *TRANSCENDENTAL)


def type_traits_case(kdir, gen) -> Case:
    """kernel_type_traits prints AscendC::Std's type traits (and asserts others). The reference is what the same
    class prints with the C++ standard library's traits: its text with AscendC::Std:: -> std::, AscendC::printf ->
    std::printf and ascendc_assert -> assert, compiled by g++ and run on the host."""
    with open(os.path.join(kdir, "type_traits.asc")) as f:
        text = f.read()
    body = re.search(r"class TypeTraitsTest \{.*?\n\};\n", text, re.S).group(0)
    def host(code: str) -> str:  # outside string literals (the format strings keep their text)
        for old, new in (("AscendC::Std::", "std::"), ("AscendC::printf", "std::printf"),
                         ("ascendc_assert", "assert"), ("__aicore__", "")):
            code = code.replace(old, new)
        return code
    parts = re.split(r'("(?:\\.|[^"\\])*")', body)
    body = "".join(p if i % 2 else host(p) for i, p in enumerate(parts))
    unit = ("#include <cassert>\n#include <cstdio>\n#include <type_traits>\n" + body +
            "int main() { TypeTraitsTest t; t.Init(); t.Process(); return 0; }\n")
    expected = host_program_output("type_traits", unit, what="type_traits's class with std::")
    return Case(1, {"dstGm": torch.zeros(8)}, {}, stdout=expected)


def group_barrier_case(kdir, gen) -> Case:
    # main(): 8 cores, barGm WAIT_NUM (6) * 512 zero bytes, dstGm 8 int32. Cores 0 and 1 add TEMP (12) into dst[0]
    # atomically and Arrive; cores 2..7 Wait and read dst[0]: 24, the other 7 elements stay InitOutput's zeros.
    expect = torch.zeros(8, dtype=torch.int32)
    expect[0] = 2 * 12
    return Case(8, {"barGm": torch.zeros(6 * 512, dtype=torch.uint8), "dstGm": torch.full((8,), -1, dtype=torch.int32)},
                {"dstGm": expect})


def tiled_unary_case(n: int, fn, lo: float, hi: float):
    # {totalLength n, tileNum 8} by value, 8 cores, double-buffered tiles.
    def make(kdir, gen) -> Case:
        x = rand(gen, n, lo, hi)
        return Case(8, {"x": x, "y": torch.zeros(n), "tiling": struct.pack("<II", n, 8)}, {"y": fn(x.double())},
                    *TRANSCENDENTAL)
    return make


def xor_case(kdir, gen) -> Case:
    a = torch.randint(-32768, 32767, (1024,), generator=gen, dtype=torch.int32).to(torch.int16)
    b = torch.randint(-32768, 32767, (1024,), generator=gen, dtype=torch.int32).to(torch.int16)
    return Case(1, {"srcGm": a, "src1Gm": b, "dstGm": torch.zeros(1024, dtype=torch.int16),
                    "tmpBufSize": host_value(shape_tmp("GetXorMaxMinTmpSize", 1024, "sizeof(int16_t)"))},
                {"dstGm": a ^ b})


def power_case(scenario: int):
    # 16 floats; SCENARIO 0: base ** exp (both tensors), 1: base ** exp[0], 2: base[0] ** exp.
    shapes = {0: ("shape1", "shape2"), 1: ("shape1", "shapeScalar"), 2: ("shapeScalar", "shape2")}[scenario]

    def make(kdir, gen) -> Case:
        base, exp = rand(gen, 16, 0.5, 4), rand(gen, 16, -3, 3)
        b, e = base.double(), exp.double()
        expect = {0: b ** e, 1: b ** e[0], 2: b[0] ** e}[scenario]
        tmp = host_value("ge::Shape shape1{{16}}; ge::Shape shape2{{16}}; ge::Shape shapeScalar{{1}}; "
                         "uint32_t maxValue = 0, minValue = 0; AscendC::GetPowerMaxMinTmpSize("
                         f"{shapes[0]}, {shapes[1]}, false, sizeof(float), false, maxValue, minValue); return minValue;")
        return Case(1, {"srcGmBase": base, "srcGmExp": exp, "dstGm": torch.zeros(16), "srcSize": 16,
                        "tmpBufSize": tmp}, {"dstGm": expect}, *TRANSCENDENTAL)
    return make


# ---- 03_basic_api/03_matrix_compute ----------------------------------------------------------------------------

def gemv_case(kdir, gen) -> Case:
    # M = 1, N = 32, K = 256, half in, float out, one AIC; B is given [N, K] (Nd2Nz with nValue N, dValue K, loaded
    # to L0B without transposing): c = a @ b^T.
    a, b = rand(gen, (1, 256), -1, 1, torch.float16), rand(gen, (32, 256), -1, 1, torch.float16)
    return Case(1, {"a": a, "b": b, "c": torch.zeros(1, 32)}, {"c": a.double() @ b.double().T}, 1e-5, 1e-5)


def nz(x: torch.Tensor) -> torch.Tensor:
    """A [rows, cols] half matrix in the Nz layout: 16-column blocks one after the other, each rows x 16."""
    r, c = x.shape
    return x.reshape(r, c // 16, 16).permute(1, 0, 2).contiguous()


def gm2l1_case(scenario: int):
    # M 128, K 128, N 256, half in, float out, one AIC, static tensors in L1/L0. Scenario 1: A and B given in Nz
    # (a plain DataCopy to L1); 2: given ND (Nd2Nz on the way); 4: ND with a float bias through C1 -> C2.
    def make(kdir, gen) -> Case:
        a, b = rand(gen, (128, 128), -1, 1, torch.float16), rand(gen, (128, 256), -1, 1, torch.float16)
        expect = a.double() @ b.double()
        bias = torch.zeros(256)
        if scenario == 4:
            bias = rand(gen, 256)
            expect = expect + bias.double()
        if scenario == 1:
            a, b = nz(a), nz(b)
        return Case(1, {"a": a, "b": b, "c": torch.zeros(128, 256), "bias": bias,
                        "quantAlpha": torch.zeros(256, dtype=torch.int64)}, {"c": expect}, 1e-5, 1e-5)
    return make


def fixpipe_case(scenario: int):
    # M 128, K 128 (two rounds of 64 accumulated in L0C), N 256; the host lays A out as its two [128, 64] halves one
    # after the other (the kernel reads round r at A + r * 128 * 64), B as [K, N]. Out of L0C: 1 Nz float, 2 ND float,
    # 4 ND int8 with the scalar quant 2.0 (QF322B8_PRE), 5 ND int8 with a quant word per column (VQF322B8_PRE: the
    # host's quantAlpha, 2.0's bits with the Sign bit 46 set, as the example's gen_data writes it), 6 ND float with
    # ReLU, 7 Nz float with channel split (16 x 8 fractals).
    def make(kdir, gen) -> Case:
        a, b = rand(gen, (128, 128), -1, 3, torch.float16), rand(gen, (128, 256), -1, 3, torch.float16)
        c = a.double() @ b.double()
        a_gm = a.reshape(128, 2, 64).permute(1, 0, 2).contiguous()
        out = torch.zeros(128 * 256, dtype=torch.int8 if scenario in (4, 5) else torch.float32)
        alpha = torch.zeros(256, dtype=torch.int64)
        if scenario == 5:
            alpha += struct.unpack("<i", struct.pack("<f", 2.0))[0] | (1 << 46)
        expect = {1: lambda: c.reshape(128, 16, 16).permute(1, 0, 2).reshape(-1),
                  2: lambda: c.reshape(-1),
                  4: lambda: torch.round(c.float().double() * 2.0).clamp(-128, 127).reshape(-1),
                  5: lambda: torch.round(c.float().double() * 2.0).clamp(-128, 127).reshape(-1),
                  6: lambda: c.clamp(min=0).reshape(-1),
                  7: lambda: c.reshape(128, 32, 8).permute(1, 0, 2).reshape(-1)}[scenario]()
        return Case(1, {"a": a_gm, "b": b, "c": out, "quantAlpha": alpha},
                    {"c": expect}, 1e-5, 1e-4)
    return make


def reduce_repeat_case(scenario: int):
    # ReduceRepeat, one value per repeat. 1: MAX of 8 repeats of 128 halves, values only (ORDER_ONLY_VALUE);
    # 2: MIN of 8 repeats, (value, index in the repeat) pairs, the index as the half slot's 16 bits; 3: SUM of 32
    # repeats of 64 floats; 4: SUM of each of 13 rows of 57 floats (rows padded to 64 in UB, mask 57).
    def make(kdir, gen) -> Case:
        if scenario in (1, 2):  # distinct values: a permutation of 1024 steps of 1/128
            x = (torch.randperm(1024, generator=gen).double() / 128 - 4).half()
            rows = x.double().view(8, 128)
            if scenario == 1:
                return Case(1, {"x": x, "z": torch.zeros(8, dtype=torch.float16)}, {"z": rows.amax(1)})
            z = torch.zeros(16, dtype=torch.int16)  # compared bit for bit: the half values and the 16-bit indices
            pairs = torch.stack([rows.amin(1).half().view(torch.int16), rows.argmin(1).to(torch.int16)], 1)
            return Case(1, {"x": x, "z": z}, {"z": pairs.reshape(-1)})
        if scenario == 3:
            x = rand(gen, 2048)
            return Case(1, {"x": x, "z": torch.zeros(32)}, {"z": x.double().view(32, 64).sum(1)}, 1e-5, 1e-5)
        x = rand(gen, 13 * 57)
        return Case(1, {"x": x, "z": torch.zeros(13)}, {"z": x.double().view(13, 57).sum(1)}, 1e-5, 1e-5)
    return make


# ---- i21-tdata: examples whose host code declares its tiling with CANN's tiling-data classes -------------------

def example_tiling(kdir: str, asc: str, call: str, nbytes: int, defines=(), fn: str = "GenerateTiling") -> bytes:
    """The tiling bytes an example's own host code produces: the .asc file from its start to the end of its
    GenerateTiling definition (or `fn`'s) (the tiling-data class, ComputeTiling, GenerateTiling, unchanged), compiled as a host
    program against the twin's host headers (register/tilingdata_base.h, the host tiling API) and the harness's
    stand-ins, with a main that runs `call` (C++ leaving the tiling in `const uint8_t* tiling`, as the example's main
    calls GenerateTiling) and prints the first `nbytes` bytes; `defines`: the -D the example's build passes.
    Cached by content, defines and the twin SDK's digest."""
    with open(os.path.join(kdir, asc)) as f:
        text = f.read()
    m = re.search(r"\n[^\n;{}]*\b" + fn + r"\([^;{]*\)\s*\{", text)
    if m is None:
        raise LookupError(f"{asc}: no {fn} definition")
    depth, at = 0, m.end() - 1
    for at in range(m.end() - 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            break
    host = text[:at + 1]
    # kernel_operator.h makes assert the twin's (it reports through the twin runtime, not linked here)
    unit = f"{host}\n\n#include <cstdio>\n#include <cstdlib>\n" \
           "[[noreturn]] void ascend_twin::FailAssert(const char* expr, const char* file, int line)\n" \
           "{ std::fprintf(stderr, \"%s:%d: assertion failed: %s\\n\", file, line, expr); std::abort(); }\n" \
           f"int main()\n{{\n    const uint8_t* tiling = nullptr;\n    {call}\n" \
           "    std::printf(\"\\ntiling-bytes:\");\n" \
           f"    for (int i = 0; i < {nbytes}; ++i) std::printf(\" %u\", static_cast<unsigned>(tiling[i]));\n" \
           "    return 0;\n}\n"
    # The file's kernels come along but never run here: their sections are dropped at link time, so the twin's
    # runtime they call need not be linked.
    flags = [f"-D{d}" for d in defines] + ["-w", "-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections",
                                            *sdk_includes(), "-I", kdir]
    # what the host code prints itself (some examples report their tiling) comes before the marker
    out = host_program_output("example_tiling", unit, flags, f"{asc}: its host tiling code")
    return bytes(int(b) for b in out.rsplit("tiling-bytes:", 1)[-1].split())


def softmax_rows(x: torch.Tensor):
    """Row-wise max, sum of exp(x - max) and softmax in float64."""
    xd = x.double()
    mx = xd.max(dim=-1, keepdim=True).values
    e = torch.exp(xd - mx)
    s = e.sum(dim=-1, keepdim=True)
    return mx, s, e / s


def softmax_case(kdir, gen) -> Case:
    # main: ROW_NUM 32, COLUMN_NUM 32, USED_CORE_NUM 1, TILINGDATA_SIZE 28 words; max/sum one block (8 floats) a row.
    tiling = example_tiling(kdir, "softmax.asc", "static uint8_t buf[28 * 4]; GenerateTiling(32, 32, 1, sizeof(buf), buf);"
                            " tiling = buf;", 28 * 4)
    x = rand(gen, (32, 32), -5, 5)
    mx, sm, y = softmax_rows(x)
    return Case(1, {"x": x.reshape(-1), "max": torch.zeros(32 * 8), "sum": torch.zeros(32 * 8),
                    "y": torch.zeros(32 * 32), "workspace": torch.zeros(1024), "tiling": tiling},
                {"y": y.reshape(-1), "max": mx.expand(32, 8).reshape(-1), "sum": sm.expand(32, 8).reshape(-1)},
                1e-5, 1e-6)


def softmaxgrad_case(front: bool):
    # main: x (the gradient) and y (the softmax output) [960, 960], USED_CORE_NUM 40; SoftmaxGrad gives
    # z = (x - rowsum(x * y)) * y, SoftmaxGradFront (USE_FRONT_MODE) rowsum(x * y) in one block (8 floats) a row.
    def make(kdir, gen) -> Case:
        tiling = example_tiling(kdir, "softmaxgrad.asc", "static uint8_t buf[28 * 4]; "
                                "GenerateTiling(960, 960, 40, sizeof(buf), buf); tiling = buf;", 28 * 4,
                                ["USE_FRONT_MODE"] if front else [])
        x = rand(gen, (960, 960), -2, 2)
        _, _, y = softmax_rows(rand(gen, (960, 960), -3, 3))
        y = y.float()
        dot = (x.double() * y.double()).sum(dim=-1, keepdim=True)
        z = dot.expand(960, 8) if front else (x.double() - dot) * y.double()
        return Case(40, {"x": x.reshape(-1), "y": y.reshape(-1), "z": torch.zeros(z.numel()),
                         "workspace": torch.zeros(1024), "tiling": tiling}, {"z": z.reshape(-1)}, 1e-4, 1e-6)
    return make


def generated(kdir: str, asc: str, args: str, nbytes: int, defines=()) -> bytes:
    """example_tiling for the examples whose GenerateTiling(args) returns the buffer it filled."""
    return example_tiling(kdir, asc, f"tiling = GenerateTiling({args});", nbytes, defines)


def swiglu_case(kdir, gen) -> Case:
    # main: DATALENGTH 32, one core, beta (scalarValue) 1.0: dst = src0 * src1 * sigmoid(beta * src1) (A2's SwiGLU).
    tiling = generated(kdir, "swiglu.asc", "32", 2 * 4)
    a, b = rand(gen, 32, -4, 4), rand(gen, 32, -4, 4)
    expect = a.double() * b.double() * torch.sigmoid(b.double())
    return Case(1, {"src0Gm": a, "src1Gm": b, "dstGm": torch.zeros(32), "workspace": torch.zeros(16),
                    "tiling": tiling}, {"dstGm": expect}, *TRANSCENDENTAL)


def arange_case(kdir, gen) -> Case:
    # main: COUNT 100, GenerateTiling(count rounded up to 8 = 104); first and diff read from GM (float scalars).
    tiling = generated(kdir, "arange.asc", "104", 4)
    first, diff = rand(gen, 1, -10, 10), rand(gen, 1, -2, 2)
    expect = first.double() + torch.arange(104, dtype=torch.float64) * diff.double()
    return Case(1, {"firstGm": first, "diffGm": diff, "dstGm": torch.zeros(104), "workspace": torch.zeros(16),
                    "tiling": tiling}, {"dstGm": expect}, 1e-5, 1e-4)


def dropout_case(kdir, gen) -> Case:
    # main: src [4, 256] float, mask [4, 32] bytes (bit mode: bit k of a row's bytes keeps element k, lowest bit
    # first), keepProb read from GM; kept elements are divided by keepProb, the others 0.
    tiling = generated(kdir, "dropout.asc", "4, 256, 32", 4 * 4)
    src = rand(gen, (4, 256), -100, 100)
    mask = torch.randint(0, 256, (4, 32), generator=gen, dtype=torch.int32).to(torch.uint8)
    keep = float(rand(gen, 1, 0.2, 0.95)[0])
    bits = ((mask.to(torch.int32).unsqueeze(-1) >> torch.arange(8)) & 1).reshape(4, 256).double()
    expect = src.double() * bits / keep
    return Case(1, {"src_gm": src.reshape(-1), "mask_gm": mask.reshape(-1), "dst_gm": torch.zeros(1024),
                    "workspace": torch.zeros(16), "tiling_gm": torch.tensor([keep], dtype=torch.float32),
                    "tilingData_gm": tiling}, {"dst_gm": expect.reshape(-1)}, 1e-5, 1e-5)


def quant_case(kdir, gen) -> Case:
    # main: DATALENGTH 1024 floats -> int8 with scale 2.0 and offset 0.9 (AscendQuant): round(x * 2 + 0.9),
    # saturated. The inputs put x * 2 + 0.9 within 0.1 of an integer (from -140 to 140, past both ends of int8),
    # so the rounding mode cannot matter and the expected values are exact.
    tiling = generated(kdir, "quant.asc", "1024", 2 * 4)
    n = torch.randint(-140, 141, (1024,), generator=gen, dtype=torch.int64)
    x = ((n.double() - 0.9 + (torch.rand(1024, generator=gen, dtype=torch.float64) - 0.5) * 0.2) / 2).float()
    expect = n.clamp(-128, 127).to(torch.int8)
    return Case(1, {"srcGm": x, "dstGm": torch.zeros(1024, dtype=torch.int8), "workspace": torch.zeros(16),
                    "tiling": tiling}, {"dstGm": expect})


def dequant_case(kdir, gen) -> Case:
    # main: M 128, N 32 int32, 32 float scales (one a column): dst = float(src) * scale[column] (AscendDequant).
    tiling = generated(kdir, "dequant.asc", "128, 32, 32", 4 * 4)
    src = torch.randint(-100000, 100000, (128, 32), generator=gen, dtype=torch.int32)
    scale = rand(gen, 32, -0.01, 0.01)
    expect = src.double() * scale.double()
    return Case(1, {"srcGm": src.reshape(-1), "dstGm": torch.zeros(128 * 32), "deqScaleGm": scale,
                    "workspace": torch.zeros(16), "tiling": tiling}, {"dstGm": expect.reshape(-1)}, 1e-6, 1e-6)


def broadcast_cases(kdir, gen) -> List[Case]:
    # main: [1, 48] -> [96, 48] (axis 0), and with argument "1" [96, 1] -> [96, 96] (axis 1); one core, no workspace.
    cases = []
    for label, src_dims, dst_dims in (("axis 0", (1, 48), (96, 48)), ("axis 1", (96, 1), (96, 96))):
        code = (f"std::vector<int64_t> in = {{{src_dims[0]}, {src_dims[1]}}}, out = {{{dst_dims[0]}, {dst_dims[1]}}}; "
                "tiling = GenerateTiling(ge::Shape(in), ge::Shape(out), sizeof(float));")
        tiling = example_tiling(kdir, "broadcast.asc", code, 6 * 4)
        x = rand(gen, src_dims, -5, 5)
        cases.append(Case(1, {"x": x.reshape(-1), "y": torch.zeros(dst_dims[0] * dst_dims[1]), "workspace": None,
                              "tiling": tiling}, {"y": x.expand(*dst_dims).reshape(-1).double()}, label=label))
    return cases


def reducemax_case(kdir, gen) -> Case:
    # main: x [R 32, A 136] (RA: the maximum over the first axis), no padding, isReuseSource; y [136].
    tiling = generated(kdir, "reducemax.asc", "136, 32, 4352, 136, 0, 1, 1", 8 * 4)
    x = rand(gen, (32, 136), -1000, 1000)
    return Case(1, {"src_gm": x.reshape(-1), "dst_gm": torch.zeros(136), "workspace": torch.zeros(16),
                    "tiling": tiling}, {"dst_gm": x.max(dim=0).values.double()}, 0.0, 0.0)


def softmaxflashv2_case(kdir, gen) -> Case:
    # main: x [960, 960], 40 cores; each row walked in K chunks of 512 with SoftmaxFlashV2 (isUpdate from the
    # second chunk on); the outputs are the row maximum and the row sum of exp(x - max), one block (8 floats) a row.
    # Its host code fills a plain class and copies it with memcpy_s (securec.h, reached through tiling_api.h).
    tiling = example_tiling(kdir, "softmaxflashv2.asc", "static uint8_t buf[32 * 4]; "
                            "GenerateTiling(960, 960, 40, sizeof(buf), buf); tiling = buf;", 32 * 4)
    x = rand(gen, (960, 960), -5, 5)
    mx, sm, _ = softmax_rows(x)
    return Case(40, {"x": x.reshape(-1), "max": torch.zeros(960 * 8), "sum": torch.zeros(960 * 8),
                     "workspace": torch.zeros(1024), "tiling": tiling},
                {"max": mx.expand(960, 8).reshape(-1), "sum": sm.expand(960, 8).reshape(-1)}, 1e-5, 1e-6)


def add_broadcast_cases(kdir, gen) -> List[Case]:
    # gen_data's input_tiling {xLen, yLen, coef, axis, dataType}: its default, x int8 [17, 1022] + y [1, 1022]
    # (axis 0, coef 1022), and a float one along axis 1, x [32, 256] + y [32, 1] (coef 256, dataType 2); the
    # example's GenerateTilingData(tiling, 8) completes it for 8 cores; the tiling goes by value. z = x + y.
    cases = []
    for label, rows, cols, axis, dtype in (("int8 axis 0", 17, 1022, 0, torch.int8),
                                           ("float axis 1", 32, 256, 1, torch.float32)):
        y_shape = (1, cols) if axis == 0 else (rows, 1)
        y_len = y_shape[0] * y_shape[1]
        head = struct.pack("<5I", rows * cols, y_len, cols, axis, 3 if dtype == torch.int8 else 2)
        code = ("static uint8_t buf[20 * 4] = {" + ", ".join(str(b) for b in head) + "}; "
                "GenerateTilingData(buf, 8); tiling = buf;")
        tiling = example_tiling(kdir, "add_broadcast.asc", code, 20 * 4, fn="GenerateTilingData")
        if dtype == torch.int8:
            x = torch.randint(-50, 51, (rows, cols), generator=gen, dtype=torch.int32).to(torch.int8)
            y = torch.randint(-50, 51, y_shape, generator=gen, dtype=torch.int32).to(torch.int8)
            z = (x.to(torch.int32) + y.to(torch.int32)).to(torch.int8)
        else:
            x, y = rand(gen, (rows, cols), -50, 50), rand(gen, y_shape, -50, 50)
            z = x.double() + y.double()
        cases.append(Case(8, {"x": x.reshape(-1), "y": y.reshape(-1), "z": torch.zeros(rows * cols, dtype=dtype),
                              "tiling": tiling}, {"z": z.reshape(-1)}, 1e-6, 1e-5, label=label))
    return cases


# ---- i21-mmhost: the Matmul examples, their tiling from their own GenerateTiling (matmul_tiling:: on the twin) ----

MM = f"{ADV}/00_matmul"
LIB_API_WORKSPACE = 16 << 20  # PlatformAscendC::GetLibApiWorkSpaceSize() on A2


def mm_tiling(kdir: str, asc: str, returned: bool = False) -> bytes:
    """The TCubeTiling bytes the example's GenerateTiling(platform, buf) writes (or, `returned`, the
    AscendC::tiling::TCubeTiling GenerateTiling(platform) returns), on the platform its main asks for
    (PlatformAscendCManager::GetInstance(): the twin's default Ascend910B2, 24 AIC / 48 AIV)."""
    platform = "platform_ascendc::PlatformAscendCManager::GetInstance()"
    call = (f"static AscendC::tiling::TCubeTiling t = GenerateTiling({platform}); "
            "tiling = reinterpret_cast<const uint8_t*>(&t);") if returned else \
        f"static uint8_t buf[sizeof(TCubeTiling)]; GenerateTiling({platform}, buf); tiling = buf;"
    return example_tiling(kdir, asc, call, 50 * 4)  # sizeof(TCubeTiling): 50 int32_t fields


def mm_operands(gen, m: int, n: int, k: int, bias: bool):
    """Half A [m, k] and B [k, n], a float bias [n]; the float64 reference A @ B (+ bias)."""
    a = rand(gen, (m, k), -1, 1, torch.float16)
    b = rand(gen, (k, n), -1, 1, torch.float16)
    ref = a.double() @ b.double()
    args = {"a": a.reshape(-1), "b": b.reshape(-1)}
    if bias:
        args["bias"] = rand(gen, (n,), -1, 1)
        ref = ref + args["bias"].double()
    else:
        args["bias"] = torch.zeros(1)
    return args, ref


def mm_case(asc: str, m: int, n: int, k: int, blocks, user_workspace: int = 0, post=None, bias: bool = True,
            bias_arg: bool = True, returned: bool = False):
    """An example computing C = A @ B (+ bias when its IS_BIAS is set; float C, ND) with the shapes of its main;
    `blocks(usedCoreNum)` is the launch's block count as its main derives it; `post` what its vector part applies
    to C; `bias_arg` whether its kernel takes a bias pointer; `returned` whether GenerateTiling returns the tiling
    (the kernel then takes it by value, as `tiling`)."""
    def make(kdir, gen) -> Case:
        tiling = mm_tiling(kdir, asc, returned)
        used = struct.unpack_from("<i", tiling, 0)[0]
        args, ref = mm_operands(gen, m, n, k, bias)
        if not bias_arg:
            del args["bias"]
        c = torch.full((m * n,), float("nan"))
        ws = torch.zeros((LIB_API_WORKSPACE + user_workspace) // 4)
        expect = (post(ref) if post else ref).reshape(-1)
        # float32 accumulation of K half products: relative 2^-24 per step on |a||b| sums below K.
        args = dict(args, c=c, workspace=ws, **{"tiling" if returned else "tilingGm": tiling})
        return Case(blocks(used), args, {"c": expect}, 1e-5, 1e-5 * k ** 0.5)
    return make


KERNELS: List[Kernel] = [
    example("ex_brcb", f"{BASIC}/01_memory_vector_compute/brcb/brcb.asc", "brcb_custom",
            "Brcb (uint16), LocalMemAllocator, flags", brcb_case),
    *[example(f"ex_cast_s{s}", f"{BASIC}/01_memory_vector_compute/cast/cast.asc", "cast_custom",
              ["Cast half -> int4b_t (CAST_CEIL, ReinterpretCast, repeat strides)",
               "Cast half -> int32_t (CAST_CEIL)"][s], cast_case(s), template="512, 512, 128", scenario=s)
      for s in (0, 1)],
    *[example(f"ex_compare_s{s}", f"{BASIC}/01_memory_vector_compute/compare/compare.asc", "compare_custom",
              {1: "Compare LT into a bit mask, TQue", 2: "Compare into the register, GetCmpMask",
               3: "Compares with a scalar read by GetValue, FetchEventID"}[s], compare_case(s),
              template={1: "float, 256, 256, 32", 2: "float, 64, 64, 32", 3: "float, 256, 16, 32"}[s], scenario=s)
      for s in (1, 2, 3)],
    example("ex_duplicate", f"{BASIC}/01_memory_vector_compute/duplicate/duplicate.asc", "duplicate_custom",
            "Duplicate (half scalar)", duplicate_case, template="256"),
    example("ex_create_vec_index", f"{BASIC}/01_memory_vector_compute/create_vec_index/create_vec_index.asc",
            "testCreateVecIndex", "CreateVecIndex (int16_t) after Duplicate, 8 cores", create_vec_index_case,
            template="int16_t, 128"),
    *[example(f"ex_element_wise_logic_s{s}", f"{BASIC}/01_memory_vector_compute/element_wise_logic/"
              "element_wise_logic.asc", "logic_custom", {1: "And (uint16_t), LocalMemAllocator",
                                                         4: "ShiftRight by a scalar (uint16_t, logical)"}[s],
              logic_case(s), scenario=s) for s in (1, 4)],
    *[example(f"ex_compound_s{s}", f"{BASIC}/01_memory_vector_compute/element_wise_compound_compute/"
              "element_wise_compound_compute.asc", "element_wise_compound_compute_custom",
              {1: "AddRelu (half)", 2: "Axpy (half, half)"}[s], compound_case(s), template="512", scenario=s)
      for s in (1, 2)],
    *[example(f"ex_select_s{s}", f"{BASIC}/01_memory_vector_compute/select/select.asc", "select_custom",
              {1: "SetPadValue, DataCopyPad of an 8-byte mask, Select VSEL_CMPMASK_SPR",
               2: "Select VSEL_TENSOR_SCALAR_MODE (GetValue, MTE2_S/S_V flags)", 3: "Select VSEL_TENSOR_TENSOR_MODE"}[s],
              select_case(s), template={1: "float, uint8_t, 256, 256, 8", 2: "float, uint8_t, 256, 8, 32",
                                        3: "float, uint8_t, 256, 256, 32"}[s], scenario=s) for s in (1, 2, 3)],
    *[example(f"ex_data_copy_pad_s{s}", f"{BASIC}/00_data_movement/data_copy_pad_gm2ub_ub2gm/data_copy_pad.asc",
              "data_copy_pad_custom", {1: "DataCopyPad GM -> UB with SetPadValue (isPad false), UB -> GM",
                                       2: "DataCopyPad GM -> UB with isPad and rightPadding, 32 rows"}[s],
              data_copy_pad_case(s), template={1: "1, 20, 32, 32", 2: "32, 59, 64, 2048"}[s], scenario=s)
      for s in (1, 2)],
    example("ex_element_wise_arith", f"{BASIC}/01_memory_vector_compute/element_wise_arithmetic/"
            "element_wise_arithmetic.asc", "element_wise_arithmetic_kernel", "LeakyRelu (mask, repeat params)",
            leaky_relu_case, template="512, 128"),
    *[example(f"ex_reduce_data_block_s{s}", f"{BASIC}/01_memory_vector_compute/reduce_data_block/"
              "reduce_data_block.asc", "reduce_data_block_custom",
              {1: "ReduceDataBlock MAX (half)", 2: "ReduceDataBlock MIN (half)", 3: "ReduceDataBlock SUM (float)"}[s],
              reduce_data_block_case(s), template={1: "256, 16", 2: "512, 32", 3: "128, 16"}[s], scenario=s)
      for s in (1, 2, 3)],
    *[example(f"ex_reduce_repeat_s{s}", f"{BASIC}/01_memory_vector_compute/reduce_repeat/reduce_repeat.asc",
              "reduce_repeat_custom", {1: "ReduceRepeat MAX, ORDER_ONLY_VALUE, AscendC::Conditional",
                                       2: "ReduceRepeat MIN with indices", 3: "ReduceRepeat SUM (float)",
                                       4: "ReduceRepeat SUM over unaligned rows, DataCopyPad with padding"}[s],
              reduce_repeat_case(s), scenario=s,
              template={1: "1024, 1, 1024, 8", 2: "1024, 1, 1024, 16", 3: "2048, 1, 2048, 32", 4: "741, 13, 57, 13"}[s])
      for s in (1, 2, 3, 4)],
    example("ex_reduce_pair_elem", f"{BASIC}/01_memory_vector_compute/reduce_pair_elem/reduce_pair_elem.asc",
            "reduce_pair_elem_custom", "ReducePairElem SUM (bit mask)", reduce_pair_case),
    example("ex_reduce", f"{BASIC}/01_memory_vector_compute/reduce/reduce.asc", "reduce_custom",
            "ReduceRepeat in counter mode (two levels), tiling struct by value", reduce_case),
    *[example(f"ex_copy_s{s}", f"{BASIC}/00_data_movement/copy_ub2ub/copy.asc", "copy_custom",
              {1: "Copy UB -> UB (mask, repeats)", 2: "Copy with repeat strides ([18, 64] -> [18, 8])",
               3: "Copy in counter mode with a block stride"}[s], copy_case(s),
              template={1: "512, 512", 2: "1152, 144", 3: "1152, 144"}[s], scenario=s) for s in (1, 2, 3)],
    example("ex_tmp_buffer", f"{BASIC}/04_memory_management/tmp_buffer/tmp_buffer.asc", "tmp_buffer_custom",
            "TBuf temporaries, Cast bfloat16 <-> float (CAST_RINT), Add", tmp_buffer_case, template="2048"),
    example("ex_list_tensor_desc", f"{BASIC}/04_memory_management/list_tensor_desc_input/list_tensor_desc_input.asc",
            "list_tensor_desc_input_custom", "ListTensorDesc input, static ping-pong tensors, 8 cores",
            list_tensor_add_case, template="16384, 8"),
    example("ex_get_tpipe_ptr", f"{BASIC}/07_tpipe_tque/get_tpipe_ptr/get_tpipe_ptr.asc", "get_tpipe_ptr_custom",
            "GetTPipePtr, TQue double buffering, 8 cores", tpipe_add_case, template="16384, 8"),
    example("ex_tpipe_reuse", f"{BASIC}/07_tpipe_tque/tpipe_reuse/tpipe_reuse.asc", "tpipe_reuse_custom",
            "two TPipes in sequence, Muls", tpipe_reuse_case),
    example("ex_ib_set_wait", f"{BASIC}/05_sync_control/ib_set_wait/ib_set_wait.asc", "kernel_ib_set_wait",
            "IBSet/IBWait between 2 cores", ib_set_wait_case),
    example("ex_sync_all", f"{BASIC}/05_sync_control/sync_all/sync_all.asc", "sync_all_custom",
            "SyncAll over 8 cores, GM workspace exchange", sync_all_case),
    example("ex_gelu", f"{ADV}/01_activation/gelu/gelu.asc", "gelu_custom",
            "Gelu with a temporary buffer (GetGeluMinTmpSize)", gelu_case),
    example("ex_sigmoid", f"{ADV}/01_activation/sigmoid/sigmoid.asc", "sigmoid_custom",
            "Sigmoid (GetSigmoidMaxMinTmpSize)", sigmoid_case),
    example("ex_swish", f"{ADV}/01_activation/swish/swish.asc", "swish_custom", "Swish (beta 1.702)", swish_case),
    example("ex_sum", f"{ADV}/04_reduce/sum/sum.asc", "sum_custom",
            "Sum over rows (SumParams, GetSumMaxMinTmpSize), ASCENDC_ASSERT, tiling by value", sum_case),
    example("ex_logsoftmax", f"{ADV}/01_activation/logsoftmax/logsoftmax.asc", "logsoftmax_custom",
            "LogSoftMax (ND) with a default LogSoftMaxTiling and a minimum tmp buffer", logsoftmax_case),
    example("ex_rmsnorm", f"{ADV}/02_normalization/rmsnorm/rmsnorm.asc", "rmsnorm_custom",
            "RmsNorm with PopStackBuffer as its buffer, SetShapeInfo, the example's kernel-side tiling", rmsnorm_case),
    example("ex_type_traits", f"{ADV}/11_utils/type_traits/type_traits.asc", "kernel_type_traits",
            "AscendC::Std type traits (printf, ascendc_assert) against the standard library's", type_traits_case),
    example("ex_group_barrier", f"{BASIC}/05_sync_control/group_barrier/group_barrier.asc", "kernel_group_barrier",
            "GroupBarrier (2 arrive, 6 wait), InitOutput, SyncAll, atomic add", group_barrier_case),
    example("ex_acosh", f"{ADV}/10_math/acosh/acosh.asc", "acosh_custom", "Acosh with calCount and a tmp buffer",
            unary_tmp_case(16, torch.acosh, 1, 1000, shape_tmp("GetAcoshMaxMinTmpSize", 16))),
    example("ex_ceil", f"{ADV}/10_math/ceil/ceil.asc", "ceil_custom", "Ceil with a tmp buffer (sized for half)",
            unary_tmp_case(8, torch.ceil, -100, 100, shape_tmp("GetCeilMaxMinTmpSize", 8, "2"), "tmpSize")),
    example("ex_erf", f"{ADV}/10_math/erf/erf.asc", "erf_custom", "Erf, 8 cores, double buffering, ASCENDC_ASSERT",
            tiled_unary_case(12288, torch.erf, -3, 3)),
    example("ex_frac", f"{ADV}/10_math/frac/frac.asc", "frac_custom", "Frac with a tmp buffer",
            unary_tmp_case(4096, lambda x: x - torch.trunc(x), -1000, 1000, shape_tmp("GetFracMaxMinTmpSize", 4096))),
    example("ex_log", f"{ADV}/10_math/log/log.asc", "log_custom", "Log, 8 cores, double buffering, ASCENDC_ASSERT",
            tiled_unary_case(8 * 2048, torch.log, 1e-3, 100)),
    *[example(f"ex_power_s{s}", f"{ADV}/10_math/power/power.asc", "power_custom",
              {0: "Power tensor ** tensor", 1: "Power tensor ** scalar (GetValue)", 2: "Power scalar ** tensor"}[s],
              power_case(s), defines={"SCENARIO": str(s)}) for s in (0, 1, 2)],
    example("ex_xor", f"{ADV}/10_math/xor/xor.asc", "xor_custom", "Xor (int16) with a tmp buffer", xor_case),
    example("ex_mmad_gemv", f"{BASIC}/03_matrix_compute/mmad_gemv/mmad_gemv.asc", "mmad_custom",
            "GEMV (M = 1) on the cube: Nd2Nz copy, LoadData2DParams, Mmad, Fixpipe", gemv_case, template="32, 256",
            defines={"DISABLE_GEMV": "0"}),
    *[example(f"ex_data_copy_gm2l1_s{s}", f"{BASIC}/00_data_movement/data_copy_gm2l1/data_copy_gm2l1.asc",
              "data_copy_gm2l1", {1: "GM -> L1 of Nz input (DataCopyParams), static cube tensors, Mmad, Fixpipe",
                                  2: "GM -> L1 with Nd2Nz, static cube tensors, Mmad, Fixpipe",
                                  4: "the same with a bias (C1 -> C2 DataCopy, Mmad with bias)"}[s],
              gm2l1_case(s), template="128, 128, 256", scenario=s) for s in (1, 2, 4)],
    *[example(f"ex_fixpipe_l0c2gm_s{s}", f"{BASIC}/03_matrix_compute/fixpipe_l0c2gm/fixpipe_l0c2gm.asc",
              "fixpipe_l0c2gm", {1: "Fixpipe L0C -> GM as Nz (CFG_NZ), K accumulated in two rounds",
                                 2: "Fixpipe L0C -> GM as ND (CFG_ROW_MAJOR)",
                                 4: "Fixpipe with scalar quantisation to int8 (QF322B8_PRE, deqScalar)",
                                 5: "Fixpipe with per-column quantisation to int8 (VQF322B8_PRE, cbufWorkspace)",
                                 6: "Fixpipe with ReLU (reluEn)", 7: "Fixpipe Nz with channel split"}[s],
              fixpipe_case(s), template="128, 128, 256", scenario=s) for s in (1, 2, 4, 5, 6, 7)],
    # ---- i21-tdata: host tiling through CANN's tiling-data classes (register/tilingdata_base.h) ----
    example("ex_softmax", f"{ADV}/01_activation/softmax/softmax.asc", "softmax_custom",
            "SoftMax (basic block), AdjustSoftMaxRes; tiling-data class with a SoftMaxTiling struct field, "
            "SoftMaxTilingFunc(optiling::SoftMaxTiling&)", softmax_case),
    *[example(f"ex_softmaxgrad{'_front' if front else ''}", f"{ADV}/01_activation/softmaxgrad/softmaxgrad.asc",
              "softmaxgrad_custom", ("SoftmaxGradFront (USE_FRONT_MODE)" if front else "SoftmaxGrad") +
              ", 40 cores; SoftMaxGradTilingFunc(optiling::SoftMaxTiling&) through a tiling-data struct field",
              softmaxgrad_case(front), defines={"USE_FRONT_MODE": None} if front else None) for front in (False, True)],
    example("ex_swiglu", f"{ADV}/01_activation/swiglu/swiglu.asc", "swiglu_custom",
            "SwiGLU with a temporary buffer (GetSwiGLUMaxMinTmpSize), tiling-data class", swiglu_case),
    example("ex_arange", f"{ADV}/06_index/arange/arange.asc", "arange_custom",
            "Arange (first and diff from GM), tiling-data class", arange_case),
    example("ex_dropout", f"{ADV}/07_filter/dropout/dropout.asc", "dropout_custom",
            "DropOut, bit mask mode (GetDropOutMaxMinTmpSize), keepProb from GM, tiling-data class", dropout_case),
    example("ex_quant", f"{ADV}/03_quantization/quant/quant.asc", "quant_custom",
            "AscendQuant float -> int8, scale and offset (GetAscendQuantMaxMinTmpSize), tiling-data class", quant_case),
    example("ex_dequant", f"{ADV}/03_quantization/dequant/dequant.asc", "dequant_custom",
            "AscendDequant int32 -> float per column (GetAscendDequantMaxMinTmpSize), tiling-data class", dequant_case),
    example("ex_broadcast", f"{ADV}/08_transpose/broadcast/broadcast.asc", "broadcast_custom",
            "Broadcast<float, 2, axis> along either axis, tiling-data class", broadcast_cases),
    example("ex_reducemax", f"{ADV}/04_reduce/reducemax/reducemax.asc", "reduce_custom",
            "ReduceMax<float, Pattern::Reduce::RA, true> (GetReduceMaxMaxMinTmpSize), tiling-data class",
            reducemax_case),
    example("ex_softmaxflashv2", f"{ADV}/01_activation/softmaxflashv2/softmaxflashv2.asc", "softmaxflashv2_custom",
            "SoftmaxFlashV2 over K chunks with isUpdate, basic block, 40 cores; SoftMaxFlashV2TilingFunc, memcpy_s",
            softmaxflashv2_case),
    example("ex_add_broadcast", f"{ADV}/08_transpose/add_broadcast/add_broadcast.asc", "add_broadcast_custom",
            "Broadcast then Add (int8 along axis 0, float along axis 1), 8 cores, tiling by value",
            add_broadcast_cases),
    # ---- i21-mmhost: the Matmul examples with the tiling their own GenerateTiling computes ----
    example("ex_mm_matmul", f"{MM}/matmul/matmul.asc", "matmul_custom",
            "Matmul cube-only (__cube__): IterateAll into GM, SetTail; MultiCoreMatmulTiling over the AICs",
            mm_case("matmul.asc", 128, 2048, 1024, lambda used: used)),
    example("ex_mm_async_iterate", f"{MM}/matmul_async_iterate/matmul_async_iterate.asc",
            "matmul_async_iterate_custom", "Matmul MIX: Iterate<false> + SetWorkspace, GetTensorC<false> into VECIN, "
            "CFG_MDL; MultiCoreMatmulTiling over the AIVs", mm_case("matmul_async_iterate.asc", 640, 1024, 512,
                                                                   lambda used: used // 2, 640 * 1024 * 4)),
    example("ex_mm_async_iterate_all", f"{MM}/matmul_async_iterate_all/matmul_async_iterate_all.asc",
            "matmul_async_iterate_all_custom", "Matmul MIX: IterateAll<false> + WaitIterateAll, CFG_MDL",
            mm_case("matmul_async_iterate_all.asc", 640, 1024, 512, lambda used: used // 2)),
    example("ex_mm_k_reorder_load", f"{MM}/matmul_k_reorder_load/matmul_k_reorder_load.asc",
            "matmul_k_reorder_load_custom", "Matmul MIX: GetMDLConfig(enableKdimReorderLoad), IterateAll into GM",
            mm_case("matmul_k_reorder_load.asc", 768, 2048, 6144, lambda used: (used + 1) // 2)),
    example("ex_mm_fused", f"{MM}/matmul_fused/matmul_fused.asc", "matmul_fused_custom",
            "Matmul MIX: Iterate<false>, GetTensorC<false> into VECIN, LeakyRelu; SetFixSplit(256, 128), FIRSTM",
            mm_case("matmul_fused.asc", 1024, 640, 256, lambda used: 1, 1024 * 640 * 4,
                    lambda r: torch.nn.functional.leaky_relu(r, 0.001))),
    example("ex_mm_mn_double_buffer", f"{MM}/matmul_mn_double_buffer/matmul_mn_double_buffer.asc",
            "matmul_mn_double_buffer_custom", "Matmul cube-only: CFG_MDL with ScheduleType::OUTER_PRODUCT, ORDER_M; "
            "SetMatmulConfigParams(OUTER_PRODUCT, FIRSTM)",
            mm_case("matmul_mn_double_buffer.asc", 128, 7680, 16, lambda used: used, bias=False)),
    example("ex_mm_splitk", f"{MM}/matmul_splitk/matmul_splitk.asc", "matmul_splitk_custom",
            "Matmul cube-only: EnableMultiCoreSplitK, each core's K part added into C by IterateAll(enAtomic = 1) "
            "after every core Fills C with 0",
            mm_case("matmul_splitk.asc", 16, 16, 1024, lambda used: used, bias=False, bias_arg=False)),
    example("ex_mm_multi_core_unaligned", f"{MM}/matmul_multi_core_unaligned/matmul_multi_core_unaligned.asc",
            "matmul_multi_core_unaligned_custom", "Matmul cube-only: CFG_NORM, M, N, K not multiples of 16, SetTail",
            mm_case("matmul_multi_core_unaligned.asc", 1000, 700, 500, lambda used: used)),
    example("ex_mm_preload", f"{MM}/matmul_preload/matmul_preload.asc", "matmul_preload_custom",
            "Matmul cube-only: GetMDLConfig(doMTE2Preload = 2), SetTraverse(FIRSTN)",
            mm_case("matmul_preload.asc", 128, 24576, 512, lambda used: used, bias=False)),
    example("ex_mm_unitflag", f"{MM}/matmul_unitflag/matmul_unitflag.asc", "matmul_unitflag_custom",
            "Matmul cube-only: CFG_MDL with enUnitFlag",
            mm_case("matmul_unitflag.asc", 1024, 4096, 1024, lambda used: used)),
    example("ex_mm_intro_advanced_api", "examples/01_simd_cpp_api/00_introduction/02_matrix/matmul_advanced_api/"
            "matmul_advanced_api.asc", "matmul_custom", "Matmul cube-only: IterateAll, the tiling by value (SetDim(2))",
            mm_case("matmul_advanced_api.asc", 512, 512, 128, lambda used: used, bias=False, bias_arg=False,
                    returned=True)),
]


# ---- branch i21-math2: the advanced Exp, ClampMin/ClampMax, Fmod, the advanced Axpy, GeGLU, CumSum ---------------

def exp_taylor_case(kdir, gen) -> Case:
    # exp_custom: 8192 floats, KernelExp<float, false> (taylorExpandLevel 10), tmpBufSize = GetExpMaxMinTmpSize's
    # minimum, in floats (the kernel allocates tmpBufSize * sizeof(T) bytes). The docs' Taylor form:
    # e^floor(x) * sum_{k=0..10} (x - floor(x))^k / k!.
    x = rand(gen, 8192, -10, 10)
    xd = x.double()
    whole = torch.floor(xd)
    frac = xd - whole
    series = sum(frac ** k / math.factorial(k) for k in range(11))
    tmp = host_value("ge::Shape shape{{8192}}; uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetExpMaxMinTmpSize(shape, sizeof(float), false, maxValue, minValue); return minValue;")
    return Case(1, {"srcGm": x, "dstGm": torch.zeros(8192), "tmpBufSize": tmp},
                {"dstGm": torch.exp(whole) * series}, *TRANSCENDENTAL)


def clamp_case(scenario: int):
    # 256 floats, scalar 10; SCENARIO 0 ClampMin, 1 ClampMax; tmpBufSize = (max + min) / 2 of
    # GetClampMaxMinTmpSize, in floats (the kernel allocates tmpBufSize * sizeof(T) bytes).
    def make(kdir, gen) -> Case:
        x = rand(gen, 256, -30, 30)
        x[::16] = 10.0  # at the bound
        tmp = host_value("ge::Shape shape{{256}}; uint32_t maxValue = 0, minValue = 0; "
                         "AscendC::GetClampMaxMinTmpSize(shape, sizeof(float), false, maxValue, minValue); "
                         "return (maxValue + minValue) / 2;")
        xd = x.double()
        expect = torch.clamp(xd, min=10.0) if scenario == 0 else torch.clamp(xd, max=10.0)
        return Case(1, {"srcGm": x, "dstGm": torch.zeros(256), "srcSize": 256, "tmpBufSize": tmp},
                    {"dstGm": expect}, 0.0, 0.0)
    return make


def fmod_case(kdir, gen) -> Case:
    # fmod_custom: 159 floats, KernelFmod<float, 0, 1> (the framework's buffer, calCount 159). The docs' formula
    # a - trunc(a / b) * b, each step a float as the float instructions round it.
    a = rand(gen, 159, -100, 100)
    b = rand(gen, 159, 0.5, 8) * torch.where(torch.rand(159, generator=gen) < 0.5, -1.0, 1.0)
    q = torch.trunc(a / b)
    expect = (a - q * b).double()
    tmp = host_value("ge::Shape shape{{159}}; uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetFmodMaxMinTmpSize(shape, sizeof(float), false, maxValue, minValue); return minValue;")
    return Case(1, {"src0Gm": a, "src1Gm": b, "dstGm": torch.zeros(159), "tmpBufSize": tmp}, {"dstGm": expect},
                1e-6, 1e-6)


def axpy_half_float_case(kdir, gen) -> Case:
    # 8 cores, each: 512 half in, dst (float) = 0 + src * 2.0 (exact in float); tmpBufSize = GetAxpyMaxMinTmpSize's
    # minimum for a half source.
    x = half(gen, 512, 1, 100)
    tmp = host_value("ge::Shape shape{{512}}; uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetAxpyMaxMinTmpSize(shape, 2, false, maxValue, minValue); return minValue;")
    return Case(8, {"srcGm": x, "dstGm": torch.zeros(512), "tmpBufSize": tmp}, {"dstGm": x.double() * 2.0}, 0.0, 0.0)


def geglu_case(kdir, gen) -> Case:
    # geglu_custom: 1024 floats, tmpBufSize = GetGeGLUMaxMinTmpSize's minimum (0 for float), calCount 0: the
    # form without a buffer over the whole tensor. dst = src0 * Gelu(src1), Gelu's tanh form (docs).
    x0, x1 = rand(gen, 1024, -4, 4), rand(gen, 1024, -4, 4)
    a, b = x0.double(), x1.double()
    gelu = 0.5 * b * (1 + torch.tanh((2 / math.pi) ** 0.5 * (b + 0.044715 * b ** 3)))
    tmp = host_value("std::vector<int64_t> v = {1024}; ge::Shape s(v); uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetGeGLUMaxMinTmpSize(s, sizeof(float), false, maxValue, minValue); return minValue;")
    return Case(1, {"src0Gm": x0, "src1Gm": x1, "dstGm": torch.zeros(1024), "tmpBufSize": tmp},
                {"dstGm": a * gelu}, *TRANSCENDENTAL)


def cumsum_case(kdir, gen) -> Case:
    # cumsum_custom: 32 x 160 floats, CONFIG {isLastAxis false, isReuseSource false, outputLastRow true}: prefix
    # sums down each column, and the last row. tmpBufSize: main()'s GetCumSumMaxMinTmpSize call as written (its
    # third argument, commented isReuseSource, is isLastAxis by position: true). The tiling input ([32, 160]) is
    # not read by the kernel.
    x = rand(gen, (32, 160), -10, 10)
    tmp = host_value("ge::Shape shape{{32, 160}}; uint32_t maxValue = 0, minValue = 0; "
                     "AscendC::GetCumSumMaxMinTmpSize(shape, sizeof(float), true, false, maxValue, minValue); "
                     "return minValue;")
    sums = torch.cumsum(x.double(), 0)
    return Case(1, {"srcGm": x.reshape(-1), "dstGm": torch.zeros(32 * 160), "lastRowGm": torch.zeros(160),
                    "tilingGm": torch.tensor([32, 160], dtype=torch.int32), "tmpBufSize": tmp},
                {"dstGm": sums.reshape(-1), "lastRowGm": sums[-1]}, 1e-5, 1e-5)


def fill_case(kdir, gen) -> Case:
    # fill_custom on 1 core: Fill(z, 256, blockIdx) in GM, then z += x + y through SetAtomicAdd<float>.
    x, y = rand(gen, 256, -60000, 60000), rand(gen, 256, -60000, 60000)
    return Case(1, {"x": x, "y": y, "z": torch.full((256,), 7.0), "workspace": torch.zeros(8, dtype=torch.uint8),
                    "tiling": torch.zeros(8, dtype=torch.uint8)}, {"z": (x + y).double()}, 0.0, 0.0)


KERNELS += [
    example("ex_fill", f"{ADV}/08_transpose/fill/fill.asc", "fill_custom",
            "Fill of GM, TPipe::FetchEventID (TEventID), SetAtomicAdd/DisableDmaAtomic", fill_case),
    example("ex_cumsum", f"{ADV}/10_math/cumsum/cumsum.asc", "cumsum_custom",
            "CumSum down the columns (first axis) with the last row, CumSumConfig as a constexpr", cumsum_case),
    example("ex_exp", f"{ADV}/10_math/exp/exp.asc", "exp_custom",
            "the advanced Exp (10 Taylor terms) with a tmp buffer (GetExpMaxMinTmpSize)", exp_taylor_case),
    *[example(f"ex_clampmin_s{s}", f"{ADV}/10_math/clampmin/clampmin.asc", "clampmin_clampmax_custom",
              {0: "ClampMin with a tmp buffer (GetClampMaxMinTmpSize)",
               1: "ClampMax with a tmp buffer (GetClampMaxMinTmpSize)"}[s], clamp_case(s),
              defines={"SCENARIO": str(s)}) for s in (0, 1)],
    example("ex_fmod", f"{ADV}/10_math/fmod/fmod.asc", "fmod_custom",
            "Fmod with calCount and the framework's buffer", fmod_case),
    example("ex_axpy_half_float", f"{ADV}/10_math/axpy_half_float/axpy_half_float.asc",
            "kernel_vec_ternary_scalar_Axpy_half_2_float", "the advanced Axpy, half src into float dst, 8 cores",
            axpy_half_float_case),
    example("ex_geglu", f"{ADV}/01_activation/geglu/geglu.asc", "geglu_custom",
            "GeGLU without a buffer (float needs none), over the whole tensor", geglu_case),
]

# ---- branch i22-advsort: Pad, UnPad, the advanced Select, the confusion Transpose, TransData, Sort, TopK ---------

def pad_case(kdir, gen) -> Case:
    # pad_custom: 16 x 31 floats (unaligned width), PadParams {0, 1, 321}: each row gets one 321.0 on its right
    # (16 x 32 out). The tiling: main()'s GenerateTiling(16, 31, 16, 31) (GetPadMaxMinTmpSize's maximum as
    # PadTilingFunc's stackBufferSize), 4 words + PadTiling (26 words).
    tiling = generated(kdir, "pad.asc", "16, 31, 16, 31", 30 * 4)
    x = rand(gen, (16, 31), -100, 100)
    expect = torch.cat([x.double(), torch.full((16, 1), 321.0, dtype=torch.float64)], dim=1)
    return Case(1, {"src_Gm": x.reshape(-1), "dst_Gm": torch.zeros(512), "tiling": tiling},
                {"dst_Gm": expect.reshape(-1)}, 0.0, 0.0)


def unpad_case(kdir, gen) -> Case:
    # unpad_custom: 8 x 8 floats, UnPadParams {0, 1}: the last column of each row dropped, rows packed (8 x 7 out).
    # The tiling: main()'s GenerateTiling(8, 8, 8, 8), 2 words + UnPadTiling (8 words).
    tiling = generated(kdir, "unpad.asc", "8, 8, 8, 8", 10 * 4)
    x = rand(gen, (8, 8), -100, 100)
    return Case(1, {"src_gm": x.reshape(-1), "dst_gm": torch.zeros(56), "tiling": tiling},
                {"dst_gm": x[:, :7].double().reshape(-1)}, 0.0, 0.0)


def select_case(kdir, gen) -> Case:
    # select_custom: [2, 32] floats, a [2, 32] uint8 mask, scalar 1.234f (the tiling's): mask 0 keeps the element,
    # any other value takes the scalar. The tiling: main()'s GenerateTiling(2, 32, 32) (GetSelectMaxMinTmpSize's
    # minimum as the buffer), 5 words.
    tiling = generated(kdir, "select.asc", "2, 32, 32", 5 * 4)
    x = rand(gen, 64, -100, 100)
    mask = torch.randint(0, 4, (64,), generator=gen, dtype=torch.uint8) * torch.randint(0, 2, (64,), generator=gen,
                                                                                         dtype=torch.uint8)
    scalar = float(torch.tensor(1.234, dtype=torch.float32))
    expect = torch.where(mask == 0, x.double(), torch.tensor(scalar, dtype=torch.float64))
    return Case(1, {"srcGm": x, "maskGm": mask, "dstGm": torch.zeros(64), "workspace": torch.zeros(1024),
                    "tiling": tiling}, {"dstGm": expect}, 0.0, 0.0)


def transpose_case(kdir, gen) -> Case:
    # transpose_custom: half, B 1, N 2, S 64, H/N 32, TRANSPOSE_NZ2ND_0213: x is NZ [B, N, H/N/16, S/16, 16, 16] of
    # the tensor X [B, N, S, H/N], y is ND [B, S, N, H/N] = X with axes 1 and 2 swapped. The tiling: main()'s
    # GenerateTiling(1, 2, 64, 32) (GetTransposeMaxMinTmpSize's minimum as the buffer), 4 words + 18 params.
    tiling = generated(kdir, "transpose.asc", "1, 2, 64, 32", 22 * 4)
    b, n, s, hn = 1, 2, 64, 32
    x = half(gen, b * n * s * hn, -100, 100).reshape(b, n, s, hn)
    nz = x.reshape(b, n, s, hn // 16, 16).permute(0, 1, 3, 2, 4).contiguous()  # [B, N, H/N/16, S, 16]
    return Case(1, {"x": nz.reshape(-1), "y": torch.zeros(b * s * n * hn, dtype=torch.float16), "tiling": tiling},
                {"y": x.permute(0, 2, 1, 3).double().reshape(-1)}, 0.0, 0.0)


def sort_case(kdir, gen) -> Case:
    # sort_custom: 128 floats with indices 0..127, KernelSort<float, true>: Concat, Sort<float, true> (a full sort,
    # descending, equal values in input order), Extract. The tiling: main()'s GenerateTiling(128) as written: on A2
    # GetSortMaxMinTmpSize (the SortConfig forms, dav-3510 only) returns without writing minTmpSize, so
    # sharedTmpBufferSize is whatever the uninitialized variable held (the example's own bug on A2).
    tiling = generated(kdir, "sort.asc", "128", 2 * 4)
    x = rand(gen, 128, -1000, 1000)
    idx = torch.arange(128, dtype=torch.int32)
    order = sorted(range(128), key=lambda i: -float(x[i]))  # stable: equal values keep their input order
    return Case(1, {"srcGmValue": x, "srcGmIndex": idx, "dstGmValue": torch.zeros(128),
                    "dstGmIndex": torch.zeros(128, dtype=torch.int32), "workspace": torch.zeros(1024),
                    "tiling": tiling},
                {"dstGmValue": x[order].double(), "dstGmIndex": torch.tensor(order, dtype=torch.int32)}, 0.0, 0.0)


KERNELS += [
    example("ex_pad", f"{ADV}/08_transpose/pad/pad.asc", "pad_custom",
            "Pad of an unaligned width (16 x 31 floats, one column of 321 on the right), PadTilingFunc", pad_case),
    example("ex_unpad", f"{ADV}/08_transpose/unpad/unpad.asc", "unpad_custom",
            "UnPad of the last column (8 x 8 floats), GetUnPadMaxMinTmpSize/UnPadTilingFunc", unpad_case),
    example("ex_select", f"{ADV}/07_filter/select/select.asc", "select_custom",
            "the advanced Select with a uint8_t byte mask and a scalar, GetSelectMaxMinTmpSize", select_case),
    example("ex_transpose", f"{ADV}/08_transpose/transpose/transpose.asc", "transpose_custom",
            "the confusion Transpose TRANSPOSE_NZ2ND_0213 (half), GetTransposeMaxMinTmpSize/GetTransposeTilingInfo",
            transpose_case),
    example("ex_sort", f"{ADV}/05_sort/sort/sort.asc", "sort_custom",
            "Concat, Sort<float, true> (full sort) and Extract of 128 floats with their indices", sort_case),
]

# ---- every other A2 example: counted, compiled, failing until it has a run ------------------------------------

def a2_examples(repo_dir: str) -> List[str]:
    """The single-file examples under 03_basic_api/ and 04_advanced_api/ whose README lists Atlas A2 (dav-2201),
    as paths in the repository."""
    found = []
    for part in (BASIC, ADV):
        for d, _, files in sorted(os.walk(os.path.join(repo_dir, part))):
            readme = os.path.join(d, "README.md")
            if not os.path.exists(readme):
                continue
            with open(readme, errors="replace") as f:
                if "Atlas A2" not in f.read():
                    continue
            found += [os.path.relpath(os.path.join(d, n), repo_dir) for n in sorted(files) if n.endswith(".asc")]
    return found


def cmake_defaults(example_dir: str) -> dict:
    """The -D NAME=${VAR} definitions of an example's CMakeLists.txt with VAR's cache default (its default
    scenario), as a plain `cmake ..` would pass them; scenario 1 where the build has no default."""
    cmake = os.path.join(example_dir, "CMakeLists.txt")
    if not os.path.exists(cmake):
        return {}
    with open(cmake, errors="replace") as f:
        text = f.read()
    out = {}
    for name, var in re.findall(r"(?:-D|[\s(])(\w+)=\$\{(\w+)\}", text):
        default = re.search(r'set\(\s*%s\s+"?([^"\s)]+)"?\s+CACHE' % var, text)
        if default:
            out[name] = default.group(1)
        elif "SCENARIO" in var:  # no default: the build insists on a choice; the first scenario
            out[name] = "1"
    return out


def unmeasured(root: str) -> List[Kernel]:
    """An entry for each A2 example that KERNELS has no run for: the file is compiled unchanged (as the twin
    compiles any kernel file with host code) and the entry fails, with the compiler's first error or 'no run
    yet'. The measurement's denominator is the whole set of A2 examples, not the ones the twin runs."""
    repo_dir = os.path.join(root, REPO)
    if not os.path.isdir(repo_dir):
        return []
    covered = {k.path for k in KERNELS}
    taken = {k.name for k in KERNELS}
    out = []
    for path in a2_examples(repo_dir):
        if path in covered:
            continue
        name = "ex_" + os.path.splitext(os.path.basename(path))[0]
        while name in taken:
            name += "_"
        taken.add(name)
        out.append(Kernel(name, REPO, path, "", "not measured yet (compiled unchanged, no run)", None,
                          include=(STAND_IN,), defines=cmake_defaults(os.path.join(repo_dir, os.path.dirname(path)))))
    return out


# ---- i21-basic2: sync, atomics, memory management (issue 20) -------------------------------------------------

def task_sync_case(kdir, gen) -> Case:
    # 512 halves, one core: z = x + y between WaitPreTaskEnd and SetNextTaskStart (no effect on A2).
    x, y = half(gen, 512), half(gen, 512)
    return Case(1, {"x": x, "y": y, "z": torch.zeros(512, dtype=torch.float16)},
                {"z": (x.double() + y.double()).half().double()}, 0, 0)


def tensor_allocation_case(kdir, gen) -> Case:
    # 1024 floats, one core: z = x + y (TQue, LocalMemAllocator or tensors at fixed UB addresses).
    x, y = rand(gen, 1024, -10, 10), rand(gen, 1024, -10, 10)
    return Case(1, {"x": x, "y": y, "z": torch.zeros(1024)}, {"z": (x + y).double()}, 0, 0)


def atomic_copy_case(scenario: int):
    # 3 cores, 256 halves each copied to GM under SetAtomicAdd (scenario 1: the same x on every core, onto y) or
    # SetAtomicMax (scenario 2: core i its own x_i). Every add rounds to half; the three adds of the same x give
    # the same result in any order.
    def make(kdir, gen) -> Case:
        y = half(gen, 256)
        if scenario == 1:
            x = half(gen, 256)
            acc = y.float()
            for _ in range(3):
                acc = (acc + x.float()).half().float()
            return Case(3, {"x": x, "y": y.clone()}, {"y": acc.double()}, 0, 0)
        x = half(gen, 3 * 256)
        expect = torch.maximum(y.double(), x.double().view(3, 256).amax(0))
        return Case(3, {"x": x, "y": y.clone()}, {"y": expect}, 0, 0)
    return make


def cross_core_flag_case(scenario: int):
    # MIX 1:2, 8 blocks. Scenario 0: the 16 AIVs each add x * blockIdx to z atomically, CrossCoreSetFlag mode 0
    # between all AIVs; 1: AIVs 2 and 3 only (mode 1, the AIVs of one block). z starts as the allocator's zeros.
    # Scenario 2: the AIVs cast uint8 a and b to half in GM workspaces A and B (mode 2 to the AIC); AIC i multiplies
    # its contiguous [32, 4] block of A by its [4, 64] block of B (K = 32 in 8 blocks of 4) and adds the product
    # into C atomically (Fixpipe under SetAtomicAdd; mode 0 between AICs, mode 2 back); the AIVs LeakyRelu(0.001)
    # their 2 rows each. Integer inputs: the float sums are exact.
    def make(kdir, gen) -> Case:
        if scenario == 2:
            a = torch.randint(0, 256, (32, 32), generator=gen, dtype=torch.int32)
            b = torch.randint(0, 256, (32, 64), generator=gen, dtype=torch.int32)
            c = torch.bmm(a.double().view(8, 32, 4), b.double().view(8, 4, 64)).sum(0)
            return Case(8, {"a": a.to(torch.uint8).flatten(), "b": b.to(torch.uint8).flatten(),
                            "A": torch.zeros(32 * 32, dtype=torch.float16), "B": torch.zeros(32 * 64, dtype=torch.float16),
                            "c": torch.zeros(32 * 64)}, {"c": c.flatten()}, 0, 0)
        x = rand(gen, 32, -4, 4)
        factor = sum(range(16)) if scenario == 0 else 2 + 3
        return Case(8, {"x": x, "z": torch.zeros(32), "dataLength": 32}, {"z": factor * x.double()}, 1e-6, 1e-6)
    return make


def gm_by_dcache_case(kdir, gen) -> Case:
    # 4 cores of 1024 floats: each sums its tile into 16 partials (ReduceRepeat) in the workspace and raises its
    # flag with SetValue + DataCacheCleanAndInvalid; core 0 polls the flags, then sums the 64 partials into z[0].
    x = rand(gen, 4096, 0, 10)
    return Case(4, {"x": x, "workspace": torch.zeros(128, dtype=torch.int32), "z": torch.zeros(1)},
                {"z": x.double().sum().reshape(1)}, 1e-5, 1e-4)


def reduce_computation_case(scenario: int):
    # One core, half. 1/3: ReduceMax/ReduceMin over the first 288 with calIndex (dst[0] the value, dst[1] its index's
    # bits); 2/4: the same over 512 in the mask/repeat form (mask 128, 4 repeats); 5: ReduceSum over 288, dst[1] =
    # GetReduceRepeatSumSpr<half>(); 6: ReduceSum over 8320 (mask 128, 65 repeats). Distinct values k / 8 (max and
    # min unique) and small integers for the sums (every partial sum exact in half). The output is 16 halves of
    # which the kernel writes the first one or two: compared as int16 bits, those only.
    def make(kdir, gen) -> Case:
        n = {1: 288, 2: 512, 3: 288, 4: 512, 5: 288, 6: 8320}[scenario]
        if scenario in (5, 6):
            x = torch.randint(-4, 5, (n,), generator=gen).to(torch.float16)
            total = x.double().sum().to(torch.float16)
            vals = [total, total] if scenario == 5 else [total]
            expect = torch.stack(vals).view(torch.int16)
        else:
            x = ((torch.randperm(2 * n, generator=gen)[:n] - n).double() / 8).to(torch.float16)
            pick = torch.argmax if scenario in (1, 2) else torch.argmin
            i = int(pick(x.double()))
            expect = torch.tensor([int(x[i:i + 1].view(torch.int16)), i], dtype=torch.int16)
        return Case(1, {"x": x, "z": torch.zeros(16, dtype=torch.int16)}, {"z": (expect, slice(0, len(expect)))})
    return make


def sequential_block_sync_case(kdir, gen) -> Case:
    # 8 cores, 256 floats in 2 tiles of 128: each core, in blockIdx order (WaitPreBlock/NotifyNextBlock), adds the
    # whole x tile by tile into z under SetAtomicAdd. The order is fixed: z = (((0 + x) + x) ... + x), 8 times, in
    # float; the workspace starts with whatever GM held (the docs: it need not be zeroed).
    x = rand(gen, 256, -4, 4)
    acc = torch.zeros(256)
    for _ in range(8):
        acc = acc + x
    return Case(8, {"x": x, "z": torch.zeros(256), "workspace": torch.randint(0, 9, (64,), generator=gen,
                                                                            dtype=torch.int32)},
                {"z": acc.double()}, 0, 0)


def slice_case(kdir, gen) -> Case:
    # x [3, 87] floats: rows 0 and 2 (dimension 1: 0..2, stride 1), of each the elements 16..39 and 47..70 (bursts of
    # 3 blocks, 7 apart) into UB as [2, 48], then the [2, 48] to GM unchanged.
    x = rand(gen, 3 * 87).view(3, 87)
    picked = torch.cat([x[[0, 2], 16:40], x[[0, 2], 47:71]], 1)
    return Case(1, {"dstGm": torch.zeros(96), "srcGm": x.flatten()}, {"dstGm": picked.flatten().double()}, 0, 0)


KERNELS += [
    example("ex_task_sync", f"{BASIC}/05_sync_control/task_sync/task_sync.asc", "kernel_task_sync",
            "WaitPreTaskEnd/SetNextTaskStart (no effect on A2), Add (half)", task_sync_case),
    *[example(f"ex_tensor_allocation_s{s}", f"{BASIC}/04_memory_management/tensor_allocation/tensor_allocation.asc",
              "tensor_allocate_custom", {1: "UB tensors from TQue", 2: "UB tensors from LocalMemAllocator",
                                         3: "UB tensors at fixed addresses"}[s], tensor_allocation_case,
              template="float, 1024", scenario=s) for s in (1, 2, 3)],
    *[example(f"ex_atomic_copy_s{s}", f"{BASIC}/06_atomic/data_movement_with_atomic_operations/"
              "data_movement_with_atomic_operations.asc", "data_movement_with_atomic_operations_custom",
              {1: "SetAtomicAdd DataCopy from 3 cores, SyncAll, DisableDmaAtomic",
               2: "SetAtomicMax DataCopy from 3 cores, SyncAll, DisableDmaAtomic"}[s], atomic_copy_case(s),
              template="256", scenario=s) for s in (1, 2)],
    *[example(f"ex_cross_core_flag_s{s}", f"{BASIC}/05_sync_control/cross_core_set_wait_flag/"
              "cross_core_set_wait_flag.asc", "mmad_custom" if s == 2 else "cross_core_set_wait_flag_custom",
              {0: "CrossCoreSetFlag mode 0 between 16 AIVs, atomic DataCopy, DisableDmaAtomic",
               1: "CrossCoreSetFlag mode 1 between a block's AIVs, atomic DataCopy",
               2: "CrossCoreSetFlag modes 0 and 2 between AIC and AIVs: Cast, Mmad, atomic Fixpipe, LeakyRelu"}[s],
              cross_core_flag_case(s), scenario=s) for s in (0, 1, 2)],
    *[example(f"ex_reduce_computation_s{s}", f"{BASIC}/01_memory_vector_compute/reduce_computation/"
              "reduce_computation.asc", "reduce_computation_custom",
              {1: "ReduceMax over the first n with its index", 2: "ReduceMax mask/repeat form with its index",
               3: "ReduceMin over the first n with its index", 4: "ReduceMin mask/repeat form with its index",
               5: "ReduceSum over the first n, GetReduceRepeatSumSpr, FetchEventID",
               6: "ReduceSum mask/repeat form over 65 repeats"}[s], reduce_computation_case(s), scenario=s)
      for s in (1, 2, 3, 4, 5, 6)],
    example("ex_sequential_block_sync", f"{BASIC}/05_sync_control/sequential_block_sync/sequential_block_sync.asc",
            "kernel_sequential_block_sync", "InitDetermineComputeWorkspace, WaitPreBlock/NotifyNextBlock: 8 cores "
            "adding into z in blockIdx order (SetAtomicAdd, DisableDmaAtomic)", sequential_block_sync_case,
            template="float"),
    example("ex_data_copy_slice", f"{BASIC}/00_data_movement/data_copy_gm2ub_slice/slice.asc", "kernel_slice",
            "DataCopy with SliceInfo GM -> UB (2 dimensions, an unaligned stride) and UB -> GM", slice_case),
    example("ex_gm_by_dcache", f"{BASIC}/09_utils/gm_by_dcache/gm_by_dcache.asc", "gm_by_dcache_custom",
            "flags across 4 cores by SetValue/GetValue and DataCacheCleanAndInvalid polling, ReduceRepeat",
            gm_by_dcache_case, template="float, 4, 1024"),
]


# ---- i22-mmapi: the Matmul examples of the constant tiling, batch, callback and CO1 APIs ---------------------------

def mm_constant_case(kdir, gen) -> Case:
    # matmul_constant_tiling: M = 128, N = 30720, K = 64, no bias; the kernel's tiling is the MatmulProblemShape
    # {usedCoreNum, m, n, k, sm, sn, sk, isBias} GetSingleCoreShape(M, N, K) computes (MultiCoreMatmulTiling with
    # SetDim(1)); the Matmul object's tiling is the constant one (REGIST_MATMUL_OBJ with a null pointer).
    m, n, k = 128, 30720, 64
    shapes = example_tiling(kdir, "matmul_constant_tiling.asc",
                            f"static MatmulProblemShape s = GetSingleCoreShape({m}, {n}, {k}); "
                            "tiling = reinterpret_cast<const uint8_t*>(&s);", 8 * 4, fn="GetUsedCoreNum")
    used = struct.unpack_from("<i", shapes, 0)[0]
    args, ref = mm_operands(gen, m, n, k, False)
    args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                tilingGm=shapes)
    return Case(used, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


def mm_l2cache_case(kdir, gen) -> Case:
    # matmul_l2cache: M = 30720, N = 1024, K = 4096, no bias; the kernel's tiling is the MatmulProblemShape
    # {m, n, k, isBias} its main fills with those constants; launched on GetCoreNumAic() blocks (24 on the default
    # Ascend910B2); each core walks its 128 x 256 (x K) tiles in the example's L2-cache order.
    m, n, k = 30720, 1024, 4096
    args, ref = mm_operands(gen, m, n, k, False)
    args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                tilingGm=struct.pack("<4i", m, n, k, 0))
    return Case(24, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


KERNELS += [
    example("ex_mm_constant_tiling", f"{MM}/matmul_constant_tiling/matmul_constant_tiling.asc",
            "matmul_constant_tiling_custom", "Matmul cube-only with a full constant tiling: GetMatmulApiTiling of "
            "GetMMConfig<CONFIG_MDL>(MatmulShapeParams), its L1 fields overridden, REGIST_MATMUL_OBJ with a null "
            "tiling, SetOrgShape/SetTail", mm_constant_case),
    example("ex_mm_l0cache", f"{MM}/matmul_l0cache/matmul_l0cache.asc", "matmul_l0cache_custom",
            "Matmul cube-only with a constant tiling (GetMatmulApiTiling of GetMMConfig<CONFIG_NORM>) over the "
            "runtime TCubeTiling of its GenerateTiling (SetSingleShape 256 x 1024 x 128), 20 cores",
            mm_case("matmul_l0cache.asc", 2560, 2048, 128, lambda used: 20)),
    example("ex_mm_l2cache", f"{MM}/matmul_l2cache/matmul_l2cache.asc", "matmul_l2cache_custom",
            "Matmul cube-only with a full constant tiling (CFG_MDL, its L1 fields set), REGIST_MATMUL_OBJ with a null "
            "tiling; Std::tuple, Coord/MakeCoord, MakeLayout/MakeShape/MakeStride offsets; 128 x 256 tiles in L2 order",
            mm_l2cache_case),
    example("ex_mm_co1_output", f"{MM}/matmul_co1_output/matmul_co1_output.asc", "matmul_co1_output_custom",
            "Matmul cube-only with C at CO1 (MatmulType<CO1, NZ, GetMmDstType<half>::Type>): Iterate(false, "
            "LocalTensor) into a TQue<CO1> buffer, then the kernel's Fixpipe (CFG_ROW_MAJOR) to GM; SetFixSplit(32, 128)",
            mm_case("matmul_co1_output.asc", 32, 256, 128, lambda used: 1)),
]


# ---- i22-advnorm: WelfordFinalize, DeepNorm, LayerNormGrad(Beta), SoftmaxFlashV3 (issue 20) --------------------

def welford_case(kdir, gen) -> Case:
    # main: one core; WelfordUpdate (inplace, rnLength 1, abLength 64, abComputeLength 35, nRec 1/8) of x, inMean and
    # inVar [64], then WelfordFinalize (counts form) of the first partial alone: counts [1, 0 x 7], the means and
    # variances [outMean[0], 0 x 7] and [outVar[0], 0 x 7], rRec 1, so the final mean and variance are outMean[0] and
    # outVar[0] (elements 1..7 zero). Its GenerateWelfordCoopTiling fills the 56-byte plain struct (memcpy_s).
    tiling = example_tiling(kdir, "welford.asc", "tiling = GenerateWelfordCoopTiling();", 56,
                            fn="GenerateWelfordCoopTiling")
    x, m, v = rand(gen, 64, -4, 4), rand(gen, 64, -2, 2), rand(gen, 64, 0, 5)
    xd, md, vd = x.double(), m.double(), v.double()
    new_m = md + (xd - md) / 8
    new_v = vd + (xd - md) * (xd - new_m)
    done = torch.arange(64) < 35  # past abComputeLength the inplace outputs are the inputs
    out_m, out_v = torch.where(done, new_m, md), torch.where(done, new_v, vd)
    final_m, final_v = torch.zeros(8, dtype=torch.float64), torch.zeros(8, dtype=torch.float64)
    final_m[0], final_v[0] = out_m[0], out_v[0]
    return Case(1, {"srcGm": x, "inMeanGm": m, "inVarGm": v, "outMeanGm": torch.zeros(64), "outVarGm": torch.zeros(64),
                    "finalMeanGm": torch.zeros(8), "finalVarGm": torch.zeros(8), "workspace": torch.zeros(16),
                    "tiling": tiling},
                {"outMeanGm": out_m, "outVarGm": out_v, "finalMeanGm": final_m, "finalVarGm": final_v}, 1e-5, 1e-6)


def deepnorm_case(kdir, gen) -> Case:
    # main: one core, float [4, 16, 64], alpha -5.5, epsilon 65504 (the kernel's constants), isBasicBlock; the buffer
    # is the framework's, the tiling GetDeepNormTilingInfo for GetDeepNormMaxMinTmpSize's minimum (64 rounds of a row)
    # inside the example's 120-byte DeepNormTilingData. x1 = alpha * x + gx; the outputs: (x1 - mean) / sqrt(var +
    # epsilon) * gamma + beta, the row means and the row variances (A2 writes the variance to rstdLocal).
    tiling = example_tiling(kdir, "deepnorm.asc", "tiling = GenerateDeepNormTiling();", 120,
                            fn="GenerateDeepNormTiling")
    x, gx = rand(gen, (64, 64), -100, 100), rand(gen, (64, 64), -100, 100)
    beta, gamma = rand(gen, 64, -2, 2), rand(gen, 64, -2, 2)
    x1 = -5.5 * x.double() + gx.double()
    mean = x1.mean(dim=1, keepdim=True)
    var = ((x1 - mean) ** 2).mean(dim=1, keepdim=True)
    out = (x1 - mean) / torch.sqrt(var + 65504.0) * gamma.double() + beta.double()
    return Case(1, {"inputX_gm": x.reshape(-1), "inputGx_gm": gx.reshape(-1), "beta_gm": beta, "gamm_gm": gamma,
                    "output_gm": torch.zeros(4096), "outputMean_gm": torch.zeros(64),
                    "outputVariance_gm": torch.zeros(64), "tiling": tiling},
                {"output_gm": out.reshape(-1), "outputMean_gm": mean.reshape(-1), "outputVariance_gm": var.reshape(-1)},
                1e-5, 1e-5)


def layernorm_grad_case(kdir, gen) -> Case:
    # main: one core, float [2, 32, 16], epsilon 1e-4 (the tiling's); LayerNorm, then LayerNormGrad on its mean and
    # variance, then LayerNormGradBeta on LayerNormGrad's resForGamma; every buffer the framework's, the tilings
    # the example's ComputeTiling writes for the largest of the three minimums (tiling-data class with three struct
    # fields and the epsilon: 308 bytes). References in float64 from x, gamma, beta, dy: y = (x - mean) * rstd * gamma
    # + beta; pdX = (x - mean) * pdVar * 2 / H + pdMean / H + dy * gamma * rstd with pdVar = Σ -0.5 * dy * gamma *
    # (x - mean) * rstd³ and pdMean = Σ -dy * gamma * rstd + pdVar * Σ -2 (x - mean) / H; pdGamma = Σ_rows dy * (x -
    # mean) * rstd, pdBeta = Σ_rows dy.
    tiling = example_tiling(kdir, "layernorm.asc", "tiling = GenerateTiling(2, 32, 16);", 308)
    x, dy = rand(gen, (64, 16), -100, 100), rand(gen, (64, 16), -100, 100)
    gamma, beta = rand(gen, 16, -100, 100), rand(gen, 16, -100, 100)
    xd, dyd, gd = x.double(), dy.double(), gamma.double()
    mean = xd.mean(dim=1, keepdim=True)
    var = ((xd - mean) ** 2).mean(dim=1, keepdim=True)
    rstd = 1 / torch.sqrt(var + 1e-4)
    x2, x1 = xd - mean, dyd * gd
    y = x2 * rstd * gd + beta.double()
    pd_var = (-0.5 * x1 * x2 * rstd ** 3).sum(dim=1, keepdim=True)
    pd_mean = (-x1 * rstd).sum(dim=1, keepdim=True) + pd_var * (-2 * x2).sum(dim=1, keepdim=True) / 16
    pd_x = x2 * pd_var * 2 / 16 + pd_mean / 16 + x1 * rstd
    return Case(1, {"inputXGm": x.reshape(-1), "gammaGm": gamma, "betaGm": beta, "dyGm": dy.reshape(-1),
                    "outputYGm": torch.zeros(1024), "outputMeanGm": torch.zeros(64), "outputVarGm": torch.zeros(64),
                    "outputPdXGm": torch.zeros(1024), "outputPdGammaGm": torch.zeros(16),
                    "outputPdBetaGm": torch.zeros(16), "workspace": torch.zeros(16), "tiling": tiling},
                {"outputYGm": y.reshape(-1), "outputMeanGm": mean.reshape(-1), "outputVarGm": var.reshape(-1),
                 "outputPdXGm": pd_x.reshape(-1), "outputPdGammaGm": (dyd * x2 * rstd).sum(dim=0),
                 "outputPdBetaGm": dyd.sum(dim=0)}, 1e-5, 1e-4)


def softmaxflashv3_case(kdir, gen) -> Case:
    # main: one core, x [8, 2048] half, loopCnt 2, splitMeanCnt 8, alpha 0.9375; SoftmaxFlashV3<half, float, isUpdate>
    # with the statistics in place (meanTensor = inMeanTensor, ...), the framework's buffer, a SoftMaxTiling the
    # kernel builds; only dst goes out. The example's scenario: x in [0, 10], previous statistics per row in [0, 1]
    # (one value a block). Reference, the docs' formula in float64: per eighth c of a row its mean m_c, the row's
    # mean g; x' = x - (g - m_c) * s (s = alpha / (1 - alpha)); mean = (g + inMean * (loopCnt - 1)) / loopCnt;
    # shiftCurr = (g - mean) * s, shiftPrev = (inMean - mean) * s; xMax = max(max(x') + shiftCurr, inMax + shiftPrev);
    # dst = exp(x' - (xMax - shiftCurr)). (In place A2's sequence reads the new mean and max back as the previous
    # ones; with the previous max below the row's, as here, the results agree.)
    tiling = example_tiling(kdir, "softmaxflashv3.asc", "static uint8_t buf[40]; "
                            "GenerateTiling(8, 2048, 2, 8, 0.9375f, 1, 40, buf); tiling = buf;", 40)
    x = rand(gen, (8, 2048), 0, 10, torch.float16)
    in_max, in_sum, in_mean = (rand(gen, (8, 1), lo, hi) for lo, hi in ((0, 1), (0.1, 1), (0, 1)))
    s = 0.9375 / (1 - 0.9375)
    xd = x.double()
    local = xd.view(8, 8, 256).mean(dim=2)
    g = local.mean(dim=1, keepdim=True)
    xs = (xd.view(8, 8, 256) - ((g - local) * s).unsqueeze(-1)).view(8, 2048)
    mean = (g + in_mean.double() * (2 - 1)) / 2
    shift_curr, shift_prev = (g - mean) * s, (in_mean.double() - mean) * s
    x_max = torch.maximum(xs.max(dim=1, keepdim=True).values + shift_curr, in_max.double() + shift_prev)
    dst = torch.exp(xs - (x_max - shift_curr))
    stat = lambda t: t.expand(8, 8).reshape(-1).contiguous()
    return Case(1, {"srcGm": x.reshape(-1), "inMaxGm": stat(in_max), "inSumGm": stat(in_sum),
                    "inMeanGm": stat(in_mean), "dstGm": torch.zeros(8 * 2048, dtype=torch.float16), "tiling": tiling},
                {"dstGm": dst.reshape(-1)}, *HALF)


KERNELS += [
    example("ex_softmaxflashv3", f"{ADV}/01_activation/softmaxflashv3/softmaxflashv3.asc", "softmaxflashv3_custom",
            "SoftmaxFlashV3<half, float, isUpdate> with the statistics in place, a kernel-built SoftMaxTiling, "
            "SoftMaxParams", softmaxflashv3_case),
    example("ex_layernorm", f"{ADV}/02_normalization/layernorm/layernorm.asc", "layernorm_custom",
            "LayerNorm, then LayerNormGrad and LayerNormGradBeta, framework buffers; tiling-data class with the three "
            "tilings as struct fields (optiling:: tiling functions)", layernorm_grad_case),
    example("ex_deepnorm", f"{ADV}/02_normalization/deepnorm/deepnorm.asc", "deepnorm_custom",
            "DeepNorm<float, false, isBasicBlock> with the framework's buffer, GetDeepNormTilingInfo at the minimum",
            deepnorm_case),
    example("ex_welford", f"{ADV}/02_normalization/welford/welford.asc", "welford_coop_custom",
            "WelfordUpdate (inplace, a part of the row computed) then WelfordFinalize with counts, plain tiling struct",
            welford_case),
]


# ---- branch i22-mmfeat: Matmul examples with the features the twin's Matmul gained (IBShare, ...) ---------------

def mm_case_call(asc: str, call: str, m: int, n: int, k: int, blocks, bias: bool = False, defines=()):
    """mm_case for an example whose GenerateTiling takes other arguments: `call` is the C++ its main runs to get
    the tiling (leaving it in `tiling`), as example_tiling takes it; `defines` the build's -D (SCENARIO_NUM)."""
    def make(kdir, gen) -> Case:
        tiling = example_tiling(kdir, asc, call, 50 * 4, defines)
        used = struct.unpack_from("<i", tiling, 0)[0]
        args, ref = mm_operands(gen, m, n, k, bias)
        args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                    tilingGm=tiling)
        return Case(blocks(used), args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)
    return make


def a2b2_share_case(kdir, gen) -> Case:
    # Two Matmul objects with isA2B2Shared (one L0A/L0B double buffer): c1 = a1 @ b1 + bias, c2 = a2 @ b2 + bias,
    # M 7680, N 480, K 320 over the AICs the example's GenerateTiling uses (its main launches usedCoreNum blocks).
    m, n, k = 7680, 480, 320
    tiling = mm_tiling(kdir, "matmul_a2b2_share.asc")
    (a1, b1, bias), ref1 = (lambda t: ((t[0]["a"], t[0]["b"], t[0]["bias"]), t[1]))(mm_operands(gen, m, n, k, True))
    a2, b2 = rand(gen, (m, k), -1, 1, torch.float16).reshape(-1), rand(gen, (k, n), -1, 1, torch.float16).reshape(-1)
    ref2 = a2.double().view(m, k) @ b2.double().view(k, n) + bias.double()
    nan = lambda: torch.full((m * n,), float("nan"))  # noqa: E731
    args = {"a1": a1, "b1": b1, "a2": a2, "b2": b2, "bias": bias, "c1": nan(), "c2": nan(),
            "workspace": torch.zeros(LIB_API_WORKSPACE // 4), "tilingGm": tiling}
    return Case(struct.unpack_from("<i", tiling, 0)[0], args, {"c1": ref1.reshape(-1), "c2": ref2.reshape(-1)},
                1e-5, 1e-5 * k ** 0.5)


def partial_output_case(kdir, gen) -> Case:
    # isPartialOutput (CFG_MDL): each Iterate one base block over one baseK slice, GetTensorC(enSequentialWrite) into
    # the kernel's workspace one after another; the AIV then adds each block's kIter slices and writes the block, whole
    # and dense, at i * baseM * baseN of C (block i of the walk, ORDER_M). M 128, N 128, K 256 on one block; the
    # example's main sizes the user workspace M * N * singleCoreK / baseK floats past the system workspace.
    m, n, k = 128, 128, 256
    tiling = mm_tiling(kdir, "matmul_partial_output.asc")
    t = struct.unpack_from("<50i", tiling)
    single_k, base_m, base_n, base_k = t[7], t[8], t[9], t[10]
    args, ref = mm_operands(gen, m, n, k, False)
    blocks = [ref[i:i + base_m, j:j + base_n].reshape(-1) for j in range(0, n, base_n) for i in range(0, m, base_m)] \
        if t[17] == 0 else [ref[i:i + base_m, j:j + base_n].reshape(-1) for i in range(0, m, base_m)
                            for j in range(0, n, base_n)]
    ws = torch.zeros((LIB_API_WORKSPACE + m * n * single_k // base_k * 4) // 4)
    args = dict(args, c=torch.full((m * n,), float("nan")), workspace=ws, tilingGm=tiling)
    return Case(t[0], args, {"c": torch.cat(blocks)}, 1e-5, 1e-5 * k ** 0.5)


def nd_align_case(kdir, gen) -> Case:
    # C in ND_ALIGN: M 128, N 7679, K 128 with bias; C's rows 7680 floats apart in GM (N rounded up to 32 bytes), the
    # padding column never written (it keeps the zeros C starts with).
    m, n, k, ld = 128, 7679, 128, 7680
    tiling = mm_tiling(kdir, "matmul_format_nd_align.asc")
    args, ref = mm_operands(gen, m, n, k, True)
    expect = torch.zeros(m, ld, dtype=torch.float64)
    expect[:, :n] = ref
    args = dict(args, c=torch.zeros(m * ld), workspace=torch.zeros(LIB_API_WORKSPACE // 4), tilingGm=tiling)
    return Case(struct.unpack_from("<i", tiling, 0)[0], args, {"c": expect.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


def channel_split_case(kdir, gen) -> Case:
    # C in NZ with isEnableChannelSplit (float): 8-column fractals of M rows, element (m, n) at ((n // 8) * M + m) * 8
    # + n % 8; M 64, N 7680, K 64 with bias over the AICs the example's GenerateTiling uses.
    m, n, k = 64, 7680, 64
    tiling = mm_tiling(kdir, "matmul_channelsplit_output.asc")
    args, ref = mm_operands(gen, m, n, k, True)
    nz = ref.reshape(m, n // 8, 8).permute(1, 0, 2).reshape(-1)
    args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                tilingGm=tiling)
    return Case(struct.unpack_from("<i", tiling, 0)[0], args, {"c": nz}, 1e-5, 1e-5 * k ** 0.5)


IBSHARE_B_TILING = ("static TCubeTiling t = GenerateTiling(MatmulCaseParams{64, 256, 384, false, false, false}); "
                    "tiling = reinterpret_cast<const uint8_t*>(&t);")

KERNELS += [
    *[example(f"ex_mm_ibshareB_s{s}", f"{MM}/matmul_ibshareB/matmul_ibshareB.asc", "matmul_ibshareb_custom",
              {1: "Matmul MIX with B IBShare (MatmulType IBSHARE) and CFG_IBSHARE_NORM, 1:2, IterateAll into GM",
               2: "Matmul cube-only (__cube__) with B IBShare in the MatmulType and CFG_NORM"}[s],
              mm_case_call("matmul_ibshareB.asc", IBSHARE_B_TILING, 64, 256, 384,
                           (lambda used: used // 2) if s == 1 else (lambda used: used),
                           defines=(f"SCENARIO_NUM={s}",)), scenario=s) for s in (1, 2)],
    example("ex_mm_mixdualmaster", f"{MM}/matmul_mixdualmaster/matmul_mixdualmaster.asc",
            "matmul_mixdualmaster_custom", "Matmul cube-only (__cube__): A and B IBShare, CFG_NORM with "
            "enableMixDualMaster (no effect on the AIC's own Matmul), bias, SetTail",
            mm_case("matmul_mixdualmaster.asc", 12288, 256, 128, lambda used: used)),
    example("ex_mm_fused_manual", f"{MM}/matmul_fused_manual/matmul_fused_manual.asc", "matmul_fused_manual_custom",
            "__mix__(1, 2) with ASCENDC_CUBE_ONLY: the AIC's Matmul (C type VECIN) IterateAll into GM, "
            "CrossCoreSetFlag to the AIVs, each LeakyRelu on half of C; MatmulApiTiling with SetFixSplit",
            mm_case("matmul_fused_manual.asc", 128, 128, 256, lambda used: 1,
                    post=lambda r: torch.where(r >= 0, r, r * 0.001))),
    example("ex_mm_a2b2_share", f"{MM}/matmul_a2b2_share/matmul_a2b2_share.asc", "matmul_a2b2_share_custom",
            "Matmul cube-only: two objects with CFG_NORM isA2B2Shared (one L0A/L0B double buffer), IterateAll each",
            a2b2_share_case),
    example("ex_mm_partial_output", f"{MM}/matmul_partial_output/matmul_partial_output.asc",
            "matmul_partial_output_custom", "Matmul MIX: CFG_MDL with isPartialOutput, Iterate/GetTensorC(GM, "
            "enSequentialWrite) of each baseK slice, the AIV adding the slices (operator+ on LocalTensor)",
            partial_output_case),
    example("ex_mm_format_nd_align", f"{MM}/matmul_format_nd_align/matmul_format_nd_align.asc",
            "matmul_format_nd_align", "Matmul cube-only: C MatmulType in ND_ALIGN (rows 32-byte aligned in GM), "
            "N 7679, SetTail", nd_align_case),
    example("ex_mm_format_gemv", f"{MM}/matmul_format_gemv/matmul_format_gemv.asc", "matmul_format_gemv_custom",
            "Matmul cube-only: A MatmulType in VECTOR (GEMV, M 1), N 32, K 256",
            mm_case("matmul_format_gemv.asc", 1, 32, 256, lambda used: used, bias=False)),
    example("ex_mm_channelsplit_output", f"{MM}/matmul_channelsplit_output/matmul_channelsplit_output.asc",
            "matmul_channelsplit_output_custom", "Matmul cube-only: C in NZ with isEnableChannelSplit (float, "
            "8-column fractals), bias", channel_split_case),
]


# ---- i22-vec: GM flags polled across cores, bypassing the data cache (issue 20) -------------------------------

def gm_by_pass_dcache_case(kdir, gen) -> Case:
    # One core, 1024 int32: ReadGmByPassDCache(src[0]), DataSyncBarrier<DDR>, WriteGmByPassDCache(dst[0], it + 100).
    # The other 1023 outputs are never written: they keep the random values they hold before the launch. Inputs
    # stay 100 below INT32_MAX (the addition is C++ int arithmetic, undefined on overflow in the twin's build).
    x = torch.randint(-2 ** 31, 2 ** 31 - 100, (1024,), generator=gen, dtype=torch.int32)
    z = torch.randint(-2 ** 31, 2 ** 31 - 1, (1024,), generator=gen, dtype=torch.int32)
    expect = z.clone()
    expect[0] = int(x[0]) + 100
    return Case(1, {"srcGm": x, "dstGm": z}, {"dstGm": expect, "srcGm": x.clone()})


def data_sync_barrier_case(kdir, gen) -> Case:
    # Two cores, TOTAL_LENGTH 8 (the host's RunDataSyncBarrier<8>): core 0 writes src[1] = 7, DataSyncBarrier<DDR>,
    # then the flag src[0] = 6, all with WriteGmByPassDCache; core 1 polls src[0] with ReadGmByPassDCache until it
    # holds 6, then writes dst[0] = 2 * src[1]. Random inputs other than 6 in src[0]; dst[1..8) keep theirs.
    x = torch.randint(-1000, 1000, (8,), generator=gen, dtype=torch.int32)
    if int(x[0]) == 6:
        x[0] = 5
    z = torch.randint(-1000, 1000, (8,), generator=gen, dtype=torch.int32)
    src, dst = x.clone(), z.clone()
    src[0], src[1] = 6, 7
    dst[0] = 14
    return Case(2, {"srcGm": x, "dstGm": z}, {"srcGm": src, "dstGm": dst})


KERNELS += [
    example("ex_gm_by_pass_dcache", f"{BASIC}/09_utils/gm_by_pass_dcache/gm_by_pass_dcache.asc",
            "kernel_gm_by_pass_dcache", "ReadGmByPassDCache, DataSyncBarrier<DDR>, WriteGmByPassDCache (int32)",
            gm_by_pass_dcache_case),
    example("ex_data_sync_barrier", f"{BASIC}/05_sync_control/data_sync_barrier/data_sync_barrier.asc",
            "kernel_data_sync_barrier", "a GM flag across 2 cores: WriteGmByPassDCache, DataSyncBarrier<DDR>, "
            "ReadGmByPassDCache polling", data_sync_barrier_case, template="int32_t, 8"),
]


def gather_case(scenario: int):
    # One core. 1: GatherMask in place over 256 uint32 with the built-in pattern 2 (odd lanes), 4 repeats: the 128
    # kept elements packed from the start, the rest of the tensor its own; 2: GatherMask in counter mode (mask 70,
    # 2 repeats 4 blocks apart, the same 32-word pattern each repeat) into a zeroed dst; 3: Gather of 128 uint16 by
    # byte offsets (a random permutation); 4: Gatherb of 8 32-byte blocks by byte offsets (random blocks).
    # References from the documented semantics: pattern bit j (lowest first) keeps lane j.
    def make(kdir, gen) -> Case:
        u32 = lambda n: torch.randint(0, 2 ** 31, (n,), generator=gen, dtype=torch.int64).to(torch.int32)
        u16 = lambda n: torch.randint(-2 ** 15, 2 ** 15, (n,), generator=gen, dtype=torch.int32).to(torch.int16)
        if scenario == 1:
            x = u32(256)
            expect = x.clone()
            kept = [int(x[r * 64 + j]) for r in range(4) for j in range(64) if j % 2 == 1]
            expect[:len(kept)] = torch.tensor(kept, dtype=torch.int32)
            return Case(1, {"x": x, "y": torch.zeros(8, dtype=torch.int32), "z": u32(256)}, {"z": expect})
        if scenario == 2:
            x, pattern = u32(256), u32(32)
            bits = [(int(pattern[j // 32]) >> (j % 32)) & 1 for j in range(70)]
            kept = [int(x[r * 32 + j]) for r in range(2) for j in range(70) if bits[j]]
            expect = torch.zeros(256, dtype=torch.int32)
            expect[:len(kept)] = torch.tensor(kept, dtype=torch.int32)
            return Case(1, {"x": x, "y": pattern, "z": u32(256)}, {"z": expect})
        x = u16(128)
        if scenario == 3:
            off = torch.randperm(128, generator=gen)
            return Case(1, {"x": x, "y": (off * 2).to(torch.int32), "z": u16(128)}, {"z": x[off]})
        blocks = torch.randint(0, 8, (8,), generator=gen)
        expect = torch.cat([x[int(b) * 16:int(b) * 16 + 16] for b in blocks])
        return Case(1, {"x": x, "y": (blocks * 32).to(torch.int32), "z": u16(128)}, {"z": expect})
    return make


KERNELS += [
    example("ex_gather" + ("" if s == 1 else f"_s{s}"), f"{BASIC}/01_memory_vector_compute/gather/gather.asc",
            "gather_custom", ["", "GatherMask in place, built-in pattern (uint32)",
                              "GatherMask counter mode, tensor pattern (uint32)",
                              "Gather by byte offsets, count form (uint16)", "Gatherb by block offsets (uint16)"][s],
            gather_case(s), template={1: "uint32_t, 256, 0, 256", 2: "uint32_t, 256, 32, 256",
                                      3: "uint16_t, 128, 128, 128", 4: "uint16_t, 128, 8, 128"}[s], scenario=s)
    for s in (1, 2, 3, 4)
]


def mrg_sort_case(scenario: int):
    # One core, float scores with uint32 indices: Sort32 over groups of 32, then MrgSort of the sorted groups (1: 4
    # lists of 32; 2: 3 lists of 32, validBit 7; 3: 1024 elements in three rounds, 32 -> 8 -> 2 -> 1 lists, the
    # first two with repeatTimes 8 and 2). The output is every (score, index) pair by descending score: distinct
    # random scores (a random permutation of k / 8), random indices; compared as int32 bits.
    def make(kdir, gen) -> Case:
        n = {1: 128, 2: 96, 3: 1024}[scenario]
        score = ((torch.randperm(4 * n, generator=gen)[:n] - 2 * n).double() / 8).float()
        index = torch.randint(0, 2 ** 31, (n,), generator=gen, dtype=torch.int64).to(torch.int32)
        order = sorted(range(n), key=lambda i: -float(score[i]))
        expect = torch.stack([torch.stack([score[i:i + 1].view(torch.int32)[0], index[i]]) for i in order]).reshape(-1)
        out = torch.randint(-2 ** 31, 2 ** 31 - 1, (2 * n,), generator=gen, dtype=torch.int32)
        return Case(1, {"src0Gm": score, "src1Gm": index, "dstGm": out}, {"dstGm": expect})
    return make


KERNELS += [
    example("ex_mrg_sort" + ("" if s == 1 else f"_s{s}"), f"{BASIC}/01_memory_vector_compute/mrg_sort/mrg_sort.asc",
            "vec_mrgsort_kernel", ["", "Sort32, MrgSort of 4 lists (float)", "Sort32, MrgSort of 3 lists, validBit 7",
                                   "Sort32, MrgSort in 3 rounds with repeatTimes 8 and 2 (1024 floats)"][s],
            mrg_sort_case(s), template={1: "128, 256", 2: "96, 256", 3: "1024, 6144"}[s], scenario=s)
    for s in (1, 2, 3)
]


def transpose_case(scenario: int):
    # One core, half. 1: a 16 x 16 Transpose; 2: TRANSPOSE_NCHW2NHWC of [3, 3, 2, 8] (its sharedTmpBuffer 1280
    # halves, the documented (cSize + 2) x 16 x 16); 3: TransDataTo5HD, NCHW [2, 32, 16, 16] -> NC1HWC0 [2, 2, 16, 16,
    # 16] in 4 calls of 16 repeats. References: the documented permutations of random data, compared bit-exactly.
    def make(kdir, gen) -> Case:
        shape = {1: (16, 16), 2: (3, 3, 2, 8), 3: (2, 32, 16, 16)}[scenario]
        x = half(gen, math.prod(shape)).reshape(shape)
        expect = {1: lambda: x.t(), 2: lambda: x.permute(0, 2, 3, 1),
                  3: lambda: x.reshape(2, 2, 16, 16, 16).permute(0, 1, 3, 4, 2)}[scenario]()
        z = half(gen, x.numel())
        return Case(1, {"x": x.reshape(-1).view(torch.int16), "z": z.view(torch.int16)},
                    {"z": expect.reshape(-1).contiguous().view(torch.int16)})
    return make


KERNELS += [
    example("ex_basic_transpose" + ("" if s == 1 else f"_s{s}"), f"{BASIC}/01_memory_vector_compute/transpose/transpose.asc",
            "transpose_custom", ["", "Transpose 16 x 16 (half)", "Transpose TRANSPOSE_NCHW2NHWC with sharedTmpBuffer",
                                 "TransDataTo5HD NCHW -> NC1HWC0 (half, uint64_t address lists)"][s],
            transpose_case(s), template={1: "256, 1, 1, 16, 16", 2: "144, 3, 3, 2, 8", 3: "16384, 2, 32, 16, 16"}[s],
            scenario=s)
    for s in (1, 2, 3)
]


# ---- i22-cube: the basic cube path (LoadDataWithTranspose, SetFixPipeConfig, LocalMemAllocator of L1, ...) ------

def mmad_unitflag_case(kdir, gen) -> Case:
    # M 128, N 256, K 512 in 8 rounds of k = 64 accumulated in L0C (cmatrixInitVal on round 0 only); round r reads
    # A at r * M * k (the host lays A out as its 8 [128, 64] column blocks one after the other) and B at r * k * N
    # (B [K, N] row-major is its 8 [64, 256] row blocks). half in, float out, C [M, N] ND.
    a, b = rand(gen, (128, 512), -1, 1, torch.float16), rand(gen, (512, 256), -1, 1, torch.float16)
    a_gm = a.reshape(128, 8, 64).permute(1, 0, 2).contiguous()
    return Case(1, {"a": a_gm, "b": b, "c": torch.zeros(128, 256)}, {"c": a.double() @ b.double()}, 1e-5, 1e-5)


def fixpipe_l0c2l1_case(scenario: int):
    # M = K = N = 128, K in two rounds of 64 (the host lays A out as its two [128, 64] column blocks one after the
    # other, B as [K, N]); C leaves L0C into L1 as NZ, then L1 -> GM unchanged (M * N elements). 1: half (F322F16),
    # 16-column Z blocks; 2: int8_t with the scalar quant 2.0 (QF322B8_PRE, Sign bit 46 set as the kernel sets it);
    # 3: int8_t with a quant word per column from L1 (VQF322B8_PRE: the host's quantAlpha, 2.0's bits with bit
    # 46), both as 32-column Z blocks (Int8 Channel Merge); 4: half with ReLU.
    def make(kdir, gen) -> Case:
        a, b = rand(gen, (128, 128), -1, 3, torch.float16), rand(gen, (128, 128), -1, 3, torch.float16)
        c = a.double() @ b.double()
        a_gm = a.reshape(128, 2, 64).permute(1, 0, 2).contiguous()
        b8 = scenario in (2, 3)
        alpha = torch.zeros(128, dtype=torch.int64)
        if scenario == 3:
            alpha += struct.unpack("<i", struct.pack("<f", 2.0))[0] | (1 << 46)
        if b8:
            q = torch.round(c.float().double() * 2.0).clamp(-128, 127)
            expect, tol = q.reshape(128, 4, 32).permute(1, 0, 2).reshape(-1), (0, 0)
        else:
            v = c.clamp(min=0) if scenario == 4 else c
            expect, tol = v.reshape(128, 8, 16).permute(1, 0, 2).reshape(-1), HALF
        out = torch.zeros(128 * 128, dtype=torch.int8 if b8 else torch.float16)
        return Case(1, {"a": a_gm, "b": b, "c": out, "d": torch.zeros_like(out), "quantAlpha": alpha},
                    {"c": expect}, *tol)
    return make


def deterministic_atomic_case(scenario: int):
    # 8 floats: dst = src0, then src2, src3 and src1 added in that order under SetAtomicAdd (float sums rounded at
    # each step). 1: one AIV in program order; 2: 4 AIVs ordered by IBSet/IBWait on the sync buffer; 3: 4 AICs with
    # their tiles in L1 (LocalMemAllocator<Hardware::L1>), DataCopy L1 -> GM, ordered by flags they poll with
    # ReadGmByPassDCache and raise with WriteGmByPassDCache (the sync buffer starts zeroed, as the host's file).
    def make(kdir, gen) -> Case:
        src = [rand(gen, 8, -100, 100) for _ in range(4)]
        acc = src[0].clone()
        for i in (2, 3, 1):
            acc = acc + src[i]  # float32 after each add: the order the cores are held to
        args = {f"src{i}": src[i] for i in range(4)}
        if scenario != 1:
            args["src4"] = torch.zeros(256, dtype=torch.int32)
        args["inout_gm"] = torch.zeros(8)
        return Case(1 if scenario == 1 else 4, args, {"inout_gm": acc.double()}, 0, 0)
    return make


def rand_int4(gen, shape) -> torch.Tensor:
    """Random int4b_t values in [-8, 7] (int64), never all zero."""
    return torch.randint(-8, 8, shape, generator=gen, dtype=torch.int64)


def pack_int4(x: torch.Tensor) -> torch.Tensor:
    """int4b_t values as GM holds them: two a byte, the element of even index in the low nibble."""
    u = x.reshape(-1) & 0xF
    return (u[0::2] | (u[1::2] << 4)).to(torch.uint8).view(torch.int8)


def mmad_case(scenario: int):
    # M 30, N 40, K 70 (unaligned: padded fractals in L1/L0), one AIC. 1: int8_t, B given [K, N] and loaded with
    # LoadDataWithTranspose, C (int32_t) started from the bias row in the BiasTable (cmatrixSource); 2: bfloat16_t,
    # B given [N, K], two Mmads accumulated in L0C (C = 2 A B); 3: float, A given [K, M] (LoadDataWithTranspose,
    # kDirectionAlign) and B [N, K], with a float bias through the bias form of Mmad; 4: int4b_t A [M, K] and B
    # [N, K] packed two a byte (low nibble first), C = A B^T in int32_t.
    def make(kdir, gen) -> Case:
        m, n, k = 30, 40, 70
        if scenario == 1:
            a = torch.randint(-128, 128, (m, k), generator=gen, dtype=torch.int32).to(torch.int8)
            b = torch.randint(-128, 128, (k, n), generator=gen, dtype=torch.int32).to(torch.int8)
            bias = torch.randint(-100000, 100000, (n,), generator=gen, dtype=torch.int32)
            expect = (a.long() @ b.long() + bias.long()).reshape(-1)
            return Case(1, {"a": a, "b": b, "bias": bias, "c": torch.zeros(m * n, dtype=torch.int32)},
                        {"c": expect}, 0, 0)
        if scenario == 4:
            a, b = rand_int4(gen, (m, k)), rand_int4(gen, (n, k))
            return Case(1, {"a": pack_int4(a), "b": pack_int4(b), "bias": torch.zeros(n, dtype=torch.int32),
                            "c": torch.zeros(m * n, dtype=torch.int32)}, {"c": (a @ b.T).reshape(-1)}, 0, 0)
        if scenario == 2:
            a, b = rand(gen, (m, k), -1, 1, torch.bfloat16), rand(gen, (n, k), -1, 1, torch.bfloat16)
            return Case(1, {"a": a, "b": b, "bias": torch.zeros(n), "c": torch.zeros(m * n)},
                        {"c": (2 * a.double() @ b.double().T).reshape(-1)}, 1e-5, 1e-5)
        a, b, bias = rand(gen, (k, m), -1, 1), rand(gen, (n, k), -1, 1), rand(gen, n, -1, 1)
        return Case(1, {"a": a, "b": b, "bias": bias, "c": torch.zeros(m * n)},
                    {"c": (a.double().T @ b.double().T + bias.double()).reshape(-1)}, 1e-5, 1e-5)
    return make


def sparse_operands(b: torch.Tensor):
    """A 4:2 sparse B [N, K] (at most 2 non-zeros in each group of 4 along K) as MmadWithSparse takes it, by the
    documented densification (辅助矩阵分形格式详解, 4选2稀疏索引矩阵, and MmadWithSparse's selection table): per
    group, the non-zeros in order (zero padded) and two 2-bit indices, the first non-zero's position and the
    second's minus 1; a lone non-zero at 3 has indices 0, 2 and sits in the second slot (the table selects element
    0 for the first slot and 3 for the second); 4 indices a byte, the first in the low bits. Returns dense [N, K / 2] and index bytes [N, K / 8]."""
    n, k = b.shape
    dense = torch.zeros(n, k // 2, dtype=torch.int8)
    idx = torch.zeros(n, k // 2, dtype=torch.int64)
    for r in range(n):
        for g in range(k // 4):
            nz = [j for j in range(4) if b[r, 4 * g + j] != 0]
            if len(nz) == 1:
                first, second = (nz[0], 0) if nz[0] < 3 else (0, 2)
            elif len(nz) == 2:
                first, second = nz[0], nz[1] - 1
            else:
                first, second = 0, 0
            for i, j in enumerate(nz):  # a lone non-zero at 3 takes the second slot, which element 1 + 2 feeds
                dense[r, 2 * g + (1 if nz == [3] else i)] = b[r, 4 * g + j]
            idx[r, 2 * g], idx[r, 2 * g + 1] = first, second
    packed = (idx.view(n, k // 8, 4) << torch.tensor([0, 2, 4, 6])).sum(-1).to(torch.uint8)
    return dense, packed


def zn_blocks(x: torch.Tensor, width: int) -> torch.Tensor:
    """x [rows, cols] as fractals of 16 rows x `width` columns, ordered column block by column block."""
    r, c = x.shape
    return x.reshape(r // 16, 16, c // width, width).permute(2, 0, 1, 3).contiguous().reshape(-1)


def mmad_sparse_case(kdir, gen) -> Case:
    # M 128, N 128, K 64 (int8_t, one AIC): A [M, K] given as 16 x 32 fractals column block by column block, the
    # sparse B [N, K] (2 of each 4 along K non-zero, random signs) densified with its 2-bit index matrix, both as
    # 16 x 32 (16 x 8 bytes for the index) fractals. Reference: C = A @ B^T of the sparse B, exactly.
    m, n, k = 128, 128, 64
    a = torch.randint(-128, 128, (m, k), generator=gen, dtype=torch.int32).to(torch.int8)
    b = torch.zeros(n, k, dtype=torch.int8)
    for r in range(n):
        for g in range(k // 4):
            keep = torch.randperm(4, generator=gen)[:int(torch.randint(0, 3, (1,), generator=gen))]
            for j in keep.tolist():
                b[r, 4 * g + j] = int(torch.randint(1, 128, (1,), generator=gen)) * (1 if j % 2 else -1)
    dense, packed = sparse_operands(b)
    return Case(1, {"a": zn_blocks(a, 32), "b": zn_blocks(dense, 32), "idx": zn_blocks(packed, 8),
                    "c": torch.zeros(m * n, dtype=torch.int32)},
                {"c": (a.long() @ b.long().T).reshape(-1)}, 0, 0)


KERNELS += [
    example("ex_mmad_with_sparse", f"{BASIC}/03_matrix_compute/mmad_with_sparse/mmad_with_sparse.asc",
            "mmad_with_sparse_custom", "4:2 sparse int8_t matmul: LoadDataWithSparse (dense B and its 2-bit index), "
            "MmadWithSparse", mmad_sparse_case),
    *[example(f"ex_mmad_s{s}", f"{BASIC}/03_matrix_compute/mmad/mmad.asc", "mmad_custom",
              {1: "int8_t Mmad with C from the BiasTable (cmatrixSource), B through LoadDataWithTranspose (32 x 32)",
               2: "bfloat16_t Mmad twice accumulated in L0C (cmatrixInitVal false)",
               3: "float Mmad, A through LoadDataWithTranspose (16 x 8 pairs), kDirectionAlign, bias form",
               4: "int4b_t Mmad (A2 only)"}[s],
              mmad_case(s), template="30, 40, 70", scenario=s) for s in (1, 2, 3, 4)],
    *[example(f"ex_set_atomic_deterministic_s{s}", f"{BASIC}/06_atomic/set_atomic_deterministic_computation/"
              "set_atomic_deterministic_computation.asc",
              {1: "set_atomic_add_single_aiv_custom", 2: "set_atomic_add_multi_aiv_custom",
               3: "set_atomic_add_multi_aic_custom"}[s],
              {1: "SetAtomicAdd DataCopy in a fixed order on one AIV (LocalMemAllocator of UB)",
               2: "SetAtomicAdd from 4 AIVs in a fixed order by IBSet/IBWait",
               3: "SetAtomicAdd DataCopy L1 -> GM from 4 AICs (LocalMemAllocator of L1) ordered by "
                  "Read/WriteGmByPassDCache flags"}[s],
              deterministic_atomic_case(s), scenario=s) for s in (1, 2, 3)],
    *[example(f"ex_fixpipe_l0c2l1_s{s}", f"{BASIC}/03_matrix_compute/fixpipe_l0c2l1/fixpipe_l0c2l1.asc",
              "fixpipe_l0c2gm", {1: "Fixpipe L0C -> L1 as NZ half (F322F16), L1 -> GM DataCopy",
                                 2: "Fixpipe L0C -> L1 as NZ int8_t, scalar quant (QF322B8_PRE), Int8 Channel Merge",
                                 3: "Fixpipe L0C -> L1 as NZ int8_t, per-column quant from L1 (VQF322B8_PRE)",
                                 4: "Fixpipe L0C -> L1 as NZ half with ReLU"}[s],
              fixpipe_l0c2l1_case(s), template="128, 128, 128", scenario=s) for s in (1, 2, 3, 4)],
    *[example(f"ex_mmad_unitflag{'' if u else '_off'}", f"{BASIC}/03_matrix_compute/mmad_unitflag/mmad_unitflag.asc",
              "mmad_with_unitflag_custom",
              "Mmad over 8 K rounds into L0C " + ("with unitFlag 2/3, Fixpipe unitFlag 3, SetFixPipeConfig(co1, "
                                                  "isUnitFlag)" if u else "without unitFlag (ENABLE_UNITFLAG=0)"),
              mmad_unitflag_case, template="128, 256, 512, 8", defines={"ENABLE_UNITFLAG": str(u)})
      for u in (1, 0)],
]


# ---- branch i23-load3d: LoadData (卷积数据搬运) v2 (LoadData3DParamsV2) ----
def mmad_load3dv2_case(scenario: int):
    # M 30, N 70, K 40 (the host main's sizes), one AIC; A and B through Nd2Nz into L1, then LoadData with
    # LoadData3DParamsV2 (1 x W feature map, 1 x 1 filter: the NZ matrix as img2col) into L0A (ZZ; transposed with
    # enTranspose when A is given [K, M]) and L0B (ZN), except B of scenario 5 (LoadData2D); Mmad, Fixpipe NZ -> ND.
    # 1: half; 2: half, A given [K, M]; 3: float; 4: float, A given [K, M] (kDirectionAlign); 5: int8_t, B given
    # [N, K]. Reference: A @ B in float64 (exactly for int8_t).
    def make(kdir, gen) -> Case:
        m, n, k = 30, 70, 40
        dtype = {1: torch.float16, 2: torch.float16, 3: torch.float32, 4: torch.float32}.get(scenario)
        if scenario == 5:
            a = torch.randint(-128, 128, (m, k), generator=gen, dtype=torch.int32).to(torch.int8)
            b = torch.randint(-128, 128, (n, k), generator=gen, dtype=torch.int32).to(torch.int8)
            return Case(1, {"a": a, "b": b, "c": torch.zeros(m * n, dtype=torch.int32)},
                        {"c": (a.long() @ b.long().T).reshape(-1)}, 0, 0)
        a_t = scenario in (2, 4)
        a = rand(gen, (k, m) if a_t else (m, k), -1, 1, dtype)
        b = rand(gen, (k, n), -1, 1, dtype)
        a64 = a.double().T if a_t else a.double()
        return Case(1, {"a": a, "b": b, "c": torch.zeros(m * n)}, {"c": (a64 @ b.double()).reshape(-1)}, 1e-5, 1e-5)
    return make




def load_data_l12l0_case(scenario: int):
    # [m, n, k] = [40, 50, 70] (the host main's sizes), one AIC: A, B through Nd2Nz (scenario 14: Zz) into L1, then
    # L1 -> L0A/L0B by Load2D, LoadDataWithTranspose or LoadData3DParamsV2 as the scenario picks, Mmad, Fixpipe
    # NZ -> ND. A given [m, k] or, transposed, [k, m]; B [n, k] or [k, n]. 1, 2: int4b_t (packed two a byte, low
    # nibble first); 3-5: int8_t; 6-10: half; 11-14: float. Reference: A @ B in float64 (exactly for integers).
    dtype = {3: torch.int8, 4: torch.int8, 5: torch.int8}.get(scenario, torch.float16 if scenario <= 10 else
                                                             torch.float32)
    a_t = scenario in (5, 8, 9, 10, 13, 14)
    b_t = scenario in (1, 3, 4, 6, 7, 11, 12)

    def make(kdir, gen) -> Case:
        m, n, k = 40, 50, 70
        if scenario <= 2:  # int4b_t: A [m, k], B [n, k] (1) or [k, n] (2)
            a, b = rand_int4(gen, (m, k)), rand_int4(gen, (n, k) if b_t else (k, n))
            return Case(1, {"a": pack_int4(a), "b": pack_int4(b), "c": torch.zeros(m * n, dtype=torch.int32)},
                        {"c": (a @ (b.T if b_t else b)).reshape(-1)}, 0, 0)
        shape_a, shape_b = ((k, m) if a_t else (m, k)), ((n, k) if b_t else (k, n))
        if dtype == torch.int8:
            a = torch.randint(-128, 128, shape_a, generator=gen, dtype=torch.int32).to(torch.int8)
            b = torch.randint(-128, 128, shape_b, generator=gen, dtype=torch.int32).to(torch.int8)
            out, tol = torch.zeros(m * n, dtype=torch.int32), (0, 0)
        else:
            a, b = rand(gen, shape_a, -1, 1, dtype), rand(gen, shape_b, -1, 1, dtype)
            out, tol = torch.zeros(m * n), (1e-5, 1e-5)
        a64 = a.double().T if a_t else a.double()
        b64 = b.double().T if b_t else b.double()
        expect = a64 @ b64
        if dtype == torch.int8:
            expect = (a.long().T if a_t else a.long()) @ (b.long().T if b_t else b.long())
        return Case(1, {"a": a, "b": b, "c": out}, {"c": expect.reshape(-1)}, *tol)
    return make


L12L0_WAYS = {1: "int4b_t, Load2D A and B", 2: "int4b_t, LoadData3DParamsV2 A, LoadDataWithTranspose B",
              3: "int8_t, Load2D A and B [n, k]", 4: "int8_t, LoadData3DParamsV2 A, Load2D B [n, k]",
              5: "int8_t, LoadDataWithTranspose A [k, m] and B [k, n]", 6: "half, Load2D A and B [n, k]",
              7: "half, LoadData3DParamsV2 A, Load2D B [n, k]", 8: "half, Load2D transposing A [k, m] and B [k, n]",
              9: "half, LoadDataWithTranspose A [k, m] and B [k, n]",
              10: "half, LoadData3DParamsV2 A [k, m] (enTranspose) and B [k, n] (into L0B)",
              11: "float, Load2D A and B [n, k]", 12: "float, LoadData3DParamsV2 A, Load2D B [n, k]",
              13: "float, LoadData3DParamsV2 A [k, m] (enTranspose) and B [k, n] (into L0B)",
              14: "float, L1 as Zz, LoadDataWithTranspose A [k, m] and B [k, n]"}



def batch_matmul_case(kdir, gen) -> Case:
    # B 4, M 30, K 40, N 70 (the host main's sizes), one AIC: the 4 A [M, K] and B [K, N] (float) through Nd2Nz with
    # ndNum 4 into L1, per batch Load2D of A into L0A and LoadData3DParamsV2 of B into L0B, Mmad into 4 L0C
    # blocks, Fixpipe with ndNum 4 to GM (ND), then to L1 as NZ half. Reference: the batched product in float64.
    nb, m, k, n = 4, 30, 40, 70
    a, b = rand(gen, (nb, m, k), -1, 1), rand(gen, (nb, k, n), -1, 1)
    return Case(1, {"a": a, "b": b, "c": torch.zeros(nb * m * n)},
                {"c": (a.double() @ b.double()).reshape(-1)}, 1e-5, 1e-5)


KERNELS += [
    *[example(f"ex_mmad_load3dv2_s{s}", f"{BASIC}/03_matrix_compute/mmad_load3dv2/mmad_load3dv2.asc", "mmad_custom",
              {1: "half Mmad, A and B through LoadData3DParamsV2 (NZ -> ZZ into L0A, NZ -> ZN into L0B)",
               2: "half Mmad, A given [K, M] through LoadData3DParamsV2 with enTranspose, B into L0B",
               3: "float Mmad, A and B through LoadData3DParamsV2 (16 x 8 fractals)",
               4: "float Mmad, A given [K, M] through LoadData3DParamsV2 with enTranspose, kDirectionAlign",
               5: "int8_t Mmad, A through LoadData3DParamsV2 into L0A, B [N, K] through LoadData2D"}[s],
              mmad_load3dv2_case(s), template="30, 70, 40", scenario=s) for s in (1, 2, 3, 4, 5)],
    *[example(f"ex_load_data_l12l0_s{s}", f"{BASIC}/03_matrix_compute/load_data_l12l0/load_data_l12l0.asc",
              "KernelLoadDataL12L0", "L1 -> L0A/L0B then Mmad: " + L12L0_WAYS[s], load_data_l12l0_case(s),
              template="40, 50, 70", scenario=s) for s in range(1, 15)],
    example("ex_batch_matmul", f"{BASIC}/03_matrix_compute/batch_matmul/batch_matmul.asc", "batch_matmul_custom",
            "4 float matmuls in one kernel: Nd2Nz with ndNum, Load2D A, LoadData3DParamsV2 B into L0B, Fixpipe "
            "ndNum to GM and CFG_NZ to L1 (F322F16)", batch_matmul_case, template="4, 30, 40, 70"),
]

# ---- branch i23-topk: TopK, TransData ----------------------------------------------------------------------------


def topk_case(kdir, gen) -> Case:
    # topk_custom: KernelTopK<float, int32_t> (isInitIndex false, isHasfinish true, TOPK_NORMAL, tmpLocal of
    # GetTopKMaxMinTmpSize's minimum), outter 2, inner = n = 32, k 1, isLargest false: each row's smallest value and
    # its position (the API's own indices 0..31: srcGmIndex is copied in but not read), equal values the earlier
    # position first (docs); a row whose finishGm flag is true gets the index n = 32 (docs). The outputs are 2 x k_pad
    # (8): the kernel's Duplicate of 0 first, and A2's closing Muls by -1 over the 2 x 8 values leaves the tails -0.0.
    # The tiling: main()'s GenerateTiling(1, 2, 32, 32, false, nullptr) (TopKTilingFunc, GetTopKMaxMinTmpSize's
    # minimum as minsize), VecTiling's 35 words.
    tiling = generated(kdir, "topk.asc", "1, 2, 32, 32, false, nullptr", 35 * 4)
    x = torch.randint(-20, 21, (2, 32), generator=gen).to(torch.float32)  # a small set: ties
    idx = torch.randint(0, 1 << 20, (64,), generator=gen, dtype=torch.int32)
    finish = torch.zeros(32, dtype=torch.uint8)
    finish[:2] = torch.randint(0, 2, (2,), generator=gen, dtype=torch.uint8)
    values, indices = torch.zeros(2, 8, dtype=torch.float64), torch.zeros(2, 8, dtype=torch.int32)
    for r in range(2):
        row = [float(v) for v in x[r]]
        j = min(range(32), key=lambda i: (row[i], i))  # the smallest value, the earliest position among equals
        values[r, 0] = row[j]
        indices[r, 0] = 32 if finish[r] else j
    return Case(1, {"srcGmValue": x.reshape(-1), "srcGmIndex": idx, "finishGm": finish, "dstGmValue": torch.zeros(16),
                    "dstGmIndex": torch.zeros(16, dtype=torch.int32), "workspace": torch.zeros(16),
                    "tiling": tiling},
                {"dstGmValue": values.reshape(-1), "dstGmIndex": indices.reshape(-1)}, 0.0, 0.0)


KERNELS += [
    example("ex_topk", f"{ADV}/05_sort/topk/topk.asc", "topk_custom",
            "TopK TOPK_NORMAL (float, k 1 of 2 x 32, smallest, finish flags, generated indices), TopKTilingFunc, "
            "GetTopKMaxMinTmpSize", topk_case),
]


def transdata_case(scenario: int):
    # transdata_custom: KernelTransData<half, SCENARIO>, n = c = 16, d = 1, h = 3, w = 5 (h * w = 15, padded to 16 in
    # UB: an NCDHW source comes in by DataCopyPad of 15-element rows, an NCDHW result goes out the same way), its own
    # tmp buffer (the sizes it computes match GetTransDataMaxMinTmpSize's). 1: NCDHW -> FRACTAL_Z_3D
    # [D, C1, H, W, N1, N0, C0]; 2: back; 3: NCDHW -> NDC1HWC0 [N, D, C1, H, W, C0]; 4: back. Random half data, moved
    # element for element (the docs' layouts), exact.
    def make(kdir, gen) -> Case:
        n, c, d, hw = 16, 16, 1, 15
        x = half(gen, n * c * d * hw, -100, 100).reshape(n, c, d, hw)  # NCDHW, h and w merged
        if scenario in (1, 2):  # [D, C1, HW, N1, N0, C0]
            other = x.reshape(1, 16, 1, 16, d, hw).permute(4, 2, 5, 0, 1, 3).contiguous()
        else:  # [N, D, C1, HW, C0]
            other = x.reshape(n, 1, 16, d, hw).permute(0, 3, 1, 4, 2).contiguous()
        src, dst = (x, other) if scenario in (1, 3) else (other, x)
        return Case(1, {"srcGm": src.reshape(-1), "dstGm": torch.zeros(3840, dtype=torch.float16), "n": n, "c": c,
                        "d": d, "h": 3, "w": 5}, {"dstGm": dst.double().reshape(-1)}, 0.0, 0.0)
    return make


KERNELS += [
    example("ex_transdata" + ("" if s == 1 else f"_s{s}"), f"{ADV}/08_transpose/transdata/transdata.asc",
            "transdata_custom", {1: "TransData NCDHW -> FRACTAL_Z_3D (half, h * w 15 padded to 16)",
                                 2: "TransData FRACTAL_Z_3D -> NCDHW (half, the result's rows padded)",
                                 3: "TransData NCDHW -> NDC1HWC0 (half)", 4: "TransData NDC1HWC0 -> NCDHW (half)"}[s],
            transdata_case(s), defines={"SCENARIO": str(s)})
    for s in (1, 2, 3, 4)
]


# ---- i23-mmint: Matmul with A and B IBShare, int8 quantised output, TSCM inputs (issue 20) ---------------------

def ibshare_ab_case(scenario: int):
    # main: M 128, N 256, K 384 half -> float, one MIX block (its two AIVs; GenerateTiling SetDim(2), baseM 32,
    # baseN 64, stepM = stepN = 1). Scenario 1 (A and B IBShare): both AIVs SetSingleShape(M, N, K) and write the
    # whole C; scenario 2 (no IBShare): C zeroed (InitOutput, SyncAll), AIV i multiplies the K half i
    # (SetSingleShape(M, N, K / 2)) and adds it to C (IterateAll enAtomic 1).
    def make(kdir, gen) -> Case:
        m, n, k = 128, 256, 384
        tiling = example_tiling(kdir, "matmul_ibshareAB.asc", "tiling = GenerateTiling("
                                "platform_ascendc::PlatformAscendCManager::GetInstance());", 50 * 4,
                                (f"SCENARIO_NUM={scenario}", "CYCLENUMS=10000"))
        args, ref = mm_operands(gen, m, n, k, False)
        del args["bias"]
        args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                    tilingGm=tiling)
        return Case(1, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)
    return make


def quant_scale_words(scales: torch.Tensor):
    """uint64 quantisation words (SetQuantScalar/SetQuantVector docs) holding float `scales` in bits 0-31, as the
    example's host data does (bits 32-63 zero), and the scales the Fixpipe applies: bits 0-12 dropped."""
    bits = scales.float().view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    applied = (bits & 0xFFFFE000).to(torch.int32).view(torch.float32).double()
    return bits, applied


def quant_case(vector: bool):
    # main: M = N = K = 1024, int8_t A and B, int32_t bias (IS_BIAS), half C, over the AICs the example's
    # GenerateTiling uses (usedCoreNum blocks). C = half((A @ B + bias) * scale): SetQuantScalar with the float 0.1
    # (its bits as the word), or (CUSTOM_QUANT_VECTOR) SetQuantVector with one word per column. A spans int8_t, B
    # is small so that C stays within half's range.
    def make(kdir, gen) -> Case:
        m = n = k = 1024
        defines = ("CUSTOM_QUANT_VECTOR",) if vector else ()
        platform = "platform_ascendc::PlatformAscendCManager::GetInstance()"
        tiling = example_tiling(kdir, "matmul_quant.asc", "static uint8_t buf[sizeof(TCubeTiling)]; "
                                f"GenerateTiling({platform}, buf); tiling = buf;", 50 * 4, defines)
        a = torch.randint(-128, 128, (m, k), generator=gen, dtype=torch.int8)
        b = torch.randint(-2, 3, (k, n), generator=gen, dtype=torch.int8)
        bias = torch.randint(-5000, 5001, (n,), generator=gen, dtype=torch.int32)
        acc = a.double() @ b.double() + bias.double()
        if vector:
            words, scales = quant_scale_words(rand(gen, n, 0.1, 1.0))
            quant = words
        else:
            _, scales = quant_scale_words(torch.tensor([0.1]))
            quant = None  # main passes no quant buffer in the scalar mode
        expect = (acc * scales).reshape(-1)
        assert expect.abs().max() < 60000, "the inputs keep C within half's range"
        args = {"a": a.reshape(-1), "b": b.reshape(-1), "bias": bias, "c": torch.full((m * n,), float("nan"),
                dtype=torch.float16), "quant": quant, "workspace": torch.zeros(LIB_API_WORKSPACE // 4),
                "tilingGm": tiling}
        return Case(struct.unpack_from("<i", tiling, 0)[0], args, {"c": expect}, *HALF)
    return make


def triangle_case(lower: bool):
    # main: M 2558, N 2045, K 128 half -> float with bias, 16 blocks: core (i = idx % 4, j = idx // 4) owns the
    # 640 x 512 tile (i, j) (the last row and column of tiles shorter). Upper (TrianUpperMatmulPolicy): tiles with i < j
    # whole (the CFG_NORM object), diagonal tiles i == j only the base blocks (80 x 64) on or above the tile's
    # diagonal (row index <= column index), tiles below none; Lower mirrored (CUSTOM_TRIANGLE_LOWER). C starts with
    # fresh random values, which what is not written keeps.
    def make(kdir, gen) -> Case:
        m, n, k, sm, sn, bm, bn = 2558, 2045, 128, 640, 512, 80, 64
        defines = ("CUSTOM_TRIANGLE_LOWER",) if lower else ()
        platform = "platform_ascendc::PlatformAscendCManager::GetInstance()"
        tiling = example_tiling(kdir, "matmul_triangle.asc", "static uint8_t buf[sizeof(TCubeTiling)]; "
                                f"GenerateTiling({platform}, buf); tiling = buf;", 50 * 4, defines)
        args, ref = mm_operands(gen, m, n, k, True)
        c0 = rand(gen, (m, n), -100, 100)
        expect = c0.double().clone()
        for i in range(4):
            for j in range(4):
                r0, c0_ = i * sm, j * sn
                tile = (slice(r0, min(r0 + sm, m)), slice(c0_, min(c0_ + sn, n)))
                if (i < j and not lower) or (i > j and lower):
                    expect[tile] = ref[tile]
                elif i == j:
                    for bi in range(0, min(sm, m - r0), bm):
                        for bj in range(0, min(sn, n - c0_), bn):
                            keep = bi // bm <= bj // bn if not lower else bi // bm >= bj // bn
                            if keep:
                                blk = (slice(r0 + bi, min(r0 + bi + bm, m)), slice(c0_ + bj, min(c0_ + bj + bn, n)))
                                expect[blk] = ref[blk]
        args = dict(args, c=c0.reshape(-1).clone(), workspace=torch.zeros(LIB_API_WORKSPACE // 4), tilingGm=tiling)
        return Case(16, args, {"c": expect.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)
    return make


KERNELS += [
    # CYCLENUMS: the example's CMakeLists sets it per run mode (10000 for the NPU build, inside an if()).
    *[example(f"ex_mm_ibshareAB_s{s}", f"{MM}/matmul_ibshareAB/matmul_ibshareAB.asc", "matmul_ABshare_custom",
              {1: "Matmul MIX with A and B IBShare (CFG_NORM): both AIVs compute the whole C, SetSingleShape",
               2: "Matmul MIX without IBShare: each AIV one K half, IterateAll enAtomic 1 into C (InitOutput, "
                  "SyncAll)"}[s],
              ibshare_ab_case(s), scenario=s, defines={"CYCLENUMS": "10000"}) for s in (1, 2)],
    *[example(f"ex_mm_quant_{'vector' if v else 'scalar'}", f"{MM}/matmul_quant/matmul_quant.asc",
              "matmul_quant_custom", "Matmul cube-only (__cube__) int8_t A and B, int32_t bias, half C, CFG_MDL: "
              + ("SetQuantVector (VDEQF16, per-column words from GM)" if v else "SetQuantScalar (DEQF16)") + ", SetTail",
              quant_case(v), defines={"CUSTOM_QUANT_VECTOR": None} if v else None) for v in (False, True)],
    *[example(f"ex_mm_triangle_{'lower' if lo else 'upper'}", f"{MM}/matmul_triangle/matmul_triangle.asc",
              "matmul_triangle_custom", "Matmul cube-only (__cube__), two objects: CFG_NORM and "
              + ("TrianLowerMatmulPolicy" if lo else "TrianUpperMatmulPolicy") + " (base blocks off the triangle "
              "not written), bias, SetTail", triangle_case(lo),
              defines={"CUSTOM_TRIANGLE_LOWER": None} if lo else None) for lo in (False, True)],
]


# ---- i26-batch: the batch Matmul examples (IterateBatch) with the tiling their own host code computes ----------

def batch_bias_reuse_case(kdir, gen) -> Case:
    """batch_matmul_bias_reuse: 3 NORMAL-layout (BMNK) matmuls C_i = A_i [32, 64] @ B_i [64, 256] + bias, the one
    bias [256] reused by every batch (isBiasBatch = false); BatchMatmulTiling from its GenerateTiling(platform,
    buf); its main launches usedCoreNum blocks."""
    m, n, k, batch = 32, 256, 64, 3
    tiling = mm_tiling(kdir, "batch_matmul_bias_reuse.asc")
    used = struct.unpack_from("<i", tiling, 0)[0]
    a = rand(gen, (batch, m, k), -1, 1, torch.float16)
    b = rand(gen, (batch, k, n), -1, 1, torch.float16)
    bias = rand(gen, (n,), -1, 1)
    ref = torch.stack([a[i].double() @ b[i].double() + bias.double() for i in range(batch)])
    args = {"a": a.reshape(-1), "b": b.reshape(-1), "bias": bias, "c": torch.full((batch * m * n,), float("nan")),
            "workspace": torch.zeros(LIB_API_WORKSPACE // 4), "tilingGm": tiling}
    return Case(used, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


def batch_bsngd_case(kdir, gen) -> Case:
    """batch_matmul: A [B=2, S=32, N=1, G=3, D=64] and B [2, 256, 1, 3, 64] in BSNGD, B transposed, C [2, 32, 1, 3,
    256] in BSNGD: C[b, :, 0, g, :] = A[b, :, 0, g, :] @ B[b, :, 0, g, :]^T; one IterateBatch of 3 per AIV (each
    AIV one B index); its GenerateTiling() (MultiCoreMatmulTiling with SetALayout/SetBLayout/SetCLayout/SetBatchNum);
    its main launches USED_CORE_NUM / 2 = 1 block (two AIVs)."""
    bn, s_a, g, d, s_b = 2, 32, 3, 64, 256
    tiling = example_tiling(kdir, "batch_matmul.asc", "tiling = GenerateTiling();", 50 * 4)
    a = rand(gen, (bn, s_a, 1, g, d), -1, 1, torch.float16)
    b = rand(gen, (bn, s_b, 1, g, d), -1, 1, torch.float16)
    ref = torch.einsum("bsngd,btngd->bsngt", a.double(), b.double())
    args = {"a": a.reshape(-1), "b": b.reshape(-1), "c": torch.full((bn * s_a * g * s_b,), float("nan")),
            "workspace": torch.zeros((16 << 20) // 4), "tilingGm": tiling}
    return Case(1, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * d ** 0.5)


def batch_n_batch_case(kdir, gen) -> Case:
    """batch_matmul_iterate_n_batch: A [B=1, S=32, N=1, G=3, D=64] and B [1, 256, 1, 3, 64] (transposed) in BSNGD, C
    [1, 32, 1, 3, 256]: C[0, :, 0, g, :] = A[0, :, 0, g, :] @ B[0, :, 0, g, :]^T + bias, the bias [256] reused
    (isBiasBatch = false); IterateNBatch of one loop into the workspace (SetWorkspace), then DataCopy through UB
    into C; its GenerateTiling(params) (MultiCoreMatmulTiling, SetDim(1)) returns the tiling; the main launches
    usedCoreNum blocks, the workspace the library's plus C's size."""
    s_a, g, d, s_b = 32, 3, 64, 256
    platform = "platform_ascendc::PlatformAscendCManager::GetInstance()"
    call = ("static MatmulCaseParams p{static_cast<int32_t>(" + platform + "->GetCoreNumAic()), 32, 256, 64, "
            "IS_BIAS, IS_A_TRANS, IS_B_TRANS, 3}; static TCubeTiling t = GenerateTiling(p); "
            "tiling = reinterpret_cast<const uint8_t*>(&t);")
    with open(os.path.join(kdir, "batch_matmul_iterate_n_batch.asc")) as f:
        text = f.read()
    # GenerateTiling's caller needs the example's IS_* constants, defined after it: its host code up to them
    consts = re.search(r"constexpr bool IS_BIAS = [^;]*;\s*constexpr bool IS_A_TRANS = [^;]*;\s*"
                       r"constexpr bool IS_B_TRANS = [^;]*;", text).group(0)
    tiling = example_tiling(kdir, "batch_matmul_iterate_n_batch.asc", consts + " " + call, 50 * 4)
    used = struct.unpack_from("<i", tiling, 0)[0]
    a = rand(gen, (1, s_a, 1, g, d), -1, 1, torch.float16)
    b = rand(gen, (1, s_b, 1, g, d), -1, 1, torch.float16)
    bias = rand(gen, (s_b,), -1, 1)
    ref = torch.einsum("bsngd,btngd->bsngt", a.double(), b.double()) + bias.double()
    c_elems = s_a * g * s_b
    args = {"a": a.reshape(-1), "b": b.reshape(-1), "bias": bias, "c": torch.full((c_elems,), float("nan")),
            "workspace": torch.zeros(LIB_API_WORKSPACE // 4 + c_elems), "tilingGm": tiling}
    return Case(used, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * d ** 0.5)


KERNELS += [
    example("ex_mm_batch_bias_reuse", f"{MM}/batch_matmul_bias_reuse/batch_matmul_bias_reuse.asc",
            "batch_matmul_bias_reuse_custom", "Batch Matmul MIX: IterateBatch of 3 NORMAL (BMNK) matmuls, one bias "
            "reused (MatmulBatchParams isBiasBatch = false, BATCH_LESS_THAN_L1); BatchMatmulTiling, "
            "SetBatchInfoForNormal", batch_bias_reuse_case),
    example("ex_mm_batch_bsngd", f"{MM}/batch_matmul/batch_matmul.asc", "batch_matmul_custom",
            "Batch Matmul MIX: IterateBatch with A, B (transposed) and C in BSNGD, one B index per AIV; "
            "MultiCoreMatmulTiling SetALayout/SetBLayout/SetCLayout/SetBatchNum", batch_bsngd_case),
    example("ex_mm_batch_iterate_n_batch", f"{MM}/batch_matmul_iterate_n_batch/batch_matmul_iterate_n_batch.asc",
            "batch_matmul_iterate_n_batch_custom", "Batch Matmul MIX (__mix__(1, 2)): IterateNBatch into the "
            "SetWorkspace buffer (isNBatch, BATCH_LESS_THAN_L1, bias reused), BSNGD, then DataCopy GM -> UB -> GM",
            batch_n_batch_case),
]


# ---- branch i26-int4: the Matmul API with int4b_t A and B ----------------------------------------------------------


def mm_int4_case(kdir, gen) -> Case:
    # main: M 256, N 7680, K 128, int4b_t A [M, K] and B [K, N] (ND, packed two a byte, low nibble first), int32_t
    # bias [N] (IS_BIAS), int32_t C, CFG_MDL cube-only, over the AICs the example's GenerateTiling uses
    # (usedCoreNum blocks). Reference: A @ B + bias, exactly.
    m, n, k = 256, 7680, 128
    platform = "platform_ascendc::PlatformAscendCManager::GetInstance()"
    tiling = example_tiling(kdir, "matmul_int4.asc", "static uint8_t buf[sizeof(TCubeTiling)]; "
                            f"GenerateTiling({platform}, buf); tiling = buf;", 50 * 4)
    a, b = rand_int4(gen, (m, k)), rand_int4(gen, (k, n))
    bias = torch.randint(-100000, 100001, (n,), generator=gen, dtype=torch.int32)
    args = {"a": pack_int4(a), "b": pack_int4(b), "bias": bias, "c": torch.zeros(m * n, dtype=torch.int32),
            "workspace": torch.zeros(LIB_API_WORKSPACE // 4), "tilingGm": tiling}
    return Case(struct.unpack_from("<i", tiling, 0)[0], args, {"c": (a @ b + bias.long()).reshape(-1)}, 0, 0)


KERNELS += [
    example("ex_mm_int4", f"{MM}/matmul_int4/matmul_int4.asc", "matmul_int4_custom",
            "Matmul cube-only (__cube__) int4b_t A and B, int32_t bias and C, CFG_MDL, SetTail", mm_int4_case),
]


# ---- i26-tail: custom TBufPool (EXTERN_IMPL_BUFPOOL), L0C -> GM DataCopy with DataCopyCO12DstParams (issue 20) ----

def tbufpool_case(scenario: int):
    # half x, y; z = x + y over the first `mask` elements (Add with a count), one core. 1: KernelBufPool<65536, 512>,
    # two pools sharing 3 x 65536 bytes, each running the sum once; 2: <32768, 16384>, a pool of 4 x 32768 split into
    # a queue and two sub-pools sharing one range; 3: <65536, 32768>, a pool written with EXTERN_IMPL_BUFPOOL (a TQue,
    # a TBuf, a TQue from its own InitBuffer). The rest of z is not written (it stays as passed: zeros).
    size, count = {1: (3 * 65536, 512), 2: (4 * 32768, 16384), 3: (65536, 32768)}[scenario]

    def make(kdir, gen) -> Case:
        x, y = half(gen, size), half(gen, size)
        z = torch.zeros(size, dtype=torch.float16)
        expect = torch.zeros(size, dtype=torch.float64)
        expect[:count] = (x[:count].double() + y[:count].double()).half().double()
        return Case(1, {"x": x, "y": y, "z": z}, {"z": expect}, 0, 0)
    return make


def m1_bits(m1: torch.Tensor) -> torch.Tensor:
    """The uint64 words whose bits 0-31 are float m1 (as int64 for torch)."""
    return m1.float().view(torch.int32).to(torch.int64) & 0xFFFFFFFF


def l0c2gm_case(scenario: int):
    # One AI Cube core: C = sum over the 2 K rounds of A_r [128, 64] x B_r [64, 256] (A and B as two consecutive
    # blocks in GM, as the kernel reads them), then DataCopy L0C -> GM with DataCopyCO12DstParams. 1: int8_t in,
    # DEQF16 (scalar 2.0) with ReLU, ND half; 2: VDEQF16 (a word per column from quantAlpha, through L1 and the
    # Fixpipe Buffer), NZ half; 3: half in, QF322B8_PRE (2.0, Sign 1), NZ int8_t; 4: half in, VQF322B8_PRE with ReLU,
    # ND int8_t; 5: int8_t in, REQ8 (2.0, Sign 1), ND int8_t; 6: VREQ8 with ReLU, NZ int8_t. The quantisation as the
    # docs' QUANT_PRE table and algorithm define it: M1 read as (1, 8, 10), x M1 (x >= 0) or M2 (M1, or 0 with ReLU);
    # to half saturated to its range (DEQF16: Offset and Sign not used); to 8 bits saturated to [-256, 255], rounded
    # half to even, plus Offset, saturated to int8_t. NZ out: half in 16-column Z columns 128 rows apart, int8_t in
    # 32-column ones (Int8 Channel Merge).
    M, K, N, R = 128, 128, 256, 2
    k = K // R
    half_in = scenario in (3, 4)
    vector = scenario in (2, 4, 6)
    relu = scenario in (1, 4, 6)
    nd = scenario in (1, 4, 5)
    half_out = scenario in (1, 2)

    def make(kdir, gen) -> Case:
        if half_in:  # multiples of 1/4 in [-2, 2]: every sum is exact in L0C's float
            a = (torch.randint(-8, 9, (M * K,), generator=gen) / 4).half()
            b = (torch.randint(-8, 9, (K * N,), generator=gen) / 4).half()
        else:
            a = torch.randint(-3, 4, (M * K,), generator=gen, dtype=torch.int8)
            b = torch.randint(-3, 4, (K * N,), generator=gen, dtype=torch.int8)
        c = sum(a[r * M * k:(r + 1) * M * k].double().view(M, k) @ b[r * k * N:(r + 1) * k * N].double().view(k, N)
                for r in range(R))
        words = torch.zeros(N, dtype=torch.int64)
        if vector:  # M1 k / 16 (k in 1..24: exact in (1, 8, 10)); DEQF16 gets random Offset bits it must ignore
            m1 = torch.randint(1, 25, (N,), generator=gen).double() / 16
            offset = torch.randint(0, 256 if half_out else 16, (N,), generator=gen)
            words = m1_bits(m1) | (offset << 37) | (0 if half_out else (1 << 46))
        else:
            m1 = torch.full((N,), 2.0, dtype=torch.float64)
            offset = torch.zeros(N, dtype=torch.int64)
        scale = torch.where(c >= 0, m1, torch.zeros_like(m1) if relu else m1)
        y = c * scale
        if half_out:
            out = y.clamp(-65504, 65504).half().double()
        else:
            q = torch.round(y.clamp(-256, 255)) + (offset if vector else 0)
            out = q.clamp(-128, 127)
        if not nd:  # NZ: Z columns of 16 (half) or 32 (int8_t) columns, each 128 rows of them
            w = 16 if half_out else 32
            out = out.view(M, N // w, w).permute(1, 0, 2).reshape(-1)
        out = out.reshape(-1)
        dt = torch.float16 if half_out else torch.int8
        args = {"a": a, "b": b, "c": torch.zeros(M * N, dtype=dt), "quantAlpha": words}
        return Case(1, args, {"c": out}, 1e-3 if half_out else 0, 0)
    return make


KERNELS += [
    *[example(f"ex_tbufpool_management_s{s}", f"{BASIC}/04_memory_management/tbufpool_management/"
              "tbufpool_management.asc", "tbufpool_management_custom",
              {1: "TBufPool: two pools sharing one range (InitBufPool with shareBuf), Reset between them, Add (half)",
               2: "TBufPool: a pool split into a queue and two sub-pools sharing one range, Add (half)",
               3: "custom TBufPool (EXTERN_IMPL_BUFPOOL: InitStartBufHandle/InitBufHandle of a TQue and a TBuf), "
                  "Add (half)"}[s], tbufpool_case(s), scenario=s) for s in (1, 2, 3)],
    *[example(f"ex_data_copy_l0c2gm_s{s}", f"{BASIC}/00_data_movement/data_copy_l0c2gm/data_copy_l0c2gm.asc",
              "data_copy_l0c2gm",
              "Mmad, then DataCopy L0C -> GM with DataCopyCO12DstParams: " +
              {1: "DEQF16 (SetFixpipePreQuantFlag) with ReLU, NZ2ND (SetFixpipeNz2ndFlag), int32_t -> half",
               2: "VDEQF16 (quantisation words GM -> L1 -> Fixpipe Buffer, SetFixPipeConfig), NZ, int32_t -> half",
               3: "QF322B8_PRE (SetFixpipePreQuantFlag), NZ, float -> int8_t",
               4: "VQF322B8_PRE (Fixpipe Buffer, SetFixPipeConfig) with ReLU, NZ2ND, float -> int8_t",
               5: "REQ8 (SetFixpipePreQuantFlag), NZ2ND, int32_t -> int8_t",
               6: "VREQ8 (Fixpipe Buffer, SetFixPipeConfig) with ReLU, NZ, int32_t -> int8_t"}[s],
              l0c2gm_case(s), scenario=s) for s in (1, 2, 3, 4, 5, 6)],
]


# ---- branch i26-norm: LayerNorm's [A, R] form with Normalize, AscendAntiQuant (issue 20) -------------------------

def layernorm_v2_case(kdir, gen) -> Case:
    # main: one core, float [32, 32] (rLengthWithPadding 32), epsilon 1e-4. LayerNorm<float, float, false,
    # {isOutputRstd}> ([A, R] form, the framework's buffer, GetLayerNormNDTilingInfo for GetLayerNormMaxMinTmpSize's
    # minimum with isComputeRstd) gives y, the row means and rstd; the kernel computes var = 1 / rstd² - epsilon; then
    # Normalize<float, float> of x with those means and variances (its buffer GetNormalizeMaxMinTmpSize's minimum)
    # gives y again. The example's 124-byte plain tiling struct (memcpy_s). References in float64: mean, var =
    # mean((x - mean)²), rstd = 1 / sqrt(var + epsilon), y = (x - mean) * rstd * gamma + beta.
    tiling = example_tiling(kdir, "layernorm_v2.asc", "tiling = GenerateLayerNormV2Tiling();", 124,
                            fn="GenerateLayerNormV2Tiling")
    x, gamma, beta = rand(gen, (32, 32), -10, 10), rand(gen, 32, -2, 2), rand(gen, 32, -2, 2)
    xd = x.double()
    mean = xd.mean(dim=1, keepdim=True)
    var = ((xd - mean) ** 2).mean(dim=1, keepdim=True)
    rstd = 1 / torch.sqrt(var + 1e-4)
    y = ((xd - mean) * rstd * gamma.double() + beta.double()).reshape(-1)
    return Case(1, {"inputXGm": x.reshape(-1), "gammaGm": gamma, "betaGm": beta, "layernormYGm": torch.zeros(1024),
                    "meanGm": torch.zeros(32), "rstdGm": torch.zeros(32), "varGm": torch.zeros(32),
                    "normalizeYGm": torch.zeros(1024), "workspace": torch.zeros(16), "tiling": tiling},
                {"layernormYGm": y, "meanGm": mean.reshape(-1), "rstdGm": rstd.reshape(-1), "varGm": var.reshape(-1),
                 "normalizeYGm": y}, 1e-5, 1e-5)


def antiquant_case(kdir, gen) -> Case:
    # main: one core, src int8 [8, 128] (k 8), offset and scale half [1, 128] (one a column): dst = (src + offset) *
    # scale in half (AscendAntiQuant<int8_t, half, false>, per channel); the tiling-data class's 16 bytes with
    # GetAscendAntiQuantMaxMinTmpSize's minimum (the __NPU_ARCH__ 2201 branch of its ComputeTiling).
    tiling = generated(kdir, "antiquant.asc", "1024, 128, 8", 4 * 4)
    src = torch.randint(-128, 128, (8, 128), generator=gen, dtype=torch.int32).to(torch.int8)
    offset, scale = half(gen, 128, -10, 10), half(gen, 128, -2, 2)
    expect = (src.double() + offset.double()) * scale.double()
    return Case(1, {"dstGm": torch.zeros(1024, dtype=torch.float16), "srcGm": src.reshape(-1), "offsetGm": offset,
                    "scaleGm": scale, "workspace": torch.zeros(16), "tiling": tiling},
                {"dstGm": expect.reshape(-1)}, *HALF)


KERNELS += [
    example("ex_layernorm_v2", f"{ADV}/02_normalization/layernorm_v2/layernorm_v2.asc", "layernormv2_custom",
            "LayerNorm's [A, R] form (LayerNormPara, LayerNormSeparateTiling, rstd output, framework buffer), then "
            "Normalize with its mean and 1 / rstd² - epsilon (GetNormalizeMaxMinTmpSize), plain tiling struct",
            layernorm_v2_case),
    example("ex_antiquant", f"{ADV}/03_quantization/antiquant/antiquant.asc", "antiquant_custom",
            "AscendAntiQuant<int8_t, half, false> per channel with tensor offset and scale (offset's ShapeInfo set), "
            "GetAscendAntiQuantMaxMinTmpSize, tiling-data class", antiquant_case),
]


# ---- i26-mmcb: Matmul 4:2 sparse (SparseMatmulType) and the user copy-in callback (MatmulCallBackFunc's CopyA1) ---

def mm_callback_case(kdir, gen) -> Case:
    # matmul_callback: M 2560, N 128, K 512, bias, 20 cores (NUM_BLOCKS), each C's M / 20 rows. The kernel's CopyA1
    # reads A's base tiles from the addresses each core writes into the offset list (its A, and its A + the list's
    # word 0 elements, gen_data's 256), with SetUserDefInfo's Ka as the row stride. Reference: A @ B + bias in float64.
    m, n, k = 2560, 128, 512
    tiling = mm_tiling(kdir, "matmul_callback.asc")
    args, ref = mm_operands(gen, m, n, k, True)
    offsets = torch.zeros(50, dtype=torch.int64)
    offsets[0] = 256
    args = dict(args, c=torch.full((m * n,), float("nan")), offsetlist=offsets,
                workspace=torch.zeros(LIB_API_WORKSPACE // 4), tilingGm=tiling)
    return Case(20, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


def mm_sparse_case(kdir, gen) -> Case:
    # matmul_sparse: int8_t A [M 128, K 64], a 4:2 sparse B [N 7680, K] (0 to 2 non-zeros in each group of 4 along K,
    # random places and signs) given as its dense [N, K / 2] (B transposed) and the 2-bit index matrix in NZ
    # (sparse_operands, zn_blocks: 16 x 8-byte fractals), no bias, int32_t C; GenerateTiling with SetSparse(true),
    # SetDim(GetCoreNumAic()), the launch's blocks its usedCoreNum. Reference: C = A @ B^T of the sparse B, exactly.
    m, n, k = 128, 7680, 64
    tiling = mm_tiling(kdir, "matmul_sparse.asc")
    used = struct.unpack_from("<i", tiling, 0)[0]
    a = torch.randint(-128, 128, (m, k), generator=gen, dtype=torch.int32).to(torch.int8)
    rank = torch.rand(n, k // 4, 4, generator=gen).argsort(-1).argsort(-1)  # a random order of each group's places
    keep = rank < torch.randint(0, 3, (n, k // 4, 1), generator=gen)
    signs = torch.randint(0, 2, (n, k // 4, 4), generator=gen) * 2 - 1
    values = torch.randint(1, 128, (n, k // 4, 4), generator=gen) * signs
    b = (values * keep).reshape(n, k).to(torch.int8)
    dense, packed = sparse_operands(b)
    args = {"a": a.reshape(-1), "b": dense.reshape(-1), "bias": torch.zeros(n, dtype=torch.int32),
            "index": zn_blocks(packed, 8), "c": torch.full((m * n,), -7, dtype=torch.int32),
            "workspace": torch.zeros(LIB_API_WORKSPACE // 4), "tilingGm": tiling}
    return Case(used, args, {"c": (a.long() @ b.long().T).reshape(-1)}, 0, 0)


KERNELS += [
    example("ex_mm_sparse", f"{MM}/matmul_sparse/matmul_sparse.asc", "matmul_sparse_custom",
            "Matmul cube-only (__cube__) 4:2 sparse: SparseMatmulType B (int8_t, transposed, dense [N, K/2]), "
            "SetSparseIndex (NZ 2-bit index), CFG_MDL, SetTail; host SetSparse(true)", mm_sparse_case),
    example("ex_mm_callback", f"{MM}/matmul_callback/matmul_callback.asc", "matmul_callback_custom",
            "Matmul cube-only (__cube__) with MatmulCallBackFunc<nullptr, CopyA1, nullptr>: the kernel's CopyA1 "
            "(ND2NZ DataCopy from addresses in a GM offset list), SetUserDefInfo, SetSelfDefineData, bias, 20 cores",
            mm_callback_case),
]


# ---- branch i27-nb33: the Matmul NBuffer33 schedule with CANN's own host tiling split -----------------------------
# Its CMake build has one A2 scenario (dav-2201, no SCENARIO_NUM): M 256, N 512, K 192, half A and B, float C and
# bias; GenerateTiling asks MultiCoreMatmulTiling for ScheduleType::N_BUFFER_33 over GetCoreNumAic() cores and the
# main launches usedCoreNum blocks (CANN's split: 2 cores of 256 x 256 x 192).
KERNELS += [
    example("ex_mm_nbuffer33", f"{MM}/matmul_nbuffer33/matmul_nbuffer33.asc", "matmul_nbuffer33_custom",
            "Matmul cube-only (__cube__) with NBuffer33MatmulPolicy, CFG_MDL, bias, IterateAll (tiling with "
            "ScheduleType::N_BUFFER_33)", mm_case("matmul_nbuffer33.asc", 256, 512, 192, lambda used: used)),
]


# ---- branch i27-tscm: Matmul with A at TPosition::TSCM (the AIVs' DataCopy into the AIC's L1, issue 20) ----------

def nz_blocks(x: torch.Tensor) -> torch.Tensor:
    """A 2-byte [rows, cols] matrix (rows and cols multiples of 16) in NZ, as L1 holds it for the cube: 16-column
    fractal columns one after another, each every row of 16 elements (element (r, c) at (c // 16) * rows * 16 +
    r * 16 + c % 16)."""
    rows, cols = x.shape
    return x.reshape(rows, cols // 16, 16).permute(1, 0, 2).reshape(-1)


def mm_tscm_case(kdir, gen) -> Case:
    # matmul_tscm: half A [64, 64] given in GM in NZ (the AIVs DataCopy it unchanged into a TSCM buffer: A's
    # MatmulType is TSCM/NZ), half B [64, 64] ND, float bias [64], float C; GenerateTiling with SetAType(TSCM, NZ),
    # SetDim(GetCoreNumAic()), the launch's blocks its usedCoreNum. Reference: A @ B + bias in float64.
    m = n = k = 64
    tiling = mm_tiling(kdir, "matmul_tscm.asc")
    used = struct.unpack_from("<i", tiling, 0)[0]
    args, ref = mm_operands(gen, m, n, k, True)
    args["a"] = nz_blocks(args["a"].reshape(m, k)).contiguous()
    args = dict(args, c=torch.full((m * n,), float("nan")), workspace=torch.zeros(LIB_API_WORKSPACE // 4),
                tilingGm=tiling)
    return Case(used, args, {"c": ref.reshape(-1)}, 1e-5, 1e-5 * k ** 0.5)


KERNELS += [
    example("ex_mm_tscm", f"{MM}/matmul_tscm/matmul_tscm.asc", "matmul_tscm_custom",
            "Matmul MIX with A at TPosition::TSCM (NZ): TSCM<GM, 1> queue, DataCopy GM -> TSCM on the AIV (a message "
            "to the AIC, SCMFUN_GM2L1), SetTensorA(LocalTensor), B and bias from GM, CFG_NORM", mm_tscm_case),
]
