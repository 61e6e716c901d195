// The Matmul object on a cube core: initialisation from TCubeTiling, the rule checks of its setters.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cube_internal.h"
#include "kernel_operator.h"

namespace ascend_twin {

using cube_detail::AccSizeOf;
using cube_detail::kMr;
using cube_detail::SizeOf;

const char* CubeTypeName(CubeType t)
{
    switch (t) {
        case CubeType::kFloat32: return "float";
        case CubeType::kFloat16: return "half";
        case CubeType::kBFloat16: return "bfloat16_t";
        case CubeType::kFloat64: return "double";
        case CubeType::kInt8: return "int8_t";
        case CubeType::kInt32: return "int32_t";
        case CubeType::kInt4: return "int4b_t";
    }
    return "?";
}

CubeMatmul::CubeMatmul(const CubeMatmulTypes& types) : s_(std::make_unique<State>())
{
    s_->types = types;
}

namespace {
// The L1/L0 storage of finished Matmul objects, for the next ones to take: the cores of a launch, run one
// after the other on a worker thread, then reuse storage the CPU caches still hold instead of allocating
// (and zeroing) 1.4 MiB afresh per core. Shared by the worker threads: a core runs as a fiber and may
// finish on another thread than the one it started on.
template <typename E>
struct SparePool {
    std::mutex m;
    std::vector<cube_detail::CubeBuffers<E>> spare;
};

template <typename E>
SparePool<E>& Spares()
{
    static SparePool<E>* pool = new SparePool<E>;  // never destroyed: no order to get wrong at exit
    return *pool;
}

template <typename E>
void TakeSpare(cube_detail::CubeBuffers<E>& b)
{
    if (!b.l0c.empty()) return;  // Init again on the same object: it keeps its own
    SparePool<E>& pool = Spares<E>();
    std::lock_guard<std::mutex> lock(pool.m);
    if (pool.spare.empty()) return;
    b = std::move(pool.spare.back());  // the most recently used: the warmest in the caches
    pool.spare.pop_back();
}

template <typename E>
void GiveBack(cube_detail::CubeBuffers<E>& b)
{
    if (b.l0c.empty()) return;
    SparePool<E>& pool = Spares<E>();
    std::lock_guard<std::mutex> lock(pool.m);
    if (pool.spare.size() < 8) pool.spare.push_back(std::move(b));  // bounded: a few per worker thread
}
}  // namespace

CubeMatmul::~CubeMatmul()
{
    if (s_->types.cubeOnly && s_->types.enableEnd && s_->iterated && !s_->ended) {
        Defer("Matmul::End", "Matmul::End is called once the Matmul object's work is done",
              "the kernel returned after IterateAll without calling End");
    }
    GiveBack(s_->f32);
    GiveBack(s_->f64);
}

namespace {
void Require(bool ok, const char* call, const char* rule, const std::string& detail)
{
    if (!ok) Fail(call, rule, detail);
}
std::string Num(int64_t v) { return std::to_string(v); }

template <typename E>
void ResetBuffers(cube_detail::CubeBuffers<E>& b, const AscendC::tiling::TCubeTiling& t)
{
    TakeSpare(b);  // first: every buffer below is then sized for this tiling
    const int64_t mPad = (t.baseM + kMr - 1) / kMr * kMr;
    // L1 holds A in kMr-row panels per base row block (padded to mPad rows), B in kNr-column panels
    // (baseN is a multiple of 16): the walk's micro-kernel reads the base tiles there (cube_walk.cpp).
    b.a1.Reset(t.depthA1 / (t.stepM * t.stepKa), int64_t(t.stepM) * mPad * t.stepKa * t.baseK);
    b.b1.Reset(t.depthB1 / (t.stepN * t.stepKb), int64_t(t.stepN) * t.baseN * t.stepKb * t.baseK);
    // Never read before written: the walk loads L1 groups with their padding, starts L0C (zeros or the
    // bias) before every block, and fills the bias row before it copies it.
    b.l0c.resize(mPad * t.baseN);
    b.biasRow.resize(t.baseN);
}
}  // namespace

void CubeMatmul::Init(const AscendC::tiling::TCubeTiling* tiling)
{
    constexpr const char* kCall = "REGIST_MATMUL_OBJ/Matmul::Init";
    State& s = *s_;
    const CoreContext& core = CurrentCore();
    const Platform& p = *core.platform;
    // A pure Cube object (ASCENDC_CUBE_ONLY) runs on an AIC: of a cube-only kernel, or of a cube+vector MIX kernel
    // whose AIC calls it (the CV fusion guide's hand-written form: ASCEND_IS_AIC, KERNEL_TYPE_MIX_AIC_1_1/1_2, the
    // AIVs synchronised by CrossCoreSetFlag); a MIX kernel's client objects are engines of its AIC's server
    // (twin/src/matmul_mix.cpp).
    if (s.types.cubeOnly) {
        const bool mixCv = core.kernelType == KERNEL_TYPE_MIX_AIC_1_1 || core.kernelType == KERNEL_TYPE_MIX_AIC_1_2;
        Require(core.kernelType == KERNEL_TYPE_AIC_ONLY || core.kernelType == KERNEL_TYPE_MIX_AIC_1_0 || mixCv, kCall,
                "a pure Cube Matmul (ASCENDC_CUBE_ONLY) runs in a kernel that declares KERNEL_TYPE_AIC_ONLY or "
                "__cube__, or a cube+vector MIX type (KERNEL_TYPE_MIX_AIC_1_1/1_2, __mix__) calling it on the AIC",
                "the kernel declared no task type or another one before creating the Matmul object");
        Require(!mixCv || core.coreType == 1, kCall,
                "a pure Cube Matmul (ASCENDC_CUBE_ONLY) is called on the AIC (ASCEND_IS_AIC in a MIX kernel)",
                "called on an AIV");
    }
    Require(tiling != nullptr, kCall, "Matmul::Init takes the TCubeTiling", "null tiling pointer");
    const AscendC::tiling::TCubeTiling& t = *tiling;
    const uint32_t ds = SizeOf(s.types.a);
    Require(t.M > 0 && t.N > 0 && t.Ka > 0 && t.Kb > 0 && t.singleCoreM > 0 && t.singleCoreN > 0 && t.singleCoreK > 0,
            kCall, "TCubeTiling sizes are positive",
            "M " + Num(t.M) + ", N " + Num(t.N) + ", Ka " + Num(t.Ka) + ", Kb " + Num(t.Kb) + ", singleCore " +
                Num(t.singleCoreM) + "x" + Num(t.singleCoreN) + "x" + Num(t.singleCoreK));
    // Base blocks follow the NZ fractals: baseM, baseN multiples of 16; baseK of 16, or of C0 (32 bytes)
    // when A is not transposed and B is (the only case whose K fractals are C0 wide on both sides; the
    // twin applies the rule for whatever transposition the kernel may set).
    Require(t.baseM > 0 && t.baseN > 0 && t.baseK > 0 && t.baseM % 16 == 0 && t.baseN % 16 == 0 && t.baseK % 16 == 0,
            kCall, "baseM, baseN and baseK are multiples of 16 (fractal alignment)",
            "base " + Num(t.baseM) + "x" + Num(t.baseN) + "x" + Num(t.baseK));
    for (auto [name, depth, step, stepK] : {std::tuple{"A1", t.depthA1, t.stepM, t.stepKa},
                                            std::tuple{"B1", t.depthB1, t.stepN, t.stepKb}}) {
        Require(step > 0 && stepK > 0 && (depth == step * stepK || depth == 2 * step * stepK), kCall,
                "depth = step * stepK * db with db 1 or 2",
                std::string(name) + ": depth " + Num(depth) + ", step " + Num(step) + ", stepK " + Num(stepK));
    }
    Require(t.iterateOrder == 0 || t.iterateOrder == 1, kCall, "iterateOrder is 0 (ORDER_M) or 1 (ORDER_N)",
            Num(t.iterateOrder));
    for (auto [name, db] : {std::pair{"dbL0A", t.dbL0A}, std::pair{"dbL0B", t.dbL0B}, std::pair{"dbL0C", t.dbL0C}}) {
        Require(db == 1 || db == 2, kCall, "dbL0A/dbL0B/dbL0C are 1 or 2", std::string(name) + " = " + Num(db));
    }
    const uint32_t acc = AccSizeOf(s.types.a);  // L0C's element (and the bias's in L1)
    // Bytes of n A/B elements (int4b_t: two a byte).
    auto Bytes = [&](uint64_t n) { return s.types.a == CubeType::kInt4 ? n / 2 : n * ds; };
    // With A at TSCM the Matmul takes no A1 (A is the kernel's L1 tensor: CheckL1A keeps B1 and the bias below it).
    const uint64_t a1 = s.types.aTscm ? 0 : Bytes(uint64_t(t.depthA1) * t.baseM * t.baseK);
    const uint64_t l1 = a1 + Bytes(uint64_t(t.depthB1) * t.baseN * t.baseK) + (t.isBias ? uint64_t(t.baseN) * acc : 0);
    // The TPipe hands out TOTAL_L1_SIZE (A2: 512 KiB - 128 B for the Matmul API's messages), not all of L1.
    Require(l1 <= L1Usable(p), kCall, "A1 + B1 + bias fit in the L1 a TPipe hands out (TOTAL_L1_SIZE)",
            Num(l1) + " bytes asked (depthA1 " + Num(t.depthA1) + " x " + Num(t.baseM) + "x" + Num(t.baseK) +
                ", depthB1 " + Num(t.depthB1) + " x " + Num(t.baseN) + "x" + Num(t.baseK) + " of " +
                CubeTypeName(s.types.a) + (t.isBias ? ", bias" : "") + "), TOTAL_L1_SIZE is " +
                Num(L1Usable(p)) + " (L1 " + Num(p.l1Size) + " less the " +
                Num(kL1KfcReserved) + " bytes the API keeps)");
    const uint64_t l0a = Bytes(uint64_t(t.baseM) * t.baseK) * t.dbL0A;
    const uint64_t l0b = Bytes(uint64_t(t.baseN) * t.baseK) * t.dbL0B;
    const uint64_t l0c = uint64_t(t.baseM) * t.baseN * acc * t.dbL0C;
    Require(l0a <= p.l0aSize, kCall, "baseM x baseK x dbL0A fits in L0A", Num(l0a) + " > " + Num(p.l0aSize));
    if (s.types.a2b2Shared) {  // MatmulConfig docs (isA2B2Shared): A and B base blocks at most 32 KB each
        const uint64_t blockA = Bytes(uint64_t(t.baseM) * t.baseK), blockB = Bytes(uint64_t(t.baseN) * t.baseK);
        Require(blockA <= p.l0aSize / 2 && blockB <= p.l0bSize / 2, kCall,
                "with isA2B2Shared the A and B base blocks are at most 32 KB each (half of L0A/L0B)",
                "A block " + Num(blockA) + " bytes (baseM " + Num(t.baseM) + " x baseK " + Num(t.baseK) +
                    "), B block " + Num(blockB) + " bytes (baseK x baseN " + Num(t.baseN) + ")");
    }
    Require(l0b <= p.l0bSize, kCall, "baseN x baseK x dbL0B fits in L0B", Num(l0b) + " > " + Num(p.l0bSize));
    Require(l0c <= p.l0cSize, kCall, acc == 4 ? "baseM x baseN float32 x dbL0C fits in L0C" : "baseM x baseN double x dbL0C fits in L0C", Num(l0c) + " > " + Num(p.l0cSize));

    s.t = t;
    s.orgM = t.M;
    s.orgN = t.N;
    s.orgKa = t.Ka;
    s.orgKb = t.Kb;
    s.orgKc = 0;
    s.singleM = t.singleCoreM;
    s.singleN = t.singleCoreN;
    s.singleK = t.singleCoreK;
    s.biasOn = false;
    s.quant = 0;
    if (cube_detail::UsesDouble(s.types.a)) {
        ResetBuffers(s.f64, t);
    } else {
        ResetBuffers(s.f32, t);
    }
    s.initialised = true;
    s.ended = false;
}

namespace {
void RequireInit(const CubeMatmul::State& s, const char* call)
{
    Require(s.initialised, call, "the Matmul object is initialised (REGIST_MATMUL_OBJ with a tiling, or Init)",
            "no tiling was given");
    Require(!s.ended, call, "no Matmul call after End", "End was already called");
}
}  // namespace

void CubeMatmul::SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc)
{
    RequireInit(*s_, "Matmul::SetOrgShape");
    Require(orgM > 0 && orgN > 0 && orgKa > 0 && orgKb > 0 && orgKc >= 0, "Matmul::SetOrgShape",
            "original shapes are positive", Num(orgM) + ", " + Num(orgN) + ", " + Num(orgKa) + ", " + Num(orgKb));
    s_->orgM = orgM;
    s_->orgN = orgN;
    s_->orgKa = orgKa;
    s_->orgKb = orgKb;
    s_->orgKc = orgKc;
}

void CubeMatmul::SetSingleShape(int singleM, int singleN, int singleK) { SetTail(singleM, singleN, singleK); }

void CubeMatmul::SetTail(int tailM, int tailN, int tailK)
{
    constexpr const char* kCall = "Matmul::SetTail/SetSingleShape";
    State& s = *s_;
    RequireInit(s, kCall);
    if (!s.types.enableSetTail) return;  // MatmulConfig::enableSetTail = false: the object ignores SetTail
    const int64_t m = tailM < 0 ? s.singleM : tailM, n = tailN < 0 ? s.singleN : tailN,
                  k = tailK < 0 ? s.singleK : tailK;
    // L1/L0 are sized by the base blocks and steps, not by the singleCore shape: a block larger than the tiling's
    // singleCore shape is walked with more base blocks. Only the IBShare template (doIBShareNorm) bounds it: the
    // API's CheckTailShape asserts tailM/N/K <= the tiling's singleCoreM/N/K there (-1 keeping the size passes).
    // The twin refuses an empty block (the API's assert takes tail >= -1, -1 keeping the current size; a 0 would
    // compute nothing).
    if (s.types.ibShareNorm != 0) {
        for (auto [name, tail, single] : {std::tuple{"tailM", tailM, s.t.singleCoreM},
                                          std::tuple{"tailN", tailN, s.t.singleCoreN},
                                          std::tuple{"tailK", tailK, s.t.singleCoreK}}) {
            Require(tail <= single, kCall,
                    "with the IBShare template (CFG_IBSHARE_NORM) the block is no larger than the tiling's "
                    "singleCoreM/N/K",
                    std::string(name) + " " + Num(tail) + " > " + Num(single));
        }
    }
    Require(m > 0 && n > 0 && k > 0, kCall, "a core's block is positive",
            Num(m) + "x" + Num(n) + "x" + Num(k) + " asked");
    s.singleM = m;
    s.singleN = n;
    s.singleK = k;
}

namespace {
// SetTensorA/SetTensorB docs (isTransposeA/isTransposeB): with ISTRANS = false the flag must be false; for
// inputs other than half and bfloat16_t (here: float) it must equal ISTRANS, so that the kernel sizes L1
// as the tiling did (a float ISTRANS = true object given false is wrong too).
void CheckTransposeFlag(CubeType type, bool isTrans, bool flag, const char* call,
                        const char* operand)
{
    const std::string flagText = std::string("isTranspose") + operand + " = " + (flag ? "true" : "false");
    const std::string isTransText = std::string(" with ISTRANS = ") + (isTrans ? "true" : "false");
    Require(!flag || isTrans, call, (std::string("a transposed ") + operand + " needs MatmulType<..., ISTRANS = true>").c_str(),
            flagText + isTransText);
    Require(type != CubeType::kFloat32 || flag == isTrans, call,
            "for float inputs the transpose flag equals the MatmulType's ISTRANS (only half/bfloat16_t may alternate)",
            flagText + isTransText + " (" + CubeTypeName(type) + " " + operand +
                "): instantiate the MatmulType with ISTRANS equal to the flag");
}
}  // namespace

void CubeMatmul::SetQuantScalar(uint64_t quantScalar)
{
    RequireInit(*s_, "Matmul::SetQuantScalar");
    s_->quant = 1;
    s_->quantScalar = quantScalar;
}

void CubeMatmul::SetQuantVector(const void* gm)
{
    RequireInit(*s_, "Matmul::SetQuantVector");
    Require(gm != nullptr, "Matmul::SetQuantVector", "the quantTensor is a GM tensor with an address",
            "a null GlobalTensor");
    s_->quant = 2;
    s_->quantVector = static_cast<const uint8_t*>(gm);
}

void CubeMatmul::SetTensorA(const void* gm, bool isTransposeA)
{
    RequireInit(*s_, "Matmul::SetTensorA");
    CheckTransposeFlag(s_->types.a, s_->types.aTransAllowed, isTransposeA, "Matmul::SetTensorA", "A");
    if (s_->copyInA && isTransposeA) {
        FailF("Matmul::SetTensorA",
              "with a CopyA1 callback (MatmulCallBackFunc) A is not transposed (the twin models the callback's L1 "
              "tile for A as [M, K] NZ only; a deliberate strictness)",
              "isTransposeA = true");
    }
    s_->a = static_cast<const uint8_t*>(gm);
    s_->transA = isTransposeA;
    s_->aL1 = false;
}

void CubeMatmul::SetTensorAL1(const void* l1, uint64_t bytes, bool isTransposeA)
{
    constexpr const char* kCall = "Matmul::SetTensorA(TSCM)";
    RequireInit(*s_, kCall);
    CheckTransposeFlag(s_->types.a, s_->types.aTransAllowed, isTransposeA, kCall, "A");
    Require(s_->types.a != CubeType::kInt4, kCall,
            "the twin models A at TSCM of half, bfloat16_t, float and int8_t (int4b_t in L1 is not modelled)",
            "A is int4b_t");
    Require(!isTransposeA || SizeOf(s_->types.a) == 2, kCall,
            "the twin models a transposed A at TSCM of half or bfloat16_t (a deliberate strictness: the float and "
            "int8_t transposed L1 loads are not modelled)",
            std::string("isTransposeA = true with A ") + CubeTypeName(s_->types.a));
    Require(l1 != nullptr, kCall, "SetTensorA's TSCM tensor has an address in L1", "a null tensor");
    s_->a = static_cast<const uint8_t*>(l1);
    s_->aL1 = true;
    s_->aL1Bytes = bytes;
    s_->transA = isTransposeA;
}

const AscendC::tiling::TCubeTiling* CubeMatmul::Tiling() const { return &s_->t; }

void CubeMatmul::SetCopyInHook(CopyInHook hook, void* ctx, bool forA, bool forB)
{
    s_->copyIn = hook;
    s_->copyInCtx = ctx;
    s_->copyInA = forA;
    s_->copyInB = forB;
}

void CubeMatmul::SetSparseIndex(const void* gm)
{
    RequireInit(*s_, "Matmul::SetSparseIndex");
    s_->sparseIndex = static_cast<const uint8_t*>(gm);
}

void CubeMatmul::SetTensorB(const void* gm, bool isTransposeB)
{
    RequireInit(*s_, "Matmul::SetTensorB");
    CheckTransposeFlag(s_->types.b, s_->types.bTransAllowed, isTransposeB, "Matmul::SetTensorB", "B");
    if (s_->copyInB && isTransposeB) {
        FailF("Matmul::SetTensorB",
              "with a CopyB1 callback (MatmulCallBackFunc) B is not transposed (the twin models the callback's L1 "
              "tile for B as [K, N] NZ only; a deliberate strictness)",
              "isTransposeB = true");
    }
    s_->b = static_cast<const uint8_t*>(gm);
    s_->transB = isTransposeB;
}

void CubeMatmul::SetBias(const void* gm)
{
    RequireInit(*s_, "Matmul::SetBias");
    Require(s_->t.isBias != 0, "Matmul::SetBias", "a bias needs isBias = 1 in the tiling (its L1 space)",
            "the tiling has isBias = 0");
    s_->bias = static_cast<const uint8_t*>(gm);
    s_->biasOn = s_->types.enableSetBias;  // MatmulConfig::enableSetBias = false: the object ignores SetBias
}

void CubeMatmul::DisableBias()
{
    RequireInit(*s_, "Matmul::DisableBias");
    s_->biasOn = false;
}

void CubeMatmul::End()
{
    RequireInit(*s_, "Matmul::End");
    s_->ended = true;
}

namespace {
// The IBShare template's tiling constraints (the API's K loop and Norm scheduler assert them): the shared matrix's
// whole K is in L1 (depthA1 >= kIter * stepM for A, depthB1 >= kIter * stepN for B), and the walk never drops the
// shared group: ORDER_M with B shared needs stepN >= nIter, ORDER_N with A shared stepM >= mIter.
void CheckIBShareNorm(const CubeMatmul::State& s, const char* call)
{
    const AscendC::tiling::TCubeTiling& t = s.t;
    const bool sharedA = s.types.ibShareNorm == 1;
    const int64_t kIter = (s.singleK + t.baseK - 1) / t.baseK;
    const int64_t mIter = (s.singleM + t.baseM - 1) / t.baseM, nIter = (s.singleN + t.baseN - 1) / t.baseN;
    const int64_t depth = sharedA ? t.depthA1 : t.depthB1, step = sharedA ? t.stepM : t.stepN;
    Require(depth >= kIter * step, call,
            "the IBShare template needs the shared matrix's K fully loaded in L1 (depthA1 >= kIter * stepM for a "
            "shared A, depthB1 >= kIter * stepN for a shared B)",
            std::string(sharedA ? "depthA1 " : "depthB1 ") + Num(depth) + " < kIter " + Num(kIter) +
                (sharedA ? " * stepM " : " * stepN ") + Num(step));
    const bool orderN = s.types.configOrder >= 0 ? s.types.configOrder == 1 : t.iterateOrder == 1;
    if (!sharedA && !orderN) {
        Require(t.stepN >= nIter, call,
                "the IBShare template: when iterateOrder is ORDER_M and B is shared, stepN >= nIter",
                "stepN " + Num(t.stepN) + " < nIter " + Num(nIter) + " (singleN " + Num(s.singleN) + ", baseN " +
                    Num(t.baseN) + ")");
    }
    if (sharedA && orderN) {
        Require(t.stepM >= mIter, call,
                "the IBShare template: when iterateOrder is ORDER_N and A is shared, stepM >= mIter",
                "stepM " + Num(t.stepM) + " < mIter " + Num(mIter) + " (singleM " + Num(s.singleM) + ", baseM " +
                    Num(t.baseM) + ")");
    }
}
}  // namespace

namespace {
// int8_t A and B with half C: L0C's int32_t leaves through the Fixpipe's dequantisation (DEQF16 / VDEQF16), whose
// parameter SetQuantScalar or SetQuantVector gives; without one the API's quantisation mode stays NoQuant, which
// moves no int32_t L0C to half (deliberately stricter than the API, which does not check: docs/twin.md).
void CheckQuant(const CubeMatmul::State& s, const char* call)
{
    if (s.types.a != CubeType::kInt8 || s.types.c != CubeType::kFloat16) return;
    Require(s.quant != 0, call,
            "with int8_t A and B and half C, SetQuantScalar or SetQuantVector is called (after Init) before "
            "Iterate/IterateAll (the dequantisation of L0C's int32_t to half)",
            "no quantisation parameter set");
}
}  // namespace

namespace {
// NBuffer33MatmulPolicy: its scheduler walks N outer and inner and M inner only, with the core's A loaded once and
// kept in L1 (the sample's constraints: stepM, stepKa, stepKb at most 3; A's base blocks whole in L1, i.e. the
// core's M within stepM base rows and its K within stepKa base columns; a larger A would leave rows of C unwritten).
void CheckNBuffer33(const CubeMatmul::State& s, const char* call)
{
    const AscendC::tiling::TCubeTiling& t = s.t;
    Require(t.stepM <= 3 && t.stepKa <= 3 && t.stepKb <= 3, call,
            "with NBuffer33MatmulPolicy stepM, stepKa and stepKb are at most 3",
            "stepM " + Num(t.stepM) + ", stepKa " + Num(t.stepKa) + ", stepKb " + Num(t.stepKb));
    const int64_t mIter = (s.singleM + t.baseM - 1) / t.baseM, kIter = (s.singleK + t.baseK - 1) / t.baseK;
    Require(mIter <= t.stepM && kIter <= t.stepKa, call,
            "with NBuffer33MatmulPolicy the core's A is whole in L1: its base rows within stepM and its base K "
            "columns within stepKa",
            Num(mIter) + " base rows (singleM " + Num(s.singleM) + ", baseM " + Num(t.baseM) + ") for stepM " +
                Num(t.stepM) + ", " + Num(kIter) + " base K columns (singleK " + Num(s.singleK) + ", baseK " +
                Num(t.baseK) + ") for stepKa " + Num(t.stepKa));
}
}  // namespace

namespace {
// int4b_t A and B (Matmul使用说明, TYPE): the inner axis of each matrix holds an even number of elements (A not
// transposed: singleCoreK even), so that every row of A and B in GM starts on a whole byte.
void CheckInt4Shape(const CubeMatmul::State& s, const char* call)
{
    if (s.types.a != CubeType::kInt4) return;
    const int64_t aInner = s.transA ? s.orgM : s.orgKa, aSingle = s.transA ? s.singleM : s.singleK;
    const int64_t bInner = s.transB ? s.orgKb : s.orgN, bSingle = s.transB ? s.singleK : s.singleN;
    Require(aInner % 2 == 0 && aSingle % 2 == 0 && bInner % 2 == 0 && bSingle % 2 == 0, call,
            "with int4b_t A and B the inner axis of each matrix holds an even number of elements (Matmul docs: "
            "A not transposed, singleCoreK even)",
            std::string("A ") + (s.transA ? "[K, M]: M " : "[M, K]: K ") + Num(aInner) + ", this core's " +
                Num(aSingle) + "; B " + (s.transB ? "[N, K]: K " : "[K, N]: N ") + Num(bInner) + ", this core's " +
                Num(bSingle));
}
}  // namespace

namespace {
// A at TSCM: the tensor holds the single-core A (SetTensorA docs: at least singleM * singleK elements) and every
// fractal the L1 -> L0A loads read (whole 16 x C0 fractals over Ceil(M, 16) rows and Ceil(K, C0) columns, or for
// a transposed A Ceil(K, 16) rows and Ceil(M, 16) columns); the Matmul's own L1 buffers (B1 and the bias, from the
// bottom of L1 up) end below it (TSCM buffers come from the top down: TscmInitBuffer).
void CheckL1A(const CubeMatmul::State& s, const char* call)
{
    if (!s.aL1) return;
    {
        uint64_t l1Bytes = 0;
        const uint8_t* l1 = CubeL1(&l1Bytes);
        const AscendC::tiling::TCubeTiling& t = s.t;
        const uint64_t own = uint64_t(t.depthB1) * t.baseN * t.baseK * SizeOf(s.types.b) +
                             (t.isBias ? uint64_t(t.baseN) * AccSizeOf(s.types.a) : 0);
        const uint64_t at = static_cast<uint64_t>(s.a - l1);
        Require(s.a >= l1 && at < l1Bytes && own <= at, call,
                "the Matmul's L1 buffers (B1 and the bias, from the bottom of L1) and the TSCM tensor of A (from the "
                "top down) do not overlap",
                "B1 + bias take " + Num(int64_t(own)) + " bytes (depthB1 " + Num(t.depthB1) + " x " +
                    Num(t.baseN) + "x" + Num(t.baseK) + "), A's TSCM tensor starts at L1 address " +
                    Num(int64_t(at)));
    }
    const uint64_t es = SizeOf(s.types.a), c0 = 32 / es;
    const uint64_t m = static_cast<uint64_t>(s.singleM), k = static_cast<uint64_t>(s.singleK);
    Require(s.aL1Bytes >= m * k * es, call,
            "SetTensorA's TSCM tensor holds the single-core A: at least singleM * singleK elements (SetTensorA docs: "
            "the matrix is fully loaded in TSCM)",
            "the tensor has " + Num(int64_t(s.aL1Bytes)) + " bytes, singleM " + Num(int64_t(m)) + " x singleK " +
                Num(int64_t(k)) + " need " + Num(int64_t(m * k * es)));
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b * b; };
    const uint64_t nz = s.transA ? up(k, 16) * up(m, 16) * es : up(m, 16) * up(k, c0) * es;
    Require(s.aL1Bytes >= nz, call,
            "SetTensorA's TSCM tensor holds every NZ fractal the L1 -> L0A loads read (A in NZ: the single-core "
            "rows padded to 16 and columns to 32 bytes)",
            std::string("A ") + (s.transA ? "[K, M]" : "[M, K]") + " in NZ spans " + Num(int64_t(nz)) +
                " bytes, the tensor has " + Num(int64_t(s.aL1Bytes)));
}
}  // namespace

void CubeMatmul::StartIterate(const char* call)
{
    State& s = *s_;
    RequireInit(s, call);
    Require(s.a != nullptr && s.b != nullptr, call, "SetTensorA and SetTensorB come before Iterate/IterateAll",
            std::string(s.a ? "" : "A ") + (s.b ? "" : "B ") + "not set");
    CheckInt4Shape(s, call);
    CheckQuant(s, call);
    CheckL1A(s, call);
    if (s.types.ibShareNorm != 0) CheckIBShareNorm(s, call);
    s.iterated = true;
    CubeBeginIterate(s);
}

bool CubeMatmul::NextBlock() { return CubeIterateBlock(*s_); }

int64_t CubeMatmul::BlockCount() const { return CubeBlockCount(*s_); }

bool CubeMatmul::HasBlock() const { return s_->blockInL0C; }

uint64_t CubeMatmul::BaseBlockBytes() const { return uint64_t(s_->t.baseM) * s_->t.baseN * SizeOf(s_->types.c); }

void CubeMatmul::WriteBlock(const char* call, void* c, bool sequential, bool checked, uint64_t limit)
{
    State& s = *s_;
    Require(s.blockInL0C, call, "GetTensorC fetches a block an Iterate computed", "no block in L0C");
    const uint32_t es = SizeOf(s.types.c);
    Require(!(sequential && s.types.cNzChannelSplit), call,
            "the twin models C in NZ with channel split at its place in C (no enSequentialWrite)",
            "enSequentialWrite = true");
    const int64_t ld = sequential ? s.blockCols : CRowStride(s);
    const int64_t offset = sequential ? 0 : CBlockOffset(s, ld);
    if (limit > 0) {
        const uint64_t end = uint64_t(offset + (s.blockRows - 1) * ld + s.blockCols) * es;
        Require(end <= limit, call, "the block the cube writes fits the buffer it goes to",
                "the " + Num(s.blockRows) + "x" + Num(s.blockCols) + " block at base row " + Num(s.blockM) +
                    ", column " + Num(s.blockN) + " ends at byte " + Num(int64_t(end)) + " of a " +
                    Num(int64_t(limit)) + "-byte buffer" +
                    (sequential ? std::string("")
                                : " (without enSequentialWrite a block goes to its place in a C of row length " +
                                      Num(ld) + ": pass enSequentialWrite = true for a LocalTensor of one block)"));
    }
    CubeWriteBlock(s, static_cast<uint8_t*>(c) + offset * es, ld, checked);
    s.blockInL0C = false;
}

void CubeMatmul::WriteBlockNz(const char* call, float* co1, uint64_t elements, bool accumulate)
{
    State& s = *s_;
    Require(s.blockInL0C, call, "Iterate computes a block before it is written to CO1", "no block in L0C");
    Require(s.types.c == CubeType::kFloat32, call, "C at CO1 is float (GetMmDstType of A on A2)",
            std::string("C is ") + CubeTypeName(s.types.c));
    const int64_t rows = s.blockRows, cols = s.blockCols;
    const int64_t rowsPad = (rows + 15) / 16 * 16, colGroups = (cols + 15) / 16;
    const uint64_t need = uint64_t(colGroups) * rowsPad * 16;
    Require(need <= elements, call, "the CO1 tensor holds the block's NZ fractals (ceil16(rows) x ceil16(cols) floats)",
            "a " + Num(rows) + "x" + Num(cols) + " block needs " + Num(int64_t(need)) + " floats, the tensor has " +
                Num(int64_t(elements)));
    std::vector<float> block(size_t(rows * cols));
    CubeWriteBlock(s, reinterpret_cast<uint8_t*>(block.data()), cols, false);
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
            float& dst = co1[((j / 16) * rowsPad + i) * 16 + j % 16];
            dst = accumulate ? dst + block[size_t(i * cols + j)] : block[size_t(i * cols + j)];
        }
    }
    s.blockInL0C = false;
}

void CubeMatmul::EndWalk()
{
    s_->blockInL0C = false;
    s_->nextBlock = 0;
}

void CubeMatmul::SetAtomic(const char* call, uint8_t enAtomic)
{
    Require(enAtomic <= 3, call, "enAtomic is 0 (off), 1 (AtomicAdd), 2 (AtomicMax) or 3 (AtomicMin)",
            "enAtomic = " + Num(enAtomic));
    Require(enAtomic == 0 || s_->types.c != CubeType::kFloat64, call,
            "an atomic write of C takes float, half, bfloat16_t or int32_t (A2's atomic types)",
            std::string("C is ") + CubeTypeName(s_->types.c));
    s_->atomic = enAtomic;
}

void CubeMatmul::IterateAll(void* gm, uint8_t enAtomic)
{
    constexpr const char* kCall = "Matmul::IterateAll";
    State& s = *s_;
    RequireInit(s, kCall);
    Require(s.a != nullptr && s.b != nullptr, kCall, "SetTensorA and SetTensorB come before IterateAll",
            std::string(s.a ? "" : "A ") + (s.b ? "" : "B ") + "not set");
    CheckInt4Shape(s, kCall);
    CheckQuant(s, kCall);
    CheckL1A(s, kCall);
    if (s.types.nBuffer33) CheckNBuffer33(s, kCall);
    SetAtomic(kCall, enAtomic);
    s.iterated = true;
    CubeIterateAll(s, gm);
    s.atomic = 0;
}

}  // namespace ascend_twin
