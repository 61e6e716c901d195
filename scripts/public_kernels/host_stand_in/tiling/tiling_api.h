// A stand-in for CANN's tiling/tiling_api.h, for the measurement harness only
// (scripts/public_kernels/asc_devkit_examples.py). CANN's header gathers every host tiling API; the twin provides
// some of them, each under its own path in twin/host_include/tiling/ (on the include path of every twin kernel
// unit). This header includes those, so that an example's host code calling them compiles unchanged; a call to
// one the twin does not provide (LayerNorm's tiling functions, ...) does not compile, and the measurement lists the
// example with that cause. CANN's header reaches register/tilingdata_base.h (the tiling-data classes) and the
// advanced APIs' optiling:: classes through the headers it gathers; so does this one.
#pragma once

// CANN's header reaches <iostream> through conv/conv3d/conv3d_tiling.h (conv3d_tiling_base.h includes
// impl/adv_api/tiling/conv/conv3d_tiling_util.h); examples' host code uses std::cout relying on it.
#include <iostream>

#include "register/tilingdata_base.h"
#include "tiling/matmul/matmul_tiling.h"
#include "tiling/matmul/bmm_tiling.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/activation/logsoftmax_tiling.h"
#include "tiling/activation/sigmoid_tiling.h"
#include "tiling/activation/silu_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/activation/swiglu_tiling.h"
#include "tiling/activation/swish_tiling.h"
#include "tiling/filter/dropout_tiling.h"
#include "tiling/index/arithprogression_tiling.h"
#include "tiling/matmul/matmul_tilingdata.h"
#include "tiling/normalization/batchnorm_tilingdata.h"
#include "tiling/normalization/deepnorm_tilingdata.h"
#include "tiling/normalization/groupnorm_tilingdata.h"
#include "tiling/normalization/layernorm_grad_beta_tilingdata.h"
#include "tiling/normalization/layernorm_grad_tilingdata.h"
#include "tiling/normalization/layernorm_tilingdata.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/quantization/ascend_quant_tiling.h"
#include "tiling/quantization/ascend_dequant_tiling.h"
#include "tiling/pad/broadcast_tiling.h"
#include "tiling/pad/pad_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/reduce/reduce_tiling.h"
#include "tiling/reduce/sum_tiling.h"
#include "tiling/sort/topk_tilingdata.h"
#include "tiling/transpose/confusion_transpose_tilingdata.h"
#include "tiling/math/acos_tiling.h"
#include "tiling/math/acosh_tiling.h"
#include "tiling/math/asin_tiling.h"
#include "tiling/math/asinh_tiling.h"
#include "tiling/math/atan_tiling.h"
#include "tiling/math/atanh_tiling.h"
#include "tiling/math/ceil_tiling.h"
#include "tiling/math/cos_tiling.h"
#include "tiling/math/cosh_tiling.h"
#include "tiling/math/erf_tiling.h"
#include "tiling/math/erfc_tiling.h"
#include "tiling/math/floor_tiling.h"
#include "tiling/math/frac_tiling.h"
#include "tiling/math/log_tiling.h"
#include "tiling/math/power_tiling.h"
#include "tiling/math/round_tiling.h"
#include "tiling/math/sign_tiling.h"
#include "tiling/math/sin_tiling.h"
#include "tiling/math/sinh_tiling.h"
#include "tiling/math/tan_tiling.h"
#include "tiling/math/tanh_tiling.h"
#include "tiling/math/trunc_tiling.h"
#include "tiling/math/xor_tiling.h"
