// The Matmul object of a MIX kernel (lib/matmul_intf.h without ASCENDC_CUBE_ONLY), as the API builds it on A2:
// on each AIV a client (MatmulClient) that turns the calls into messages to its block's AIC, and on the AIC
// a server (KfcServer, MatmulService) that REGIST_MATMUL_OBJ runs until every AIV's client has ended, then
// returns from the kernel. The server computes with a cube core per client and object (twin/kernel_cube.h);
// C goes to GM, or, for a LocalTensor, through the system workspace into the AIV's UB. Type-erased: the
// work is in twin/src/matmul_mix.cpp.
#pragma once

#include <cstdint>
#include <memory>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_cube.h"

namespace ascend_twin {

// The batch form of a Matmul object (MatmulType's LAYOUT, MatmulConfig's batch fields): what IterateBatch needs.
enum class MatmulBatchLayout : uint8_t { kNone, kBsngd, kNormal, kOther };
struct MatmulBatchDesc {
    MatmulBatchLayout ab = MatmulBatchLayout::kNone;  // A's and B's LAYOUT (one value: the API requires it)
    MatmulBatchLayout c = MatmulBatchLayout::kNone;
    bool biasBatch = true;       // MatmulConfig isBiasBatch: the bias has a batch axis
    bool lessThanL1 = true;      // MatmulConfig batchMode BATCH_LESS_THAN_L1
};

struct MatmulMixDesc {
    CubeMatmulTypes types;
    bool cInUb;  // C is VECIN/VECCALC/VECOUT (a LocalTensor in the AIV's UB), else GM
    MatmulBatchDesc batch{};
};

class MatmulMix {
public:
    explicit MatmulMix(const MatmulMixDesc& desc);
    ~MatmulMix();
    MatmulMix(const MatmulMix&) = delete;
    MatmulMix& operator=(const MatmulMix&) = delete;

    void Init(const AscendC::tiling::TCubeTiling* tiling);
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc);
    void SetTail(int tailM, int tailN, int tailK);
    void SetTensorA(const void* gm, uint64_t bytes, bool isTransposeA);
    // A at TPosition::TSCM: the tensor at L1 address l1Addr of the block's AIC, `bytes` long (GetTscmAddr).
    void SetTensorAL1(uint64_t l1Addr, uint64_t bytes, bool isTransposeA);
    void SetTensorB(const void* gm, uint64_t bytes, bool isTransposeB);
    void SetBias(const void* gm);
    void DisableBias();
    void SetWorkspace(void* gm, uint64_t bytes);
    bool Iterate(bool sync, bool enPartialSum);
    void IterateAll(bool sync, void* gm, uint8_t enAtomic, bool enSequentialWrite, bool waitIterateAll, bool fakeMsg);
    void IterateAllLocal(bool sync, void* ub, uint64_t bytes, uint8_t enAtomic);
    void WaitIterateAll();
    // IterateBatch<sync> into GM (mix form): batchA x batchB matrices of the tiling's single-core shape, laid out as
    // the object's LAYOUT says (twin/src/matmul_mix.cpp: the forms modelled and the rules).
    void IterateBatch(bool sync, void* gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC, bool enPartialSum,
                      uint8_t enAtomic);
    // IterateNBatch<sync>: batchLoop IterateBatch calls into the SetWorkspace buffer; GetBatchTensorC the next batch
    // of C there (after IterateNBatch<false>, not modelled: refused).
    void IterateNBatch(bool sync, uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC, bool enPartialSum,
                       uint8_t enAtomic);
    void* GetBatchTensorC(uint32_t batchA, uint32_t batchB, uint64_t* elements);
    void GetTensorC(bool sync, void* gm, uint8_t enAtomic, bool enSequentialWrite);
    // waitForV: the copy into UB ends with the MTE2 -> V synchronisation GetTensorC does (AsyncGetTensorC leaves it
    // to WaitGetTensorC).
    void GetTensorCLocal(bool sync, void* ub, uint64_t bytes, uint8_t enAtomic, bool enSequentialWrite, bool waitForV,
                         const char* call);
    void* GetTensorCWorkspace(uint64_t* elements);  // GetTensorC<false>(): the next block in the SetWorkspace buffer
    void WaitGetTensorC();
    void End();

    // REGIST_MATMUL_OBJ: this object is number `inst` of the kernel's (the tiling may be null: Init follows).
    void Register(uint32_t inst, const AscendC::tiling::TCubeTiling* tiling);
    CubeMatmul& ServerEngine(int32_t sub);  // on the AIC: the engine serving AIV `sub`

    struct State;  // twin/src/matmul_mix.cpp

private:
    void BatchCall(const char* call, bool sync, void* gm, uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                   bool enSequentialWrite, uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC,
                   bool enPartialSum, uint8_t enAtomic);
    std::unique_ptr<State> s_;
};

// The client end of an AIV (the API's KfcCommClient, declared by REGIST_MATMUL_OBJ in the kernel's scope): when
// it goes out of scope (the kernel returns on the AIV) it tells the AIC this AIV has ended.
class KfcClientScope {
public:
    KfcClientScope() = default;
    ~KfcClientScope();
    KfcClientScope(const KfcClientScope&) = delete;
    KfcClientScope& operator=(const KfcClientScope&) = delete;
    bool open = false;
};

// REGIST_MATMUL_OBJ of a MIX kernel with `n` objects (tilings[i] may be null). On the AIC: serves them until
// every AIV of the block has ended and returns true (the macro then returns from the kernel). On an AIV:
// opens the client and returns false.
// DataCopy GM -> TSCM on an AIV (A2's ScmDataCopyMsg): a message asking the block's AIC, whose Matmul server runs
// (REGIST_MATMUL_OBJ), to copy blockCount blocks of blockBytes from `src` (srcStep bytes apart) to its L1 address
// l1Addr (dstStep apart); l1Room is the TSCM tensor's size from l1Addr on. The AIC serves it in message order.
void PostScmCopy(const char* call, uint64_t l1Addr, uint64_t l1Room, const uint8_t* src, uint16_t blockCount,
                 uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep);
// The Nd2NzParams form (SCMFUN_GM2L1ND2NZ): nd2nz the params' eight fields in their order, elemSize sizeof(T).
void PostScmNd2Nz(const char* call, uint64_t l1Addr, uint64_t l1Room, uint32_t elemSize, const uint8_t* src,
                  const uint16_t nd2nz[8]);

bool RegisterMatmulMix(KfcClientScope& scope, const void* workspace, MatmulMix* const* objs,
                       const AscendC::tiling::TCubeTiling* const* tilings, uint32_t n);

}  // namespace ascend_twin
