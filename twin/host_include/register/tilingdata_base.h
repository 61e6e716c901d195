// CANN's tiling-data classes (metadef inc/external/register/tilingdata_base.h, implementation
// base/asc/tilingdata_base_impl.cc) on the twin's host side: the macros BEGIN_TILING_DATA_DEF,
// TILING_DATA_FIELD_DEF, TILING_DATA_FIELD_DEF_ARR, TILING_DATA_FIELD_DEF_STRUCT, END_TILING_DATA_DEF and
// REGISTER_TILING_DATA_CLASS, and the classes behind them (optiling::TilingDef, FieldInfo, StructSizeInfoBase,
// CTilingDataClassFactory, TilingDataStructBase), with CANN's names, signatures and byte layout:
//  - fields are laid out in declaration order, each at a multiple of its own size (a scalar's sizeof, an array's
//    element size, 8 for a struct field), the gap filled by a uint8_t placeholder field named "<field>PH"; the
//    whole class is padded to a multiple of 8 ("<class>PH"). So a class of uint32_t fields has the bytes of the
//    kernel-side struct of the same fields under #pragma pack(8) (kernel_tiling/kernel_tiling.h).
//  - every class owns a zeroed buffer of GetDataSize() bytes; set_<field> writes the value there (and keeps a copy
//    that get_<field> returns); an array field's get_ returns a pointer into the buffer; a struct field is a
//    nested tiling-data object whose buffer is the parent's bytes at its offset.
//  - SaveToBuffer(pdata, capacity) copies the GetDataSize() bytes with memcpy_s: a capacity smaller than that
//    clears the first `capacity` bytes of pdata, copies nothing and reports the error (CANN logs it; the twin
//    prints it on stderr, naming the class, the capacity and the size). An object built on an external buffer
//    (the constructor taking a pointer, or a struct field) saves nothing: its bytes are already in place.
//  - TILING_DATA_FIELD_DEF_STRUCT(struct_type, ...) takes struct_type's size from StructSizeInfoBase, where every
//    object of a class records its size on construction (the field's own member, built just before, does).
// CANN's implementation lives in a library; here it is inline in this header (nothing to link). The advanced
// APIs' classes (optiling::SoftMaxTiling, RmsNormTiling, TCubeTiling, ...) are in tiling/**/*_tilingdata.h and
// are registered by those headers, where CANN registers them in its tiling library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <securec.h>

namespace optiling {
class TilingDefImpl;

struct CharPtrCmp {
    bool operator()(const char* strLeft, const char* strRight) const { return std::strcmp(strLeft, strRight) < 0; }
};

// The size of every tiling-data class constructed so far, by class name (the first one recorded stays).
class StructSizeInfoBase {
public:
    static StructSizeInfoBase& GetInstance()
    {
        static StructSizeInfoBase instance;
        return instance;
    }
    void SetStructSize(const char* structType, const size_t structSize)
    {
        structSizeInfo.emplace(structType, structSize);
    }
    size_t GetStructSize(const char* structType) { return structSizeInfo.at(structType); }

private:
    StructSizeInfoBase() {}
    ~StructSizeInfoBase() {}
    StructSizeInfoBase(const StructSizeInfoBase&);
    StructSizeInfoBase& operator=(const StructSizeInfoBase&);
    std::map<const char*, size_t, CharPtrCmp> structSizeInfo;
};

// One field of a tiling-data class: classType_ "0" a scalar, "1" an array (placeholders are uint8_t arrays),
// "2" a nested tiling-data struct.
class FieldInfo {
public:
    FieldInfo(const char* dtype, const char* name) : dtype_(dtype), name_(name), classType_("0") {}
    FieldInfo(const char* dtype, const char* name, size_t arrSize)
        : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1")
    {}
    FieldInfo(const char* dtype, const char* name, const char* structType, size_t structSize)
        : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2")
    {}

public:
    const char* dtype_;
    const char* name_;
    size_t arrSize_;
    const char* structType_;
    size_t structSize_;
    const char* classType_;
};

class TilingDef {
public:
    ~TilingDef()
    {
        if (!inited_data_ptr && data_ptr_ != nullptr) delete[] data_ptr_;
        data_ptr_ = nullptr;
        class_name_ = nullptr;
    }
    void SaveToBuffer(void* pdata, size_t capacity);
    std::vector<FieldInfo> GetFieldInfo() const { return field_info_; }
    const char* GetTilingClassName() const { return class_name_; }
    size_t GetDataSize() const { return data_size_; }
    void SetDataPtr(void* dataPtr);
    void CheckAlignAndGenPlaceHolder(const char* name, size_t typeSize);

protected:
    void InitData();
    void GeLogError(const std::string& str) const
    {
        std::fprintf(stderr, "[ERROR] optiling::TilingDef (%s): %s\n", class_name_ ? class_name_ : "?", str.c_str());
    }
    std::vector<FieldInfo> field_info_;  // dtype, name
    uint8_t* data_ptr_ = nullptr;
    size_t data_size_ = 0;
    const char* class_name_;
    std::vector<std::pair<void*, size_t>> saveBufferPtr;  // nested struct fields: object, offset
    size_t struct_size_ = 0;
    bool inited_data_ptr = false;
    uint32_t feature_bit_flag = 0;
    uint8_t reserved_buf[128] = {0};
    friend class TilingDefImpl;
};

inline void TilingDef::CheckAlignAndGenPlaceHolder(const char* name, size_t typeSize)
{
    const size_t rest = data_size_ % typeSize;
    if (rest == 0) return;
    field_info_.emplace_back(FieldInfo("uint8_t", name, typeSize - rest));
    data_size_ += typeSize - rest;
}

inline void TilingDef::SetDataPtr(void* dataPtr)
{
    if (!inited_data_ptr && data_ptr_ != nullptr) delete[] data_ptr_;
    inited_data_ptr = true;
    data_ptr_ = static_cast<uint8_t*>(dataPtr);
    for (auto& nested : saveBufferPtr) static_cast<TilingDef*>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
}

inline void TilingDef::InitData()
{
    data_ptr_ = new (std::nothrow) uint8_t[data_size_]();
    if (data_ptr_ == nullptr) {
        GeLogError("InitData failed: cannot allocate " + std::to_string(data_size_) + " bytes");
        return;
    }
    for (auto& nested : saveBufferPtr) static_cast<TilingDef*>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
}

inline void TilingDef::SaveToBuffer(void* pdata, size_t capacity)
{
    if (inited_data_ptr) return;  // built on an external buffer: the bytes are already there
    const errno_t ret = memcpy_s(pdata, capacity, data_ptr_, data_size_);
    if (ret != EOK) {
        GeLogError("SaveToBuffer failed: memcpy_s returned " + std::to_string(ret) + ", capacity = " +
                   std::to_string(capacity) + " bytes, data size = " + std::to_string(data_size_) +
                   " bytes (the buffer must hold GetDataSize() bytes)");
    }
}

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

// The tiling-data class registered for each op type (REGISTER_TILING_DATA_CLASS).
class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory& GetInstance()
    {
        static CTilingDataClassFactory instance;
        return instance;
    }
    void RegisterTilingData(const char* op_type, const TilingDataConstructor constructor)
    {
        instance_.emplace(op_type, constructor);
    }
    std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type)
    {
        const auto it = instance_.find(op_type);
        if (it == instance_.end() || it->second == nullptr) return nullptr;
        return (*it->second)();
    }

private:
    CTilingDataClassFactory() {}
    ~CTilingDataClassFactory() {}
    CTilingDataClassFactory(const CTilingDataClassFactory&);
    CTilingDataClassFactory& operator=(const CTilingDataClassFactory&);
    std::map<const char*, TilingDataConstructor, CharPtrCmp> instance_;
};

// Where each tiling struct declared in a header was first seen; a second declaration of the same name elsewhere
// prints a warning (CANN's check for conflicting tiling structs).
class TilingDataStructBase {
public:
    static TilingDataStructBase& GetInstance()
    {
        static TilingDataStructBase instance;
        return instance;
    }
    uint32_t RecordTilingStruct(const char* name, const char* file, uint32_t line)
    {
        const char* slash = std::strrchr(file, '/');
        const char* fileName = slash ? slash + 1 : file;
        const size_t len = std::strlen(fileName);
        if (len < 2 || std::strcmp(fileName + len - 2, ".h") != 0) return 0;  // headers only
        const auto it = records.find(name);
        if (it == records.end()) {
            records.emplace(name, std::make_pair(fileName, line));
        } else if (std::strcmp(it->second.first, fileName) != 0 || it->second.second != line) {
            std::printf("[Warning]: tiling struct [%s] is conflict with one in file %s, line %u\n", name,
                        it->second.first, it->second.second);
        }
        return 0;
    }

private:
    TilingDataStructBase() {}
    ~TilingDataStructBase() {}
    TilingDataStructBase(const TilingDataStructBase&);
    TilingDataStructBase& operator=(const TilingDataStructBase&);
    std::map<const char*, std::pair<const char*, uint32_t>, CharPtrCmp> records;
};
}  // namespace optiling

// Usage (fields: int8_t ... uint64_t, float):
//   BEGIN_TILING_DATA_DEF(MyTilingData)
//   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, dims);
//   TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(MyOp, MyTilingData)
// Each field's member initialiser calls FieldHandler in declaration order, which aligns the running size and
// returns the field's offset; the constructor then pads the class to 8 bytes and allocates its buffer.
#define BEGIN_TILING_DATA_DEF(class_name)                                                                         \
    class class_name : public TilingDef {                                                                         \
    public:                                                                                                       \
        size_t FieldHandler(const char* dtype, const char* name, size_t typeSize, const char* namePh)             \
        {                                                                                                         \
            CheckAlignAndGenPlaceHolder(namePh, typeSize);                                                        \
            field_info_.emplace_back(FieldInfo(dtype, name));                                                     \
            const size_t offset = data_size_;                                                                     \
            data_size_ += typeSize;                                                                               \
            return offset;                                                                                        \
        }                                                                                                         \
        size_t FieldHandler(const char* dtype, const char* name, size_t typeSize, size_t arrSize,                 \
                            const char* namePh)                                                                   \
        {                                                                                                         \
            CheckAlignAndGenPlaceHolder(namePh, typeSize);                                                        \
            field_info_.emplace_back(FieldInfo(dtype, name, arrSize));                                            \
            const size_t offset = data_size_;                                                                     \
            data_size_ += typeSize * arrSize;                                                                     \
            return offset;                                                                                        \
        }                                                                                                         \
        size_t FieldHandler(const char* dtype, const char* name, const char* structType, size_t structSize,       \
                            void* ptr, const char* namePh)                                                        \
        {                                                                                                         \
            CheckAlignAndGenPlaceHolder(namePh, 8);                                                               \
            field_info_.emplace_back(FieldInfo(dtype, name, structType, structSize));                             \
            const size_t offset = data_size_;                                                                     \
            data_size_ += structSize;                                                                             \
            saveBufferPtr.emplace_back(ptr, offset);                                                              \
            struct_size_ += structSize;                                                                           \
            return offset;                                                                                        \
        }                                                                                                         \
                                                                                                                  \
    public:                                                                                                       \
        class_name()                                                                                              \
        {                                                                                                         \
            class_name_ = #class_name;                                                                            \
            CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                                     \
            StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);                             \
            InitData();                                                                                           \
        }                                                                                                         \
        explicit class_name(void* ptr)                                                                            \
        {                                                                                                         \
            class_name_ = #class_name;                                                                            \
            CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                                     \
            StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);                             \
            if (ptr == nullptr) return;                                                                           \
            SetDataPtr(ptr);                                                                                      \
        }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                            \
public:                                                                                                         \
    void set_##field_name(data_type field_name)                                                                 \
    {                                                                                                           \
        field_name##_ = field_name;                                                                             \
        std::memcpy(data_ptr_ + field_name##_offset_, &field_name##_, sizeof(data_type));                       \
    }                                                                                                           \
    data_type get_##field_name() { return field_name##_; }                                                      \
                                                                                                                \
private:                                                                                                        \
    data_type field_name##_ = 0;                                                                                \
    size_t field_name##_offset_ = FieldHandler(#data_type, #field_name, sizeof(data_type), #field_name "PH");   \
    uint8_t field_name##_reserve_buf_[16] = {0};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                               \
public:                                                                                                         \
    void set_##field_name(arr_type* field_name)                                                                 \
    {                                                                                                           \
        const size_t offset = field_name##_offset_;                                                             \
        if (data_ptr_ + offset == reinterpret_cast<uint8_t*>(field_name)) return;                               \
        if (memcpy_s(data_ptr_ + offset, data_size_ - offset, field_name, (arr_size) * sizeof(arr_type)) !=      \
            EOK) {                                                                                              \
            GeLogError("tilingdata_base.h TILING_DATA_FIELD_DEF_ARR memcpy is failed !");                       \
        }                                                                                                       \
    }                                                                                                           \
    arr_type* get_##field_name() { return reinterpret_cast<arr_type*>(data_ptr_ + field_name##_offset_); }     \
                                                                                                                \
private:                                                                                                        \
    arr_type* field_name##_ = nullptr;                                                                          \
    size_t field_name##_offset_ =                                                                               \
        FieldHandler(#arr_type, #field_name, sizeof(arr_type), arr_size, #field_name "PH");                     \
    uint8_t field_name##_reserve_buf_[16] = {0};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                                   \
public:                                                                                                         \
    struct_type field_name{nullptr};                                                                            \
                                                                                                                \
private:                                                                                                        \
    size_t field_name##_offset_ =                                                                               \
        FieldHandler("struct", #field_name, #struct_type,                                                       \
                     StructSizeInfoBase::GetInstance().GetStructSize(#struct_type), (void*)&field_name,         \
                     #field_name "PH");                                                                         \
    uint8_t field_name##_reserve_buf_[16] = {0};

#define END_TILING_DATA_DEF \
    }                       \
    ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                        \
    namespace {                                                                                                \
    class op_type##class_name##Helper {                                                                        \
    public:                                                                                                    \
        op_type##class_name##Helper()                                                                          \
        {                                                                                                      \
            CTilingDataClassFactory::GetInstance().RegisterTilingData(                                         \
                #op_type, op_type##class_name##Helper::CreateTilingDataInstance);                              \
        }                                                                                                      \
        static std::shared_ptr<TilingDef> CreateTilingDataInstance() { return std::make_shared<class_name>(); } \
    };                                                                                                         \
    static class_name g_##op_type##class_name##init;                                                           \
    static op_type##class_name##Helper g_tilingdata_##op_type##class_name##helper;                             \
    }

// The twin's stand-in for the registration CANN's tiling library does for the advanced APIs' classes
// (REGISTER_TILING_DATA_CLASS(SoftMaxTilingOpApi, SoftMaxTiling) in its .cpp files): the same op type and class,
// registered by an inline variable, so that CTilingDataClassFactory knows them before any static object of a
// translation unit that includes the header is constructed.
#define TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(op_type, class_name)                                           \
    struct op_type##class_name##TwinLibraryRegistration {                                                      \
        op_type##class_name##TwinLibraryRegistration()                                                         \
        {                                                                                                      \
            class_name sizeRecorder;                                                                           \
            (void)sizeRecorder;                                                                                \
            CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, &Create);                      \
        }                                                                                                      \
        static std::shared_ptr<TilingDef> Create() { return std::make_shared<class_name>(); }                  \
    };                                                                                                         \
    inline op_type##class_name##TwinLibraryRegistration g_twin_tilingdata_##op_type##class_name{};

// The twin's own, not CANN's: optiling::twin_host::Load (class -> the kernel-side struct of its name) and Store
// (struct -> class) for a tiling-data class whose field names TWIN_TILINGDATA_FIELDS_<Class>(F) lists; used inside
// namespace optiling by the *_tilingdata.h headers, for the optiling:: overloads of the host tiling functions.
#define TWIN_TILINGDATA_LOAD_FIELD(f) to.f = from.get_##f();
#define TWIN_TILINGDATA_STORE_FIELD(f) to.set_##f(from.f);
#define TWIN_TILINGDATA_LOAD_STORE(Class)                                                     \
    namespace twin_host {                                                                     \
    inline void Load(Class& from, AscendC::tiling::Class& to)                                 \
    {                                                                                         \
        TWIN_TILINGDATA_FIELDS_##Class(TWIN_TILINGDATA_LOAD_FIELD)                            \
    }                                                                                         \
    inline void Store(const AscendC::tiling::Class& from, Class& to)                          \
    {                                                                                         \
        TWIN_TILINGDATA_FIELDS_##Class(TWIN_TILINGDATA_STORE_FIELD)                           \
    }                                                                                         \
    }
