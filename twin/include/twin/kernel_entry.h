// What a kernel entry point takes, read from its own signature: how many parameters, and for each
// whether it is a GM address or a value passed by copy (a scalar or a struct, as a <<<>>> launch can
// pass), with its size. Used by ascend_ext.twin.compile_kernels to check a launch's arguments and to
// pass values; the launcher calls the entry through `invoke`.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "twin/c_api.h"

// The bounds of the sections the kernel-type qualifiers put entries in (twin/kernel_types.h); the linker
// defines them in the kernel library when the section exists, else they stay null.
#define ASCEND_TWIN_SECTION_BOUNDS(NAME)                                                   \
    extern "C" const char __start_##NAME[] __attribute__((weak, visibility("hidden"))); \
    extern "C" const char __stop_##NAME[] __attribute__((weak, visibility("hidden")));
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_mix_0_1)
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_mix_1_0)
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_mix_1_1)
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_mix_1_2)
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_cube)
ASCEND_TWIN_SECTION_BOUNDS(ascend_twin_vector)
#undef ASCEND_TWIN_SECTION_BOUNDS

namespace ascend_twin::entry_detail {

inline bool InSection(const void* fn, const char* start, const char* stop)
{
    const auto p = reinterpret_cast<uintptr_t>(fn);
    return start != nullptr && p >= reinterpret_cast<uintptr_t>(start) && p < reinterpret_cast<uintptr_t>(stop);
}

// The KernelMetaType (twin/kernel_sys_var.h) of an entry from its qualifier, or -1.
inline int32_t QualifiedKernelType(const void* fn)
{
    if (InSection(fn, __start_ascend_twin_mix_1_2, __stop_ascend_twin_mix_1_2)) return 5;  // MIX_AIC_1_2
    if (InSection(fn, __start_ascend_twin_mix_1_1, __stop_ascend_twin_mix_1_1)) return 4;  // MIX_AIC_1_1
    if (InSection(fn, __start_ascend_twin_mix_1_0, __stop_ascend_twin_mix_1_0)) return 3;  // MIX_AIC_1_0
    if (InSection(fn, __start_ascend_twin_mix_0_1, __stop_ascend_twin_mix_0_1)) return 2;  // MIX_AIV_1_0
    if (InSection(fn, __start_ascend_twin_cube, __stop_ascend_twin_cube)) return 1;        // AIC_ONLY
    if (InSection(fn, __start_ascend_twin_vector, __stop_ascend_twin_vector)) return 0;    // AIV_ONLY
    return -1;
}

template <typename P>
constexpr uint32_t Kind()
{
    using T = std::decay_t<P>;
    if constexpr (std::is_pointer_v<T>) return ASCEND_TWIN_PARAM_GM;
    else if constexpr (std::is_floating_point_v<T>) return ASCEND_TWIN_PARAM_FLOAT;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return ASCEND_TWIN_PARAM_INT;
    else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) return ASCEND_TWIN_PARAM_UINT;
    else return ASCEND_TWIN_PARAM_STRUCT;
}

template <typename... P, size_t... I>
void Invoke(void* fn, void* const* values, std::index_sequence<I...>)
{
    reinterpret_cast<void (*)(P...)>(fn)(*static_cast<std::decay_t<P>*>(values[I])...);
}

template <typename... P>
void InvokeEntry(void* fn, void* const* values)
{
    Invoke<P...>(fn, values, std::index_sequence_for<P...>{});
}

template <typename... P>
AscendTwinEntry Describe(void (*fn)(P...))
{
    static_assert(sizeof...(P) <= ASCEND_TWIN_MAX_PARAMS, "the twin launches kernels of up to 16 parameters");
    static_assert((std::is_trivially_copyable_v<std::decay_t<P>> && ...),
                  "kernel parameters are GM addresses or trivially copyable values");
    AscendTwinEntry e{};
    e.fn = reinterpret_cast<void*>(fn);
    e.invoke = &InvokeEntry<P...>;
    e.arity = sizeof...(P);
    e.kernel_type = QualifiedKernelType(e.fn);
    const uint32_t kinds[] = {Kind<P>()..., 0};
    const uint32_t sizes[] = {static_cast<uint32_t>(sizeof(std::decay_t<P>))..., 0};
    for (uint32_t i = 0; i < e.arity; ++i) {
        e.kinds[i] = kinds[i];
        e.sizes[i] = sizes[i];
    }
    return e;
}

}  // namespace ascend_twin::entry_detail

// Exports `const AscendTwinEntry* ascend_twin_entry_<NAME>()` describing the kernel NAME.
#define ASCEND_TWIN_EXPORT_ENTRY(NAME)                                                                  \
    extern "C" __attribute__((visibility("default"))) const AscendTwinEntry* ascend_twin_entry_##NAME() \
    {                                                                                                   \
        static const AscendTwinEntry entry = ascend_twin::entry_detail::Describe(&NAME);                \
        return &entry;                                                                                  \
    }

// The same for an entry NAME whose name a template entry shares (`template <uint32_t schMode> __global__ void
// k(...)` beside `extern "C" __global__ void k(...)`, as op sources declare them): NAME is an overload set, from
// which its parameter list (the variadic part, as written) picks the non-template entry.
#define ASCEND_TWIN_EXPORT_ENTRY_TYPED(NAME, ...)                                                                 \
    extern "C" __attribute__((visibility("default"))) const AscendTwinEntry* ascend_twin_entry_##NAME()           \
    {                                                                                                             \
        static const AscendTwinEntry entry =                                                                      \
            ascend_twin::entry_detail::Describe(static_cast<void (*)(__VA_ARGS__)>(&NAME));                       \
        return &entry;                                                                                            \
    }

// The same for a function FN reached by a qualified name (a kernel built inside a namespace of its own).
#define ASCEND_TWIN_EXPORT_ENTRY_AS(NAME, FN)                                                           \
    extern "C" __attribute__((visibility("default"))) const AscendTwinEntry* ascend_twin_entry_##NAME() \
    {                                                                                                   \
        static const AscendTwinEntry entry = ascend_twin::entry_detail::Describe(&FN);                  \
        return &entry;                                                                                  \
    }
