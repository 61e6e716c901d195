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

# What the package takes from the built-in ops' declarations (torch_ext/ascend_ext/ops/*.py), generated into
# the build tree: ops.cmake (the kernel of each op type, below) and ascend_ext_ports/<OpType>.h (each OpDef's
# inputs, outputs and attrs in the declared order, with their dtypes per build), which op_host/<op>.cpp includes.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(ASCEND_EXT_GENERATED_DIR ${CMAKE_BINARY_DIR}/ascend_ext_generated)
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/cmake/builtin_ops.py ${CMAKE_SOURCE_DIR} ${ASCEND_EXT_GENERATED_DIR}
          cann
  OUTPUT_QUIET
  COMMAND_ERROR_IS_FATAL ANY)
file(GLOB ASCEND_EXT_DECLARATIONS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/torch_ext/ascend_ext/ops/*.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ASCEND_EXT_DECLARATIONS}
  ${CMAKE_SOURCE_DIR}/cmake/builtin_ops.py ${CMAKE_SOURCE_DIR}/torch_ext/ascend_ext/op_facts.py)

# One OpDef + TilingFunc file per op; helpers (cann_glue.h, *_tiling.h) are headers next to them.
file(GLOB ASCEND_EXT_OP_HOST_SOURCES ${CMAKE_SOURCE_DIR}/op_host/*.cpp)
# op_build's first step compiles these at -std=c++11 and appends COMPILE_OPTIONS (the last -std wins);
# the op_host headers need C++17 (inline constexpr), the standard of every other CANN target here. The
# generated ports headers are on its include path too.
npu_op_code_gen(
  SRC ${ASCEND_EXT_OP_HOST_SOURCES}
  PACKAGE ${vendor_name}
  OUT_DIR ${ASCEND_AUTOGEN_PATH}
  COMPILE_OPTIONS -std=c++17 -I${ASCEND_EXT_GENERATED_DIR}
)

npu_op_library(cust_optiling TILING ${ASCEND_EXT_OP_HOST_SOURCES})
target_include_directories(cust_optiling PRIVATE ${CMAKE_SOURCE_DIR}/op_host ${ASCEND_EXT_GENERATED_DIR})

file(GLOB ASCEND_EXT_ACLNN_SOURCES ${ASCEND_AUTOGEN_PATH}/aclnn_*.cpp)
set_source_files_properties(${ASCEND_EXT_ACLNN_SOURCES} PROPERTIES GENERATED TRUE)
npu_op_library(cust_opapi ACLNN ${ASCEND_EXT_ACLNN_SOURCES})

# The op proto library (InferShape/InferDataType) that graph mode (GE, torchair) loads.
set(ASCEND_EXT_OP_PROTO_SOURCES ${ASCEND_AUTOGEN_PATH}/op_proto.cc)
set_source_files_properties(${ASCEND_EXT_OP_PROTO_SOURCES} PROPERTIES GENERATED TRUE)
npu_op_library(cust_op_proto GRAPH ${ASCEND_EXT_OP_HOST_SOURCES} ${ASCEND_EXT_OP_PROTO_SOURCES})
target_include_directories(cust_op_proto PRIVATE ${CMAKE_SOURCE_DIR}/op_host ${ASCEND_EXT_GENERATED_DIR})

# A kernel includes only what op_kernel/ holds (its tiling struct, <op>_tiling_data.h, and shared helpers):
# that folder is what the package ships for online compilation, so no -I op_host here.
npu_op_kernel_options(ascendc_kernels ALL OPTIONS -I${CMAKE_SOURCE_DIR}/op_kernel)

# One npu_op_kernel_sources(... OP_TYPE <OpType> KERNEL_FILE <entry>.cpp) per op type, from the declarations.
include(${ASCEND_EXT_GENERATED_DIR}/ops.cmake)

npu_op_kernel_library(ascendc_kernels
  SRC_BASE ${CMAKE_SOURCE_DIR}/op_kernel/
  TILING_LIBRARY cust_optiling
)

npu_op_package_add(${vendor_name} LIBRARY cust_optiling cust_opapi cust_op_proto ascendc_kernels)
