// DataCopy and DataCopyPad between GM and UB, with their parameter structs.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_more.h"
#include "twin/runtime.h"

namespace AscendC {

struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn)
    {
    }
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;  // DataCopy: 32-byte blocks; DataCopyPad: bytes
    // Gap between the end of one block and the start of the next (DataCopy: 32-byte blocks; DataCopyPad:
    // bytes on the GM side, 32-byte blocks on the UB side). srcStride/dstStride are the older names.
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
};

// The older padding parameters of DataCopyPad: paddingValue holds the pad element's bit pattern.
struct DataCopyPadParams {
    DataCopyPadParams() {}
    DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                      const uint64_t padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {
    }
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

struct DataCopyExtParams {
    DataCopyExtParams() = default;
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                      const uint32_t dstStrideIn, const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn)
    {
    }
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;   // bytes
    uint32_t srcStride = 0;  // GM side: bytes; UB side: 32-byte blocks
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {
    }
    bool isPad = false;
    uint8_t leftPadding = 0;   // elements
    uint8_t rightPadding = 0;  // elements
    T paddingValue = 0;
};

namespace twin_detail {

// The L1 positions, where GM copies go to the cube core's L1 (twin/kernel_cube_basic.h).
constexpr bool IsL1Position(TPosition p) { return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1; }
void CopyGmToL1Raw(const char* call, TPosition pos, uint8_t* dst, uint64_t dstBytes, uint32_t elemSize,
                   const uint8_t* src, uint16_t blockCount, uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep);
// GM -> a TSCM tensor (A2's DataCopyGM2L1Impl): on the AIC a GM -> L1 copy; on an AIV of a MIX kernel a message to
// its block's AIC, which copies in message order (SCMFUN_GM2L1; twin/src/matmul_mix.cpp).
void CopyGmToTscm(const char* call, uint8_t* dst, uint64_t dstBytes, const uint8_t* src, uint16_t blockCount,
                  uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep);
// L1 (A1/B1/C1) -> GM on the AI Cube core (A2: DataCopyL12GMImpl, copy_cbuf_to_gm): blockCount blocks of blockBytes,
// the source 32-byte aligned.
void CopyL1ToGmRaw(const char* call, TPosition pos, const uint8_t* src, uint64_t srcBytes, uint8_t* dst,
                   uint16_t blockCount, uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep);


enum class Direction : uint8_t { kGmToUb, kUbToGm };

// One strided transfer between GM and UB: blockCount blocks of blockBytes. A GM block starts every
// gmPitch bytes; a UB block every ubPitch bytes, its data ubLead bytes in (left padding). Checks
// alignment and bounds, copies, counts.
struct Transfer {
    const char* call;
    Direction direction;
    uint8_t* ub;          // start of the LocalTensor (must be 32-byte aligned)
    uint64_t ubCapacity;  // bytes of the LocalTensor
    uint8_t* gm;
    uint32_t elementSize;
    uint32_t blockCount;
    uint64_t blockBytes;
    uint64_t gmPitch;
    uint64_t ubPitch;
    uint64_t ubLead = 0;
    uint64_t ubBlockSpan = 0;  // UB bytes one block occupies (0: blockBytes)
    uint32_t gmAlign = 0;      // GM address alignment in bytes (0: the element size)
};
void Run(const Transfer& t);

void CheckCopyLength(const char* call, uint64_t bytes);
void CheckBlockCount(const char* call, uint32_t blockCount);  // 0 to 4095 (0: the copy is a no-op)
void CheckBlockLen(const char* call, uint32_t blockLen, uint32_t elementSize);
void CheckPadding(const char* call, uint32_t leftBytes, uint32_t rightBytes);

inline void CheckUbCopyRange(const char* call, const char* operand, uint64_t needBytes, uint64_t haveBytes)
{
    if (needBytes > haveBytes) {
        ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                           "operand '%s': the copy reaches byte %llu of %llu", operand,
                           static_cast<unsigned long long>(needBytes), static_cast<unsigned long long>(haveBytes));
    }
}

template <typename T>
uint8_t* Bytes(const LocalTensor<T>& t)
{
    return reinterpret_cast<uint8_t*>(twin_detail::TwinData(t));
}
template <typename T>
uint8_t* Bytes(const GlobalTensor<T>& t)
{
    return reinterpret_cast<uint8_t*>(twin_detail::TwinData(t));
}

}  // namespace twin_detail

// GM -> UB, count elements; count * sizeof(T) must be a whole number of 32-byte blocks.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count)
{
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (twin_detail::TwinPosition(dst) == TPosition::TSCM) {  // GM -> L1, from an AIV through its AIC
        twin_detail::CopyGmToTscm("DataCopy(GM->TSCM)", twin_detail::Bytes(dst), dst.GetLength(),
                                  twin_detail::Bytes(src), 1, bytes / 32 * 32, 0, 0);
        return;
    }
    if (twin_detail::IsL1Position(twin_detail::TwinPosition(dst))) {  // GM -> L1 (twin/kernel_cube_basic.h)
        twin_detail::CopyGmToL1Raw("DataCopy(GM->L1)", twin_detail::TwinPosition(dst), twin_detail::Bytes(dst),
                                   dst.GetLength(), sizeof(T), twin_detail::Bytes(src), 1, bytes / 32 * 32, 0, 0);
        return;
    }
    twin_detail::CheckCopyLength("DataCopy(GM->UB)", bytes);
    twin_detail::Run({"DataCopy(GM->UB)", twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst), dst.GetLength(),
                      twin_detail::Bytes(src), sizeof(T), 1, bytes, bytes, bytes});
}

// UB -> GM, count elements; same length rule.
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count)
{
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (twin_detail::IsL1Position(twin_detail::TwinPosition(src))) {  // L1 -> GM (twin/kernel_cube_basic.h)
        twin_detail::CopyL1ToGmRaw("DataCopy(L1->GM)", twin_detail::TwinPosition(src), twin_detail::Bytes(src),
                                   src.GetLength(), twin_detail::Bytes(dst), 1, bytes / 32 * 32, 0, 0);
        return;
    }
    twin_detail::CheckCopyLength("DataCopy(UB->GM)", bytes);
    twin_detail::Run({"DataCopy(UB->GM)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src), src.GetLength(),
                      twin_detail::Bytes(dst), sizeof(T), 1, bytes, bytes, bytes});
}

// Strided forms: blockLen and both gaps in 32-byte blocks. blockCount or blockLen 0 is a no-op on A2 (the
// DataCopy docs: "blockCount、blockLen任意一个值为0时，该接口将被视为NOP").
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const uint64_t len = repeatParams.blockLen * 32ULL;
    if (twin_detail::TwinPosition(dst) == TPosition::TSCM) {  // GM -> L1, from an AIV through its AIC
        twin_detail::CopyGmToTscm("DataCopy(GM->TSCM, DataCopyParams)", twin_detail::Bytes(dst), dst.GetLength(),
                                  twin_detail::Bytes(src), repeatParams.blockCount, len,
                                  len + repeatParams.srcStride * 32ULL, len + repeatParams.dstStride * 32ULL);
        return;
    }
    if (twin_detail::IsL1Position(twin_detail::TwinPosition(dst))) {  // GM -> L1 (twin/kernel_cube_basic.h)
        twin_detail::CopyGmToL1Raw("DataCopy(GM->L1, DataCopyParams)", twin_detail::TwinPosition(dst),
                                   twin_detail::Bytes(dst), dst.GetLength(), sizeof(T), twin_detail::Bytes(src),
                                   repeatParams.blockCount, len, len + repeatParams.srcStride * 32ULL,
                                   len + repeatParams.dstStride * 32ULL);
        return;
    }
    twin_detail::CheckBlockCount("DataCopy(GM->UB, DataCopyParams)", repeatParams.blockCount);
    twin_detail::Run({"DataCopy(GM->UB, DataCopyParams)", twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst),
                      dst.GetLength(), twin_detail::Bytes(src), sizeof(T), repeatParams.blockCount, len,
                      len + repeatParams.srcStride * 32ULL, len + repeatParams.dstStride * 32ULL});
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const uint64_t len = repeatParams.blockLen * 32ULL;
    if (twin_detail::IsL1Position(twin_detail::TwinPosition(src))) {  // L1 -> GM (twin/kernel_cube_basic.h)
        twin_detail::CopyL1ToGmRaw("DataCopy(L1->GM, DataCopyParams)", twin_detail::TwinPosition(src),
                                   twin_detail::Bytes(src), src.GetLength(), twin_detail::Bytes(dst),
                                   repeatParams.blockCount, len, len + repeatParams.srcStride * 32ULL,
                                   len + repeatParams.dstStride * 32ULL);
        return;
    }
    twin_detail::CheckBlockCount("DataCopy(UB->GM, DataCopyParams)", repeatParams.blockCount);
    twin_detail::Run({"DataCopy(UB->GM, DataCopyParams)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src),
                      src.GetLength(), twin_detail::Bytes(dst), sizeof(T), repeatParams.blockCount, len,
                      len + repeatParams.dstStride * 32ULL, len + repeatParams.srcStride * 32ULL});
}

namespace twin_detail {
const char* PositionName(TPosition pos);  // twin/kernel_tpipe.h

// Local -> local copies that leave UB: L1 (C1) -> BiasTable (C2), defined with the cube path
// (twin/kernel_cube_basic.h). The same-type DataCopy below is the API's one entry for both.
template <typename T, typename U>
void CopyLocalToBiasTable(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& repeatParams);
// L1 (C1) -> Fixpipe Buffer (C2PIPE2GM), uint64_t quantisation words (twin/kernel_cube_basic.h).
template <typename T>
void CopyLocalToFixbuf(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams);
template <typename T>
void CopyLocalToFixbuf(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count);

inline bool InCubeMemory(TPosition pos)
{
    return pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1 || pos == TPosition::A2 ||
           pos == TPosition::B2 || pos == TPosition::CO1 || pos == TPosition::C2 || pos == TPosition::C2PIPE2GM;
}
}  // namespace twin_detail

// UB -> UB (VECIN -> VECCALC, VECCALC -> VECOUT): blockCount blocks of blockLen 32-byte blocks, srcGap/dstGap
// 32-byte blocks between them; blockCount or blockLen 0 is a no-op (A2). The C++ API's pipe table (附录/API流水
// 类型汇总: "DataCopy(UB->UB) | AIV | PIPE_V") puts it on V, so the hazard detector records it there. A2
// dtypes: the 1-, 2-, 4- and 8-byte integer and float types.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams)
{
    static_assert(twin_detail::kOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float,
                                      int64_t, uint64_t, double>,
                  "DataCopy(UB->UB) on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, "
                  "uint32_t, float, int64_t, uint64_t and double");
    const TPosition dstPos = twin_detail::TwinPosition(dst);
    const TPosition srcPos = twin_detail::TwinPosition(src);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t>) {
        if (dstPos == TPosition::C2) {  // L1 -> BiasTable, blockLen in 64-byte units
            twin_detail::CopyLocalToBiasTable(dst, src, repeatParams);
            return;
        }
    }
    if constexpr (std::is_same_v<T, uint64_t>) {
        if (dstPos == TPosition::C2PIPE2GM) {  // L1 -> Fixpipe Buffer, blockLen in 128-byte units
            twin_detail::CopyLocalToFixbuf(dst, src, repeatParams);
            return;
        }
    }
    const char* call = "DataCopy(UB->UB)";
    if (twin_detail::InCubeMemory(dstPos) || twin_detail::InCubeMemory(srcPos)) {
        ascend_twin::FailF(call, "a DataCopy between LocalTensors is UB -> UB, L1 (C1) -> BiasTable (C2) or L1 (C1) "
                           "-> Fixpipe Buffer (C2PIPE2GM, uint64_t)",
                           "dst at TPosition::%s, src at TPosition::%s", twin_detail::PositionName(dstPos),
                           twin_detail::PositionName(srcPos));
    }
    twin_detail::CheckBlockCount(call, repeatParams.blockCount);
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    if (repeatParams.blockCount == 0 || repeatParams.blockLen == 0) return;
    const uint64_t len = repeatParams.blockLen * 32ULL;
    const uint64_t srcPitch = len + repeatParams.srcGap * 32ULL;
    const uint64_t dstPitch = len + repeatParams.dstGap * 32ULL;
    const uint64_t last = repeatParams.blockCount - 1ULL;
    twin_detail::CheckUbCopyRange(call, "src", last * srcPitch + len, static_cast<uint64_t>(src.GetSize()) * sizeof(T));
    twin_detail::CheckUbCopyRange(call, "dst", last * dstPitch + len, static_cast<uint64_t>(dst.GetSize()) * sizeof(T));
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint8_t* s = twin_detail::Bytes(src);
    uint8_t* d = twin_detail::Bytes(dst);
    for (uint64_t b = 0; b <= last; ++b) {
        instr.Read("src", s + b * srcPitch, len);
        instr.Write("dst", d + b * dstPitch, len);
        std::memmove(d + b * dstPitch, s + b * srcPitch, len);
    }
    ascend_twin::CurrentCore().counters.dataCopyCalls += 1;
}

// UB -> UB, count elements: count * sizeof(T) a whole number of 32-byte blocks (the device rounds down; the
// twin stops, as for the GM forms).
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count)
{
    if constexpr (std::is_same_v<T, uint64_t>) {
        if (twin_detail::TwinPosition(dst) == TPosition::C2PIPE2GM) {  // L1 -> Fixpipe Buffer
            twin_detail::CopyLocalToFixbuf(dst, src, count);
            return;
        }
    }
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    twin_detail::CheckCopyLength("DataCopy(UB->UB)", bytes);
    twin_detail::CheckUbCopyRange("DataCopy(UB->UB)", "src", bytes, static_cast<uint64_t>(src.GetSize()) * sizeof(T));
    twin_detail::CheckUbCopyRange("DataCopy(UB->UB)", "dst", bytes, static_cast<uint64_t>(dst.GetSize()) * sizeof(T));
    DataCopyParams p;
    p.blockLen = static_cast<uint16_t>(bytes / 32);  // at most 6144 blocks: the whole UB
    DataCopy(dst, src, p);
}

// SetPadValue (include/basic_api/kernel_operator_data_copy_intf.h; docs: 寄存器配置说明/SetPadValue(ISASI)): the
// value DataCopyPad GM -> UB pads with when isPad is false. On A2 it writes the MTE2 pad register of a vector
// core (set_mov_pad_val) and does nothing on a cube core. pos: VECIN, VECOUT or MAX (the UB destinations).
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue)
{
    static_assert(twin_detail::kOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float,
                                      int64_t, uint64_t, double>,
                  "SetPadValue on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, "
                  "float, int64_t, uint64_t and double");
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                  "SetPadValue's pos is TPosition::VECIN, VECOUT or MAX");
    if ASCEND_IS_AIC {
        return;
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.movPadValue = 0;
    std::memcpy(&core.movPadValue, &paddingValue, sizeof(T));
    core.movPadSize = sizeof(T);
}

// GM -> UB in blockCount blocks of blockLen bytes (any length; the GM address needs only byte
// alignment). In UB each block starts on a 32-byte boundary, with leftPadding/rightPadding elements
// around it. Without left/right padding, the dummy elements that fill the block's last 32 bytes repeat
// the block's first element, as on the device. With padding and isPad, padding and dummy elements take
// paddingValue; with padding and no isPad, the value SetPadValue set, or, without it, they are left
// unwritten (undefined on the device).
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams)
{
    const char* call = "DataCopyPad(GM->UB)";
    const DataCopyExtParams& p = dataCopyParams;
    const uint32_t left = padParams.leftPadding * sizeof(T);
    const uint32_t right = padParams.rightPadding * sizeof(T);
    twin_detail::CheckBlockCount(call, p.blockCount);
    twin_detail::CheckBlockLen(call, p.blockLen, sizeof(T));
    twin_detail::CheckPadding(call, left, right);
    if constexpr (sizeof(T) == 8) {
        // A2 moves 64-bit elements as pairs of 32-bit ones (copy_gm_to_ubuf_align_b32 with the padding
        // doubled), so a pad value wider than 32 bits cannot come out whole: the docs allow only 0.
        uint64_t bits;
        std::memcpy(&bits, &padParams.paddingValue, sizeof bits);
        if (padParams.isPad && bits != 0) {
            ascend_twin::FailF(call, "DataCopyPad of a 64-bit type pads with paddingValue 0 only",
                               "isPad with paddingValue bits 0x%016llx (the device pads 32-bit halves)",
                               static_cast<unsigned long long>(bits));
        }
    }
    if (p.blockCount == 0 || p.blockLen == 0) return;  // a no-op, as documented
    const uint64_t slot = (p.blockLen + left + right + 31ULL) / 32 * 32;
    const uint64_t pitch = slot + p.dstStride * 32ULL;
    twin_detail::Run({call, twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst), dst.GetLength(),
                      twin_detail::Bytes(src), sizeof(T), p.blockCount, p.blockLen, p.blockLen + p.srcStride, pitch,
                      left, slot, 1});
    const bool dummyOnly = left == 0 && right == 0;
    T padValue = padParams.paddingValue;
    if (!padParams.isPad && !dummyOnly) {
        const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
        if (core.movPadSize == 0) return;
        // Stricter than the device, which pads with the register's bits whatever type set them: the docs
        // give SetPadValue the type DataCopyPad moves.
        if (core.movPadSize != sizeof(T)) {
            ascend_twin::FailF(call, "SetPadValue's type has the size of the type DataCopyPad moves",
                               "SetPadValue set a %u-byte value, DataCopyPad moves %u-byte elements",
                               static_cast<unsigned>(core.movPadSize), static_cast<unsigned>(sizeof(T)));
        }
        if (sizeof(T) == 8 && core.movPadValue != 0) {
            ascend_twin::FailF(call, "DataCopyPad of a 64-bit type pads with paddingValue 0 only",
                               "SetPadValue bits 0x%016llx (the device pads 32-bit halves)",
                               static_cast<unsigned long long>(core.movPadValue));
        }
        std::memcpy(&padValue, &core.movPadValue, sizeof(T));
    }
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        T* elems = reinterpret_cast<T*>(twin_detail::Bytes(dst) + b * pitch);
        const uint64_t dataBegin = left / sizeof(T);
        const uint64_t dataEnd = dataBegin + p.blockLen / sizeof(T);
        const T fill = dummyOnly ? elems[dataBegin] : padValue;
        for (uint64_t e = 0; e < slot / sizeof(T); ++e) {
            if (e < dataBegin || e >= dataEnd) elems[e] = fill;
        }
    }
}

// The older form: DataCopyParams with blockLen in bytes and DataCopyPadParams.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams)
{
    T value;
    std::memcpy(&value, &padParams.paddingValue, sizeof(T) < sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
    DataCopyPad(dst, src,
                DataCopyExtParams{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                                  dataCopyParams.dstStride, 0},
                DataCopyPadExtParams<T>{padParams.isPad, padParams.leftPadding, padParams.rightPadding, value});
}

// UB -> GM: blockCount blocks of blockLen bytes; UB blocks start on 32-byte boundaries.
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams)
{
    const DataCopyExtParams& p = dataCopyParams;
    twin_detail::CheckBlockCount("DataCopyPad(UB->GM)", p.blockCount);
    twin_detail::CheckBlockLen("DataCopyPad(UB->GM)", p.blockLen, sizeof(T));
    const uint64_t slot = (p.blockLen + 31ULL) / 32 * 32;
    twin_detail::Run({"DataCopyPad(UB->GM)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src),
                      src.GetLength(), twin_detail::Bytes(dst), sizeof(T), p.blockCount, p.blockLen,
                      p.blockLen + p.dstStride, slot + p.srcStride * 32ULL, 0, 0, 1});
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams)
{
    DataCopyPad(dst, src,
                DataCopyExtParams{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                                  dataCopyParams.dstStride, 0});
}

}  // namespace AscendC
