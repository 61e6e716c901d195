// ListTensorDesc and TensorDesc (include/basic_api/kernel_operator_list_tensor_intf.h): a dynamic input list
// as the op framework lays it out in GM. The block starts with the byte offset of its data pointers; then one
// descriptor per tensor: a word (its index << 32 | dim) and dim shape words (dim 0: the whole list has one
// word 0xffffffff after the first); then the data pointers. The twin decodes it as A2 does and checks what
// the real implementation asserts (counts, indices, the layout's consistency), as rule violations.
#pragma once

#include <cstdint>

#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}
    __aicore__ inline ~TensorDesc() {}
    __aicore__ inline void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    __aicore__ inline uint64_t GetDim() { return dim_; }
    __aicore__ inline uint64_t GetIndex() { return index_; }
    __aicore__ inline uint64_t GetShape(uint32_t offset)
    {
        if (offset >= dim_ || shape_ == nullptr) {
            ascend_twin::FailF("TensorDesc::GetShape", "TensorDesc::GetShape's offset is below the tensor's dim",
                               "offset %u of a %u-dimensional tensor", offset, dim_);
        }
        return shape_[offset];
    }
    __aicore__ inline __gm__ T* GetDataPtr() { return ptr_; }
    __aicore__ inline GlobalTensor<T> GetDataObj()
    {
        uint64_t size = 1;
        for (uint32_t i = 0; i < dim_; ++i) size *= shape_[i];
        GlobalTensor<T> obj;
        obj.SetGlobalBuffer(ptr_, size);
        return obj;
    }
    friend class ListTensorDesc;

private:
    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t* shape_ = nullptr;
    __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ~ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff)
    {
        Init(data, length, shapeSize);
    }
    __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff)
    {
        constexpr const char* kCall = "ListTensorDesc";
        if (data == nullptr) ascend_twin::Fail(kCall, "a ListTensorDesc decodes a list in GM", "the address is null");
        auto* words = static_cast<uint64_t*>(data);
        ascend_twin::CheckGmRead(kCall, words, 16);
        const uint64_t dataPtrOffset = words[0];
        shapeStart_ = words + 1;
        dataPtr_ = words + dataPtrOffset / sizeof(uint64_t);
        dim_ = static_cast<uint32_t>(*shapeStart_ & 0xffffffff);
        const uint32_t offset = static_cast<uint32_t>(*shapeStart_ >> 32);
        descStructSize_ = dim_ == 0 ? 2 : 1 + dim_;
        ascend_twin::CheckGmRead(kCall, words, dataPtrOffset);
        count_ = offset != 0 ? offset : static_cast<uint32_t>((*(dataPtr_ - descStructSize_) >> 32) + 1);
        const bool consistent =
            (dim_ != 0 && count_ == (dataPtrOffset - sizeof(uint64_t)) / (descStructSize_ * sizeof(uint64_t))) ||
            (dim_ == 0 && *(shapeStart_ + 1) == 0xffffffff && dataPtrOffset == 24);
        if (!consistent) {
            ascend_twin::FailF(kCall, "a ListTensorDesc decodes the op framework's list layout",
                               "dim %u, %u tensors and a data-pointer offset of %llu bytes do not agree", dim_, count_,
                               static_cast<unsigned long long>(dataPtrOffset));
        }
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || length != dataPtrOffset + count_ * sizeof(uint64_t))) {
            ascend_twin::FailF(kCall, "a ListTensorDesc's length and shapeSize match the list",
                               "length %u, shapeSize %u for %u tensors", length, shapeSize, count_);
        }
        ascend_twin::CheckGmRead(kCall, dataPtr_, count_ * sizeof(uint64_t));
    }
    template <class T>
    __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index)
    {
        CheckIndex("ListTensorDesc::GetDesc", index);
        if (dim_ == 0) {
            ascend_twin::Fail("ListTensorDesc::GetDesc", "GetDesc reads a list with shapes (dim > 0)", "dim is 0");
        }
        desc.dim_ = dim_;
        desc.ptr_ = reinterpret_cast<__gm__ T*>(dataPtr_[index]);
        desc.index_ = index;
        desc.shape_ = shapeStart_ + static_cast<uint64_t>(index) * descStructSize_ + 1;
    }
    template <class T>
    __aicore__ inline __gm__ T* GetDataPtr(uint32_t index)
    {
        CheckIndex("ListTensorDesc::GetDataPtr", index);
        return reinterpret_cast<__gm__ T*>(dataPtr_[index]);
    }
    __aicore__ inline uint32_t GetSize() { return count_; }

private:
    void CheckIndex(const char* call, uint32_t index) const
    {
        if (index >= count_) {
            ascend_twin::FailF(call, "list indices are below the list's size", "index %u of a list of %u tensors",
                               index, count_);
        }
    }

    uint64_t* dataPtr_ = nullptr;
    uint64_t* shapeStart_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t descStructSize_ = 0;
    uint32_t count_ = 0;
};

}  // namespace AscendC
