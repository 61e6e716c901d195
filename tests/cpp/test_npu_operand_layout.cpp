// How the NPU adapter describes operands to aclCreateTensor (torch_ext/csrc/npu/operand_layout.h): the
// decisions that keep a view into a larger storage, a strided view or a private NPU format from being
// read as something else by a kernel. Pure C++: checked here although the adapter itself runs only on NPUs.
#include "check.h"
#include "torch_ext/csrc/npu/operand_layout.h"

using namespace ascend_ext::npu;
using Dims = std::vector<int64_t>;

TEST_CASE("a dense operand is described as exactly its own elements")
{
    // e.g. a[1] of a (4, 3, 5) tensor: its storage holds 60 elements and it starts at element 15, but the
    // kernel must see 15 elements from its first one.
    const OperandLayout l = DescribeDenseOperand({3, 5});
    CHECK(l.viewDims == (Dims{3, 5}));
    CHECK(l.storageDims == (Dims{3, 5}));
    CHECK(l.strides == (Dims{5, 1}));
    CHECK_EQ(l.offset, 0);
}

TEST_CASE("scalars and empty tensors have well formed descriptions")
{
    const OperandLayout scalar = DescribeDenseOperand({});
    CHECK(scalar.viewDims.empty() && scalar.storageDims.empty() && scalar.strides.empty());
    const OperandLayout empty = DescribeDenseOperand({2, 0, 3});
    CHECK(empty.strides == (Dims{3, 3, 1}));  // as torch gives contiguous strides of an empty tensor
}

TEST_CASE("contiguous strides match torch")
{
    CHECK(ContiguousStrides({2, 3, 4}) == (Dims{12, 4, 1}));
    CHECK(ContiguousStrides({7}) == (Dims{1}));
    CHECK(ContiguousStrides({2, 1, 4}) == (Dims{4, 4, 1}));
}

TEST_CASE("only dense row major operands are passed without a copy")
{
    CHECK(IsDenseRowMajor({3, 5}, {5, 1}));
    CHECK(IsDenseRowMajor({}, {}));
    CHECK(IsDenseRowMajor({3, 1, 5}, {5, 99, 1}));  // a size-1 dim's stride addresses nothing
    CHECK(IsDenseRowMajor({2, 0}, {7, 3}));          // empty: nothing to address
    CHECK(!IsDenseRowMajor({3, 5}, {1, 3}));         // a transpose
    CHECK(!IsDenseRowMajor({3, 5}, {10, 1}));        // every other row (a[::2] of a wider view)
    CHECK(!IsDenseRowMajor({4}, {2}));               // a[::2]
    CHECK(!IsDenseRowMajor({3, 5}, {0, 1}));         // an expanded (broadcast) view
    CHECK(!IsDenseRowMajor({3}, {1, 1}));            // malformed
}

TEST_CASE("private npu formats are told from plain layouts")
{
    for (int64_t plain : {0, 1, 2, 16, 27, 30, 35, 47}) CHECK(IsPlainFormat(plain));  // NCHW NHWC ND HWCN ...
    CHECK_EQ(kAclFormatND, 2);
    // NC1HWC0, FRACTAL_Z, NC1HWC0_C04, FRACTAL_NZ, NDC1HWC0, FRACTAL_Z_3D, FRACTAL_NZ_C0_16..8, undefined
    for (int64_t priv : {3, 4, 12, 29, 32, 33, 50, 51, 52, 53, 54, -1, 1000}) CHECK(!IsPlainFormat(priv));
}

TEST_MAIN()
