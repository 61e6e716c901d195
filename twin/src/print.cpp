// AscendC::printf's text (twin/include/twin/kernel_print.h): the host parser's conversions applied to the
// arguments' 8-byte slots, as the runtime formats the device's dump buffer.
#include "twin/kernel_print.h"
#include "twin/kernel_dump.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

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

// ---- DumpTensor / DumpAccChkPoint (twin/kernel_dump.h) ----------------------------------------------------

namespace ascend_twin {

namespace {

constexpr uint64_t kDumpLimitBytes = 30 * 1024;  // docs: one call dumps at most 30 KB

const char* DumpTypeName(DumpType t)
{
    static const char* const kNames[] = {"bool",  "uint8",  "int8",   "int16",   "uint16",  "int32",
                                         "uint32", "uint64", "int64", "float32", "float16", "bfloat16"};
    return kNames[static_cast<uint32_t>(t)];
}

uint32_t DumpTypeSize(DumpType t)
{
    static const uint32_t kSizes[] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 2, 2};
    return kSizes[static_cast<uint32_t>(t)];
}

// One element as the runtime prints it: floating types with six decimals, integers in decimal.
std::string DumpElement(DumpType t, const uint8_t* p)
{
    char text[64];
    switch (t) {
        case DumpType::kBool: std::snprintf(text, sizeof text, "%d", *p != 0); break;
        case DumpType::kU8: std::snprintf(text, sizeof text, "%u", static_cast<unsigned>(*p)); break;
        case DumpType::kI8: std::snprintf(text, sizeof text, "%d", static_cast<int>(static_cast<int8_t>(*p))); break;
        case DumpType::kI16: {
            int16_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%d", static_cast<int>(v));
            break;
        }
        case DumpType::kU16: {
            uint16_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%u", static_cast<unsigned>(v));
            break;
        }
        case DumpType::kI32: {
            int32_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%d", v);
            break;
        }
        case DumpType::kU32: {
            uint32_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%u", v);
            break;
        }
        case DumpType::kU64: {
            uint64_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(v));
            break;
        }
        case DumpType::kI64: {
            int64_t v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
            break;
        }
        case DumpType::kF32: {
            float v;
            std::memcpy(&v, p, sizeof v);
            std::snprintf(text, sizeof text, "%f", static_cast<double>(v));
            break;
        }
        case DumpType::kF16:
        case DumpType::kBf16: {
            uint16_t bits;
            std::memcpy(&bits, p, sizeof bits);
            const float v = t == DumpType::kF16 ? HalfBitsToFloat(bits) : Bf16BitsToFloat(bits);
            std::snprintf(text, sizeof text, "%f", static_cast<double>(v));
            break;
        }
    }
    return text;
}

// The elements laid out by a shape: one bracket level per dimension, rows of the last dimension on lines of
// their own; positions past the dumped data print "-".
std::string DumpByShape(const DumpRequest& r, const uint8_t* data, uint64_t total)
{
    std::vector<uint64_t> span(r.shapeDim);  // elements per index of each dimension
    uint64_t inner = 1;
    for (uint32_t d = r.shapeDim; d-- > 0;) {
        inner *= r.shape[d];
        span[d] = inner;
    }
    const uint32_t size = DumpTypeSize(r.type);
    std::string out;
    for (uint64_t i = 0; i < total; ++i) {
        for (uint32_t d = 0; d < r.shapeDim; ++d) {
            if (i % span[d] == 0) out += '[';
        }
        out += i < r.count ? DumpElement(r.type, data + i * size) : std::string("-");
        uint32_t closed = 0;
        for (uint32_t d = 0; d < r.shapeDim; ++d) {
            if ((i + 1) % span[d] == 0) ++closed;
        }
        out += std::string(closed, ']');
        if (i + 1 < total) out += closed > 0 ? ",\n" : ",";
    }
    return out;
}

}  // namespace

void KernelDumpTensor(const DumpRequest& r)
{
    const uint64_t bytes = static_cast<uint64_t>(r.count) * DumpTypeSize(r.type);
    char head[256];
    std::snprintf(head, sizeof head, "DumpTensor: desc=%u, addr=0x%llx, data_type=%s, position=%s, dump_size=%u\n",
                  r.desc, static_cast<unsigned long long>(r.addr), DumpTypeName(r.type), r.position, r.count);
    std::string out = head;
    const uint8_t* data = static_cast<const uint8_t*>(r.data);
    if (bytes > kDumpLimitBytes) {
        char note[160];
        std::snprintf(note, sizeof note, "(%s: %llu bytes, over the 30 KB one dump may hold: not printed, as on the "
                      "device)\n", r.call, static_cast<unsigned long long>(bytes));
        out += note;
    } else if (r.shape != nullptr && r.shapeDim > 0) {
        uint64_t total = 1;
        std::string dims = "[";
        for (uint32_t d = 0; d < r.shapeDim; ++d) {
            if (r.shape[d] == 0) {
                FailF(r.call, "a dump's shape has no zero dimension", "shape[%u] is 0", d);
            }
            total *= r.shape[d];
            dims += std::to_string(r.shape[d]) + (d + 1 < r.shapeDim ? ", " : "]");
        }
        if (total < r.count) {
            out += "shape is " + dims + ", dumpSize is " + std::to_string(r.count) +
                   ", dumpSize is greater than shapeSize.\n";
        } else if (total > r.count) {
            out += "shape is " + dims + ", dumpSize is " + std::to_string(r.count) + ", data is not enough.\n";
        }
        out += DumpByShape(r, data, total) + "\n";
    } else {
        out += "[";
        for (uint32_t i = 0; i < r.count; ++i) {
            out += DumpElement(r.type, data + static_cast<uint64_t>(i) * DumpTypeSize(r.type));
            out += i + 1 < r.count ? ", " : "]\n";
        }
    }
    std::fputs(out.c_str(), stdout);
}

}  // namespace ascend_twin
