// Every device's implementation of the native ascend_ext ops, in one place, and their schemas.
#include <torch/library.h>

#include "ops/dispersion_correction.h"
#include "ops/matmul.h"
#include "ops/vector_add.h"

// The schemas come from the ops' declarations (torch_ext/ascend_ext/ops/*.py), generated at build time by
// cmake/builtin_ops.py; the implementations below are the C++ adapters of the native ops.
TORCH_LIBRARY(ascend_ext, m)
{
    const std::vector<at::Tag> tags{at::Tag::pt2_compliant_tag};
#include "ascend_ext_generated/schemas.inc"
}

TORCH_LIBRARY_IMPL(ascend_ext, CPU, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_cpu);
    m.impl("vector_add.Scalar", &ascend_ext::vector_add_scalar_cpu);
    m.impl("vector_add.out", &ascend_ext::vector_add_out_cpu);
    m.impl("vector_add_", &ascend_ext::vector_add__cpu);
    m.impl("vector_add_.Scalar", &ascend_ext::vector_add__scalar_cpu);
    m.impl("matmul", &ascend_ext::matmul_cpu);
    m.impl("dispersion_correction", &ascend_ext::dispersion_correction_cpu);
    m.impl("dispersion_correction_backward", &ascend_ext::dispersion_correction_backward_cpu);
}

TORCH_LIBRARY_IMPL(ascend_ext, Meta, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_meta);
    m.impl("vector_add.Scalar", &ascend_ext::vector_add_scalar_meta);
    m.impl("vector_add.out", &ascend_ext::vector_add_out_meta);
    m.impl("vector_add_", &ascend_ext::vector_add__meta);
    m.impl("vector_add_.Scalar", &ascend_ext::vector_add__scalar_meta);
    m.impl("matmul", &ascend_ext::matmul_meta);
    m.impl("dispersion_correction", &ascend_ext::dispersion_correction_meta);
    m.impl("dispersion_correction_backward", &ascend_ext::dispersion_correction_backward_meta);
}

TORCH_LIBRARY_IMPL(ascend_ext, Autograd, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_autograd);
    m.impl("vector_add.Scalar", &ascend_ext::vector_add_scalar_autograd);
    m.impl("vector_add.out", &ascend_ext::vector_add_out_autograd);
    m.impl("vector_add_", &ascend_ext::vector_add__autograd);
    m.impl("vector_add_.Scalar", &ascend_ext::vector_add__scalar_autograd);
    m.impl("dispersion_correction", &ascend_ext::dispersion_correction_autograd);
    m.impl("dispersion_correction_backward", &ascend_ext::dispersion_correction_backward_autograd);
    m.impl("matmul", &ascend_ext::matmul_autograd);
}

// vmap: matmul's batching rule (vector_add's and dispersion_correction's are registered from Python, ascend_ext/ops/).
TORCH_LIBRARY_IMPL(ascend_ext, FuncTorchBatched, m)
{
    m.impl("matmul", &ascend_ext::matmul_batched);
}

// Autocast rules. dispersion_correction: no cast; the kernels compute in float32 whatever the input dtype
// and return the input's dtype (a bfloat16 activation stays bfloat16, its statistics are float32).
// vector_add: like torch.add, no autocast cast; the op promotes mixed inputs itself
// (torch.result_type), so a float32 residual adds to a bfloat16 activation in float32. matmul: runs in the
// autocast dtype, like torch.mm.
TORCH_LIBRARY_IMPL(ascend_ext, AutocastCPU, m)
{
    m.impl("vector_add", torch::CppFunction::makeFallthrough());
    m.impl("vector_add.Scalar", torch::CppFunction::makeFallthrough());
    m.impl("matmul", &ascend_ext::matmul_autocast<c10::DeviceType::CPU>);
    m.impl("dispersion_correction", torch::CppFunction::makeFallthrough());
    m.impl("dispersion_correction_backward", torch::CppFunction::makeFallthrough());
}

#if defined(ASCEND_EXT_WITH_TORCH_NPU)
// Built only against torch_npu: the NPU launch through the CANN op package (see npu/).
TORCH_LIBRARY_IMPL(ascend_ext, PrivateUse1, m)
{
    m.impl("vector_add", &ascend_ext::vector_add_npu);
    m.impl("vector_add.Scalar", &ascend_ext::vector_add_scalar_npu);
    m.impl("vector_add.out", &ascend_ext::vector_add_out_npu);
    m.impl("vector_add_", &ascend_ext::vector_add__npu);
    m.impl("vector_add_.Scalar", &ascend_ext::vector_add__scalar_npu);
    m.impl("matmul", &ascend_ext::matmul_npu);
    m.impl("dispersion_correction", &ascend_ext::dispersion_correction_npu);
    m.impl("dispersion_correction_backward", &ascend_ext::dispersion_correction_backward_npu);
}

TORCH_LIBRARY_IMPL(ascend_ext, AutocastPrivateUse1, m)
{
    m.impl("vector_add", torch::CppFunction::makeFallthrough());
    m.impl("vector_add.Scalar", torch::CppFunction::makeFallthrough());
    m.impl("matmul", &ascend_ext::matmul_autocast<c10::DeviceType::PrivateUse1>);
    m.impl("dispersion_correction", torch::CppFunction::makeFallthrough());
    m.impl("dispersion_correction_backward", torch::CppFunction::makeFallthrough());
}
#endif
