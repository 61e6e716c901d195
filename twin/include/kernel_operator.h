// The CPU twin's view of the Ascend C basic API, grouped the way the real API groups it. Kernels include
// this header on both targets; on NPU machines the CANN toolchain's own kernel_operator.h is used instead.
#pragma once

#include "twin/kernel_types.h"      // GM_ADDR, __aicore__, half, bfloat16_t
#include "twin/kernel_scalar.h"     // Cast/ToFloat/ToBfloat16 of scalar bfloat16_t; the scalar min/max
#include "twin/kernel_type_names.h"  // DT_FLOAT, DT_FLOAT16, ..., FORMAT_ND, ... (kernel_type.h)
#include "twin/kernel_tensor.h"     // TPosition, GlobalTensor, LocalTensor
#include "twin/kernel_int4.h"       // LocalTensor<int4b_t>
#include "twin/kernel_tpipe.h"      // TPipe, TQue, TQueBind, TBuf
#include "twin/kernel_local_alloc.h"  // LocalMemAllocator, Hardware, InitSocState, ascendc_assert
#include "twin/kernel_data_copy.h"  // DataCopy, DataCopyPad and their params
#include "twin/kernel_data_copy_slice.h"  // DataCopy with SliceInfo
#include "twin/kernel_vec.h"        // Add, Sub, Mul, Div, Max, Min, Adds, Muls, Axpy, Duplicate
#include "twin/kernel_vec_tail.h"   // MulAddDst
#include "twin/kernel_vec_shift_index.h"  // AddRelu, CreateVecIndex
#include "twin/kernel_vec_more.h"   // Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not, Maxs, Mins, LeakyRelu, And, Or
#include "twin/kernel_vec_repeat.h"  // mask/repeat forms, SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask
#include "twin/kernel_vec_shift.h"  // ShiftLeft, ShiftRight (count and mask forms)
#include "twin/kernel_cast.h"       // Cast, RoundMode
#include "twin/kernel_reduce.h"     // ReduceSum
#include "twin/kernel_reduce_repeat.h"  // Whole/Block/PairReduce*, ReduceRepeat/DataBlock/PairElem, ReduceMax/Min, ReduceSum mask forms
#include "twin/kernel_brcb.h"       // Brcb, BrcbRepeatParams
#include "twin/kernel_broadcast.h"  // Broadcast/BroadCast (high-level API; on A2 kernel_operator.h includes it)
#include "twin/kernel_adv_math.h"  // the advanced math library's elementwise functions (lib/math/*.h; included on A2 too)
#include "twin/kernel_adv_activation.h"  // Sigmoid, Silu, Swish, Gelu, FasterGelu(V2) (lib/activation/*.h; included on A2 too)
#include "twin/kernel_adv_swiglu.h"  // SwiGLU (lib/activation/swiglu.h; included on A2 too)
#include "twin/kernel_adv_more.h"  // GeGLU, Fmod, the advanced Axpy (lib/activation/geglu.h, lib/math/fmod.h, axpy.h; included on A2 too)
#include "twin/kernel_adv_cumsum.h"  // CumSum, CumSumConfig, CumSumInfo (lib/math/cumsum.h; included on A2 too)
#include "twin/kernel_adv_power.h"  // Power (lib/math/power.h; included on A2 too)
#include "twin/kernel_adv_xor.h"  // Xor (lib/math/xor.h; included on A2 too)
#include "twin/kernel_adv_sum.h"  // Sum, SumParams (lib/reduce/sum.h; included on A2 too)
#include "twin/kernel_adv_dropout.h"  // DropOut, DropOutShapeInfo (lib/filter/dropout.h; included on A2 too)
#include "twin/kernel_adv_rmsnorm.h"  // RmsNorm (lib/normalization/rmsnorm.h; included on A2 too)
#include "twin/kernel_adv_layernorm.h"  // LayerNorm, LayerNormPara, LayerNormConfig (lib/normalization/layernorm.h; included on A2 too)
#include "twin/kernel_adv_welford.h"  // WelfordFinalize, WelfordFinalizePara (lib/normalization/welfordfinalize.h; included on A2 too)
#include "twin/kernel_adv_deepnorm.h"  // DeepNorm (lib/normalization/deepnorm.h; included on A2 too)
#include "twin/kernel_adv_layernorm_grad.h"  // LayerNormGrad, LayerNormGradBeta (lib/normalization/layernormgrad*.h; included on A2 too)
#include "twin/kernel_adv_ascend_quant.h"  // AscendQuant, AscendQuantConfig (lib/quantization/ascend_quant.h; included on A2 too)
#include "twin/kernel_adv_antiquant.h"  // AscendAntiQuant, AntiQuantShapeInfo (lib/quantization/ascend_antiquant.h; included on A2 too)
#include "twin/kernel_adv_quant.h"  // AscendDequant, DequantParams, DeQuantMode (lib/quantization/*.h; included on A2 too)
#include "twin/kernel_adv_reduce.h"  // ReduceSum/Max/Min/Prod/Mean/Any/All over a Pattern (lib/reduce/reduce.h; included on A2 too)
#include "twin/kernel_adv_softmax.h"  // SoftMax, SimpleSoftMax, SoftmaxFlash(V2), LogSoftMax, SoftmaxGrad(Front), AdjustSoftMaxRes, the 26 tiling structs (lib/activation/*.h; included on A2 too)
#include "twin/kernel_adv_pad.h"  // Pad, UnPad, PadParams, UnPadParams (lib/pad/pad.h; included on A2 too)
#include "twin/kernel_adv_select.h"  // Select with a byte mask, SelectWithBytesMaskShapeInfo (lib/select/selectwithbytesmask.h; included on A2 too)
#include "twin/kernel_adv_transdata.h"  // TransData, TransDataConfig, TransDataParams (lib/transpose/transdata.h; included on A2 too)
#include "twin/kernel_adv_transpose.h"  // the confusion Transpose, TransposeType (lib/transpose/confusion_transpose.h; included on A2 too)
#include "twin/kernel_adv_topk.h"  // TopK, TopKMode, TopKInfo, TopKConfig (lib/sort/topk.h; included on A2 too)
#include "twin/kernel_sort.h"  // Concat, Sort<T, isFullSort>, Extract, GetSortLen, GetSortOffset (A2's region-proposal sort)
#include "twin/kernel_pop_stack_buffer.h"  // PopStackBuffer (kernel_pop_stack_buffer.h)
#include "twin/kernel_arith_progression.h"  // ArithProgression, Arange (lib/index/arithprogression.h; included on A2 too)
#include "twin/kernel_cmpsel.h"     // Compare, Compares, CompareScalar, Select, CMPMODE, SELMODE
#include "twin/kernel_gather_mask.h"  // GatherMask, GetGatherMaskRemainCount, Copy (UB -> UB)
#include "twin/kernel_gather.h"   // Gather, Gatherb, GatherRepeatParams
#include "twin/kernel_mrg_sort.h"  // Sort32, MrgSort, MrgSort4Info, MrgSortSrcList
#include "twin/kernel_transpose.h"  // Transpose, TransposeParamsExt, TransposeType, TransDataTo5HD
#include "twin/kernel_sync.h"       // PipeBarrier, SetFlag, WaitFlag
#include "twin/kernel_block_sync.h"  // SyncAll, InitGlobalMemory, Fill
#include "twin/kernel_atomic.h"     // SetAtomicAdd, SetAtomicMax, SetAtomicMin, SetAtomicType, SetAtomicNone
#include "twin/kernel_sys_var.h"    // GetBlockIdx, GetBlockNum, GET_TILING_DATA
#include "twin/kernel_print.h"      // printf, PRINTF
#include "twin/kernel_dump.h"       // DumpTensor, DumpAccChkPoint, ShapeInfo
#include "twin/kernel_cache.h"      // DataCacheCleanAndInvalid, CacheLine, DcciDst
#include "twin/kernel_gm_bypass.h"  // ReadGmByPassDCache, WriteGmByPassDCache, DataSyncBarrier, MemDsbT
#include "twin/kernel_cube_basic.h"  // the raw cube path: Nd2NzParams, LoadData, Mmad, Fixpipe
#include "twin/kernel_load3d.h"  // LoadData (卷积数据搬运) v2: LoadData3DParamsV2, SetFmatrix, SetLoadDataRepeat
#include "twin/kernel_utils.h"      // DivCeil, AlignUp, Ceil, CeilDivision, the TOTAL_*_SIZE family, DEFAULT_C0_SIZE
#include "twin/kernel_std.h"        // AscendC::Std (min, max, type traits, tuple, ceil_division, ...)
#include "twin/kernel_layout.h"     // Shape, Stride, Coord, Layout, MakeLayout, Crd2Idx (kernel_operator_layout.h, _coord.h)
#include "twin/kernel_symbol_override.h"  // LocalTensor operator forms: dst = a + b, dst = a < b, ...
