# The custom op package, built with CANN's Ascend C CMake functions (CANN 8.3 and newer):
#   op_host/*.cpp    -> OpDef + tiling library (cust_optiling), op proto library for graph mode
#                       (cust_op_proto) and the generated aclnn API (cust_opapi)
#   op_kernel/*.cpp  -> kernel binaries for every SoC in ASCEND_COMPUTE_UNIT
#   all of it       -> build/op_package/custom_opp_<os>_<arch>.run, installing vendors/${vendor_name}/
# Included from CMakeLists.txt when ASCEND_HOME_PATH is set (CANN's set_env.sh sets it).
#
# Every npu_op_* call below uses only the keywords the functions parse (fwk_modules/func.cmake of CANN's
# ascendc_kernel_cmake); tests/test_cann_cmake.py configures this file against those modules with the
# compilers and op_build stubbed.

if(NOT IS_DIRECTORY "$ENV{ASCEND_HOME_PATH}/compiler/tikcpp/ascendc_kernel_cmake")
  message(FATAL_ERROR
    "ascend_ext: ASCEND_HOME_PATH=$ENV{ASCEND_HOME_PATH} has no compiler/tikcpp/ascendc_kernel_cmake: the op "
    "package needs a CANN toolkit (8.3 or newer) with its Ascend C CMake modules. Run "
    "'source <CANN install>/set_env.sh' and configure again.")
endif()

set(vendor_name ascend_ext CACHE STRING "vendor directory the package installs under")
# The SoCs the kernels are compiled for; npu_op_code_gen hands the same list to op_build itself.
set(ASCEND_COMPUTE_UNIT ascend910b ascend910_93 CACHE STRING "SoCs to compile the kernels for")

find_package(ASC REQUIRED HINTS "$ENV{ASCEND_HOME_PATH}/compiler/tikcpp/ascendc_kernel_cmake")

npu_op_package(${vendor_name} TYPE RUN)

# One OpDef + TilingFunc file per op; helpers (cann_glue.h, *_tiling.h) are headers next to them.
file(GLOB ASCEND_EXT_OP_HOST_SOURCES ${CMAKE_SOURCE_DIR}/op_host/*.cpp)
# op_build's first step compiles these at -std=c++11 and appends COMPILE_OPTIONS (the last -std wins);
# the op_host headers need C++17 (inline constexpr), the standard of every other CANN target here.
npu_op_code_gen(
  SRC ${ASCEND_EXT_OP_HOST_SOURCES}
  PACKAGE ${vendor_name}
  OUT_DIR ${ASCEND_AUTOGEN_PATH}
  COMPILE_OPTIONS -std=c++17
)

npu_op_library(cust_optiling TILING ${ASCEND_EXT_OP_HOST_SOURCES})
target_include_directories(cust_optiling PRIVATE ${CMAKE_SOURCE_DIR}/op_host)

file(GLOB ASCEND_EXT_ACLNN_SOURCES ${ASCEND_AUTOGEN_PATH}/aclnn_*.cpp)
set_source_files_properties(${ASCEND_EXT_ACLNN_SOURCES} PROPERTIES GENERATED TRUE)
npu_op_library(cust_opapi ACLNN ${ASCEND_EXT_ACLNN_SOURCES})

# The op proto library (InferShape/InferDataType) that graph mode (GE, torchair) loads.
set(ASCEND_EXT_OP_PROTO_SOURCES ${ASCEND_AUTOGEN_PATH}/op_proto.cc)
set_source_files_properties(${ASCEND_EXT_OP_PROTO_SOURCES} PROPERTIES GENERATED TRUE)
npu_op_library(cust_op_proto GRAPH ${ASCEND_EXT_OP_HOST_SOURCES} ${ASCEND_EXT_OP_PROTO_SOURCES})
target_include_directories(cust_op_proto PRIVATE ${CMAKE_SOURCE_DIR}/op_host)

# A kernel includes only what op_kernel/ holds (its tiling struct, <op>_tiling_data.h, and shared helpers):
# that folder is what the package ships for online compilation, so no -I op_host here.
npu_op_kernel_options(ascendc_kernels ALL OPTIONS -I${CMAKE_SOURCE_DIR}/op_kernel)

# One line per op: OpType (UpperCamel) and its kernel file (snake_case, same name as the entry point).
npu_op_kernel_sources(ascendc_kernels OP_TYPE VectorAdd KERNEL_FILE vector_add.cpp)
# MatmulCube's entry is matmul_cube (`matmul` is taken by the Matmul API's namespace alias).
npu_op_kernel_sources(ascendc_kernels OP_TYPE MatmulCube KERNEL_FILE matmul_cube.cpp)
npu_op_kernel_sources(ascendc_kernels OP_TYPE DispersionCorrection KERNEL_FILE dispersion_correction.cpp)
npu_op_kernel_sources(ascendc_kernels OP_TYPE DispersionCorrectionGrad KERNEL_FILE dispersion_correction_grad.cpp)

npu_op_kernel_library(ascendc_kernels
  SRC_BASE ${CMAKE_SOURCE_DIR}/op_kernel/
  TILING_LIBRARY cust_optiling
)

npu_op_package_add(${vendor_name} LIBRARY cust_optiling cust_opapi cust_op_proto ascendc_kernels)
