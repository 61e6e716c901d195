// Every schema and every device's implementation of the ascend_ext ops, in one place.
#include <torch/library.h>

#include "autocast.h"
#include "ops/vector_add.h"

TORCH_LIBRARY(ascend_ext, m)
{
    m.def("vector_add(Tensor x, Tensor y) -> Tensor");
}

TORCH_LIBRARY_IMPL(ascend_ext, CPU, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_cpu);
}

TORCH_LIBRARY_IMPL(ascend_ext, Meta, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_meta);
}

TORCH_LIBRARY_IMPL(ascend_ext, AutocastCPU, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_autocast<c10::DispatchKey::AutocastCPU>);
}

#if defined(ASCEND_EXT_WITH_TORCH_NPU)
// Built only against torch_npu: the NPU launch through the CANN op package (see npu/).
TORCH_LIBRARY_IMPL(ascend_ext, PrivateUse1, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_npu);
}

TORCH_LIBRARY_IMPL(ascend_ext, AutocastPrivateUse1, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_autocast<c10::DispatchKey::AutocastPrivateUse1>);
}
#endif
