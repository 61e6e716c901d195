// DumpTensor and DumpAccChkPoint (include/basic_api/kernel_operator_dump_tensor_intf.h; on dav-2201
// impl/basic_api/dav_c220/kernel_operator_dump_tensor_impl.h and impl/utils/debug/asc_aicore_dump_impl.h) and
// ShapeInfo (include/basic_api/kernel_tensor.h): a kernel prints dumpSize elements of a tensor, with a uint32_t
// tag (desc), optionally laid out by a shape. On A2 the dump is a copy into the debug ring buffer between two
// PipeBarrier<PIPE_ALL>, so it waits for every pipe's earlier work and orders everything after it; the runtime
// prints the header and the elements after the launch (hicann/runtime dfx/printf.cc); the twin prints them at
// once, formatted the same way. Rules (docs DumpTensor / DumpAccChkPoint 约束说明):
// - a LocalTensor at UB (VECIN/VECOUT/VECCALC), L1 (A1/B1/C1) or L0C (CO1), or a GlobalTensor; other positions
//   are a violation (the device dumps nothing);
// - the element type is one the dump knows (bool, 8/16/32/64-bit integers, half, bfloat16_t, float);
// - the dumped elements lie inside the tensor (the twin is stricter: the device copies whatever follows), and
//   DumpAccChkPoint's countOff lies inside it (the device asserts in debug builds and dumps nothing) with the
//   offset address aligned as its memory requires (UB, L1: 32 bytes; L0C: 64);
// - more than 30 KB in one call is not printed (the docs' limit); a line says so;
// - a ShapeInfo holds at most K_MAX_SHAPE_DIM (8) dimensions.
// dumpSize 0 prints nothing. ASCENDC_DUMP=0 compiles the calls out, as on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

#include "twin/kernel_shape_info.h"

namespace ascend_twin {

// The dump's element types (Internal::DumpTensorDataType on dav-2201) and the runtime's names of them.
enum class DumpType : uint8_t { kBool, kU8, kI8, kI16, kU16, kI32, kU32, kU64, kI64, kF32, kF16, kBf16 };

template <typename T>
constexpr bool kDumpable = std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
                           std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                           std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                           std::is_same_v<T, uint64_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                           std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
constexpr DumpType DumpTypeOf()
{
    static_assert(kDumpable<T>, "dump tensor is not supported this data type: DumpTensor takes bool, int8_t, "
                                "uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, half, "
                                "bfloat16_t and float tensors");
    if constexpr (std::is_same_v<T, bool>) return DumpType::kBool;
    else if constexpr (std::is_same_v<T, uint8_t>) return DumpType::kU8;
    else if constexpr (std::is_same_v<T, int8_t>) return DumpType::kI8;
    else if constexpr (std::is_same_v<T, int16_t>) return DumpType::kI16;
    else if constexpr (std::is_same_v<T, uint16_t>) return DumpType::kU16;
    else if constexpr (std::is_same_v<T, int32_t>) return DumpType::kI32;
    else if constexpr (std::is_same_v<T, uint32_t>) return DumpType::kU32;
    else if constexpr (std::is_same_v<T, uint64_t>) return DumpType::kU64;
    else if constexpr (std::is_same_v<T, int64_t>) return DumpType::kI64;
    else if constexpr (std::is_same_v<T, float>) return DumpType::kF32;
    else if constexpr (std::is_same_v<T, half>) return DumpType::kF16;
    else return DumpType::kBf16;
}

struct DumpRequest {
    const char* call;
    uint32_t desc;
    uint64_t addr;          // the tensor's address in its memory (UB/L1/L0C offset; GM: the pointer)
    const char* position;   // UB, L1, L0C, GM
    DumpType type;
    const void* data;
    uint32_t count;         // elements
    const uint32_t* shape;  // nullptr: no shape
    uint32_t shapeDim;
};

// Prints one dump as the runtime formats it (the docs' DumpTensor examples), or the line saying it is over
// the 30 KB one dump may hold.
void KernelDumpTensor(const DumpRequest& request);

// The memory of a LocalTensor's position on A2 (GetPhyType of impl/basic_api/kernel_event.h, dav-2201),
// among those a dump reads; nullptr for the others.
inline const char* DumpMemoryOf(AscendC::TPosition pos, uint32_t* align)
{
    using P = AscendC::TPosition;
    switch (pos) {
        case P::VECIN: case P::VECOUT: case P::VECCALC: *align = 32; return "UB";
        case P::A1: case P::B1: case P::C1: *align = 32; return "L1";
        case P::CO1: *align = 64; return "L0C";
        default: return nullptr;
    }
}

template <typename T>
inline void DumpLocal(const char* call, const AscendC::LocalTensor<T>& tensor, uint32_t desc, uint32_t offset,
                      uint32_t dumpSize, const uint32_t* shape, uint32_t shapeDim)
{
    constexpr DumpType type = DumpTypeOf<T>();
    uint32_t align = 0;
    const char* memory = DumpMemoryOf(AscendC::twin_detail::TwinPosition(tensor), &align);
    if (memory == nullptr) {
        Fail(call, "DumpTensor/DumpAccChkPoint print tensors at UB, L1, L0C or GM (docs 约束说明)",
             "the tensor's position is none of them (A2 dumps nothing)");
    }
    if (offset > tensor.GetSize()) {
        FailF(call, "the offset lies inside the tensor", "countOff %u of a tensor of %u elements (A2 asserts in "
              "debug builds and dumps nothing)", offset, tensor.GetSize());
    }
    if ((static_cast<uint64_t>(offset) * sizeof(T)) % align != 0) {
        FailF(call, "the dumped address is aligned as its memory requires (通用地址对齐约束)",
              "countOff %u elements = %llu bytes, not a multiple of %u (%s)", offset,
              static_cast<unsigned long long>(offset) * sizeof(T), align, memory);
    }
    if (dumpSize > tensor.GetSize() - offset) {
        FailF(call, "the dumped elements lie inside the tensor (the twin is stricter: A2 copies what follows)",
              "dumpSize %u from element %u of a tensor of %u elements", dumpSize, offset, tensor.GetSize());
    }
    if (dumpSize == 0) return;
    BarrierAll();  // the dump's pipe_barrier(PIPE_ALL) before its copy
    const T* data = AscendC::twin_detail::TwinData(tensor) + offset;
    const uint64_t addr = memory[0] == 'U' ? UbOffset(data) : static_cast<uint64_t>(offset) * sizeof(T);
    KernelDumpTensor({call, desc, addr, memory, type, data, dumpSize, shape, shapeDim});
    BarrierAll();  // and after it
}

template <typename T>
inline void DumpGlobal(const char* call, const AscendC::GlobalTensor<T>& tensor, uint32_t desc, uint32_t offset,
                       uint32_t dumpSize, const uint32_t* shape, uint32_t shapeDim)
{
    constexpr DumpType type = DumpTypeOf<T>();
    if (tensor.GetSize() != 0 && offset > tensor.GetSize()) {
        FailF(call, "the offset lies inside the tensor", "countOff %u of a tensor of %llu elements (A2 asserts in "
              "debug builds and dumps nothing)", offset, static_cast<unsigned long long>(tensor.GetSize()));
    }
    if (dumpSize == 0) return;
    const T* data = AscendC::twin_detail::TwinData(tensor) + offset;
    CheckGmRead(call, data, static_cast<uint64_t>(dumpSize) * sizeof(T));
    BarrierAll();
    KernelDumpTensor({call, desc, reinterpret_cast<uint64_t>(data), "GM", type, data, dumpSize, shape, shapeDim});
    BarrierAll();
}

}  // namespace ascend_twin

namespace AscendC {

#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize)
{
    ascend_twin::DumpLocal("DumpTensor", tensor, desc, 0, dumpSize, nullptr, 0);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize)
{
    ascend_twin::DumpGlobal("DumpTensor", tensor, desc, 0, dumpSize, nullptr, 0);
}
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo)
{
    ascend_twin::DumpLocal("DumpTensor", tensor, desc, 0, dumpSize, shapeInfo.shape, shapeInfo.shapeDim);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo)
{
    ascend_twin::DumpGlobal("DumpTensor", tensor, desc, 0, dumpSize, shapeInfo.shape, shapeInfo.shapeDim);
}
template <typename T>
__aicore__ inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize)
{
    ascend_twin::DumpLocal("DumpAccChkPoint", tensor, index, countOff, dumpSize, nullptr, 0);
}
template <typename T>
__aicore__ inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize)
{
    ascend_twin::DumpGlobal("DumpAccChkPoint", tensor, index, countOff, dumpSize, nullptr, 0);
}
#else
template <typename X>
__aicore__ inline void DumpTensor(const X&, uint32_t, uint32_t) {}
template <typename X>
__aicore__ inline void DumpTensor(const X&, uint32_t, uint32_t, const ShapeInfo&) {}
template <typename X>
__aicore__ inline void DumpAccChkPoint(const X&, uint32_t, uint32_t, uint32_t) {}
#endif

}  // namespace AscendC
