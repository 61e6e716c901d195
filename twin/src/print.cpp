// AscendC::printf's text (twin/include/twin/kernel_print.h): the host parser's conversions applied to the
// arguments' 8-byte slots, as the runtime formats the device's dump buffer.
#include "twin/kernel_print.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

#include "twin/runtime.h"

namespace ascend_twin {

namespace {

constexpr const char* kCall = "AscendC::printf";
constexpr const char* kConversions = "%d %i %u %x %X (with l or ll), %f %F, %p, %s and %%";

// The conversion at `p` (just past the '%'): up to two 'l's and one character, as the parser reads it.
std::string ConversionAt(const char* p)
{
    std::string spec;
    while (spec.size() < 2 && *p == 'l') spec += *p++;
    if (*p != '\0') spec += *p;
    return spec;
}

// The format as C source writes it, for messages (newlines as \n).
std::string Quoted(const char* format)
{
    std::string q = "\"";
    for (const char* p = format; *p != '\0'; ++p) q += *p == '\n' ? std::string("\\n") : std::string(1, *p);
    return q + "\"";
}

// The host parser's table of conversions.
bool Supported(const std::string& spec)
{
    static const char* const kSpecs[] = {"d", "ld", "lld", "i", "li", "lli", "u", "lu", "llu", "x", "lx", "llx",
                                         "X", "lX", "llX", "f", "F", "p", "s"};
    for (const char* s : kSpecs) {
        if (spec == s) return true;
    }
    return false;
}

template <typename T>
T SlotAs(uint64_t slot)
{
    T v;
    std::memcpy(&v, &slot, sizeof v);
    return v;
}

}  // namespace

void KernelPrintf(const char* format, const PrintArg* args, uint32_t count)
{
    std::string out;
    uint32_t next = 0;
    for (const char* p = format; *p != '\0';) {
        if (*p != '%') {
            out += *p++;
            continue;
        }
        ++p;
        if (*p == '%') {  // "%%" prints one percent sign
            out += '%';
            ++p;
            continue;
        }
        const std::string spec = ConversionAt(p);
        if (!Supported(spec)) {
            FailF(kCall, "printf's conversions are the ones the NPU's printf parser takes",
                  "'%%%s' in %s: the parser takes %s, with no flags, widths or precisions (the NPU prints the text up "
                  "to there, logs an error and drops the rest; the twin is stricter here)",
                  spec.c_str(), Quoted(format).c_str(), kConversions);
        }
        if (next >= count) {
            FailF(kCall, "printf has an argument for every conversion",
                  "conversion %u ('%%%s') of %s has no argument (%u given; the NPU stops the text there)", next + 1,
                  spec.c_str(), Quoted(format).c_str(), count);
        }
        const PrintArg& a = args[next++];
        const bool string = spec == "s";
        if (string != (a.kind == PrintArg::kString)) {
            FailF(kCall, "printf's %s takes a string and its other conversions a number or pointer",
                  "conversion %u ('%%%s') of %s is given %s (the host would read the slot as %s)", next,
                  spec.c_str(), Quoted(format).c_str(), a.kind == PrintArg::kString ? "a string" : "a number",
                  string ? "a string's offset" : "a number");
        }
        switch (spec.back()) {
            case 'd': case 'i': out += std::to_string(SlotAs<int64_t>(a.slot)); break;
            case 'u': out += std::to_string(a.slot); break;
            case 'f': case 'F': out += std::to_string(SlotAs<float>(a.slot)); break;
            case 'x': case 'X': {
                std::ostringstream hex;
                if (spec.back() == 'X') hex << std::uppercase;
                hex << std::hex << SlotAs<int64_t>(a.slot);
                out += hex.str();
                break;
            }
            case 'p': {
                std::ostringstream pointer;
                pointer << reinterpret_cast<const void*>(static_cast<uintptr_t>(a.slot));
                out += pointer.str();
                break;
            }
            default: out += a.text; break;  // 's'
        }
        p += spec.size();
    }
    std::fputs(out.c_str(), stdout);
}

}  // namespace ascend_twin
