"""Chip profiles of the cost model: Ascend 910B2 and 910B3 (Atlas A2 training series, arch dav-2201).

Every figure carries its public source. Labels: [official] Huawei/CANN documentation, code or tool data;
[config] a CANN platform .ini value as printed from a real machine; [3rd] a third-party figure; [derived]
computed here from the others (the formula is given). Sources:

  AD  cannmirror/asc-devkit @0da921b9: docs/zh/api/附录/Vector指令理论性能汇总.md (vector elements per cycle),
      docs/zh/api/附录/Cube指令理论性能汇总.md (Mmad per dtype, L1->L0 and Fixpipe rates),
      docs/zh/guide/编程指南/高级编程/硬件实现/架构规格/NPU架构版本2201.md (AIC:AIV = 1:2; L0C 128 KB;
      fp32 cube rate 1/4 of half; ">= 16 KB per copy for full bandwidth"),
      examples/01_simd_cpp_api/05_best_practices/01_matrix_compute/matmul_high_performance/README.md
      ("HBM 带宽约为 1.8TB/s", "L2Cache 峰值带宽约为 5TB/s", L2 192 MB; an 8192^3 fp16 GEMM measured),
      examples/01_simd_cpp_api/05_best_practices/00_vector_compute/add_high_performance/README.md
      (an 8192x8192 fp16 Add measured, per-pipe times), docs/zh/guide/算子实践参考/性能分析/分析性能数据.md
      (head overhead of a full-core launch), impl/utils/tiling/platform/platform_ascendc.cpp (256 B of UB/L1
      reserved on 910B).
  KPP Ascend/mskpp @065b75cc: csrc/prof_data/resource910b.cpp (measured per-instruction and per-transfer
      tables of CANN's msKPP), csrc/core/arch/arch_info.cpp (its core counts and bandwidth matrix).
  INI Ascend910B2.ini as printed in huawei-csl/pto-dsl @c26eab7a examples/aot/matmul_optimization_guide/
      matmul_optim_guide.md (ai_core_cnt, vector_core_cnt, ub_size, l1_size, l0_*_size, l2_size,
      memory_size; cube_freq=1800 in other printouts of the same file); 910B3 core counts: hicann/catlass
      @0a8dac9d include/acot/arch/arch.hpp (MaxBlock 20, MaxAivBlock 40) and mskpp arch_info.cpp.
"""
import dataclasses
from typing import Dict


@dataclasses.dataclass(frozen=True)
class ChipProfile:
    name: str
    aic: int                      # AI (cube) cores
    aiv: int                      # vector cores
    clock_hz: float
    ub_bytes: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    l2_bytes: int
    hbm_bytes_per_s: float
    l2_bytes_per_s: float
    # Per-core transfers: cycles = fixed + bytes / rate.
    mte2_ub_bytes_per_cycle: float    # GM -> UB
    mte2_l1_bytes_per_cycle: float    # GM -> L1
    mte3_bytes_per_cycle: float       # UB -> GM
    mte2_fixed_cycles: float
    mte3_fixed_cycles: float
    gm_burst_granule: int             # a burst moves at least this many bytes
    l0a_bytes_per_cycle: float        # L1 -> L0A (MTE1)
    l0b_bytes_per_cycle: float        # L1 -> L0B (MTE1)
    fixpipe_bytes_per_cycle: float    # L0C -> GM
    # Vector: one repeat = 256 bytes of operands; cycles per repeat per instruction kind; some kinds are
    # limited in elements per cycle whatever the dtype; a fixed cost per issued instruction.
    vector_repeat_bytes: int
    vector_repeat_cycles: Dict[str, float]
    vector_elements_per_cycle: Dict[str, float]
    vector_fixed_cycles: float
    cube_macs_per_cycle: Dict[str, float]
    mmad_fixed_cycles: float
    launch_s: float

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


_A2 = dict(
    clock_hz=1.8e9,           # [config] cube_freq=1800 in Ascend910B2.ini; 1800 MHz from npu-smi on a 910B3 [3rd];
                              # KPP's own data was taken at 1800 MHz (AD's examples quote 1.85 GHz, the 910B1's)
    ub_bytes=196608,          # [config] ub_size (INI); [official] 256 B of it reserved on 910B (AD platform_ascendc.cpp)
    l1_bytes=524288,          # [config] l1_size
    l0a_bytes=65536,          # [config] l0_a_size
    l0b_bytes=65536,          # [config] l0_b_size
    l0c_bytes=131072,         # [config] l0_c_size; [official] "L0C Buffer 容量 128KB" (AD NPU架构版本2201.md)
    l2_bytes=201326592,       # [config] l2_size = 192 MiB; [official] "L2Cache 大小为 192MB" (AD matmul example)
    hbm_bytes_per_s=1.8e12,   # [official] "HBM 带宽约为 1.8TB/s" (AD matmul example); a third-party config says 1.6e12
    l2_bytes_per_s=5.0e12,    # [official] "L2Cache 峰值带宽约为 5TB/s" (AD matmul example)
    mte2_ub_bytes_per_cycle=111.0,  # [derived] plateau of KPP's measured GM->UB table (910b3, >= 160 KB copies)
    mte2_l1_bytes_per_cycle=160.0,  # [derived] fit of KPP's measured GM->L1 table (plateau 156..167)
    mte3_bytes_per_cycle=66.0,      # [derived] plateau of KPP's measured UB->GM table (>= 25 KB)
    mte2_fixed_cycles=190.0,        # [derived] least-squares start-up of KPP's GM->UB / GM->L1 tables (190..205)
    mte3_fixed_cycles=140.0,        # [derived] the same for KPP's UB->GM table (88..139)
    gm_burst_granule=32,            # [official] UB block of 32 B: a burst of fewer bytes still fills one (AD DataCopy)
    l0a_bytes_per_cycle=256.0,      # [official] L1->L0A (AD Cube指令理论性能汇总.md, table 3)
    l0b_bytes_per_cycle=128.0,      # [official] L1->L0B (same table)
    fixpipe_bytes_per_cycle=120.0,  # [derived] KPP's measured L0C->GM plateau (~117..124 B/cycle)
    vector_repeat_bytes=256,        # [official] 8 blocks x 32 B per repeat
    # [official] AD Vector指令理论性能汇总.md: binary, scalar and unary arithmetic 128 half / 64 float elements
    # per cycle = 1 cycle per 256-byte repeat; ReduceSum runs as repeat reductions at 7 cycles per repeat
    # ("ReduceRepeat" 128/7 half, 64/7 float per cycle). Binary instructions are 1.18 cycles: the measured
    # vector time of the bank-conflict-free Add of AD's add example was 1.18x the 1-cycle theory (2.18x
    # with bank conflicts; KPP's tables show 2.0, the conflicting case).
    vector_repeat_cycles={"Add": 1.18, "Sub": 1.18, "Mul": 1.18, "Div": 1.18, "Max": 1.18, "Min": 1.18,
                          "And": 1.18, "Or": 1.18, "Axpy": 1.18, "ReduceSum": 7.0, "ReduceMax": 7.0},
    # [official] same table: Exp, Ln, Sqrt and Div at 32 elements per cycle for half and float alike.
    vector_elements_per_cycle={"Exp": 32.0, "Ln": 32.0, "Sqrt": 32.0, "Div": 32.0},
    vector_fixed_cycles=3.0,        # [derived] KPP's single-repeat totals are 3..4 cycles for simple instructions
    # [official] AD Cube指令理论性能汇总.md: 16x16x16 per cycle for half/bfloat16; float 1/4 of half
    # (also AD NPU架构版本2201.md).
    cube_macs_per_cycle={"fp16": 4096.0, "bf16": 4096.0, "fp32": 1024.0},
    mmad_fixed_cycles=24.0,         # [derived] fit of KPP's measured MMAD table (910b3): cycles = 24 + m*n*k/4096
    # [derived] Task Duration minus the vector cores' busy time in AD's add example (6.0..9.4 us over its
    # cases); AD's profiling guide puts the head overhead of an empty full-core kernel at 20..21 us.
    launch_s=6.0e-6,
)

PROFILES: Dict[str, ChipProfile] = {
    # [config] ai_core_cnt=24, vector_core_cnt=48 (INI)
    "Ascend910B2": ChipProfile(name="Ascend910B2", aic=24, aiv=48, **_A2),
    # 20 AI cores, 40 vector cores: catlass arch.hpp, KPP arch_info.cpp, npu-smi on a 910B3 [3rd]
    "Ascend910B3": ChipProfile(name="Ascend910B3", aic=20, aiv=40, **_A2),
}
