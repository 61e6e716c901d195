// The twin's CANN tiling-data classes (twin/host_include/register/tilingdata_base.h and the advanced APIs'
// optiling:: classes in twin/host_include/tiling/**/*_tilingdata.h): field layout and padding as metadef computes
// it, set/get, SaveToBuffer's byte image against independently packed structs, a too-small buffer, objects on
// an external buffer, nested struct fields, registration of several ops in one unit, and each advanced API's
// class against the kernel-side struct of the same name (kernel_tiling/kernel_tiling.h), field by field.
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.h"
#include "register/tilingdata_base.h"
#include "tiling/activation/logsoftmax_tilingdata.h"
#include "tiling/activation/softmax_tilingdata.h"
#include "tiling/matmul/matmul_tilingdata.h"
#include "tiling/normalization/batchnorm_tilingdata.h"
#include "tiling/normalization/deepnorm_tilingdata.h"
#include "tiling/normalization/groupnorm_tilingdata.h"
#include "tiling/normalization/layernorm_grad_beta_tilingdata.h"
#include "tiling/normalization/layernorm_grad_tilingdata.h"
#include "tiling/normalization/layernorm_tilingdata.h"
#include "tiling/normalization/rmsnorm_tilingdata.h"
#include "tiling/pad/pad_tilingdata.h"
#include "tiling/sort/topk_tilingdata.h"
#include "tiling/transpose/confusion_transpose_tilingdata.h"

namespace optiling {
// Every alignment case: a byte, a uint32_t after it (3 bytes of padding), an int64_t (4), an array of uint16_t,
// a float after it (2), a nested struct (aligned to 8, not to its fields' 4), a trailing byte (the class padded to 8).
BEGIN_TILING_DATA_DEF(MixedTilingData)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(int64_t, offset);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, dims);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
TILING_DATA_FIELD_DEF(int8_t, last);
END_TILING_DATA_DEF;

// The shape of the asc-devkit examples' classes: uint32_t fields, then an advanced API's struct.
BEGIN_TILING_DATA_DEF(ExampleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, tmpSize);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsnorm);
END_TILING_DATA_DEF;

// Registered twice (two ops sharing one class) and a second class for a third op: all in one unit.
REGISTER_TILING_DATA_CLASS(TwinOpA, ExampleTilingData)
REGISTER_TILING_DATA_CLASS(TwinOpB, ExampleTilingData)
REGISTER_TILING_DATA_CLASS(TwinOpC, MixedTilingData)

// A struct field's type records its own size when the field is built (the member is constructed before the
// offset that asks for the size), so a type nested before any object of it was built is laid out too.
BEGIN_TILING_DATA_DEF(NeverBuiltTiling)
TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(OuterOfNeverBuilt)
TILING_DATA_FIELD_DEF(uint32_t, b);
TILING_DATA_FIELD_DEF_STRUCT(NeverBuiltTiling, inner);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace {

// MixedTilingData packed independently: the offsets metadef's alignment rule gives, written out by hand.
struct MixedImage {
    static constexpr size_t kFlag = 0, kLength = 4, kOffset = 8, kDims = 16, kScale = 24, kSoftmax = 32;
    static constexpr size_t kLast = 32 + 64, kSize = 104;
};

template <typename T>
T Get(const std::vector<uint8_t>& bytes, size_t at)
{
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    return v;
}

uint32_t Rand32() { return check::Rng()(); }

std::vector<uint8_t> Save(optiling::TilingDef& t, size_t capacity, uint8_t fill = 0xA5)
{
    std::vector<uint8_t> buf(capacity + 16, fill);
    t.SaveToBuffer(buf.data(), capacity);
    return buf;
}

// Sets every field of an optiling class and the kernel struct of the same name to the same random values;
// SaveToBuffer must give the struct's bytes, and Load must give back the struct.
template <typename Optiling, typename Kernel, typename SetAll>
void CheckAgainstKernelStruct(const char* name, SetAll setAll)
{
    Optiling t;
    Kernel k{};
    setAll(t, k);
    CHECK_EQ(t.GetDataSize(), sizeof(Kernel));
    const std::vector<uint8_t> buf = Save(t, t.GetDataSize());
    if (std::memcmp(buf.data(), &k, sizeof(Kernel)) != 0) {
        std::printf("  %s: SaveToBuffer's bytes differ from the kernel-side struct\n", name);
        ++check::Failures();
    }
    Kernel back{};
    optiling::twin_host::Load(t, back);
    CHECK(std::memcmp(&back, &k, sizeof(Kernel)) == 0);
    Optiling u;
    optiling::twin_host::Store(k, u);
    const std::vector<uint8_t> buf2 = Save(u, u.GetDataSize());
    CHECK(std::memcmp(buf2.data(), &k, sizeof(Kernel)) == 0);
    CHECK(std::string(t.GetTilingClassName()) == name);
}

#define TWIN_SET_RANDOM(f)                                                         \
    {                                                                              \
        using FieldT = decltype(k.f);                                              \
        FieldT v;                                                                  \
        if constexpr (std::is_floating_point<FieldT>::value)                       \
            v = static_cast<FieldT>(static_cast<int32_t>(Rand32()) / 1024.0f);     \
        else                                                                       \
            v = static_cast<FieldT>(Rand32() | 1u);                                \
        t.set_##f(v);                                                              \
        k.f = v;                                                                   \
    }

}  // namespace

TEST_CASE("metadef's layout: each field at a multiple of its size, structs at 8, the class padded to 8")
{
    optiling::MixedTilingData t;
    CHECK_EQ(t.GetDataSize(), MixedImage::kSize);
    // The placeholders metadef records, in order, with their sizes.
    std::vector<std::string> names;
    std::vector<size_t> placeholderSizes;
    for (const optiling::FieldInfo& f : t.GetFieldInfo()) {
        names.push_back(f.name_);
        if (std::string(f.name_).size() > 2 && std::string(f.name_).substr(std::string(f.name_).size() - 2) == "PH")
            placeholderSizes.push_back(f.arrSize_);
    }
    const std::vector<std::string> expected = {"flag", "lengthPH", "length", "offset", "dims", "scalePH", "scale",
                                               "softmaxPH", "softmax", "last", "MixedTilingDataPH"};
    CHECK(names == expected);
    CHECK((placeholderSizes == std::vector<size_t>{3, 2, 4, 7}));
    CHECK(std::string(t.GetFieldInfo()[4].classType_) == "1");
    CHECK(std::string(t.GetFieldInfo()[8].classType_) == "2");
    CHECK_EQ(t.GetFieldInfo()[8].structSize_, sizeof(AscendC::tiling::SoftMaxTiling));
    // The examples' shape: 3 uint32_t (12 bytes) then a struct, aligned to 16.
    optiling::ExampleTilingData e;
    CHECK_EQ(e.GetDataSize(), 16 + sizeof(AscendC::tiling::RmsNormTiling));
}

TEST_CASE("set/get and SaveToBuffer's byte image, with a nested struct and an array")
{
    optiling::MixedTilingData t;
    const uint8_t flag = static_cast<uint8_t>(Rand32() | 1);
    const uint32_t length = Rand32() | 1;
    const int64_t offset = -static_cast<int64_t>(Rand32()) * 3 - 1;
    uint16_t dims[3] = {static_cast<uint16_t>(Rand32()), static_cast<uint16_t>(Rand32()), 7};
    const float scale = static_cast<float>(Rand32() % 1000) / 8.0f + 0.5f;
    const int8_t last = -static_cast<int8_t>(Rand32() % 100) - 1;
    t.set_flag(flag);
    t.set_length(length);
    t.set_offset(offset);
    t.set_dims(dims);
    t.set_scale(scale);
    t.set_last(last);
    AscendC::tiling::SoftMaxTiling k{};
    k.srcM = Rand32();
    k.splitK = Rand32();
    k.tailReduceSize = Rand32();
    t.softmax.set_srcM(k.srcM);
    t.softmax.set_splitK(k.splitK);
    t.softmax.set_tailReduceSize(k.tailReduceSize);
    CHECK_EQ(t.get_flag(), flag);
    CHECK_EQ(t.get_length(), length);
    CHECK_EQ(t.get_offset(), offset);
    CHECK_EQ(t.get_dims()[1], dims[1]);
    CHECK_EQ(t.get_scale(), scale);
    CHECK_EQ(t.get_last(), last);
    CHECK_EQ(t.softmax.get_splitK(), k.splitK);

    const std::vector<uint8_t> buf = Save(t, t.GetDataSize());
    CHECK_EQ(Get<uint8_t>(buf, MixedImage::kFlag), flag);
    CHECK_EQ(Get<uint32_t>(buf, MixedImage::kLength), length);
    CHECK_EQ(Get<int64_t>(buf, MixedImage::kOffset), offset);
    for (int i = 0; i < 3; ++i) CHECK_EQ(Get<uint16_t>(buf, MixedImage::kDims + 2 * i), dims[i]);
    CHECK_EQ(Get<float>(buf, MixedImage::kScale), scale);
    CHECK(std::memcmp(buf.data() + MixedImage::kSoftmax, &k, sizeof(k)) == 0);
    CHECK_EQ(Get<int8_t>(buf, MixedImage::kLast), last);
    // Padding bytes are zero; nothing is written past the data size.
    for (size_t at : {1, 2, 3, 22, 23, 28, 29, 30, 31, 97, 103}) CHECK_EQ(buf[at], 0);
    CHECK_EQ(buf[MixedImage::kSize], 0xA5);
    // Setting the array from its own storage is a no-op, not an overlapping copy.
    t.set_dims(t.get_dims());
    CHECK_EQ(t.get_dims()[2], 7);
}

TEST_CASE("SaveToBuffer with a capacity below GetDataSize clears the capacity's bytes and copies nothing")
{
    optiling::ExampleTilingData t;
    t.set_rows(Rand32() | 1);
    t.rmsnorm.set_bLength(Rand32() | 1);
    const size_t size = t.GetDataSize();
    for (size_t capacity : {size - 1, size / 2, size_t{4}}) {
        const std::vector<uint8_t> buf = Save(t, capacity, 0xA5);
        for (size_t i = 0; i < capacity; ++i) CHECK_EQ(buf[i], 0);
        for (size_t i = capacity; i < buf.size(); ++i) CHECK_EQ(buf[i], 0xA5);
    }
    // The passing counterpart: exactly the data size, and more.
    for (size_t capacity : {size, size + 16}) {
        const std::vector<uint8_t> buf = Save(t, capacity, 0xA5);
        CHECK_EQ(Get<uint32_t>(buf, 0), t.get_rows());
        CHECK_EQ(Get<uint32_t>(buf, 16), t.rmsnorm.get_bLength());
        CHECK_EQ(buf[size], 0xA5);
    }
}

TEST_CASE("an object built on an external buffer writes there and SaveToBuffer saves nothing")
{
    alignas(8) uint8_t external[64] = {};
    optiling::RmsNormTiling t(external);
    const uint32_t h = Rand32() | 1;
    t.set_hLength(h);
    CHECK_EQ(Get<uint32_t>(std::vector<uint8_t>(external, external + 64), 8), h);
    const std::vector<uint8_t> buf = Save(t, t.GetDataSize(), 0x5A);
    CHECK_EQ(buf[8], 0x5A);  // untouched
    optiling::RmsNormTiling onNull(nullptr);  // CANN's nested-field form: no buffer of its own yet
    CHECK_EQ(onNull.GetDataSize(), sizeof(AscendC::tiling::RmsNormTiling));
}

TEST_CASE("REGISTER_TILING_DATA_CLASS: several ops in one unit, the library's classes under <Class>OpApi")
{
    auto& factory = optiling::CTilingDataClassFactory::GetInstance();
    for (const char* op : {"TwinOpA", "TwinOpB"}) {
        auto t = factory.CreateTilingDataInstance(op);
        CHECK(t != nullptr && std::string(t->GetTilingClassName()) == "ExampleTilingData");
    }
    auto c = factory.CreateTilingDataInstance("TwinOpC");
    CHECK(c != nullptr && c->GetDataSize() == MixedImage::kSize);
    CHECK(factory.CreateTilingDataInstance("NoSuchOp") == nullptr);
    for (const char* op : {"SoftMaxTilingOpApi", "LogSoftMaxTilingOpApi", "RmsNormTilingOpApi",
                           "LayerNormTilingOpApi", "LayerNormSeparateTilingOpApi", "TCubeTilingOpApi",
                           "LayerNormGradTilingOpApi", "LayerNormGradBetaTilingOpApi", "DeepNormTilingOpApi",
                           "BatchNormTilingOpApi", "GroupNormTilingOpApi", "PadTilingOpApi", "UnPadTilingOpApi",
                           "TopkTilingOpApi", "ConfusionTransposeTilingOpApi"}) {
        auto t = factory.CreateTilingDataInstance(op);
        CHECK(t != nullptr && std::string(t->GetTilingClassName()) + "OpApi" == op);
    }
}

TEST_CASE("a struct field of a type never built before: the field records its size; the struct aligned to 8")
{
    optiling::OuterOfNeverBuilt t;
    CHECK_EQ(t.GetDataSize(), 16u);  // b (4), 4 bytes of padding, the inner class (4, padded to 8)
    CHECK_EQ(optiling::StructSizeInfoBase::GetInstance().GetStructSize("NeverBuiltTiling"), 8u);
    const uint32_t a = Rand32() | 1, b = Rand32() | 1;
    t.set_b(b);
    t.inner.set_a(a);
    const std::vector<uint8_t> buf = Save(t, 16);
    CHECK_EQ(Get<uint32_t>(buf, 0), b);
    CHECK_EQ(Get<uint32_t>(buf, 8), a);
    CHECK_EQ(Get<uint32_t>(buf, 4), 0u);
    CHECK_EQ(Get<uint32_t>(buf, 12), 0u);
    bool threw = false;  // a name no class ever recorded: the lookup throws, as CANN's map lookup does
    try {
        (void)optiling::StructSizeInfoBase::GetInstance().GetStructSize("NoSuchTiling");
    } catch (const std::out_of_range&) {
        threw = true;
    }
    CHECK(threw);
}

TEST_CASE("the advanced APIs' optiling:: classes have the kernel-side structs' bytes, field by field")
{
    CheckAgainstKernelStruct<optiling::SoftMaxTiling, AscendC::tiling::SoftMaxTiling>(
        "SoftMaxTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_SoftMaxTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::LogSoftMaxTiling, AscendC::tiling::LogSoftMaxTiling>(
        "LogSoftMaxTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_LogSoftMaxTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::RmsNormTiling, AscendC::tiling::RmsNormTiling>(
        "RmsNormTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_RmsNormTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::LayerNormTiling, AscendC::tiling::LayerNormTiling>(
        "LayerNormTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_LayerNormTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::LayerNormSeparateTiling, AscendC::tiling::LayerNormSeparateTiling>(
        "LayerNormSeparateTiling",
        [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_LayerNormSeparateTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::TCubeTiling, AscendC::tiling::TCubeTiling>(
        "TCubeTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_TCubeTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::LayerNormGradTiling, AscendC::tiling::LayerNormGradTiling>(
        "LayerNormGradTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_LayerNormGradTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::LayerNormGradBetaTiling, AscendC::tiling::LayerNormGradBetaTiling>(
        "LayerNormGradBetaTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_LayerNormGradBetaTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::DeepNormTiling, AscendC::tiling::DeepNormTiling>(
        "DeepNormTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_DeepNormTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::BatchNormTiling, AscendC::tiling::BatchNormTiling>(
        "BatchNormTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_BatchNormTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::GroupNormTiling, AscendC::tiling::GroupNormTiling>(
        "GroupNormTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_GroupNormTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::PadTiling, AscendC::tiling::PadTiling>(
        "PadTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_PadTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::UnPadTiling, AscendC::tiling::UnPadTiling>(
        "UnPadTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_UnPadTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::TopkTiling, AscendC::tiling::TopkTiling>(
        "TopkTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_TopkTiling(TWIN_SET_RANDOM) });
    CheckAgainstKernelStruct<optiling::ConfusionTransposeTiling, AscendC::tiling::ConfusionTransposeTiling>(
        "ConfusionTransposeTiling", [](auto& t, auto& k) { TWIN_TILINGDATA_FIELDS_ConfusionTransposeTiling(TWIN_SET_RANDOM) });
}

TEST_CASE("securec's memcpy_s: errors clear the destination where securec does")
{
    uint8_t dst[8], src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    std::memset(dst, 0xEE, 8);
    CHECK_EQ(memcpy_s(dst, 8, src, 8), EOK);
    CHECK(std::memcmp(dst, src, 8) == 0);
    std::memset(dst, 0xEE, 8);
    CHECK_EQ(memcpy_s(dst, 4, src, 5), ERANGE_AND_RESET);
    CHECK(dst[0] == 0 && dst[3] == 0 && dst[4] == 0xEE);
    CHECK_EQ(memcpy_s(dst, 0, src, 0), ERANGE);
    CHECK_EQ(memcpy_s(nullptr, 8, src, 1), EINVAL);
    std::memset(dst, 0xEE, 8);
    CHECK_EQ(memcpy_s(dst, 8, nullptr, 1), EINVAL_AND_RESET);
    CHECK_EQ(dst[7], 0);
    CHECK_EQ(memcpy_s(src + 1, 7, src, 4), EOVERLAP_AND_RESET);
    CHECK_EQ(memcpy_s(dst, 8, src, 0), EOK);
}

TEST_MAIN()
