#include "twin/c_api.h"
#include "twin/violation.h"

#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

#include "twin/launch.h"

#define ASCEND_TWIN_EXPORT __attribute__((visibility("default")))

namespace {

void StatsJson(std::ostringstream& os, const ascend_twin::LaunchStats& s)
{
    os << "{\"kernel\":\"" << s.kernel << "\",\"platform\":\"" << s.platform << "\",\"block_dim\":" << s.blockDim
       << ",\"mix_type\":\"" << s.mixType << "\",\"cores\":[";
    for (size_t i = 0; i < s.cores.size(); ++i) {
        const ascend_twin::CoreCounters& c = s.cores[i];
        const ascend_twin::CoreIdentity id = i < s.identities.size() ? s.identities[i] : ascend_twin::CoreIdentity{};
        os << (i ? "," : "") << "{\"core_type\":\"" << (id.coreType == 1 ? "aic" : "aiv")
           << "\",\"block_idx\":" << id.blockIdx << ",\"gm_bytes_read\":" << c.gmBytesRead << ",\"gm_bytes_written\":" << c.gmBytesWritten
           << ",\"gm_padding_bytes_read\":" << c.gmPaddingBytesRead
           << ",\"gm_padding_bytes_written\":" << c.gmPaddingBytesWritten
           << ",\"gm_unordered_equal_bytes\":" << c.gmUnorderedEqualBytes
           << ",\"data_copy_calls\":" << c.dataCopyCalls << ",\"mte2_calls\":" << c.mte2Calls
           << ",\"mte2_bursts\":" << c.mte2Bursts << ",\"mte3_calls\":" << c.mte3Calls
           << ",\"mte3_bursts\":" << c.mte3Bursts << ",\"ub_bytes_allocated\":" << c.ubBytesAllocated
           << ",\"cube_macs\":" << c.cubeMacs << ",\"cube\":{\"gm_bytes_a\":" << c.cube.gmBytesA
           << ",\"gm_bytes_b\":" << c.cube.gmBytesB << ",\"gm_bytes_bias\":" << c.cube.gmBytesBias
           << ",\"gm_bytes_c\":" << c.cube.gmBytesC << ",\"l1_bytes_loaded\":" << c.cube.l1BytesLoaded
           << ",\"l0a_bytes_loaded\":" << c.cube.l0aBytesLoaded << ",\"l0b_bytes_loaded\":" << c.cube.l0bBytesLoaded
           << ",\"l0c_bytes_out\":" << c.cube.l0cBytesOut << ",\"mmad_calls\":" << c.cube.mmadCalls
           << "},\"vector_element_ops\":{";
        bool first = true;
        for (uint32_t op = 0; op < static_cast<uint32_t>(ascend_twin::VecOp::kCount); ++op) {
            if (c.vecElementOps[op] == 0) continue;
            os << (first ? "" : ",") << "\"" << ascend_twin::VecOpName(static_cast<ascend_twin::VecOp>(op))
               << "\":" << c.vecElementOps[op];
            first = false;
        }
        os << "},\"vector_instructions\":{";
        first = true;
        for (uint32_t op = 0; op < static_cast<uint32_t>(ascend_twin::VecOp::kCount); ++op) {
            if (c.vecCalls[op] == 0) continue;
            os << (first ? "" : ",") << "\"" << ascend_twin::VecOpName(static_cast<ascend_twin::VecOp>(op))
               << "\":{\"calls\":" << c.vecCalls[op] << ",\"repeats\":" << c.vecRepeats[op] << "}";
            first = false;
        }
        os << "}}";
    }
    os << "]}";
}

void CopyError(const char* what, char* err, uint64_t errLen)
{
    if (err == nullptr || errLen == 0) return;
    std::strncpy(err, what, errLen - 1);
    err[errLen - 1] = '\0';
}

thread_local std::string tJson;

}  // namespace

extern "C" {

ASCEND_TWIN_EXPORT int ascend_twin_launch(const char* kernel, const AscendTwinEntry* entry, uint32_t blockDim,
                                          uint64_t tilingKey, const char* platform, const AscendTwinArg* args,
                                          uint32_t nargs, char* err, uint64_t errLen)
{
    try {
        if (nargs != entry->arity) {
            throw std::invalid_argument("ascend_ext twin: kernel '" + std::string(kernel) + "' takes " +
                                        std::to_string(entry->arity) + " parameters, " + std::to_string(nargs) +
                                        " given");
        }
        ascend_twin::LaunchSpec spec;
        spec.kernel = kernel;
        spec.entry = entry->fn;
        spec.invoke = entry->invoke;
        spec.blockDim = blockDim;
        spec.tilingKey = tilingKey;
        spec.kernelType = entry->kernel_type;
        spec.platform = ascend_twin::FindPlatform(platform);
        if (spec.platform == nullptr) {
            CopyError((std::string("ascend_ext twin: unknown platform '") + platform + "'").c_str(), err, errLen);
            return 2;
        }
        for (uint32_t i = 0; i < nargs; ++i) {
            const bool byValue = entry->kinds[i] != ASCEND_TWIN_PARAM_GM;
            if (byValue != (args[i].by_value != 0) || (byValue && args[i].bytes != entry->sizes[i])) {
                throw std::invalid_argument("ascend_ext twin: argument '" + std::string(args[i].name) + "' of kernel '" +
                                            kernel + "' does not match the parameter's kind or size");
            }
            spec.args.push_back({args[i].name, args[i].data, args[i].bytes, byValue, byValue ? 0u : args[i].elem_size,
                                 !byValue && args[i].ends_allocation != 0, byValue ? 0u : args[i].alloc_offset});
        }
        ascend_twin::Launch(spec);
        return 0;
    } catch (const ascend_twin::RuleViolation& e) {
        CopyError(e.what(), err, errLen);
        return 1;
    } catch (const std::exception& e) {
        CopyError(e.what(), err, errLen);
        return 2;
    }
}

ASCEND_TWIN_EXPORT const char* ascend_twin_last_launch_json()
{
    const ascend_twin::LaunchStats* last = ascend_twin::LastLaunch();
    if (last == nullptr) return "null";
    std::ostringstream os;
    StatsJson(os, *last);
    tJson = os.str();
    return tJson.c_str();
}

ASCEND_TWIN_EXPORT const char* ascend_twin_platform_json(const char* platform)
{
    const ascend_twin::Platform* p = ascend_twin::FindPlatform(platform);
    if (p == nullptr) return "null";
    std::ostringstream os;
    os << "{\"name\":\"" << p->name << "\",\"cube_cores\":" << p->aicNum << ",\"vector_cores\":" << p->aivNum
       << ",\"clock_ghz\":" << p->clockGhz << ",\"ub_bytes\":" << p->ubSize
       << ",\"ub_api_reserved_bytes\":" << p->ubApiReserved << ",\"l1_bytes\":" << p->l1Size
       << ",\"l0a_bytes\":" << p->l0aSize << ",\"l0b_bytes\":" << p->l0bSize << ",\"l0c_bytes\":" << p->l0cSize
       << ",\"ub_align\":" << p->ubAlign << ",\"l0ab_align\":" << p->l0abAlign << ",\"l0c_align\":" << p->l0cAlign
       << ",\"repeat_bytes\":" << p->repeatBytes << "}";
    tJson = os.str();
    return tJson.c_str();
}

ASCEND_TWIN_EXPORT void ascend_twin_start_recording() { ascend_twin::StartRecording(); }

ASCEND_TWIN_EXPORT const char* ascend_twin_stop_recording_json()
{
    std::ostringstream os;
    os << "[";
    const std::vector<ascend_twin::LaunchStats> launches = ascend_twin::StopRecording();
    for (size_t i = 0; i < launches.size(); ++i) {
        if (i) os << ",";
        StatsJson(os, launches[i]);
    }
    os << "]";
    tJson = os.str();
    return tJson.c_str();
}
}
