// VectorAdd: z = x + y over flat buffers of equal length.
//
// Each core owns a contiguous share of whole 32-byte blocks (the tiling decides the split) and streams
// it through UB in tiles: CopyIn -> Compute -> CopyOut with every queue double buffered, so the copy
// of tile i+1 overlaps the add of tile i on the NPU. Lengths that are not a multiple of 32 bytes are
// moved with DataCopyPad; bfloat16 is added in float32 because the A2 vector unit has no bf16 Add.
#include "kernel_operator.h"
#include "vector_add_tiling.h"

#include <type_traits>

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelVectorAdd {
public:
    __aicore__ inline KernelVectorAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const VectorAddTilingData& tiling, TPipe* pipe)
    {
        const uint64_t core = GetBlockIdx();
        uint64_t start;
        uint64_t share;
        if (core < tiling.formerNum) {
            start = core * tiling.formerLength;
            share = tiling.formerLength;
        } else {
            start = tiling.formerNum * tiling.formerLength + (core - tiling.formerNum) * tiling.tailLength;
            share = tiling.tailLength;
        }
        const uint64_t left = start < tiling.totalLength ? tiling.totalLength - start : 0;
        coreLength_ = share < left ? share : left;  // the last core stops at totalLength
        tileLength_ = tiling.tileLength;

        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, coreLength_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, coreLength_);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + start, coreLength_);
        pipe->InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe->InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe->InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(T));
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            pipe->InitBuffer(xFloat_, tileLength_ * sizeof(float));
            pipe->InitBuffer(yFloat_, tileLength_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint64_t offset = 0; offset < coreLength_; offset += tileLength_) {
            const uint32_t count = static_cast<uint32_t>(
                coreLength_ - offset < tileLength_ ? coreLength_ - offset : tileLength_);
            CopyIn(offset, count);
            Compute(count);
            CopyOut(offset, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX_.template AllocTensor<T>();
        LocalTensor<T> yLocal = inQueueY_.template AllocTensor<T>();
        if ((count * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(xLocal, xGm_[offset], count);
            DataCopy(yLocal, yGm_[offset], count);
        } else {
            const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
            const DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
            DataCopyPad(xLocal, xGm_[offset], params, noPad);
            DataCopyPad(yLocal, yGm_[offset], params, noPad);
        }
        inQueueX_.EnQue(xLocal);
        inQueueY_.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX_.template DeQue<T>();
        LocalTensor<T> yLocal = inQueueY_.template DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ_.template AllocTensor<T>();
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> xf = xFloat_.Get<float>();
            LocalTensor<float> yf = yFloat_.Get<float>();
            Cast(xf, xLocal, RoundMode::CAST_NONE, count);
            Cast(yf, yLocal, RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Add(xf, xf, yf, static_cast<int32_t>(count));
            PipeBarrier<PIPE_V>();
            Cast(zLocal, xf, RoundMode::CAST_RINT, count);
        } else {
            Add(zLocal, xLocal, yLocal, static_cast<int32_t>(count));
        }
        outQueueZ_.EnQue(zLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueY_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        LocalTensor<T> zLocal = outQueueZ_.template DeQue<T>();
        if ((count * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(zGm_[offset], zLocal, count);
        } else {
            DataCopyPad(zGm_[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
        }
        outQueueZ_.FreeTensor(zLocal);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX_;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueY_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ_;
    TBuf<TPosition::VECCALC> xFloat_;
    TBuf<TPosition::VECCALC> yFloat_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<T> zGm_;
    uint64_t coreLength_ = 0;
    uint32_t tileLength_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    REGISTER_TILING_DEFAULT(VectorAddTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    KernelVectorAdd<DTYPE_X> op;
    op.Init(x, y, z, tilingData, &pipe);
    op.Process();
}
