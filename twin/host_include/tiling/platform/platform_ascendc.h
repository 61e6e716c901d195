// platform_ascendc::PlatformAscendC for host tiling code on the twin (asc-devkit
// include/utils/tiling/platform/platform_ascendc.h). Host code only.
//
// On CANN the object is built from a tiling context's fe::PlatFormInfos; the twin has none, so it is built
// from one of the twin's hardware profiles (twin/include/twin/platform.h), or taken from
// PlatformAscendCManager::GetInstance (the twin's default profile, Ascend910B2) or GetInstance(socVersion)
// ("Ascend910B2"/"910B2", "Ascend910B3"; nullptr for a name the twin does not know; unlike CANN's, each call
// looks the name up rather than keeping the first). The queries the twin answers: core counts, memory sizes
// of the profile (0 for the memories it does not model: L2, HBM, FB, BT), SocVersion ASCEND910B,
// NpuArch DAV_2201 and GetLibApiWorkSpaceSize (A2's 16 MiB).
#pragma once

#include <cstdint>

#include "platform/soc_spec.h"
#include "twin/platform.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

// The two SocVersions the twin's profiles are (the real enumeration lists every SoC).
enum class SocVersion { ASCEND910 = 0, ASCEND910B = 1, RESERVED_VERSION = 99999 };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(const ascend_twin::Platform& profile) : profile_(&profile) {}

    uint32_t GetCoreNumAic() const { return profile_->aicNum; }
    uint32_t GetCoreNumAiv() const { return profile_->aivNum; }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const
    {
        switch (memType) {
            case CoreMemType::L0_A: size = profile_->l0aSize; break;
            case CoreMemType::L0_B: size = profile_->l0bSize; break;
            case CoreMemType::L0_C: size = profile_->l0cSize; break;
            case CoreMemType::L1: size = profile_->l1Size; break;
            case CoreMemType::UB: size = profile_->ubSize; break;
            default: size = 0; break;
        }
    }
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    // The system workspace the advanced APIs (Matmul's messages) take: 16 MiB on DAV_2201.
    uint32_t GetLibApiWorkSpaceSize(void) const { return 16u * 1024u * 1024u; }
    NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }

    const ascend_twin::Platform& TwinProfile() const { return *profile_; }

private:
    const ascend_twin::Platform* profile_;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return GetInstance("Ascend910B2"); }
    static PlatformAscendC* GetInstance(const char* customSocVersion)
    {
        static PlatformAscendC b2(ascend_twin::kAscend910B2);
        static PlatformAscendC b3(ascend_twin::kAscend910B3);
        const ascend_twin::Platform* p =
            customSocVersion == nullptr ? nullptr : ascend_twin::FindPlatform(customSocVersion);
        if (p == &ascend_twin::kAscend910B2) return &b2;
        if (p == &ascend_twin::kAscend910B3) return &b3;
        return nullptr;
    }

private:
    PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
