// TransData's rule checks and its element moves (twin/include/twin/kernel_adv_transdata.h).
#include "twin/kernel_adv_transdata.h"

#include <algorithm>
#include <cstring>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

constexpr const char* kCall = "TransData";
constexpr int64_t kC0 = 16, kN0 = 16, kHw0 = 16;

int64_t Ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }

// GetTransDataMaxMinTmpSize's size (impl/adv_api/tiling/transpose/transdata_tiling.cpp), bytes of 2-byte T.
int64_t A2TmpBytes(TransDataKind kind, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w)
{
    const int64_t c1 = Ceil(c, kC0), n1 = Ceil(n, kN0), padHw = Ceil(h * w, kHw0) * kHw0;
    switch (kind) {
        case TransDataKind::kNcdhwTo6hd: return d * padHw * 2 + d * c1 * kC0 * padHw * 2;
        case TransDataKind::k6hdToNcdhw: return d * c1 * kC0 * padHw * 2 + 512;
        case TransDataKind::kNcdhwToFz3d:
            return std::max(c * d * padHw * 2, d * h * w * n1 * kN0 * 2) + n1 * kN0 * d * c1 * kC0 * padHw * 2;
        case TransDataKind::kFz3dToNcdhw:
            return n1 * kN0 * c1 * kC0 * d * padHw * 2 * ((n == n1 * kN0 && c == c1 * kC0) ? 1 : 2);
    }
    return 0;
}

}  // namespace

void TransDataRun(TransDataKind kind, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                  bool framework, const int32_t* ncdhw, const int32_t* other, int otherDims)
{
    CheckVecOperands(kCall, {{"dstTensor", &dst}, {"srcTensor", &src}, {"sharedTmpBuffer", &tmp}},
                     framework ? &tmp : nullptr);
    const int64_t n = ncdhw[0], c = ncdhw[1], d = ncdhw[2], h = ncdhw[3], w = ncdhw[4];
    if (n <= 0 || c <= 0 || d <= 0 || h <= 0 || w <= 0) {
        ascend_twin::FailF(kCall, "the NCDHW layout's n, c, d, h and w are positive",
                           "(%lld, %lld, %lld, %lld, %lld)", static_cast<long long>(n), static_cast<long long>(c),
                           static_cast<long long>(d), static_cast<long long>(h), static_cast<long long>(w));
    }
    const bool fromNcdhw = kind == TransDataKind::kNcdhwToFz3d || kind == TransDataKind::kNcdhwTo6hd;
    const bool fractal = kind == TransDataKind::kNcdhwToFz3d || kind == TransDataKind::kFz3dToNcdhw;
    const int64_t padHw = Ceil(h * w, kHw0) * kHw0, c1 = Ceil(c, kC0), n1 = Ceil(n, kN0);
    const MathOperand& nc = fromNcdhw ? src : dst;
    const MathOperand& ot = fromNcdhw ? dst : src;
    const char* ncName = fromNcdhw ? "srcTensor" : "dstTensor";
    const char* otName = fromNcdhw ? "dstTensor" : "srcTensor";
    const int64_t ncElems = n * c * d * padHw;
    if (static_cast<int64_t>(nc.bytes / 2) < ncElems) {
        ascend_twin::FailF(kCall, "the NCDHW tensor holds n * c * d * padHw elements (each row of h * w padded to 16)",
                           "%s holds %llu, %lld needed", ncName, U(nc.bytes / 2), static_cast<long long>(ncElems));
    }
    int64_t otElems = 1;
    for (int i = 0; i < otherDims; ++i) otElems *= other[i];
    if (fractal) {  // [D, C1, H, W, N1, N0, C0]
        if (other[0] != d || other[2] != h || other[3] != w) {
            ascend_twin::FailF(kCall, "the FRACTAL_Z_3D layout's d, h, w are the NCDHW layout's",
                               "(%d, %d, %d) against (%lld, %lld, %lld)", other[0], other[2], other[3],
                               static_cast<long long>(d), static_cast<long long>(h), static_cast<long long>(w));
        }
        if (other[6] != kC0 || other[5] != kN0 || other[1] != c1 || other[4] != n1) {
            ascend_twin::FailF(kCall,
                               "the FRACTAL_Z_3D layout's c0 and n0 are 16, c1 = ceil(c / 16), n1 = ceil(n / 16)",
                               "c1 %d, n1 %d, n0 %d, c0 %d for c %lld, n %lld", other[1], other[4], other[5],
                               other[6], static_cast<long long>(c), static_cast<long long>(n));
        }
    } else {  // [N, D, C1, H, W, C0]
        if (other[0] != n || other[1] != d || other[3] != h || other[4] != w) {
            ascend_twin::FailF(kCall, "the NDC1HWC0 layout's n, d, h, w are the NCDHW layout's",
                               "(%d, %d, %d, %d) against (%lld, %lld, %lld, %lld)", other[0], other[1], other[3],
                               other[4], static_cast<long long>(n), static_cast<long long>(d),
                               static_cast<long long>(h), static_cast<long long>(w));
        }
        if (other[5] != kC0 || other[2] != c1) {
            ascend_twin::FailF(kCall, "the NDC1HWC0 layout's c0 is 16 and c1 = ceil(c / 16)",
                               "c1 %d, c0 %d for c %lld", other[2], other[5], static_cast<long long>(c));
        }
    }
    if (static_cast<int64_t>(ot.bytes / 2) < otElems) {
        ascend_twin::FailF(kCall, fractal ? "the FRACTAL_Z_3D tensor holds its layout's elements"
                                          : "the NDC1HWC0 tensor holds its layout's elements",
                           "%s holds %llu, %lld needed", otName, U(ot.bytes / 2), static_cast<long long>(otElems));
    }
    const int64_t tmpBytes = A2TmpBytes(kind, n, c, d, h, w);
    if (static_cast<int64_t>(tmp.bytes) < tmpBytes) {
        ascend_twin::FailF(kCall,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                       "GetTransDataMaxMinTmpSize's size"
                                     : "sharedTmpBuffer holds GetTransDataMaxMinTmpSize's size",
                           "%llu bytes, %lld needed", U(tmp.bytes), static_cast<long long>(tmpBytes));
    }
    const uint64_t ncBytes = static_cast<uint64_t>(ncElems) * 2, otBytes = static_cast<uint64_t>(otElems) * 2;
    const uint64_t srcBytes = fromNcdhw ? ncBytes : otBytes, dstBytes = fromNcdhw ? otBytes : ncBytes;
    if (Overlap(src.addr, srcBytes, dst.addr, dstBytes)) {
        ascend_twin::FailF(kCall, "srcTensor and dstTensor do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "they share bytes");
    }
    if (Overlap(tmp.addr, static_cast<uint64_t>(tmpBytes), src.addr, srcBytes) ||
        Overlap(tmp.addr, static_cast<uint64_t>(tmpBytes), dst.addr, dstBytes)) {
        ascend_twin::FailF(kCall, "the temporary buffer overlaps neither operand (docs: 不支持sharedTmpBuffer与源操作数和"
                                  "目的操作数地址重叠)",
                           "it shares bytes with %s",
                           Overlap(tmp.addr, static_cast<uint64_t>(tmpBytes), src.addr, srcBytes) ? "srcTensor"
                                                                                                   : "dstTensor");
    }
    {
        ascend_twin::Instr instr(kCall, ascend_twin::Pipe::kV);
        instr.Read("srcTensor", src.addr, srcBytes);
        if (tmpBytes != 0) {
            instr.Write(framework ? "the framework's temporary buffer" : "sharedTmpBuffer", tmp.addr,
                        static_cast<uint64_t>(tmpBytes));
        }
        instr.Write("dstTensor", dst.addr, dstBytes);
    }
    const uint8_t* s = static_cast<const uint8_t*>(src.addr);
    uint8_t* t = static_cast<uint8_t*>(const_cast<void*>(dst.addr));
    // An NCDHW result's padding columns: invalid data (docs), unspecified bytes here. A FRACTAL_Z_3D or NDC1HWC0
    // result's padded C0/N0 lanes (c or n not a multiple of 16): 0, A2 feeding them from the zeros it Duplicates
    // into the buffer's start; a source's padded lanes are not read into the result.
    std::memset(t, fromNcdhw ? 0 : 0xff, fromNcdhw ? otBytes : ncBytes);
    const int64_t hw = h * w;
    for (int64_t in = 0; in < n; ++in) {
        for (int64_t ic = 0; ic < c; ++ic) {
            for (int64_t id = 0; id < d; ++id) {
                for (int64_t k = 0; k < hw; ++k) {
                    const int64_t at = ((in * c + ic) * d + id) * padHw + k;
                    const int64_t cc1 = ic / kC0, cc0 = ic % kC0;
                    const int64_t other2 =
                        fractal ? ((((id * c1 + cc1) * hw + k) * n1 + in / kN0) * kN0 + in % kN0) * kC0 + cc0
                                : (((in * d + id) * c1 + cc1) * hw + k) * kC0 + cc0;
                    if (fromNcdhw) std::memcpy(t + other2 * 2, s + at * 2, 2);
                    else std::memcpy(t + at * 2, s + other2 * 2, 2);
                }
            }
        }
    }
    if (tmpBytes != 0) std::memset(const_cast<void*>(tmp.addr), 0xff, static_cast<size_t>(tmpBytes));
    const uint64_t elems = static_cast<uint64_t>(std::max(ncElems, otElems));
    ascend_twin::CountVec(ascend_twin::VecOp::kTransDataTo5HD, elems, (elems + 255) / 256);
}

}  // namespace AscendC::twin_detail
