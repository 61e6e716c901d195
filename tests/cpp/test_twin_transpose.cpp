// Transpose (16 x 16, and the enhanced NCHW <-> NHWC forms) and TransDataTo5HD (twin/include/twin/kernel_transpose.h)
// against references written here from the docs, on fresh random data; every rule broken by a planted kernel, kept
// by its counterpart.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

// in: kBytes of data; out: kBytes. UB: in at 0, out at kBytes, the temporary buffer after it.
constexpr uint32_t kBytes = 8192;

struct Setting {
    int form = 0;  // 0 Transpose 16 x 16, 1 enhanced, 2 TransDataTo5HD, 3 the same with the lists built by the kernel
    bool inPlace = false;
    TransposeParamsExt ext;
    uint32_t tmpBytes = 0;
    TransDataTo5HDParams hd;
    uint64_t dstList[16] = {}, srcList[16] = {};  // UB addresses
} g;

template <typename T>
void TransposeKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, tmpBuf;
    pipe.InitBuffer(inBuf, kBytes);
    pipe.InitBuffer(outBuf, kBytes);
    pipe.InitBuffer(tmpBuf, g.tmpBytes == 0 ? 32 : g.tmpBytes);
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in), kBytes);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out), kBytes);
    LocalTensor<uint8_t> inU = inBuf.Get<uint8_t>(), outU = outBuf.Get<uint8_t>();
    DataCopy(inU, inGm, kBytes);
    DataCopy(outU, outGm, kBytes);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<T> src = inBuf.Get<T>(), dst = g.inPlace ? src : outBuf.Get<T>();
    if (g.form == 0) {
        if constexpr (sizeof(T) == 2) Transpose(dst, src);
    } else if (g.form == 1) {
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>(g.tmpBytes == 0 ? 32 : g.tmpBytes);
        Transpose(dst, src, tmp, g.ext);
    } else if (g.form == 2) {
        TransDataTo5HD<T>(g.dstList, g.srcList, g.hd);
    } else {  // as kernels build them: (uint64_t)GetPhyAddr() of views of the two buffers
        uint64_t dstList[16], srcList[16];
        for (int k = 0; k < 16; ++k) {
            srcList[k] = (uint64_t)src[g.srcList[k] / sizeof(T)].GetPhyAddr();
            dstList[k] = (uint64_t)dst[(g.dstList[k] - kBytes) / sizeof(T)].GetPhyAddr();
        }
        TransDataTo5HD<T>(dstList, srcList, g.hd);
    }
    PipeBarrier<PIPE_ALL>();
    if (g.inPlace) {
        DataCopy(outGm, inU, kBytes);
    } else {
        DataCopy(outGm, outU, kBytes);
    }
}

uint32_t Rand(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(check::Rng()); }

struct Data {
    std::vector<uint8_t> in = std::vector<uint8_t>(kBytes), out = std::vector<uint8_t>(kBytes);
    Data()
    {
        for (uint8_t& b : in) b = static_cast<uint8_t>(Rand(256));
        for (uint8_t& b : out) b = static_cast<uint8_t>(Rand(256));
    }
};

std::string Rule(fault::Kernel k, Data& d)
{
    const auto v = fault::Run(k, d.in, d.out);
    return v ? v->call + ": " + v->rule : std::string();
}

bool Expect(const std::string& got, const char* part)
{
    if (got.find(part) != std::string::npos) return true;
    std::printf("  expected '%s', got '%s'\n", part, got.c_str());
    return false;
}

// The enhanced NCHW <-> NHWC case of element size E with random N, C, H x W (hw x E a multiple of 32 bytes).
template <typename T>
void CheckEnhanced(bool toNhwc)
{
    constexpr uint32_t e = sizeof(T);
    Data d;
    g = Setting{};
    g.form = 1;
    const uint32_t n = 1 + Rand(2), c = 1 + Rand(5), h = 1 + Rand(2), w = 32 / e * (1 + Rand(2));
    const uint32_t hw = h * w;  // hw x e a multiple of 32 bytes
    g.ext = TransposeParamsExt(static_cast<uint16_t>(n), static_cast<uint16_t>(c), static_cast<uint16_t>(h),
                               static_cast<uint16_t>(w),
                               toNhwc ? TransposeType::TRANSPOSE_NCHW2NHWC : TransposeType::TRANSPOSE_NHWC2NCHW);
    const uint32_t h0 = e == 1 ? 32 : 16, w0 = 32 / e;
    g.tmpBytes = (toNhwc ? c + 2 : 2 * c + 1) * h0 * w0 * e;
    std::vector<uint8_t> expect = d.out;
    for (uint32_t a = 0; a < n; ++a) {
        for (uint32_t ch = 0; ch < c; ++ch) {
            for (uint32_t x = 0; x < hw; ++x) {
                const uint32_t nchw = (a * c + ch) * hw + x, nhwc = (a * hw + x) * c + ch;
                std::memcpy(&expect[(toNhwc ? nhwc : nchw) * e], &d.in[(toNhwc ? nchw : nhwc) * e], e);
            }
        }
    }
    CHECK(Rule(&TransposeKernel<T>, d).empty());
    CHECK(d.out == expect);
    {  // planted: one block less temporary buffer
        g.tmpBytes -= 32;
        CHECK(Expect(Rule(&TransposeKernel<T>, d), "sharedTmpBuffer holds at least the documented size"));
    }
}

// TransDataTo5HD of 16-bit (or 8-bit: halves) elements: source blocks k at srcList[k], destination blocks i at
// dstList[i], per the docs' repeat rule.
template <typename T>
void CheckTransData(uint8_t repeats, bool dstHigh, bool srcHigh, int form = 2)
{
    Data d;
    g = Setting{};
    g.form = form;
    g.hd = TransDataTo5HDParams(dstHigh, srcHigh, repeats, 16, 1);
    for (int k = 0; k < 16; ++k) {
        g.srcList[k] = 512 * k;          // in: block k of each repeat at 512 k + 32 r
        g.dstList[k] = kBytes + 32 * k;  // out: 16 blocks per repeat, 512 bytes apart
    }
    std::vector<uint8_t> expect = d.out;
    for (uint32_t r = 0; r < repeats; ++r) {
        const uint32_t step = repeats == 1 ? 1 : r;
        for (int i = 0; i < 16; ++i) {
            uint8_t* blk = &expect[32 * i + 512 * step];
            for (int j = 0; j < 16; ++j) {
                const uint8_t* src = &d.in[512 * j + 32 * step];
                if (sizeof(T) == 2) {
                    std::memcpy(blk + 2 * j, src + 2 * i, 2);
                } else {
                    blk[(dstHigh ? 16 : 0) + j] = src[i + (srcHigh ? 16 : 0)];
                }
            }
        }
    }
    CHECK(Rule(&TransposeKernel<T>, d).empty());
    CHECK(d.out == expect);
}

}  // namespace

TEST_CASE("Transpose: a 16 x 16 matrix of 16-bit elements, into another tensor or in place")
{
    for (bool inPlace : {false, true}) {
        Data d;
        g = Setting{};
        g.inPlace = inPlace;
        std::vector<uint8_t> expect = inPlace ? d.in : d.out;
        for (int r = 0; r < 16; ++r) {
            for (int c = 0; c < 16; ++c) std::memcpy(&expect[2 * (c * 16 + r)], &d.in[2 * (r * 16 + c)], 2);
        }
        CHECK(Rule(&TransposeKernel<half>, d).empty());
        CHECK(d.out == expect);
    }
    // The enhanced TRANSPOSE_ND2ND_B16: the same for uint16_t, hSize = wSize = 16.
    Data d;
    g = Setting{};
    g.form = 1;
    g.ext = TransposeParamsExt(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16);
    std::vector<uint8_t> expect = d.out;
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) std::memcpy(&expect[2 * (c * 16 + r)], &d.in[2 * (r * 16 + c)], 2);
    }
    CHECK(Rule(&TransposeKernel<uint16_t>, d).empty());
    CHECK(d.out == expect);
    g.ext.hSize = 8;
    CHECK(Expect(Rule(&TransposeKernel<uint16_t>, d), "TRANSPOSE_ND2ND_B16 takes hSize = wSize = 16"));
    g.ext.hSize = 16;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "TRANSPOSE_ND2ND_B16 on A2 transposes uint16_t"));
}

TEST_CASE("Transpose NCHW <-> NHWC for 8-, 16- and 32-bit elements, with the documented temporary buffer")
{
    for (bool toNhwc : {true, false}) {
        CheckEnhanced<half>(toNhwc);
        CheckEnhanced<float>(toNhwc);
        CheckEnhanced<int8_t>(toNhwc);
    }
}

TEST_CASE("planted: NCHW <-> NHWC sizes, overlap and unsupported transposeType")
{
    Data d;
    g = Setting{};
    g.form = 1;
    g.ext = TransposeParamsExt(1, 2, 1, 8, TransposeType::TRANSPOSE_NCHW2NHWC);  // 8 halves: 16 bytes
    g.tmpBytes = 4 * 16 * 16 * 2;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "hSize x wSize x sizeof(T) a multiple of 32"));
    g.ext.wSize = 16;
    CHECK(Rule(&TransposeKernel<half>, d).empty());
    g.inPlace = true;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "do not reuse src as dst"));
    g.inPlace = false;
    g.ext.transposeType = TransposeType::TRANSPOSE_NZ2ND_0213;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "transposeType is TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or"));
}

TEST_CASE("TransDataTo5HD: 16-bit blocks transposed, 8-bit halves by srcHighHalf/dstHighHalf, the repeat rule")
{
    CheckTransData<half>(3, false, false);
    CheckTransData<half>(3, false, false, 3);  // the lists from (uint64_t)tensor.GetPhyAddr()
    CheckTransData<int16_t>(1, false, false);  // the docs: repeatTimes 1 starts one stride further
    for (bool dh : {false, true}) {
        for (bool sh : {false, true}) CheckTransData<uint8_t>(2, dh, sh);
    }
}

TEST_CASE("planted: TransDataTo5HD addresses not 32-byte aligned or past UB, and 32-bit elements")
{
    Data d;
    g = Setting{};
    g.form = 2;
    g.hd = TransDataTo5HDParams(false, false, 1, 0, 0);
    for (int k = 0; k < 16; ++k) {
        g.srcList[k] = 32 * k;
        g.dstList[k] = kBytes + 32 * k;
    }
    CHECK(Rule(&TransposeKernel<half>, d).empty());
    g.srcList[4] = 48;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "each list address is a 32-byte aligned UB address"));
    g.srcList[4] = 1u << 30;
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "each list address is a 32-byte aligned UB address"));
    g.srcList[4] = reinterpret_cast<uint64_t>(d.in.data());  // a host pointer, not one into the core's UB
    CHECK(Expect(Rule(&TransposeKernel<half>, d), "each list address is a 32-byte aligned UB address"));
    g.srcList[4] = 128;
    CHECK(Expect(Rule(&TransposeKernel<float>, d), "32-bit TransDataTo5HD is not modelled by the twin"));
}

TEST_MAIN()
