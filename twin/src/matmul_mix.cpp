// The Matmul object of a MIX kernel: the AIVs' clients and their AIC's server (twin/kernel_matmul_mix.h).
//
// Modelled on A2's implementation (asc-devkit include/adv_api/matmul/matmul_client.h, impl/adv_api/detail/kfc/
// kernel_kfc.h, impl/adv_api/detail/matmul/kfc/matmul_server_impl_c220.h):
// - REGIST_MATMUL_OBJ: on the AIC, the server serves the objects until each AIV of its block has ended (a
//   client's end is its last message), then the AIC returns from the kernel; on an AIV, the client starts.
// - The client keeps what SetTensorA/SetTensorB/SetBias/SetTail set and sends it with the next Iterate /
//   IterateAll; SetTensorA or SetTensorB starts a new walk (isFirstIter), and the bias, the tail and the tensors
//   reach the server only with the first message of a walk (its SetBias: a walk without SetBias has none).
// - Iterate<true>: each call computes one base block on the AIC; GetTensorC<true> writes it and waits for it.
//   Iterate<false>: one message; the AIC computes every block into the SetWorkspace buffer (baseM * baseN
//   elements each, densely) and notifies after each of the first 13 and after the last; GetTensorC<false>
//   waits for the first 14 notifications and copies the next block.
// - IterateAll<true> waits for the whole C; IterateAll<false>(.., waitIterateAll = true) is waited for by
//   WaitIterateAll.
// - A LocalTensor output (C at VECIN/VECCALC/VECOUT) reaches UB through the system workspace: the AIC writes
//   the block there, the AIV copies the tensor's length into UB (MTE2) and synchronises MTE2 -> V. The twin keeps
//   that staging in its own memory (the system workspace's layout is the API's) and counts it as GM traffic.
// Every message and notification is a happens-before edge between the two cores (their vector clocks).
#include "twin/kernel_matmul_mix.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core_records.h"
#include "cross_core.h"
#include "twin/hazard.h"
#include "twin/kernel_sys_var.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace {
constexpr uint64_t kLibApiWorkspaceBytes = 16ull << 20;  // GetLibApiWorkSpaceSize() on A2 (RESERVED_WORKSPACE)
std::string Num(int64_t v) { return std::to_string(v); }
uint32_t ElemSize(CubeType t)
{
    switch (t) {
        case CubeType::kFloat64: return 8;
        case CubeType::kFloat32:
        case CubeType::kInt32: return 4;
        case CubeType::kInt8:
        case CubeType::kInt4: return 1;  // not a MIX object's type (refused at compile time)
        default: return 2;
    }
}
}  // namespace

struct MatmulMix::State {
    MatmulMixDesc desc;
    enum class Role : uint8_t { kNone, kClient, kServer } role = Role::kNone;
    uint32_t inst = 0;
    // The client (an AIV).
    bool initialised = false;
    AscendC::tiling::TCubeTiling tiling{};
    MatmulMsg body;               // what the next message carries
    bool firstIter = false;       // isFirstIter: SetTensorA/B since the last message
    bool messageSent = false;     // a message of the current walk went out (GetTensorC needs one)
    bool syncGetC = true;         // isSyncGetC: the last Iterate/IterateAll was synchronous
    int64_t mIter = 0, nIter = 0, kIter = 1, mnIter = 0, cntIter = 0;
    bool blockPending = false;    // Iterate<true> returned true; GetTensorC has not fetched the block
    uint8_t* cacheWorkspace = nullptr;
    uint64_t cacheBytes = 0, cOffset = 0;
    uint32_t curProcess = 0;
    int64_t asyncBlocks = 0, asyncFetched = 0;  // blocks of the last Iterate<false>, and those fetched
    uint32_t awaited = 0;         // notifications the client will wait for (IterateAll<false>, waitIterateAll)
    bool iterated = false, ended = false;
    bool orgShapeSet = false;     // SetOrgShape was called (IterateBatch takes the tiling's shapes)
    std::vector<uint8_t> staging;
    // The server (the AIC): one engine per AIV of the block.
    std::unique_ptr<CubeMatmul> engines[2];
};

MatmulMix::MatmulMix(const MatmulMixDesc& desc) : s_(std::make_unique<State>()) { s_->desc = desc; }

MatmulMix::~MatmulMix()
{
    if (s_->role == State::Role::kClient && s_->desc.types.enableEnd && s_->iterated && !s_->ended && InLaunch()) {
        Defer("Matmul::End", "Matmul::End is called once the Matmul object's work is done",
              "the kernel returned on this AIV after Iterate/IterateAll without calling End");
    }
}

namespace {

void Require(bool ok, const char* call, const char* rule, const std::string& detail)
{
    if (!ok) Fail(call, rule, detail);
}

MatmulMix::State& Client(MatmulMix::State& s, const char* call)
{
    const CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) {
        Fail(call,
             "in a MIX kernel the Matmul object is driven from the AIVs; the AIC serves it inside REGIST_MATMUL_OBJ and "
             "returns from the kernel there",
             s.role == MatmulMix::State::Role::kServer
                 ? "the AIC went on after serving (REGIST_MATMUL_OBJ returned from a function that is not the kernel's "
                   "entry?) and called the object: on the NPU its calls do nothing there"
                 : "the AIC called the object before REGIST_MATMUL_OBJ");
    }
    Require(s.role == MatmulMix::State::Role::kClient && s.initialised, call,
            "the Matmul object is initialised (REGIST_MATMUL_OBJ with a tiling, or Init) before it is used",
            s.role == MatmulMix::State::Role::kNone ? "REGIST_MATMUL_OBJ has not registered it" : "no tiling was given");
    return s;
}

// Puts a message of this AIV into its block's mailbox, with the sender and the AIV's clock (a release).
void Send(MatmulMsg&& msg)
{
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    msg.sub = c.subBlockIdx;
    msg.senderId = c.coreId;
    std::lock_guard<std::mutex> lock(sync.mutex);
    ReleaseClock(c, msg.clock);
    sync.cross->mailbox[c.block].push_back(std::move(msg));
    sync.opened.notify_all();
}

// Sends the client's message; the body's per-message flags are cleared afterwards, as the API's client does.
void Post(MatmulMix::State& s, MatmulMsgKind kind)
{
    MatmulMsg msg = s.body;
    msg.kind = kind;
    msg.inst = s.inst;
    msg.tiling = s.tiling;
    msg.firstIter = s.firstIter;
    Send(std::move(msg));
    s.body.aL1 = false;
    s.body.setTensorA = s.body.setTensorB = s.body.setBias = s.body.biasOn = s.body.setTail = false;
    s.body.cGm = nullptr;
    s.body.staging = nullptr;
    s.firstIter = false;
}

struct EventWait {
    const CrossCore* x;
    uint64_t slot;
};

bool EventReady(LaunchSync&, const void* arg)
{
    const auto* w = static_cast<const EventWait*>(arg);
    return !w->x->events[w->slot].empty();
}

// WaitEvent: the AIC's notification for this AIV and object.
void WaitEvent(const MatmulMix::State& s, const char* call)
{
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    std::unique_lock<std::mutex> lock(sync.mutex);
    const EventWait wait{&x, uint64_t(c.coreId) * kMaxMatmulObjects + s.inst};
    char what[128];
    std::snprintf(what, sizeof what, "%s, waiting for the AIC's notification (Matmul object %u)", call, s.inst);
    WaitUntil(lock, EventReady, &wait, what);
    Fifo<std::vector<uint32_t>>& q = x.events[wait.slot];
    AcquireClock(c, q.front());
    q.pop_front();
}

// The staging area -> UB (the API's CopyToUB: a DataCopy of the tensor's length in 32-byte blocks, then the
// MTE2 -> V synchronisation when waitForV). fromGm: the bytes are the launch's GM (the SetWorkspace buffer).
void CopyToUb(const char* call, const uint8_t* src, uint64_t srcBytes, void* ub, uint64_t bytes, bool fromGm,
              bool waitForV)
{
    CoreContext& c = CurrentCore();
    CheckUbAligned(call, "c", ub);
    const uint64_t n = bytes / 32 * 32;
    if (n == 0) return;
    Instr copy(call, Pipe::kMte2);
    copy.Write("c", ub, n);
    if (fromGm) {
        CheckGmRead(call, src, n);
        copy.GmRead(src, n);
    } else {
        c.counters.gmBytesRead += n;
    }
    std::memcpy(ub, src, std::min<uint64_t>(n, srcBytes));
    if (n > srcBytes) std::memset(static_cast<uint8_t*>(ub) + srcBytes, 0xFF, n - srcBytes);
    c.counters.dataCopyCalls += 1;
    c.counters.mte2Calls += 1;
    c.counters.mte2Bursts += 1;
    if (waitForV) PipeAcquire(Pipe::kV, PipeNow(Pipe::kMte2));
}

uint32_t CSize(const MatmulMix::State& s) { return ElemSize(s.desc.types.c); }

}  // namespace

// ---- the client's calls ----------------------------------------------------------------------------------

void MatmulMix::Init(const AscendC::tiling::TCubeTiling* tiling)
{
    constexpr const char* kCall = "Matmul::Init";
    State& s = *s_;
    const CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;  // the AIC initialises its engines from the clients' messages
    Require(s.role == State::Role::kClient, kCall, "a MIX kernel's Matmul object is registered by REGIST_MATMUL_OBJ",
            "Init before REGIST_MATMUL_OBJ");
    Require(tiling != nullptr, kCall, "Matmul::Init takes the TCubeTiling", "null tiling pointer");
    const AscendC::tiling::TCubeTiling& t = *tiling;
    Require(t.baseM > 0 && t.baseN > 0 && t.singleCoreM > 0 && t.singleCoreN > 0, kCall,
            "TCubeTiling sizes are positive",
            "singleCore " + Num(t.singleCoreM) + "x" + Num(t.singleCoreN) + ", base " + Num(t.baseM) + "x" +
                Num(t.baseN));
    s.tiling = t;
    s.body = MatmulMsg{};
    s.nIter = (t.singleCoreN + t.baseN - 1) / t.baseN;
    s.mIter = (t.singleCoreM + t.baseM - 1) / t.baseM;
    // isPartialOutput: one Iterate per base block and baseK slice (the API's client counts kIter in).
    s.kIter = s.desc.types.partialOutput ? (t.singleCoreK + t.baseK - 1) / t.baseK : 1;
    s.mnIter = s.nIter * s.mIter * s.kIter;
    s.cacheWorkspace = nullptr;
    s.cacheBytes = 0;
    s.initialised = true;
    s.firstIter = false;
    s.messageSent = false;
    Post(s, MatmulMsgKind::kInit);
}

void MatmulMix::SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc)
{
    State& s = Client(*s_, "Matmul::SetOrgShape");
    Require(orgM > 0 && orgN > 0 && orgKa > 0 && orgKb > 0 && orgKc >= 0, "Matmul::SetOrgShape",
            "original shapes are positive", Num(orgM) + ", " + Num(orgN) + ", " + Num(orgKa) + ", " + Num(orgKb));
    s.body.orgM = orgM;
    s.body.orgN = orgN;
    s.body.orgKa = orgKa;
    s.body.orgKb = orgKb;
    s.body.orgKc = orgKc;
    s.orgShapeSet = true;
    Post(s, MatmulMsgKind::kSetOrgShape);
}

void MatmulMix::SetTail(int tailM, int tailN, int tailK)
{
    State& s = Client(*s_, "Matmul::SetTail/SetSingleShape");
    if (tailM != -1) s.mIter = (tailM + s.tiling.baseM - 1) / s.tiling.baseM;
    if (tailN != -1) s.nIter = (tailN + s.tiling.baseN - 1) / s.tiling.baseN;
    if (tailK != -1 && s.desc.types.partialOutput) s.kIter = (tailK + s.tiling.baseK - 1) / s.tiling.baseK;
    s.mnIter = s.mIter * s.nIter * s.kIter;
    s.body.setTail = true;
    s.body.tailM = tailM;
    s.body.tailN = tailN;
    s.body.tailK = tailK;
}

void MatmulMix::SetTensorA(const void* gm, uint64_t bytes, bool isTransposeA)
{
    State& s = Client(*s_, "Matmul::SetTensorA");
    s.body.setTensorA = true;
    s.body.a = static_cast<const uint8_t*>(gm);
    s.body.aBytes = bytes;
    s.body.isTransA = isTransposeA;
    s.body.aL1 = false;
    s.firstIter = true;
}

void MatmulMix::SetTensorAL1(uint64_t l1Addr, uint64_t bytes, bool isTransposeA)
{
    State& s = Client(*s_, "Matmul::SetTensorA");
    s.body.setTensorA = true;
    s.body.a = nullptr;
    s.body.aL1 = true;
    s.body.aL1Addr = l1Addr;
    s.body.aBytes = bytes;
    s.body.isTransA = isTransposeA;
    s.firstIter = true;
}

namespace {
// An AIV's DataCopy into TSCM: its block's AIC serves it (A2: "works with Matmul API. Use REGISTER_MATMUL_OBJ to enable
// Matmul API first", ScmDataCopyND2NZMsg).
void RequireScmClient(const char* call)
{
    CoreContext& c = CurrentCore();
    Require(c.mix && c.coreType == AscendC::AIV, call,
            "DataCopy into TSCM runs on the AIC, or on an AIV of a MIX kernel as a message to its AIC",
            "this core is not an AIV of a MIX launch (a kernel whose type the twin infers from REGIST_MATMUL_OBJ "
            "runs as MIX from that call on: REGIST_MATMUL_OBJ comes before the copy)");
    LaunchSync& sync = *c.sync;
    {
        std::lock_guard<std::mutex> lock(sync.mutex);
        Require(sync.cross->clientOpen[c.coreId] != 0 && sync.cross->clientQuit[c.coreId] == 0, call,
                "an AIV's DataCopy into TSCM is a message its block's AIC serves: the Matmul client is open "
                "(REGIST_MATMUL_OBJ ran on this AIV before the copy; A2's ScmDataCopyMsg goes through the KFC client)",
                "REGIST_MATMUL_OBJ has not run on this AIV");
    }
}

}  // namespace

void PostScmCopy(const char* call, uint64_t l1Addr, uint64_t l1Room, const uint8_t* src, uint16_t blockCount,
                 uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep)
{
    RequireScmClient(call);
    if (blockCount == 0 || blockBytes == 0) return;  // a NOP, as documented
    const uint64_t end = (uint64_t(blockCount) - 1) * dstStep + blockBytes;
    Require(end <= l1Room, call, "the copy stays inside the TSCM tensor",
            "the copy reaches byte " + Num(int64_t(end)) + " of a tensor of " + Num(int64_t(l1Room)) + " bytes");
    MatmulMsg msg;
    msg.kind = MatmulMsgKind::kScmGm2L1;
    msg.gmSrc = src;
    msg.l1Addr = l1Addr;
    msg.l1Room = l1Room;
    msg.blockCount = blockCount;
    msg.blockBytes = blockBytes;
    msg.srcStep = srcStep;
    msg.dstStep = dstStep;
    Send(std::move(msg));
}

void PostScmNd2Nz(const char* call, uint64_t l1Addr, uint64_t l1Room, uint32_t elemSize, const uint8_t* src,
                  const uint16_t nd2nz[8])
{
    RequireScmClient(call);
    MatmulMsg msg;
    msg.kind = MatmulMsgKind::kScmGm2L1Nd2Nz;
    msg.gmSrc = src;
    msg.l1Addr = l1Addr;
    msg.l1Room = l1Room;
    msg.elemSize = elemSize;
    std::copy(nd2nz, nd2nz + 8, msg.nd2nz);
    Send(std::move(msg));
}

void MatmulMix::SetTensorB(const void* gm, uint64_t bytes, bool isTransposeB)
{
    State& s = Client(*s_, "Matmul::SetTensorB");
    s.body.setTensorB = true;
    s.body.b = static_cast<const uint8_t*>(gm);
    s.body.bBytes = bytes;
    s.body.isTransB = isTransposeB;
    s.firstIter = true;
}

void MatmulMix::SetBias(const void* gm)
{
    State& s = Client(*s_, "Matmul::SetBias");
    s.body.setBias = true;
    s.body.biasOn = true;
    s.body.bias = static_cast<const uint8_t*>(gm);
}

void MatmulMix::DisableBias()
{
    State& s = Client(*s_, "Matmul::DisableBias");
    s.body.setBias = false;
    s.body.biasOn = false;
}

void MatmulMix::SetWorkspace(void* gm, uint64_t bytes)
{
    constexpr const char* kCall = "Matmul::SetWorkspace";
    State& s = Client(*s_, kCall);
    Require(gm != nullptr && bytes > 0, kCall,
            "SetWorkspace takes a GM buffer with a size (a GlobalTensor set with SetGlobalBuffer(addr, size))",
            gm == nullptr ? "null address" : "the GlobalTensor has no size");
    CheckGmInBounds(kCall, "SetWorkspace's buffer lies in the launch's GM", "workspace", gm, 1);
    s.cacheWorkspace = static_cast<uint8_t*>(gm);
    s.cacheBytes = bytes;
    s.cOffset = 0;
}

bool MatmulMix::Iterate(bool sync, bool enPartialSum)
{
    constexpr const char* kCall = "Matmul::Iterate";
    State& s = Client(*s_, kCall);
    Require(!enPartialSum, kCall, "the twin does not model enPartialSum (accumulating into L0C across Iterate calls)",
            "enPartialSum = true");
    if (s.firstIter) {
        s.cntIter = 0;
        s.cOffset = 0;
        s.curProcess = 0;
    } else {
        Require(s.messageSent, kCall, "SetTensorA and SetTensorB come before Iterate",
                "no walk started: call SetTensorA/SetTensorB first");
        Require(!s.blockPending, kCall,
                "GetTensorC fetches the block of each Iterate<true> before the next Iterate (the AIC computes the next "
                "block into the same L0C)",
                "Iterate called again while the block of the last one was not fetched");
        if (++s.cntIter >= s.mnIter) {
            s.blockPending = false;
            return false;
        }
        if (!sync) return true;
    }
    if (!sync) {
        Require(s.cacheWorkspace != nullptr, kCall,
                "Iterate<false> caches the blocks in a GM workspace set with SetWorkspace before it (GetTensorC docs)",
                "no SetWorkspace before the asynchronous Iterate");
        Require(s.desc.cInUb, kCall, "Iterate<false> is for C in UB (VECIN/VECCALC/VECOUT)",
                "C is at GM: use IterateAll, or Iterate<true> with GetTensorC");
    }
    s.syncGetC = sync;
    s.iterated = true;
    s.body.sync = sync;
    s.body.cGm = sync ? nullptr : s.cacheWorkspace;
    s.body.cBytes = sync ? 0 : s.cacheBytes;
    s.body.enSequentialWrite = !sync;
    if (!sync) {
        s.asyncBlocks = s.mnIter;
        s.asyncFetched = 0;
    }
    Post(s, MatmulMsgKind::kIterate);
    s.messageSent = true;
    s.blockPending = sync;
    return true;
}

void MatmulMix::IterateAll(bool sync, void* gm, uint8_t enAtomic, bool enSequentialWrite, bool waitIterateAll,
                           bool fakeMsg)
{
    constexpr const char* kCall = "Matmul::IterateAll";
    State& s = Client(*s_, kCall);
    Require(s.firstIter, kCall, "IterateAll starts a walk: SetTensorA/SetTensorB come before each one",
            "no SetTensorA/SetTensorB since the last Iterate/IterateAll");
    Require(!fakeMsg, kCall, "fakeMsg is for the IBShare and IntraBlockPartSum configurations (not modelled)",
            "fakeMsg = true");
    s.body.enAtomic = enAtomic;  // checked by the server's CubeMatmul::SetAtomic
    s.body.sync = sync;
    s.body.waitIterateAll = waitIterateAll;
    s.body.enSequentialWrite = enSequentialWrite;
    s.body.cGm = static_cast<uint8_t*>(gm);
    s.iterated = true;
    s.syncGetC = sync;
    Post(s, MatmulMsgKind::kIterateAll);
    s.messageSent = true;
    if (sync) {
        WaitEvent(s, kCall);
    } else if (waitIterateAll) {
        ++s.awaited;
    }
}

void MatmulMix::IterateAllLocal(bool sync, void* ub, uint64_t bytes, uint8_t enAtomic)
{
    constexpr const char* kCall = "Matmul::IterateAll(LocalTensor)";
    State& s = Client(*s_, kCall);
    Require(sync, kCall, "IterateAll into a LocalTensor is synchronous (IterateAll<true>)", "IterateAll<false>");
    Require(enAtomic == 0, kCall, "IterateAll into a LocalTensor does not accumulate (enAtomic = 0)",
            "enAtomic = " + Num(enAtomic));
    Require(s.firstIter, kCall, "IterateAll starts a walk: SetTensorA/SetTensorB come before each one",
            "no SetTensorA/SetTensorB since the last Iterate/IterateAll");
    s.staging.assign(bytes, 0xFF);
    s.body.sync = true;
    s.body.staging = s.staging.data();
    s.body.stagingBytes = bytes;
    s.body.enSequentialWrite = false;
    s.iterated = true;
    s.syncGetC = true;
    Post(s, MatmulMsgKind::kIterateAll);
    s.messageSent = true;
    WaitEvent(s, kCall);
    CopyToUb(kCall, s.staging.data(), s.staging.size(), ub, bytes, false, true);
}

void MatmulMix::WaitIterateAll()
{
    constexpr const char* kCall = "Matmul::WaitIterateAll";
    State& s = Client(*s_, kCall);
    Require(!s.syncGetC, kCall, "WaitIterateAll follows an asynchronous IterateAll<false> (WaitIterateAll docs)",
            "the last IterateAll/Iterate was synchronous");
    Require(s.awaited > 0, kCall,
            "WaitIterateAll waits for an IterateAll<false>(..., waitIterateAll = true): without that flag the AIC does "
            "not notify, and the wait never ends",
            "no IterateAll<false> with waitIterateAll = true is outstanding");
    --s.awaited;
    WaitEvent(s, kCall);
}

namespace {
int64_t AlignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }
// The bytes one operand's matrix takes in L1 as NZ fractals: rows to 16, the inner axis to 32 bytes.
int64_t NzBytes(int64_t rows, int64_t cols, uint32_t es) { return AlignUp(rows, 16) * AlignUp(cols, 32 / es) * es; }
constexpr int64_t kL1Bytes = 512 * 1024;  // TOTAL_L1_SIZE on A2
}  // namespace

// IterateBatch (mix form, C in GM), as A2's client and server do it (matmul_client.h IterateBatch, the server's
// IterateBatch and the batch scheduler): one message; the AIC computes the batchA x batchB batch (the larger count
// of matrices, the other operand broadcast) and writes each C matrix where the layout puts it. Modelled: the
// NORMAL layout (BMNK: matrices one after another; C likewise, singleCoreM x singleCoreN apart) and BSNGD (the
// matrices SD blocks of a [B, S, N, G, D] tensor: rows N*G*D apart, matrix i at ((i / NG) * S * NG + i % NG) * D;
// C's rows CLayoutInfoN*G*S2 apart, matrix i at i * singleCoreN), synchronous.
void MatmulMix::IterateBatch(bool sync, void* gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                             uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC, bool enPartialSum,
                             uint8_t enAtomic)
{
    BatchCall("Matmul::IterateBatch", sync, gm, 0, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
              matrixStrideC, enPartialSum, enAtomic);
}

// IterateNBatch (mix form): batchLoop IterateBatch calls in one message, C into the SetWorkspace buffer (each call's
// batch after the previous one's: the server's CalcNBatchoffset), the A, B and bias offsets advancing by a batch.
void MatmulMix::IterateNBatch(bool sync, uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                              uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC,
                              bool enPartialSum, uint8_t enAtomic)
{
    constexpr const char* kCall = "Matmul::IterateNBatch";
    State& s = Client(*s_, kCall);
    Require(s.cacheWorkspace != nullptr, kCall,
            "IterateNBatch writes C into the SetWorkspace buffer: SetWorkspace comes first (the API asserts it)",
            "no SetWorkspace on this object");
    Require(batchLoop > 0, kCall, "batchLoop is positive", "batchLoop = 0");
    BatchCall(kCall, sync, s.cacheWorkspace, batchLoop, batchA, batchB, enSequentialWrite, matrixStrideA,
              matrixStrideB, matrixStrideC, enPartialSum, enAtomic);
}

void* MatmulMix::GetBatchTensorC(uint32_t batchA, uint32_t batchB, uint64_t* elements)
{
    constexpr const char* kCall = "Matmul::GetBatchTensorC";
    State& s = Client(*s_, kCall);
    (void)batchA, (void)batchB, (void)elements;
    Fail(kCall, "GetBatchTensorC follows an IterateNBatch<false> (the API asserts the walk is asynchronous); the twin "
                "models the synchronous IterateNBatch only",
         s.syncGetC ? "the last IterateNBatch/IterateBatch was synchronous" : "an asynchronous walk");
    return nullptr;
}

void MatmulMix::BatchCall(const char* kCall, bool sync, void* gm, uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                          bool enSequentialWrite, uint32_t matrixStrideA, uint32_t matrixStrideB,
                          uint32_t matrixStrideC, bool enPartialSum, uint8_t enAtomic)
{
    State& s = Client(*s_, kCall);
    const AscendC::tiling::TCubeTiling& t = s.tiling;
    const MatmulBatchDesc& d = s.desc.batch;
    Require(s.firstIter, kCall, "IterateBatch starts a walk: SetTensorA/SetTensorB come before each one",
            "no SetTensorA/SetTensorB since the last Iterate/IterateAll/IterateBatch");
    Require(sync, kCall, "the twin models the synchronous form (IterateBatch<false>/IterateNBatch<false> are not "
            "modelled)", "sync = false");
    Require(!enPartialSum, kCall, "the twin does not model enPartialSum", "enPartialSum = true");
    Require(enAtomic == 0, kCall, "the twin does not model IterateBatch with atomic accumulation",
            "enAtomic = " + Num(enAtomic));
    Require(matrixStrideC == 0, kCall, "matrixStrideC is reserved: keep the default 0 (IterateBatch docs)",
            "matrixStrideC = " + Num(matrixStrideC));
    Require(!s.orgShapeSet, kCall,
            "the twin's IterateBatch takes the tiling's shapes (a SetOrgShape before it is not modelled)",
            "SetOrgShape was called on this object");
    Require(batchA > 0 && batchB > 0, kCall, "batchA and batchB are positive",
            "batchA " + Num(batchA) + ", batchB " + Num(batchB));
    const uint32_t hi = std::max(batchA, batchB), lo = std::min(batchA, batchB);
    const int64_t m = t.singleCoreM, n = t.singleCoreN, k = t.singleCoreK;
    if (d.ab == MatmulBatchLayout::kNormal) {
        Require(hi % lo == 0, kCall, "with the NORMAL layout batchA and batchB are multiples of each other (IterateBatch docs)",
                "batchA " + Num(batchA) + ", batchB " + Num(batchB));
    } else {
        Require(t.ALayoutInfoB > 0 && t.ALayoutInfoS > 0 && t.ALayoutInfoN > 0 && t.ALayoutInfoG > 0 &&
                    t.ALayoutInfoD > 0 && t.BLayoutInfoB > 0 && t.BLayoutInfoS > 0 && t.BLayoutInfoN > 0 &&
                    t.BLayoutInfoG > 0 && t.BLayoutInfoD > 0 && t.CLayoutInfoB > 0 && t.CLayoutInfoS1 > 0 &&
                    t.CLayoutInfoN > 0 && t.CLayoutInfoG > 0 && t.CLayoutInfoS2 > 0,
                kCall, "with the BSNGD layout the host tiling sets the layouts (SetALayout, SetBLayout, SetCLayout)",
                "a layout field of the tiling is not positive");
        Require(!enSequentialWrite, kCall, "with the BSNGD layout C is not written sequentially (IterateBatch docs)",
                "enSequentialWrite = true");
        const int64_t ngA = int64_t(t.ALayoutInfoN) * t.ALayoutInfoG, ngB = int64_t(t.BLayoutInfoN) * t.BLayoutInfoG;
        Require(ngA % batchA == 0 && ngB % batchB == 0, kCall,
                "with the BSNGD layout one call covers part of one SD row: (ALayoutInfoN * ALayoutInfoG) / batchA and "
                "(BLayoutInfoN * BLayoutInfoG) / batchB are whole numbers (IterateBatch docs)",
                "A's N*G " + Num(ngA) + " with batchA " + Num(batchA) + ", B's N*G " + Num(ngB) + " with batchB " +
                    Num(batchB));
        Require(int64_t(t.ALayoutInfoG) * batchB == int64_t(t.BLayoutInfoG) * batchA, kCall,
                "with the BSNGD layout ALayoutInfoG / batchA = BLayoutInfoG / batchB (IterateBatch docs)",
                "ALayoutInfoG " + Num(t.ALayoutInfoG) + ", batchA " + Num(batchA) + ", BLayoutInfoG " +
                    Num(t.BLayoutInfoG) + ", batchB " + Num(batchB));
        Require(batchA == batchB, kCall,
                "the twin models BSNGD batches of equal batchA and batchB (the G-axis broadcast is not modelled)",
                "batchA " + Num(batchA) + ", batchB " + Num(batchB));
    }
    // The API loads the whole batch of A and B into L1 at once (BSNGD always; NORMAL under BATCH_LESS_THAN_L1).
    if (d.ab != MatmulBatchLayout::kNormal || d.lessThanL1) {
        const uint32_t ea = ElemSize(s.desc.types.a), eb = ElemSize(s.desc.types.b);
        const int64_t bytes = batchA * (s.body.isTransA ? NzBytes(k, m, ea) : NzBytes(m, k, ea)) +
                              batchB * (s.body.isTransB ? NzBytes(n, k, eb) : NzBytes(k, n, eb));
        Require(bytes <= kL1Bytes, kCall,
                "the batch's A and B matrices, aligned to fractals, fit in L1 together (IterateBatch docs; "
                "BatchMode::BATCH_LESS_THAN_L1)",
                Num(batchA) + " A and " + Num(batchB) + " B matrices of " + Num(m) + "x" + Num(k) + " and " + Num(k) +
                    "x" + Num(n) + " take " + Num(bytes) + " bytes, L1 has " + Num(kL1Bytes));
    }
    s.body.sync = true;
    s.body.cGm = static_cast<uint8_t*>(gm);
    s.body.batchA = batchA;
    s.body.batchB = batchB;
    s.body.batchLoop = batchLoop;
    s.body.cBytes = batchLoop > 0 ? s.cacheBytes : 0;
    s.body.matrixStrideA = matrixStrideA;
    s.body.matrixStrideB = matrixStrideB;
    s.body.layoutAB = static_cast<uint8_t>(d.ab);
    s.body.layoutC = static_cast<uint8_t>(d.c);
    s.body.biasBatch = d.biasBatch;
    s.body.esA = static_cast<uint8_t>(ElemSize(s.desc.types.a));
    s.body.esB = static_cast<uint8_t>(ElemSize(s.desc.types.b));
    s.body.esC = static_cast<uint8_t>(ElemSize(s.desc.types.c));
    s.body.esBias = static_cast<uint8_t>(ElemSize(s.desc.types.bias));
    // Not `iterated`: the server ends the object after each IterateBatch (its mul.End()), no End is owed.
    s.syncGetC = true;
    Post(s, MatmulMsgKind::kIterateBatch);
    s.messageSent = true;
    WaitEvent(s, kCall);
}

void MatmulMix::GetTensorC(bool sync, void* gm, uint8_t enAtomic, bool enSequentialWrite)
{
    constexpr const char* kCall = "Matmul::GetTensorC";
    State& s = Client(*s_, kCall);
    Require(s.messageSent && !s.firstIter, kCall, "GetTensorC comes after Iterate", "no Iterate since SetTensorA/B");
    // A2's client asserts the walk is synchronous; GetTensorC<false> posts the block's write and does not wait for it.
    Require(s.syncGetC, kCall,
            "GetTensorC into GM follows an Iterate<true> (A2's client; after Iterate<false> the blocks are in the "
            "SetWorkspace buffer: GetTensorC into a LocalTensor, or GetTensorC<false>())",
            "the walk was started by Iterate<false>");
    Require(s.blockPending, kCall, "each GetTensorC fetches the block of an Iterate that returned true",
            "no block is pending: Iterate returned false, or GetTensorC already fetched this block");
    s.body.enAtomic = enAtomic;  // checked by the server's CubeMatmul::SetAtomic
    s.body.sync = sync;
    s.body.enSequentialWrite = enSequentialWrite;
    s.body.cGm = static_cast<uint8_t*>(gm);
    Post(s, MatmulMsgKind::kGetTensorC);
    s.blockPending = false;
    if (sync) WaitEvent(s, kCall);
}

void MatmulMix::GetTensorCLocal(bool sync, void* ub, uint64_t bytes, uint8_t enAtomic, bool enSequentialWrite,
                                bool waitForV, const char* call)
{
    State& s = Client(*s_, call);
    Require(s.desc.cInUb, call, "GetTensorC into a LocalTensor is for C at VECIN/VECCALC/VECOUT",
            "the MatmulType of C is at GM");
    Require(s.messageSent && !s.firstIter, call, "GetTensorC comes after Iterate", "no Iterate since SetTensorA/B");
    Require(enAtomic == 0, call, "GetTensorC into a LocalTensor does not accumulate (enAtomic = 0)",
            "enAtomic = " + Num(enAtomic));
    const uint64_t block = uint64_t(s.tiling.baseM) * s.tiling.baseN * CSize(s);
    Require(bytes >= block, call, "GetTensorC's C holds at least baseM * baseN elements (GetTensorC docs)",
            Num(int64_t(bytes)) + " bytes, " + Num(int64_t(block)) + " needed for a " + Num(s.tiling.baseM) + "x" +
                Num(s.tiling.baseN) + " block");
    if (!s.syncGetC) {  // after Iterate<false>: the next block from the SetWorkspace buffer
        Require(s.asyncFetched < s.asyncBlocks, call,
                "GetTensorC after Iterate<false> fetches each of the walk's blocks once",
                "the walk has " + Num(s.asyncBlocks) + " block(s), all fetched: this GetTensorC would read past them");
        if (s.curProcess < kIncProcessCheck) {
            ++s.curProcess;
            WaitEvent(s, call);
        }
        Require(s.cOffset + bytes <= s.cacheBytes, call, "the SetWorkspace buffer holds the blocks GetTensorC reads",
                "block " + Num(s.asyncFetched) + " would read bytes [" + Num(int64_t(s.cOffset)) + ", " +
                    Num(int64_t(s.cOffset + bytes)) + ") of a workspace of " + Num(int64_t(s.cacheBytes)) + " bytes");
        CopyToUb(call, s.cacheWorkspace + s.cOffset, bytes, ub, bytes, true, waitForV);
        s.cOffset += block;
        ++s.asyncFetched;
        return;
    }
    Require(sync, call, "GetTensorC is synchronous like the Iterate before it", "GetTensorC<false> after Iterate<true>");
    Require(s.blockPending, call, "each GetTensorC fetches the block of an Iterate that returned true",
            "no block is pending: Iterate returned false, or GetTensorC already fetched this block");
    s.staging.assign(bytes, 0xFF);
    s.body.sync = true;
    s.body.enSequentialWrite = enSequentialWrite;
    s.body.staging = s.staging.data();
    s.body.stagingBytes = bytes;
    Post(s, MatmulMsgKind::kGetTensorC);
    s.blockPending = false;
    WaitEvent(s, call);
    CopyToUb(call, s.staging.data(), s.staging.size(), ub, bytes, false, waitForV);
}

void* MatmulMix::GetTensorCWorkspace(uint64_t* elements)
{
    constexpr const char* kCall = "Matmul::GetTensorC<false>()";
    State& s = Client(*s_, kCall);
    Require(s.messageSent && !s.firstIter && !s.syncGetC, kCall,
            "GetTensorC<false>() returns the next block of an Iterate<false> walk", "no asynchronous walk");
    Require(s.asyncFetched < s.asyncBlocks, kCall, "GetTensorC after Iterate<false> fetches each block once",
            "the walk has " + Num(s.asyncBlocks) + " block(s), all fetched");
    if (s.curProcess < kIncProcessCheck) {
        ++s.curProcess;
        WaitEvent(s, kCall);
    }
    const uint64_t block = uint64_t(s.tiling.baseM) * s.tiling.baseN;
    void* p = s.cacheWorkspace + s.cOffset;
    s.cOffset += block * CSize(s);
    ++s.asyncFetched;
    *elements = block;
    return p;
}

void MatmulMix::WaitGetTensorC()
{
    Client(*s_, "Matmul::WaitGetTensorC");
    PipeAcquire(Pipe::kV, PipeNow(Pipe::kMte2));
}

void MatmulMix::End()
{
    State& s = Client(*s_, "Matmul::End");
    s.ended = true;
    if (s.syncGetC) Post(s, MatmulMsgKind::kEnd);
}

// ---- registration and the server ---------------------------------------------------------------------------

CubeMatmul& MatmulMix::ServerEngine(int32_t sub) { return *s_->engines[sub]; }

void MatmulMix::Register(uint32_t inst, const AscendC::tiling::TCubeTiling* tiling)
{
    State& s = *s_;
    const CoreContext& c = CurrentCore();
    s.inst = inst;
    if (c.coreType == AscendC::AIC) {
        s.role = State::Role::kServer;
        CubeMatmulTypes types = s.desc.types;
        types.cubeOnly = false;
        for (int32_t sub = 0; sub < c.sync->cross->ratio; ++sub) s.engines[sub] = std::make_unique<CubeMatmul>(types);
        return;
    }
    s.role = State::Role::kClient;
    if (tiling != nullptr) Init(tiling);
}

KfcClientScope::~KfcClientScope()
{
    if (!open || !InLaunch()) return;
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    MatmulMsg msg;
    msg.kind = MatmulMsgKind::kQuit;
    msg.sub = c.subBlockIdx;
    msg.senderId = c.coreId;
    std::lock_guard<std::mutex> lock(sync.mutex);
    ReleaseClock(c, msg.clock);
    sync.cross->mailbox[c.block].push_back(std::move(msg));
    sync.cross->clientQuit[c.coreId] = 1;
    sync.opened.notify_all();
}

namespace {

struct MailboxWait {
    const CrossCore* x;
    int64_t block;
};

bool MailReady(LaunchSync&, const void* arg)
{
    const auto* w = static_cast<const MailboxWait*>(arg);
    return !w->x->mailbox[w->block].empty();
}

void Notify(LaunchSync& sync, CoreContext& aic, const MatmulMsg& msg)
{
    std::lock_guard<std::mutex> lock(sync.mutex);
    std::vector<uint32_t> clock;
    ReleaseClock(aic, clock);
    sync.cross->events[uint64_t(msg.senderId) * kMaxMatmulObjects + msg.inst].push_back(std::move(clock));
    sync.opened.notify_all();
}

// The first message of a walk brings the tensors, the bias (a walk without SetBias has none) and the tail.
void StartWalk(CubeMatmul& e, const MatmulMsg& m, const char* call)
{
    if (m.setTensorA && m.aL1) {
        uint64_t l1Bytes = 0;
        uint8_t* l1 = CubeL1(&l1Bytes);
        Require(m.aL1Addr + m.aBytes <= l1Bytes, call, "SetTensorA's TSCM tensor lies in the AIC's L1",
                "L1 address " + Num(int64_t(m.aL1Addr)) + " + " + Num(int64_t(m.aBytes)) + " bytes; L1 has " +
                    Num(int64_t(l1Bytes)));
        e.SetTensorAL1(l1 + m.aL1Addr, m.aBytes, m.isTransA);
    } else if (m.setTensorA) {
        e.SetTensorA(m.a, m.isTransA);
    }
    if (m.setTensorB) e.SetTensorB(m.b, m.isTransB);
    if (m.setBias) {
        e.SetBias(m.bias);
    } else {
        e.DisableBias();
    }
    if (m.setTail) e.SetTail(static_cast<int>(m.tailM), static_cast<int>(m.tailN), static_cast<int>(m.tailK));
    e.StartIterate(call);
}

// IterateBatch on the AIC: each matrix of the batch a walk of its own over the tiling's single-core shape, with the
// operands' row strides and offsets the layout gives (MatmulMix::IterateBatch); the bias is one N vector per matrix
// (isBiasBatch) or the same for all. The engine's shapes are the tiling's again afterwards.
void ServeBatch(CubeMatmul& e, const MatmulMsg& m, int64_t baseA, int64_t baseB, int64_t baseBias, uint8_t* cGm)
{
    constexpr const char* kCall = "Matmul::IterateBatch (AIC)";
    const AscendC::tiling::TCubeTiling& t = m.tiling;
    const bool bsngd = m.layoutAB == static_cast<uint8_t>(MatmulBatchLayout::kBsngd);
    const uint32_t batchC = std::max(m.batchA, m.batchB);
    const int64_t sm = t.singleCoreM, sn = t.singleCoreN;
    // Row strides of the stored matrices (elements): A [M, K] (or [K, M] transposed), B [K, N] (or [N, K]), C [M, N].
    int64_t ldA = m.isTransA ? t.M : t.Ka, ldB = m.isTransB ? t.Kb : t.N, ldC = sn;
    int64_t ngA = 1, ngB = 1, sizeA = int64_t(t.M) * t.Ka, sizeB = int64_t(t.Kb) * t.N;
    if (bsngd) {
        ngA = int64_t(t.ALayoutInfoN) * t.ALayoutInfoG;
        ngB = int64_t(t.BLayoutInfoN) * t.BLayoutInfoG;
        ldA = ngA * t.ALayoutInfoD;
        ldB = ngB * t.BLayoutInfoD;
        sizeA = int64_t(t.ALayoutInfoS) * ldA;  // one B index of the layout
        sizeB = int64_t(t.BLayoutInfoS) * ldB;
    }
    if (m.layoutC == static_cast<uint8_t>(MatmulBatchLayout::kBsngd)) {
        ldC = int64_t(t.CLayoutInfoN) * t.CLayoutInfoG * t.CLayoutInfoS2;
    }
    const uint32_t ea = m.esA, eb = m.esB, ec = m.esC, ebias = m.esBias;
    e.SetOrgShape(static_cast<int>(m.isTransA ? ldA : t.M), static_cast<int>(m.isTransB ? t.N : ldB),
                  static_cast<int>(m.isTransA ? t.Ka : ldA), static_cast<int>(m.isTransB ? ldB : t.Kb),
                  static_cast<int>(ldC));
    for (uint32_t i = 0; i < batchC; ++i) {
        const int64_t ia = i / (batchC / m.batchA), ib = i / (batchC / m.batchB);
        int64_t offA, offB, offC;
        if (bsngd) {
            offA = (ia / ngA) * sizeA + (ia % ngA) * (m.matrixStrideA ? m.matrixStrideA : t.ALayoutInfoD);
            offB = (ib / ngB) * sizeB + (ib % ngB) * (m.matrixStrideB ? m.matrixStrideB : t.BLayoutInfoD);
        } else {
            offA = ia * (m.matrixStrideA ? m.matrixStrideA : sizeA);
            offB = ib * (m.matrixStrideB ? m.matrixStrideB : sizeB);
        }
        offC = m.layoutC == static_cast<uint8_t>(MatmulBatchLayout::kBsngd) ? i * sn : i * sm * sn;
        e.SetTensorA(m.a + (baseA + offA) * ea, m.isTransA);
        e.SetTensorB(m.b + (baseB + offB) * eb, m.isTransB);
        if (m.setBias) {
            e.SetBias(m.bias + (baseBias + (m.biasBatch ? i * sn : 0)) * ebias);
        } else {
            e.DisableBias();
        }
        e.StartIterate(kCall);
        uint8_t* const dst = cGm + offC * ec;
        uint64_t limit = 0;  // IterateNBatch: C stays in the SetWorkspace buffer
        if (m.cBytes > 0) {
            const int64_t at = dst - m.cGm;
            Require(at >= 0 && uint64_t(at) < m.cBytes, kCall,
                    "IterateNBatch's C fits the SetWorkspace buffer",
                    "matrix " + Num(i) + " of the batch starts at byte " + Num(at) + " of a workspace of " +
                        Num(int64_t(m.cBytes)) + " bytes");
            limit = m.cBytes - uint64_t(at);
        }
        while (e.NextBlock()) e.WriteBlock(kCall, dst, false, true, limit);
        e.EndWalk();
    }
    e.SetOrgShape(t.M, t.N, t.Ka, t.Kb, 0);
}

// The offset (elements) of IterateNBatch's loop `loop` in one operand (the API's CalcNBatchoffset): NORMAL, a whole
// batch of S x D matrices; BSNGD, `batch` SD blocks on along the N*G axis, into the next B index past its end.
int64_t NBatchOffset(bool bsngd, int64_t batch, int64_t loop, int64_t n, int64_t g, int64_t d, int64_t s)
{
    if (!bsngd) return d * s * batch * loop;
    const int64_t ng = n * g;
    return (loop * batch / ng) * d * s * ng + (loop * batch % ng) * d;
}

void ServeNBatch(CubeMatmul& e, const MatmulMsg& m)
{
    const AscendC::tiling::TCubeTiling& t = m.tiling;
    const bool ab = m.layoutAB == static_cast<uint8_t>(MatmulBatchLayout::kBsngd);
    const bool c = m.layoutC == static_cast<uint8_t>(MatmulBatchLayout::kBsngd);
    int64_t batchC = std::max(m.batchA, m.batchB);
    if (t.CLayoutInfoG == 1 && (t.ALayoutInfoG != 1 || t.BLayoutInfoG != 1)) {
        batchC /= std::max(t.ALayoutInfoG, t.BLayoutInfoG);
    }
    for (int64_t loop = 0; loop < m.batchLoop; ++loop) {
        const int64_t offA = NBatchOffset(ab, m.batchA, loop, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD,
                                          t.ALayoutInfoS);
        const int64_t offB = NBatchOffset(ab, m.batchB, loop, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD,
                                          t.BLayoutInfoS);
        const int64_t offC = NBatchOffset(c, batchC, loop, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2,
                                          t.CLayoutInfoS1);
        ServeBatch(e, m, offA, offB, loop * batchC * t.CLayoutInfoS2, m.cGm + offC * m.esC);
    }
}

void Serve(CoreContext& aic, LaunchSync& sync, MatmulMix* const* objs, uint32_t n, const MatmulMsg& m)
{
    Require(m.inst < n, "REGIST_MATMUL_OBJ (AIC server)", "the AIVs and the AIC register the same Matmul objects",
            "a message for object " + Num(m.inst) + ", the AIC registered " + Num(n));
    CubeMatmul& e = objs[m.inst]->ServerEngine(m.sub);
    switch (m.kind) {
        case MatmulMsgKind::kInit: e.Init(&m.tiling); break;
        case MatmulMsgKind::kSetOrgShape:
            e.SetOrgShape(static_cast<int>(m.orgM), static_cast<int>(m.orgN), static_cast<int>(m.orgKa),
                          static_cast<int>(m.orgKb), static_cast<int>(m.orgKc));
            break;
        case MatmulMsgKind::kIterate: {
            constexpr const char* kCall = "Matmul::Iterate (AIC)";
            if (m.sync) {  // one block into L0C; GetTensorC writes it
                if (m.firstIter) StartWalk(e, m, kCall);
                e.NextBlock();
                break;
            }
            StartWalk(e, m, kCall);
            int64_t count = 0;
            uint64_t offset = 0;
            const uint64_t slot = e.BaseBlockBytes();
            while (e.NextBlock()) {
                Require(offset < m.cBytes, kCall,
                        "the SetWorkspace buffer holds every block of an Iterate<false> (baseM * baseN elements each)",
                        "block " + Num(count) + " goes to bytes [" + Num(int64_t(offset)) + ", " +
                            Num(int64_t(offset + slot)) + ") of a workspace of " + Num(int64_t(m.cBytes)) + " bytes");
                e.WriteBlock(kCall, m.cGm + offset, true, true, m.cBytes - offset);
                offset += slot;
                if (++count < static_cast<int64_t>(kIncProcessCheck)) Notify(sync, aic, m);
            }
            if (count >= static_cast<int64_t>(kIncProcessCheck)) Notify(sync, aic, m);
            e.EndWalk();
            break;
        }
        case MatmulMsgKind::kIterateAll: {
            constexpr const char* kCall = "Matmul::IterateAll (AIC)";
            StartWalk(e, m, kCall);
            uint64_t offset = 0;
            if (m.staging == nullptr) e.SetAtomic(kCall, m.enAtomic);
            while (e.NextBlock()) {
                if (m.staging != nullptr) {
                    e.WriteBlock("Matmul::IterateAll(LocalTensor)", m.staging, false, false, m.stagingBytes);
                } else if (m.enSequentialWrite) {
                    e.WriteBlock(kCall, m.cGm + offset, true, true, 0);
                    offset += e.BaseBlockBytes();
                } else {
                    e.WriteBlock(kCall, m.cGm, false, true, 0);
                }
            }
            e.SetAtomic(kCall, 0);
            e.EndWalk();
            if (m.sync || m.waitIterateAll) Notify(sync, aic, m);
            break;
        }
        case MatmulMsgKind::kIterateBatch:
            if (m.batchLoop > 0) {
                ServeNBatch(e, m);
            } else {
                ServeBatch(e, m, 0, 0, 0, m.cGm);
            }
            Notify(sync, aic, m);
            break;
        case MatmulMsgKind::kGetTensorC: {
            constexpr const char* kCall = "Matmul::GetTensorC (AIC)";
            Require(e.HasBlock(), kCall, "GetTensorC fetches a block an Iterate computed", "no block in L0C");
            if (m.staging != nullptr) {
                e.WriteBlock("Matmul::GetTensorC", m.staging, m.enSequentialWrite, false, m.stagingBytes);
            } else {
                e.SetAtomic(kCall, m.enAtomic);
                e.WriteBlock(kCall, m.cGm, m.enSequentialWrite, true, 0);
                e.SetAtomic(kCall, 0);
            }
            if (m.sync) Notify(sync, aic, m);
            break;
        }
        case MatmulMsgKind::kEnd: e.EndWalk(); break;
        case MatmulMsgKind::kQuit:
        case MatmulMsgKind::kScmGm2L1:
        case MatmulMsgKind::kScmGm2L1Nd2Nz: break;  // served by the loop
    }
}

}  // namespace

bool RegisterMatmulMix(KfcClientScope& scope, const void* workspace, MatmulMix* const* objs,
                       const AscendC::tiling::TCubeTiling* const* tilings, uint32_t n)
{
    constexpr const char* kCall = "REGIST_MATMUL_OBJ";
    RequireMixLaunch(kCall);
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    Require(n >= 1 && n <= kMaxMatmulObjects, kCall, "a kernel registers 1 to 4 Matmul objects (REGIST_MATMUL_OBJ docs)",
            Num(n) + " objects");
    // The system workspace: the API keeps its message queues and the UB outputs' staging there.
    Require(workspace != nullptr, kCall,
            "REGIST_MATMUL_OBJ takes the system workspace (GetSysWorkSpacePtr(): GetLibApiWorkSpaceSize() bytes)",
            "the workspace is a null GM address (the launch has no 'workspace' buffer?)");
    CheckGmInBounds(kCall, "REGIST_MATMUL_OBJ's workspace lies in the launch's GM", "workspace", workspace, 1);
    uint64_t room = 0;
    for (const GmRegion& r : *c.records->gm) {
        const auto* p = static_cast<const uint8_t*>(workspace);
        if (p >= r.begin && p < r.begin + r.bytes) room = r.begin + r.bytes - p;
    }
    Require(room >= kLibApiWorkspaceBytes, kCall,
            "the system workspace holds GetLibApiWorkSpaceSize() bytes (16 MiB on A2: the Matmul API's messages and the "
            "staging of LocalTensor outputs)",
            "the buffer has " + Num(int64_t(room)) + " bytes from the workspace address on, " +
                Num(int64_t(kLibApiWorkspaceBytes)) + " needed");
    {
        std::lock_guard<std::mutex> lock(sync.mutex);
        x.matmulObjects[c.coreId] = n;
    }
    for (uint32_t i = 0; i < n; ++i) objs[i]->Register(i, tilings[i]);
    if (c.coreType != AscendC::AIC) {
        scope.open = true;
        std::lock_guard<std::mutex> lock(sync.mutex);
        x.clientOpen[c.coreId] = 1;
        return false;
    }
    // The AIC: serve until every AIV of the block has quit. It serves the messages in the order they arrive, an
    // order the program does not fix (the AIVs run independently), so the server's clock while it serves an AIV
    // holds what it had before serving (`base`) and what that AIV's messages carried, not what other AIVs' messages
    // did: a race between two AIVs that only the arrival order would hide is refused in every run, not in the runs
    // where one AIV's message happened to come first. The server's own accesses stay in its program order.
    uint32_t quits = 0;
    const std::vector<uint32_t> base = c.records->clock;
    std::vector<std::vector<uint32_t>> perClient(c.coreCount);
    const char* what = "REGIST_MATMUL_OBJ's Matmul server, waiting for its AIVs' messages until each client ends";
    const MailboxWait wait{&x, c.block};
    while (quits < x.ratio) {
        MatmulMsg m;
        {
            std::unique_lock<std::mutex> lock(sync.mutex);
            WaitUntil(lock, MailReady, &wait, what);
            m = std::move(x.mailbox[c.block].front());
            x.mailbox[c.block].pop_front();
            std::vector<uint32_t>& seen = perClient.at(m.senderId);
            seen.resize(std::max(seen.size(), m.clock.size()), 0);
            for (size_t i = 0; i < m.clock.size(); ++i) seen[i] = std::max(seen[i], m.clock[i]);
            AcquireClockAs(c, base, seen);
        }
        if (m.kind == MatmulMsgKind::kQuit) {
            ++quits;
            continue;
        }
        if (m.kind == MatmulMsgKind::kScmGm2L1) {  // A2's KfcServer: SCMFUN_GM2L1 -> ScmDataCopy (GM -> L1)
            CopyGmToL1At("DataCopy(GM->TSCM) (AIC, SCMFUN_GM2L1)", m.l1Addr, m.l1Room, m.gmSrc, m.blockCount,
                         m.blockBytes, m.srcStep, m.dstStep);
            continue;
        }
        if (m.kind == MatmulMsgKind::kScmGm2L1Nd2Nz) {  // SCMFUN_GM2L1ND2NZ -> ScmDataCopyND2NZ
            CopyNd2NzAt(m.l1Addr, m.l1Room, m.elemSize, m.gmSrc, m.nd2nz);
            continue;
        }
        Serve(c, sync, objs, n, m);
    }
    // Every client has quit: the server's end comes after all of them.
    {
        std::lock_guard<std::mutex> lock(sync.mutex);
        for (const std::vector<uint32_t>& seen : perClient) {
            if (!seen.empty()) AcquireClock(c, seen);
        }
    }
    return true;
}

}  // namespace ascend_twin
