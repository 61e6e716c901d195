// Element loops of the hottest vector instructions, built a second time for AVX2 (the bfloat16 conversions also
// for AVX-512 F+BW) and chosen at run time
// (the twin's builds target the x86-64 baseline, and CI machines vary). Each computes exactly what the
// instruction's portable loop computes: the same IEEE single-precision operations element by element (no
// FMA contraction, operands may alias as in the portable loop), the same bfloat16 rounding. Each returns
// false, having done nothing, when the CPU lacks AVX2 or the operation is not one it covers: the caller
// then runs its own loop. Out of line in the twin's runtime, so that one copy serves every kernel.
#pragma once

#include <cstdint>

#include "twin/runtime.h"

namespace ascend_twin::simd {

// d[i] = a[i] OP b[i] for OP of kAdd, kSub, kMul, kDiv.
bool BinaryF32(VecOp op, float* d, const float* a, const float* b, int64_t n);
// d[i] = a[i] OP s for OP of kAdds, kMuls.
bool ScalarF32(VecOp op, float* d, const float* a, float s, int64_t n);
// The sum of the 64 floats at a by adjacent pairs, level by level (a[2i] + a[2i+1], then the same over those
// sums, down to one: the WholeReduceSum tree of a full float32 repeat, kernel_reduce_repeat.h's TreeSum), into
// *out. The same single-precision adds in the same pairs as the portable tree.
bool PairTreeSum64F32(const float* a, float* out);
// d[i] = the float of bfloat16 bits s[i] (exact).
bool WidenBf16(float* d, const uint16_t* s, int64_t n);
// d[i] = bfloat16 bits of s[i], rounded to nearest even, NaN kept quiet (FloatToBf16Bits). Not AVX512-BF16's
// VCVTNEPS2BF16: it flushes subnormal inputs to zero (0x00010000 gives 0x0000 on this project's Zen 4 machine,
// where round-to-nearest-even gives 0x0001).
bool NarrowBf16(uint16_t* d, const float* s, int64_t n);
// A checksum of the n bytes at p that depends on each byte's value and its address: the sum, modulo 2^64, over
// the 4-byte words the bytes fall in, of the word (the range's bytes in place, the others 0) times an odd key
// mixed from the word's address. Linear in the bytes, so the checksums of two adjacent ranges add up to the
// checksum of their union (CoreRecords::WriteSum of coalesced writes). Portable: the after-launch comparison with
// what GM holds uses it; the copies into GM sum as they copy (CopyToGmSummed).
uint64_t WriteChecksum(const void* p, uint64_t n);
// Copies n bytes from s to d (not overlapping) and returns WriteChecksum(d, n), computed from the bytes as they
// pass: for copies into GM (ascend_twin::CopyToGm). With AVX2 the copy is 32-byte vector stores: glibc's memcpy
// takes `rep movsb` for these sizes, and into pages the copy touches first (a fresh torch output) that costs a
// third more than vector stores on the CPUs measured (benchmarks/NOTES.md, change 30); the sum costs nothing
// measurable beside the stores (change 33).
uint64_t CopyToGmSummed(void* d, const void* s, uint64_t n);

}  // namespace ascend_twin::simd
