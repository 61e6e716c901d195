// For the advanced-API C++ tests that run a kernel(in, out) on one core over byte buffers: the launch (a broken rule
// is printed and counts as a failure) and half/float elements written into and read from those buffers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "fault_launch.h"
#include "kernel_operator.h"
#include "twin/launch.h"

namespace adv {

// Launches kernel(in, out) on one core; false (and the rule printed after `what`) when it broke one.
inline bool Launch1(void (*kernel)(GM_ADDR, GM_ADDR), const char* name, std::vector<uint8_t>& in,
                    std::vector<uint8_t>& out, const char* what)
{
    const std::optional<ascend_twin::RuleViolation> broken = fault::Run(kernel, in, out, name);
    if (broken) std::printf("  %s: %s: %s (%s)\n", what, broken->call.c_str(), broken->rule.c_str(), broken->detail.c_str());
    return !broken;
}

// Stores v as a T (half: rounded to nearest) at p; returns the value stored.
template <typename T>
double Put(uint8_t* p, float v)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>);
    if constexpr (std::is_same_v<T, float>) {
        std::memcpy(p, &v, 4);
        return v;
    } else {
        const uint16_t h = ascend_twin::FloatToHalfBits(v);
        std::memcpy(p, &h, 2);
        return ascend_twin::HalfBitsToFloat(h);
    }
}

// The T at p.
template <typename T>
double Get(const uint8_t* p)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>);
    if constexpr (std::is_same_v<T, float>) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    } else {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return ascend_twin::HalfBitsToFloat(h);
    }
}

// v rounded to half and back.
inline double RoundHalf(float v) { return ascend_twin::HalfBitsToFloat(ascend_twin::FloatToHalfBits(v)); }

}  // namespace adv
