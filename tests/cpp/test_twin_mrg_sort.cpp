// Sort32 and MrgSort (twin/include/twin/kernel_mrg_sort.h) against references written here from the docs, on fresh
// random scores with ties; every rule broken by a planted kernel, kept by its counterpart.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

// in: 4096 bytes of input (scores and indices, or sorted lists); out: 4096 bytes. UB: in at 0, out at 4096.
constexpr uint32_t kBytes = 4096;

struct Setting {
    int form = 0;  // 0 Sort32, 1 MrgSort
    int32_t repeat = 1;
    uint32_t src0At = 0, src1At = 2048;  // Sort32: byte offsets of src0 and src1 in the input buffer
    MrgSort4Info info;
    uint32_t listAt[4] = {0, 0, 0, 0};  // MrgSort: byte offsets of the lists in the input buffer
    bool dstOnInput = false;             // planted: dst is the input buffer
} g;

template <typename T>
void SortKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, kBytes);
    pipe.InitBuffer(outBuf, kBytes);
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in), kBytes);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out), kBytes);
    LocalTensor<uint8_t> inU = inBuf.Get<uint8_t>(), outU = outBuf.Get<uint8_t>();
    DataCopy(inU, inGm, kBytes);
    DataCopy(outU, outGm, kBytes);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<T> inT = inBuf.Get<T>(), outT = g.dstOnInput ? inT : outBuf.Get<T>();
    if (g.form == 0) {
        LocalTensor<uint32_t> idx = inBuf.Get<uint32_t>();
        Sort32(outT, inT[g.src0At / sizeof(T)], idx[g.src1At / 4], g.repeat);
    } else {
        MrgSortSrcList<T> list(inT[g.listAt[0] / sizeof(T)], inT[g.listAt[1] / sizeof(T)],
                               inT[g.listAt[2] / sizeof(T)], inT[g.listAt[3] / sizeof(T)]);
        MrgSort(outT, list, g.info);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, outU, kBytes);
}

uint32_t Rand(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(check::Rng()); }

// A score with ties: one of 24 values k / 4 - 3 (exact in half and float).
template <typename T>
T Score()
{
    return static_cast<T>(static_cast<float>(Rand(24)) / 4.0f - 3.0f);
}

struct Element {
    float score;
    uint8_t bytes[8];
};

template <typename T>
Element Make(T score, uint32_t index, uint8_t reserved)
{
    Element e{static_cast<float>(score), {}};
    std::memset(e.bytes, reserved, 8);
    std::memcpy(e.bytes, &score, sizeof(T));
    std::memcpy(e.bytes + 4, &index, 4);
    return e;
}

std::string Rule(fault::Kernel k, std::vector<uint8_t>& in, std::vector<uint8_t>& out)
{
    const auto v = fault::Run(k, in, out);
    return v ? v->call + ": " + v->rule : std::string();
}

bool Expect(const std::string& got, const char* part)
{
    if (got.find(part) != std::string::npos) return true;
    std::printf("  expected '%s', got '%s'\n", part, got.c_str());
    return false;
}

template <typename T>
void CheckSort32()
{
    std::vector<uint8_t> in(kBytes), out(kBytes);
    for (uint8_t& b : out) b = static_cast<uint8_t>(Rand(256));
    g = Setting{};
    g.repeat = 3;
    auto* score = reinterpret_cast<T*>(in.data());
    auto* index = reinterpret_cast<uint32_t*>(in.data() + g.src1At);
    for (uint32_t i = 0; i < 96; ++i) {
        score[i] = Score<T>();
        index[i] = static_cast<uint32_t>(Rand(1u << 30));
    }
    std::vector<uint8_t> expect = out;
    for (uint32_t r = 0; r < 3; ++r) {
        // The docs: descending by score, the earlier of equal scores first; half leaves bytes 2..3 as they were.
        std::vector<uint32_t> order(32);
        for (uint32_t j = 0; j < 32; ++j) order[j] = j;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return static_cast<float>(score[32 * r + a]) > static_cast<float>(score[32 * r + b]);
        });
        for (uint32_t j = 0; j < 32; ++j) {
            uint8_t* e = &expect[256 * r + 8 * j];
            std::memcpy(e, &score[32 * r + order[j]], sizeof(T));
            std::memcpy(e + 4, &index[32 * r + order[j]], 4);
        }
    }
    CHECK(Rule(&SortKernel<T>, in, out).empty());
    CHECK(out == expect);
}

// Four sorted lists of the given lengths at listAt; the merge by descending score, list order breaking ties.
template <typename T>
std::vector<uint8_t> MrgSortCase(std::vector<uint8_t>& in, const uint16_t len[4], uint32_t lists, bool suspend)
{
    std::vector<std::vector<Element>> src(4);
    for (uint32_t k = 0; k < 4; ++k) {
        for (uint32_t i = 0; i < len[k]; ++i) src[k].push_back(Make<T>(Score<T>(), Rand(1u << 30), 0x5a));
        std::stable_sort(src[k].begin(), src[k].end(), [](const Element& a, const Element& b) { return a.score > b.score; });
        for (uint32_t i = 0; i < len[k]; ++i) std::memcpy(&in[g.listAt[k] + 8 * i], src[k][i].bytes, 8);
    }
    std::vector<uint8_t> merged;
    size_t at[4] = {0, 0, 0, 0};
    for (;;) {
        int best = -1;
        bool exhausted = false;
        for (uint32_t k = 0; k < lists; ++k) {
            if (at[k] == src[k].size()) {
                exhausted = exhausted || len[k] != 0;
                continue;
            }
            if (best < 0 || src[k][at[k]].score > src[best][at[best]].score) best = static_cast<int>(k);
        }
        if (best < 0 || (suspend && exhausted)) break;
        merged.insert(merged.end(), src[best][at[best]].bytes, src[best][at[best]].bytes + 8);
        ++at[best];
    }
    return merged;
}

template <typename T>
void CheckMrgSort(uint16_t validBit, bool suspend)
{
    std::vector<uint8_t> in(kBytes), out(kBytes);
    for (uint8_t& b : out) b = static_cast<uint8_t>(Rand(256));
    g = Setting{};
    g.form = 1;
    uint16_t len[4];
    for (uint32_t k = 0; k < 4; ++k) {
        len[k] = static_cast<uint16_t>(1 + Rand(60));
        g.listAt[k] = 1024 * k;
    }
    g.info = MrgSort4Info(len, suspend, validBit, 1);
    const uint32_t lists = validBit == 3 ? 2 : validBit == 7 ? 3 : 4;
    const std::vector<uint8_t> merged = MrgSortCase<T>(in, len, lists, suspend);
    std::vector<uint8_t> expect = out;
    std::memcpy(expect.data(), merged.data(), merged.size());
    CHECK(Rule(&SortKernel<T>, in, out).empty());
    CHECK(out == expect);
}

}  // namespace

TEST_CASE("Sort32 sorts each repeat's 32 scores with their indices, descending, ties in order")
{
    CheckSort32<float>();
    CheckSort32<half>();
}

TEST_CASE("MrgSort merges 2, 3 or 4 sorted lists, descending, ties by list order; suspension stops at the first empty")
{
    for (uint16_t v : {3, 7, 15}) {
        for (bool suspend : {false, true}) {
            CheckMrgSort<float>(v, suspend);
            CheckMrgSort<half>(v, suspend);
        }
    }
}

TEST_CASE("MrgSort's repeatTimes merges further groups of 4 contiguous equal lists")
{
    std::vector<uint8_t> in(kBytes), out(kBytes, 0);
    g = Setting{};
    g.form = 1;
    const uint16_t len[4] = {16, 16, 16, 16};
    std::vector<uint8_t> expect(kBytes, 0);
    for (uint32_t r = 0; r < 3; ++r) {  // three groups; each built and merged on its own
        for (uint32_t k = 0; k < 4; ++k) g.listAt[k] = 512 * r + 128 * k;
        const std::vector<uint8_t> merged = MrgSortCase<float>(in, len, 4, false);
        std::memcpy(&expect[512 * r], merged.data(), merged.size());
    }
    for (uint32_t k = 0; k < 4; ++k) g.listAt[k] = 128 * k;
    g.info = MrgSort4Info(len, false, 15, 3);
    CHECK(Rule(&SortKernel<float>, in, out).empty());
    CHECK(out == expect);
    // Planted: the same with the lists apart (repeatTimes needs them one after another), and with 3 lists.
    g.listAt[3] = 1024;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "repeatTimes > 1 needs 4 lists of one length"));
    g.listAt[3] = 384;
    g.info.validBit = 7;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "repeatTimes > 1 needs 4 lists of one length"));
}

TEST_CASE("planted: validBit, elementLengths, overlap, Sort32's repeatTime and alignment")
{
    std::vector<uint8_t> in(kBytes), out(kBytes);
    g = Setting{};
    g.form = 1;
    const uint16_t len[4] = {8, 8, 8, 8};
    for (uint32_t k = 0; k < 4; ++k) g.listAt[k] = 256 * k;
    g.info = MrgSort4Info(len, false, 5, 1);
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "validBit is 3, 7 or 15"));
    g.info.validBit = 15;
    CHECK(Rule(&SortKernel<float>, in, out).empty());
    g.info.elementLengths[2] = 4096;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "elementLengths are 0..4095"));
    g.info.elementLengths[2] = 8;
    g.dstOnInput = true;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "the sources and dst do not overlap"));
    g = Setting{};
    g.repeat = 256;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "repeatTime is 0..255"));
    g.repeat = 2;
    CHECK(Rule(&SortKernel<float>, in, out).empty());
    g.src0At = 64;  // float src0 at a 64-byte (not 128-byte) boundary
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "Sort32's repeats start src0 at 128 bytes"));
    CHECK(Rule(&SortKernel<half>, in, out).empty());  // half: 64 bytes suffice
    g.src0At = 0;
    g.src1At = 2048 + 32;
    CHECK(Expect(Rule(&SortKernel<float>, in, out), "Sort32's repeats start src0 at 128 bytes"));
}

TEST_MAIN()
