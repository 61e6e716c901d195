// Host code in a kernel file may launch its kernels with the device compiler's syntax,
// `kernel<<<blockDim, l2ctrl, stream>>>(args...)` (the samples' `<op>_do` functions, vLLM's and SGLang's
// `<op>_impl` launchers). The device compiler's front end reads it; g++ does not, so ascend_ext.twin
// writes each such launch as `ascend_twin::HostLaunch(&kernel, blockDim, l2ctrl, stream)(args...)` before
// compiling (twin_kernels.translation_unit). The host code then compiles as on the device; the twin runs
// kernels only through its own launcher (KernelLibrary.launch, declared ops), which knows each GM buffer's
// bounds, so calling such host code raises.
#pragma once

#include <stdexcept>
#include <string>

namespace ascend_twin {

struct HostLaunchCall {
    template <typename... Args>
    void operator()(Args&&...) const
    {
        throw std::logic_error(
            "ascend_ext twin: a kernel<<<...>>>(...) launch in host code was called; the twin runs kernels "
            "through ascend_ext.twin (KernelLibrary.launch, declared ops), which knows the GM buffers' bounds");
    }
};

template <typename Kernel, typename... Config>
HostLaunchCall HostLaunch(Kernel*, Config&&...)
{
    static_assert(sizeof...(Config) == 3, "kernel<<<numBlocks, l2ctrl, stream>>>(...) takes three launch arguments");
    return {};
}

}  // namespace ascend_twin
