// The advanced Select's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT line,
// and once with FAULT=0, which must compile: half and float with every mask dtype of the docs' table, both forms).
// FAULT 1: Select \(SelectWithBytesMask\) on A2 supports half and float
// FAULT 2: Select \(SelectWithBytesMask\) on A2 takes a bool, int8_t, uint8_t, int16_t, uint16_t, int32_t or uint32_t mask
#include "lib/select/selectwithbytesmask.h"

using namespace AscendC;

template <typename T, typename U>
void Use(LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info)
{
    LocalTensor<T> y, x;
    LocalTensor<U> m;
    Select(y, x, static_cast<T>(1), m, tmp, info);
    Select<T, U, false>(y, static_cast<T>(1), x, m, tmp, info);
}

void Instantiate(LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info)
{
#if FAULT == 0
    Use<half, bool>(tmp, info);
    Use<half, int8_t>(tmp, info);
    Use<float, uint8_t>(tmp, info);
    Use<float, int16_t>(tmp, info);
    Use<half, uint16_t>(tmp, info);
    Use<float, int32_t>(tmp, info);
    Use<float, uint32_t>(tmp, info);
#elif FAULT == 1
    Use<int32_t, uint8_t>(tmp, info);  // int32_t data: not in the table
#elif FAULT == 2
    Use<float, float>(tmp, info);  // a float mask
#endif
}
