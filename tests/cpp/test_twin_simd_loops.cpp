// The AVX2 element loops (twin/simd_loops.h; the bfloat16 conversions' AVX-512 builds where the CPU has AVX-512
// BW) give bit for bit what the portable loops give: float Add/Sub/Mul/Div/Adds/Muls and the bfloat16 conversions, over random values and the special ones (NaN,
// infinities, zeros of both signs, subnormals, bfloat16 rounding ties and the values next to them), on
// every length up to a few vectors and unaligned starts, in place as well as out of place. On a CPU
// without AVX2 the functions must decline (return false) and leave the output alone.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "check.h"
#include "twin/kernel_types.h"
#include "twin/simd_loops.h"

namespace {

using ascend_twin::VecOp;

uint32_t Bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

float FromBits(uint32_t b)
{
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

std::vector<float> Values(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    const float special[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::quiet_NaN(), FromBits(0x7f800001u) /* signalling NaN */,
                             FromBits(0xffc12345u), std::numeric_limits<float>::denorm_min(), FromBits(0x807fffffu),
                             FromBits(0x3f808000u) /* tie, even below */, FromBits(0x3f818000u) /* tie, odd below */,
                             FromBits(0x3f808001u), FromBits(0x3f807fffu), FromBits(0x7f7fffffu) /* rounds to inf */,
                             std::numeric_limits<float>::max(), 1.0f};
    for (size_t i = 0; i < n; ++i) {
        const uint32_t pick = rng() % 4;
        if (pick == 0) {
            v[i] = special[rng() % (sizeof special / sizeof special[0])];
        } else if (pick == 1) {
            v[i] = FromBits(static_cast<uint32_t>(rng()));  // any bit pattern
        } else {
            v[i] = std::ldexp(static_cast<float>(rng() % 2000001) / 1e6f - 1.0f, static_cast<int>(rng() % 40) - 20);
        }
    }
    return v;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    for (size_t i = 0; i < a.size(); ++i) {
        // NaN results: the same bits too (the loops are the same IEEE operations on the same operands).
        if (Bits(a[i]) != Bits(b[i])) return false;
    }
    return true;
}

float Apply(VecOp op, float a, float b)
{
    switch (op) {
        case VecOp::kAdd: case VecOp::kAdds: return a + b;
        case VecOp::kSub: return a - b;
        case VecOp::kMul: case VecOp::kMuls: return a * b;
        default: return a / b;
    }
}

const bool kAvx2 = __builtin_cpu_supports("avx2");

TEST_CASE("float Add/Sub/Mul/Div/Adds/Muls: AVX2 loops give the portable bits")
{
    for (VecOp op : {VecOp::kAdd, VecOp::kSub, VecOp::kMul, VecOp::kDiv}) {
        for (size_t n : {0u, 1u, 7u, 8u, 9u, 31u, 64u, 100u, 1027u}) {
            for (size_t skew : {0u, 1u, 3u}) {
                const std::vector<float> a = Values(n + skew, 11 + n), b = Values(n + skew, 23 + n);
                std::vector<float> want(n), got(n, 42.0f);
                for (size_t i = 0; i < n; ++i) want[i] = Apply(op, a[skew + i], b[skew + i]);
                const bool done = ascend_twin::simd::BinaryF32(op, got.data(), a.data() + skew, b.data() + skew, n);
                CHECK(done == kAvx2);
                if (done) CHECK(SameBits(got, want));
                // In place (dst is src0), as kernels write Add(z, z, b).
                std::vector<float> inplace(a.begin() + skew, a.end());
                if (ascend_twin::simd::BinaryF32(op, inplace.data(), inplace.data(), b.data() + skew, n)) {
                    CHECK(SameBits(inplace, want));
                }
            }
        }
    }
    for (VecOp op : {VecOp::kAdds, VecOp::kMuls}) {
        for (float s : {0.75f, -3.0f, std::numeric_limits<float>::infinity(), 1e-40f}) {
            const std::vector<float> a = Values(517, 5);
            std::vector<float> want(a.size()), got(a.size());
            for (size_t i = 0; i < a.size(); ++i) want[i] = Apply(op, a[i], s);
            if (ascend_twin::simd::ScalarF32(op, got.data(), a.data(), s, static_cast<int64_t>(a.size()))) {
                CHECK(SameBits(got, want));
            }
        }
    }
    // Operations it does not cover are declined, whatever the CPU.
    float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4] = {0, 0, 0, 0};
    CHECK(!ascend_twin::simd::BinaryF32(VecOp::kMax, z, x, y, 4));
    CHECK(!ascend_twin::simd::ScalarF32(VecOp::kMaxs, z, x, 1.0f, 4));
    CHECK(z[0] == 0 && z[3] == 0);
}

TEST_CASE("bfloat16 widen and round-to-nearest-even narrow: AVX2 loops give the scalar bits")
{
    for (size_t n : {0u, 1u, 15u, 16u, 17u, 255u, 4099u}) {
        const std::vector<float> src = Values(n, 97 + n);
        std::vector<uint16_t> want(n), got(n, 0x1234);
        for (size_t i = 0; i < n; ++i) want[i] = ascend_twin::FloatToBf16Bits(src[i]);
        const bool done = ascend_twin::simd::NarrowBf16(got.data(), src.data(), static_cast<int64_t>(n));
        CHECK(done == kAvx2);
        if (done) CHECK(got == want);
        std::vector<float> wide(n), wantWide(n);
        for (size_t i = 0; i < n; ++i) wantWide[i] = ascend_twin::Bf16BitsToFloat(want[i]);
        if (ascend_twin::simd::WidenBf16(wide.data(), want.data(), static_cast<int64_t>(n))) {
            CHECK(SameBits(wide, wantWide));
        }
    }
    // The scalar rounding itself, on the cases that tell rounding modes apart: ties go to even, NaN stays
    // quiet NaN, the largest float rounds to infinity.
    CHECK_EQ(ascend_twin::FloatToBf16Bits(FromBits(0x3f808000u)), 0x3f80u);
    CHECK_EQ(ascend_twin::FloatToBf16Bits(FromBits(0x3f818000u)), 0x3f82u);
    CHECK_EQ(ascend_twin::FloatToBf16Bits(FromBits(0x3f808001u)), 0x3f81u);
    CHECK_EQ(ascend_twin::FloatToBf16Bits(FromBits(0x7f800001u)), 0x7fc0u);
    CHECK_EQ(ascend_twin::FloatToBf16Bits(std::numeric_limits<float>::max()), 0x7f80u);
}

// WriteChecksum's definition, byte by byte: each byte in its lane of its 4-byte word, times the word's key.
uint32_t MixRef(uint32_t x)
{
    x *= 0x9E3779B1u;
    x ^= x >> 15;
    x *= 0x85EBCA77u;
    x ^= x >> 13;
    return x;
}
uint64_t ChecksumRef(const uint8_t* p, uint64_t n)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t a = reinterpret_cast<uintptr_t>(p + i);
        const uint32_t w = static_cast<uint32_t>(a >> 2);
        const uint32_t key = (MixRef(w & 255u) | 1u) ^ (MixRef((w >> 8) + 0x632BE5ABu) & ~1u);
        sum += (static_cast<uint64_t>(p[i]) << (8 * (a & 3))) * key;
    }
    return sum;
}

TEST_CASE("CopyToGmSummed copies exactly the n bytes, at every length and misalignment, and sums them")
{
    std::mt19937 rng(20);
    std::vector<uint8_t> src(4096 + 64), dst(4096 + 128);
    for (uint8_t& b : src) b = static_cast<uint8_t>(rng());
    for (size_t n : {0u, 1u, 3u, 31u, 32u, 33u, 127u, 128u, 129u, 160u, 255u, 1000u, 1027u, 4096u}) {
        for (size_t skew : {0u, 1u, 2u, 7u, 31u}) {
            std::fill(dst.begin(), dst.end(), 0xa5);
            uint8_t* d = dst.data() + 32 + skew;
            const uint64_t sum = ascend_twin::simd::CopyToGmSummed(d, src.data() + (skew * 3) % 32, n);
            CHECK(std::memcmp(d, src.data() + (skew * 3) % 32, n) == 0);
            CHECK_EQ(sum, ChecksumRef(d, n));
            CHECK_EQ(sum, ascend_twin::simd::WriteChecksum(d, n));
            bool untouched = true;
            for (size_t i = 0; i < 32 + skew; ++i) untouched = untouched && dst[i] == 0xa5;
            for (size_t i = 32 + skew + n; i < dst.size(); ++i) untouched = untouched && dst[i] == 0xa5;
            CHECK(untouched);
        }
    }
}

TEST_CASE("WriteChecksum adds up over adjacent ranges and tells apart what a copy check must")
{
    std::mt19937 rng(21);
    std::vector<uint8_t> a(70000);
    for (uint8_t& b : a) b = static_cast<uint8_t>(rng());
    for (int t = 0; t < 300; ++t) {
        const uint64_t off = rng() % 1000, n = rng() % 66000, cut = n == 0 ? 0 : rng() % n;
        const uint64_t whole = ascend_twin::simd::WriteChecksum(a.data() + off, n);
        CHECK_EQ(whole, ChecksumRef(a.data() + off, n));
        CHECK_EQ(whole, ascend_twin::simd::WriteChecksum(a.data() + off, cut) +
                            ascend_twin::simd::WriteChecksum(a.data() + off + cut, n - cut));
    }
    // Differences a cheap sum misses: two words swapped, the sign bits of two floats flipped, a second
    // difference (+1, -2, +1), one bit anywhere.
    std::vector<float> x(4096), y;
    for (float& v : x) v = static_cast<float>(rng() % 1000) / 7.0f;
    const uint64_t base = ascend_twin::simd::WriteChecksum(x.data(), x.size() * 4);
    y = x;
    std::swap(y[10], y[11]);
    CHECK(ascend_twin::simd::WriteChecksum(y.data(), y.size() * 4) != base);
    y = x;
    y[100] = -y[100];
    y[3000] = -y[3000];
    CHECK(ascend_twin::simd::WriteChecksum(y.data(), y.size() * 4) != base);
    std::vector<uint32_t> u(300, 5), v = u;
    v[7] += 1, v[8] -= 2, v[9] += 1;
    CHECK(ascend_twin::simd::WriteChecksum(u.data(), 1200) != ascend_twin::simd::WriteChecksum(v.data(), 1200));
    for (int bit = 0; bit < 64; ++bit) {
        y = x;
        reinterpret_cast<uint8_t*>(y.data())[bit * 37 + 3] ^= static_cast<uint8_t>(1u << (bit % 8));
        CHECK(ascend_twin::simd::WriteChecksum(y.data(), y.size() * 4) != base);
    }
}

}  // namespace

TEST_MAIN()
