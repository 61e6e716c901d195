// The basic API's layouts (kernel_operator_layout.h, kernel_operator_coord.h): Crd2Idx's rank rules planted at
// compile time (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must compile:
// the offsets below, checked against row-major/nested index arithmetic written out here).
// FAULT 1: Crd2Idx: Shape and Coord of different ranks
// FAULT 2: Crd2Idx: Stride and Coord of different ranks
// FAULT 3: Crd2Idx: Shape and Stride of different ranks
// FAULT 4: Crd2Idx: a coordinate tuple needs a Shape tuple
// FAULT 5: MakeLayout: Shape and Stride are tuples
#include "kernel_operator.h"

using namespace AscendC;

constexpr int64_t kRows = 30, kCols = 17;
constexpr auto kRowMajor = MakeLayout(MakeShape(kRows, kCols), MakeStride(kCols, int64_t(1)));
constexpr auto kColMajor = MakeLayout(MakeShape(kRows, kCols), MakeStride(int64_t(1), kRows));

constexpr bool RowMajorOk()
{
    for (int64_t r = 0; r < kRows; ++r) {
        for (int64_t c = 0; c < kCols; ++c) {
            if (kRowMajor(MakeCoord(r, c)) != r * kCols + c || kColMajor(MakeCoord(r, c)) != c * kRows + r) {
                return false;
            }
            // An integer coordinate is split over the modes, the first varying fastest.
            const int64_t flat = c * kRows + r;
            if (kRowMajor(flat) != r * kCols + c) return false;
        }
    }
    return true;
}
static_assert(RowMajorOk());
// Nested modes: ((2, 3), 4) rows of stride ((1, 2), 6): element ((i, j), k) at i + 2j + 6k.
constexpr auto kNested = MakeLayout(MakeShape(MakeShape(2, 3), 4), MakeStride(MakeStride(1, 2), 6));
static_assert(kNested(MakeCoord(MakeCoord(1, 2), 3)) == 1 + 4 + 18);
static_assert(kNested(MakeCoord(5, 3)) == 1 + 4 + 18);  // 5 = 1 + 2 * 2 over the (2, 3) mode
static_assert(Crd2Idx(MakeCoord(4, 5), kRowMajor) == 4 * kCols + 5);
static_assert(kRowMajor.GetShape<0>() == kRows && kRowMajor.GetStride<1>() == 1);
static_assert(is_layout_v<std::remove_cv_t<decltype(kRowMajor)>> && !is_layout_v<int>);
using C2 = Coord<int64_t, int64_t>;
static_assert(std::is_same_v<decltype(MakeCoord(int64_t(1), int64_t(2))), C2>);

void Faults()
{
#if FAULT == 1
    (void)Crd2Idx(MakeCoord(1, 2, 3), MakeShape(4, 5), MakeStride(1, 2, 3));
#elif FAULT == 2
    (void)Crd2Idx(MakeCoord(1, 2), MakeShape(4, 5), MakeStride(1, 2, 3));
#elif FAULT == 3
    (void)Crd2Idx(7, MakeShape(4, 5), MakeStride(1, 2, 3));
#elif FAULT == 4
    (void)Crd2Idx(MakeCoord(1, 2), 4, 1);
#elif FAULT == 5
    (void)MakeLayout(MakeShape(4, 5), 1);
#endif
}
