// For the C++ tests' planted faults: runs a kernel(in, out) on one core and names the rule it broke.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "twin/launch.h"

namespace fault {

using Kernel = void (*)(GM_ADDR, GM_ADDR);

// A one-core launch of kernel(in, out) over these buffers: the rule it broke, or nothing when it ran clean.
inline std::optional<ascend_twin::RuleViolation> Run(Kernel kernel, std::vector<uint8_t>& in, std::vector<uint8_t>& out,
                                                     const char* name = "fault")
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = name;
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e;
    }
    return std::nullopt;
}

// The rule a one-core launch of kernel(in, out) broke, as "call: rule" ("" when it ran clean).
inline std::string Violation(Kernel kernel, std::vector<uint8_t> in = std::vector<uint8_t>(1024),
                             size_t outBytes = 1024)
{
    std::vector<uint8_t> out(outBytes);
    const std::optional<ascend_twin::RuleViolation> broken = Run(kernel, in, out);
    return broken ? broken->call + ": " + broken->rule : "";
}

// The launch broke exactly `expected` ("" = ran clean); says what it got otherwise.
inline bool Broke(Kernel kernel, const std::string& expected, std::vector<uint8_t> in = std::vector<uint8_t>(1024),
                  size_t outBytes = 1024)
{
    const std::string got = Violation(kernel, std::move(in), outBytes);
    if (got != expected) std::printf("  expected '%s', got '%s'\n", expected.c_str(), got.c_str());
    return got == expected;
}

}  // namespace fault
