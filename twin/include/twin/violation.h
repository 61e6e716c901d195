// The exception the twin's launcher throws for a broken rule, and the std::string forms of the rule
// reporting of twin/runtime.h. For the launcher, its callers and twin/src; kernel-facing headers do not
// include it (see twin/runtime.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "twin/runtime.h"

namespace ascend_twin {

// Thrown when a kernel breaks a rule of the hardware or of the Ascend C programming model.
class RuleViolation : public std::runtime_error {
public:
    RuleViolation(std::string kernel, int64_t core, std::string call, std::string rule, std::string detail);
    // `label` names the core in the message ("core 3", or "AIC 1" / "AIV 3" in a MIX launch: CoreLabel).
    RuleViolation(std::string kernel, int64_t core, const std::string& label, std::string call, std::string rule,
                  std::string detail);
    const std::string kernel;
    const int64_t core;
    const std::string call;
    const std::string rule;
    const std::string detail;
};

[[noreturn]] void Fail(const char* call, const char* rule, const std::string& detail);
void Defer(const char* call, const char* rule, const std::string& detail);  // for destructors

std::string Hex(uint64_t v);
std::string CoreLabel(const CoreContext& core);

}  // namespace ascend_twin
