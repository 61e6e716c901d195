// The cube core behind the twin's Matmul object (lib/matmul_intf.h): its L1/L0A/L0B/L0C address spaces,
// the walk over the TCubeTiling, the checks and the counters. Type-erased so that the Matmul template
// stays a thin forwarder and the work is compiled once, in twin/src/cube.cpp.
#pragma once

#include <cstdint>
#include <memory>

#include "kernel_tiling/kernel_tiling.h"

namespace ascend_twin {

// kFloat64 exists only in kernels built as the twin's float64 variant (ASCEND_TWIN_ALLOW_FP64, gradient
// checks on the CPU): the A2 cube unit has no float64, and the NPU build never gets such a variant.
// kInt8: int8_t A and B (L0C int32_t); kInt32: an int32_t bias or C; kInt4: int4b_t A and B (two a byte in GM, low
// nibble first; L0C int32_t).
enum class CubeType : uint8_t { kFloat32, kFloat16, kBFloat16, kFloat64, kInt8, kInt32, kInt4 };
const char* CubeTypeName(CubeType t);
// The running AI Cube core's L1 (its bytes in `bytes`): where TSCM tensors live.
uint8_t* CubeL1(uint64_t* bytes);
// GM -> the running AI Cube core's L1 at address l1Addr (a TSCM tensor of l1Room bytes from there): blockCount
// blocks of blockBytes, srcStep / dstStep bytes apart, with the GM -> L1 DataCopy's checks.
void CopyGmToL1At(const char* call, uint64_t l1Addr, uint64_t l1Room, const uint8_t* src, uint16_t blockCount,
                  uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep);
// The same with the ND -> NZ conversion (DataCopy with Nd2NzParams; nd2nz its eight fields in their order).
void CopyNd2NzAt(uint64_t l1Addr, uint64_t l1Room, uint32_t elemSize, const uint8_t* src, const uint16_t nd2nz[8]);

struct CubeMatmulTypes {
    CubeType a, b, c, bias;
    bool aTransAllowed;  // MatmulType<..., ISTRANS = true>
    bool bTransAllowed;
    bool cubeOnly;  // ASCENDC_CUBE_ONLY was defined before lib/matmul_intf.h; false: a MIX kernel's server engine
    // From the MatmulConfig: its iterateOrder (-1: UNDEF, the tiling's), and whether SetBias, SetTail and End
    // take effect (enableSetBias, enableSetTail, enableEnd).
    int8_t configOrder = -1;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableEnd = true;
    // The IBShare template (MatmulConfig doIBShareNorm): 0 off, 1 A is the shared matrix, 2 B is.
    uint8_t ibShareNorm = 0;
    // MatmulConfig isA2B2Shared: the objects share one L0A/L0B double buffer, a base block in each half.
    bool a2b2Shared = false;
    // MatmulConfig isPartialOutput: each block of the walk is one base block over one baseK slice (K innermost).
    bool partialOutput = false;
    // C's MatmulType format is ND_ALIGN: its rows in GM 32-byte aligned (the padding not written).
    bool cNdAlign = false;
    // C's MatmulType format is NZ with MatmulConfig isEnableChannelSplit (float): C in GM as 8-column fractals.
    bool cNzChannelSplit = false;
    // Matmul's MATMUL_POLICY is NBuffer33MatmulPolicy: its tiling rules are checked at IterateAll.
    bool nBuffer33 = false;
    // TrianUpperMatmulPolicy (1) / TrianLowerMatmulPolicy (2): base blocks below (above) the diagonal of the core's
    // base-block grid are computed and not written.
    uint8_t trian = 0;
    // B is a SparseMatmulType (4:2 sparse int8_t B, transposed): SetTensorB's tensor holds the dense [N, K / 2] and
    // SetSparseIndex's the 2-bit index matrix in NZ (16 x 8-byte fractals).
    bool sparseB = false;
    // A's MatmulType is at TPosition::TSCM: the Matmul allocates no A1 in L1 (matmul_local_workspace.h), A is the
    // kernel's L1 tensor (SetTensorAL1).
    bool aTscm = false;
};

class CubeMatmul {
public:
    explicit CubeMatmul(const CubeMatmulTypes& types);
    ~CubeMatmul();
    CubeMatmul(const CubeMatmul&) = delete;
    CubeMatmul& operator=(const CubeMatmul&) = delete;

    void Init(const AscendC::tiling::TCubeTiling* tiling);
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc);
    void SetSingleShape(int singleM, int singleN, int singleK);
    void SetTail(int tailM, int tailN, int tailK);
    void SetTensorA(const void* gm, bool isTransposeA);
    // A at TPosition::TSCM (MatmulType<TPosition::TSCM, CubeFormat::NZ, ...>): `l1` is the L1 tensor (`bytes` long)
    // that holds this core's whole single-core A in NZ, as the API's L1 -> L0A load reads it (load_to_l0a_load2d.h):
    // not transposed, element (m, k) at ((k / C0) * H + m) * C0 + k % C0 with C0 = 32 / sizeof(A) and
    // H = Ceil(singleCoreM, 16) * 16; transposed (A stored [K, M]), (m, k) at ((m / 16) * Hk + k) * 16 + m % 16 with
    // Hk = Ceil(singleCoreK, 16) * 16. No GM -> L1 copy: the walk reads the tensor.
    void SetTensorAL1(const void* l1, uint64_t bytes, bool isTransposeA);
    void SetTensorB(const void* gm, bool isTransposeB);
    void SetBias(const void* gm);
    void DisableBias();
    // int8_t A and B with half C: the dequantisation of C's move out of L0C (SetQuantScalar: one 64-bit word for all
    // of C; SetQuantVector: one word per column of C, `gm` the N words of the GM tensor, column 0 of this core's C
    // at `gm`).
    void SetQuantScalar(uint64_t quantScalar);
    void SetQuantVector(const void* gm);
    // The user copy-in callbacks (MatmulCallBackFunc's CopyA1/CopyB1): with one set for A (and/or B) the walk asks
    // it for each base tile of the operand instead of reading GM: A's tile at base-block indices (row, col) along M
    // and K, height x width = useM x useK; B's along K and N, useK x useN. The hook returns the tile as the
    // callback left it in L1: NZ fractals of C0 = 32 / sizeof(T) columns, Ceil(height, align) rows each (align 16,
    // or 32 for an int8_t B whose rows are K), fractal j at j * Ceil(height, align) * C0 elements.
    using CopyInHook = const uint8_t* (*)(void* ctx, bool isB, int row, int col, int height, int width);
    void SetCopyInHook(CopyInHook hook, void* ctx, bool forA, bool forB);
    // SparseMatmulType B: the index matrix of this core's B (GM, NZ: byte (n, kb) at
    // (kb / 8) * Ceil(N, 16) * 8 + n * 8 + kb % 8, N the tiling's; its 4 2-bit indices, the first in the low bits,
    // belong to dense entries 4 kb .. 4 kb + 3 of row n).
    void SetSparseIndex(const void* gm);
    const AscendC::tiling::TCubeTiling* Tiling() const;  // the tiling Init took
    void IterateAll(void* gm, uint8_t enAtomic);
    void End();

    // One base block at a time (Iterate/GetTensorC, and the MIX kernel's server): StartIterate begins a walk over
    // the block SetTail set, NextBlock computes the next base block into L0C (false: none left).
    void StartIterate(const char* call);
    bool NextBlock();
    int64_t BlockCount() const;
    bool HasBlock() const;  // a block is in L0C, not yet written
    // Writes the block in L0C (Fixpipe) and frees L0C: at its place in C (rows orgN, or orgKc, elements apart,
    // from `c`, the single-core C's first element), or with enSequentialWrite densely at `c` (rows as wide as the
    // block). checked: `c` is the launch's GM; else the twin's staging for a LocalTensor output. limit > 0: the
    // block must end within `limit` bytes of `c` ("call" names the API call in the violation).
    void WriteBlock(const char* call, void* c, bool sequential, bool checked, uint64_t limit);
    // C at CO1 (Iterate(enPartialSum, LocalTensor) of an object whose C_TYPE is CO1/NZ): the block in L0C goes
    // into the kernel's float CO1 tensor `co1` (`elements` long) as NZ fractals: its 16-column group j holds
    // ceil16(rows) rows of 16 elements, j * ceil16(rows) * 16 elements from `co1`. accumulate (enPartialSum) adds
    // the block onto what the tensor holds. The tensor must hold every fractal.
    void WriteBlockNz(const char* call, float* co1, uint64_t elements, bool accumulate);
    uint64_t BaseBlockBytes() const;  // baseM * baseN elements of C
    // The writes into GM that follow accumulate (IterateAll/GetTensorC's enAtomic: 0 off, 1 AtomicAdd, 2 AtomicMax,
    // 3 AtomicMin; C of float, half or bfloat16_t, A2's atomic types for the Fixpipe), until set to 0 again.
    void SetAtomic(const char* call, uint8_t enAtomic);
    void EndWalk();  // the server's mul.End() after a walk: the object stays usable

    struct State;  // defined in twin/src/cube_internal.h

private:
    std::unique_ptr<State> s_;
};

}  // namespace ascend_twin
