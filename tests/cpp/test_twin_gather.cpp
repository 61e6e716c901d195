// Gather and Gatherb (twin/include/twin/kernel_gather.h) against references written here from the docs'
// pseudo-code, on fresh random data and offsets; every rule broken by a planted kernel, kept by its counterpart.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

// in: kSrc elements of T, then kOffsets uint32 offsets; out: kDst elements of T. The kernel copies in to UB,
// runs one of the forms below with the settings in `g`, and copies dst out.
constexpr uint32_t kSrcBytes = 1024, kOffsets = 512, kDstBytes = 2048;

struct Setting {
    int form = 0;  // 0 mask (continuous), 1 mask array, 2 count, 3 Gatherb
    uint64_t mask = 0;
    uint64_t maskBits[2] = {0, 0};
    uint8_t repeat = 0;
    uint16_t dstRepStride = 8;
    uint32_t base = 0;
    uint32_t count = 0;
    uint8_t dstBlkStride = 1;
    bool overlap = false;  // dst is src (planted)
} g;

template <typename T>
void GatherKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, offBuf, dstBuf;
    pipe.InitBuffer(srcBuf, kSrcBytes);
    pipe.InitBuffer(offBuf, kOffsets * 4);
    pipe.InitBuffer(dstBuf, kDstBytes);
    GlobalTensor<T> srcGm, dstGm;
    GlobalTensor<uint32_t> offGm;
    srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in), kSrcBytes / sizeof(T));
    offGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(in + kSrcBytes), kOffsets);
    dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), kDstBytes / sizeof(T));
    LocalTensor<T> src = srcBuf.Get<T>(), dst = g.overlap ? src : dstBuf.Get<T>();
    LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
    DataCopy(src, srcGm, kSrcBytes / sizeof(T));
    DataCopy(off, offGm, kOffsets);
    if (!g.overlap) DataCopy(dst, dstGm, kDstBytes / sizeof(T));  // what the lanes left out keep
    PipeBarrier<PIPE_ALL>();
    if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
        if (g.form == 0) Gather(dst, src, off, g.base, g.mask, g.repeat, g.dstRepStride);
        if (g.form == 1) Gather(dst, src, off, g.base, g.maskBits, g.repeat, g.dstRepStride);
        if (g.form == 2) Gather(dst, src, off, g.base, g.count);
    }
    if constexpr (std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>) {
        if (g.form == 3) Gatherb(dst, src, off, g.repeat, GatherRepeatParams(g.dstBlkStride, g.dstRepStride));
    }
    PipeBarrier<PIPE_ALL>();
    if (!g.overlap) DataCopy(dstGm, dst, kDstBytes / sizeof(T));
}

uint32_t Rand(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(check::Rng()); }

struct Data {
    std::vector<uint8_t> in = std::vector<uint8_t>(kSrcBytes + kOffsets * 4), out = std::vector<uint8_t>(kDstBytes);
    Data()
    {
        for (uint8_t& b : in) b = static_cast<uint8_t>(Rand(256));
        for (uint8_t& b : out) b = static_cast<uint8_t>(Rand(256));
    }
    uint32_t* Offsets() { return reinterpret_cast<uint32_t*>(in.data() + kSrcBytes); }
};

// The reference of the mask forms (the docs: dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)]), lane j of
// repeat r taking offset r * perRepeat + j, written at r * dstRepStride blocks + j.
template <typename T>
std::vector<uint8_t> GatherReference(const Data& d, const std::vector<bool>& lane, uint32_t repeats)
{
    constexpr uint32_t per = 256 / sizeof(T);
    std::vector<uint8_t> out = d.out;
    const auto* off = reinterpret_cast<const uint32_t*>(d.in.data() + kSrcBytes);
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < per; ++j) {
            if (!lane[j]) continue;
            const uint32_t byte = g.base + off[r * per + j];
            std::memcpy(out.data() + (r * g.dstRepStride * 32 / sizeof(T) + j) * sizeof(T), d.in.data() + byte, sizeof(T));
        }
    }
    return out;
}

template <typename T>
void RandomOffsets(Data& d, uint32_t n, uint32_t base)
{
    for (uint32_t i = 0; i < n; ++i) d.Offsets()[i] = Rand((kSrcBytes - base) / sizeof(T)) * sizeof(T);
}

template <typename T>
void CheckMaskForms()
{
    constexpr uint32_t per = 256 / sizeof(T);
    for (int form : {0, 1}) {
        Data d;
        g = Setting{};
        g.form = form;
        g.repeat = static_cast<uint8_t>(1 + Rand(3));
        g.dstRepStride = static_cast<uint16_t>(8 + 8 * Rand(2));  // 8 or 16 blocks: gaps keep their bytes
        g.base = Rand(8) * sizeof(T);
        RandomOffsets<T>(d, g.repeat * per, g.base);
        std::vector<bool> lane(per);
        if (form == 0) {
            g.mask = 1 + Rand(per);
            for (uint32_t j = 0; j < per; ++j) lane[j] = j < g.mask;
        } else {
            for (uint32_t j = 0; j < per; ++j) lane[j] = Rand(2) == 1;
            for (uint32_t j = 0; j < per; ++j) g.maskBits[j / 64] |= static_cast<uint64_t>(lane[j]) << (j % 64);
        }
        const std::vector<uint8_t> expect = GatherReference<T>(d, lane, g.repeat);
        CHECK(!fault::Run(&GatherKernel<T>, d.in, d.out).has_value());
        CHECK(d.out == expect);
    }
}

}  // namespace

TEST_CASE("Gather's mask forms pick src elements by byte offset, under the mask, for 16- and 32-bit types")
{
    CheckMaskForms<half>();
    CheckMaskForms<int16_t>();
    CheckMaskForms<bfloat16_t>();
    CheckMaskForms<float>();
    CheckMaskForms<uint32_t>();
}

TEST_CASE("Gather's count form: full repeats, then the tail")
{
    for (uint32_t count : {64u, 200u, 300u, 1u}) {
        Data d;
        g = Setting{};
        g.form = 2;
        g.count = count;
        RandomOffsets<half>(d, count, 0);
        std::vector<uint8_t> expect = d.out;
        for (uint32_t i = 0; i < count; ++i) std::memcpy(&expect[2 * i], &d.in[d.Offsets()[i]], 2);
        CHECK(!fault::Run(&GatherKernel<half>, d.in, d.out).has_value());
        CHECK(d.out == expect);
    }
}

TEST_CASE("Gatherb copies 32-byte blocks by byte offset, dstBlkStride 0 acting as 1")
{
    for (uint8_t blk : {0, 1, 2}) {
        Data d;
        g = Setting{};
        g.form = 3;
        g.repeat = 2;
        g.dstBlkStride = blk;
        g.dstRepStride = 24;
        for (uint32_t i = 0; i < 16; ++i) d.Offsets()[i] = Rand(kSrcBytes / 32) * 32;
        std::vector<uint8_t> expect = d.out;
        const uint32_t stride = blk == 0 ? 1 : blk;
        for (uint32_t r = 0; r < 2; ++r) {
            for (uint32_t j = 0; j < 8; ++j) {
                std::memcpy(&expect[(r * 24 + j * stride) * 32], &d.in[d.Offsets()[r * 8 + j]], 32);
            }
        }
        CHECK(!fault::Run(&GatherKernel<uint32_t>, d.in, d.out).has_value());
        CHECK(d.out == expect);
    }
}

TEST_CASE("planted: misaligned or out-of-src offsets, a misaligned srcBaseOffset, dst sharing src")
{
    auto run = [](fault::Kernel k, Data& d) {
        const auto v = fault::Run(k, d.in, d.out);
        return v ? v->call + ": " + v->rule : std::string();
    };
    auto expectRule = [](const std::string& got, const char* rule) {
        if (got.find(rule) == std::string::npos) std::printf("  expected '%s', got '%s'\n", rule, got.c_str());
        return got.find(rule) != std::string::npos;
    };
    const char* aligned = "the gathered address is aligned";
    const char* inside = "the gathered address lies inside src";
    {  // count form, half: offset 3 (odd byte), then its counterpart 2
        Data d;
        g = Setting{};
        g.form = 2;
        g.count = 16;
        RandomOffsets<half>(d, 16, 0);
        d.Offsets()[5] = 3;
        CHECK(expectRule(run(&GatherKernel<half>, d), aligned));
        d.Offsets()[5] = 2;
        CHECK(run(&GatherKernel<half>, d).empty());
        d.Offsets()[5] = kSrcBytes;  // one past src
        CHECK(expectRule(run(&GatherKernel<half>, d), inside));
        d.Offsets()[5] = kSrcBytes - 2;
        CHECK(run(&GatherKernel<half>, d).empty());
        g.base = 2;  // pushes the last element past src
        CHECK(expectRule(run(&GatherKernel<half>, d), inside));
        g.base = 1;
        CHECK(expectRule(run(&GatherKernel<half>, d), "srcBaseOffset is a multiple of sizeof(T)"));
        g.base = 0;
        g.overlap = true;
        CHECK(expectRule(run(&GatherKernel<half>, d), "src and dst do not share memory"));
    }
    {  // Gatherb: offsets are multiples of 32
        Data d;
        g = Setting{};
        g.form = 3;
        g.repeat = 1;
        for (uint32_t i = 0; i < 8; ++i) d.Offsets()[i] = 32 * i;
        d.Offsets()[3] = 48;
        CHECK(expectRule(run(&GatherKernel<uint16_t>, d), aligned));
        d.Offsets()[3] = 64;
        CHECK(run(&GatherKernel<uint16_t>, d).empty());
        d.Offsets()[3] = kSrcBytes;
        CHECK(expectRule(run(&GatherKernel<uint16_t>, d), inside));
    }
}

TEST_MAIN()
