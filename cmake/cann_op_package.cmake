# The custom op package, built with CANN's Ascend C CMake functions (CANN 8.3 and newer):
#   op_host/*.cpp    -> OpDef + tiling library (cust_optiling) and the generated aclnn API (cust_opapi)
#   op_kernel/*.cpp  -> kernel binaries for every SoC in ASCEND_COMPUTE_UNIT
#   all of it       -> build/op_package/custom_opp_<os>_<arch>.run, installing vendors/${vendor_name}/
# Included from CMakeLists.txt when ASCEND_HOME_PATH or ASCEND_CANN_PACKAGE_PATH is set.

set(vendor_name ascend_ext CACHE STRING "vendor directory the package installs under")
set(ASCEND_COMPUTE_UNIT ascend910b ascend910_93 CACHE STRING "SoCs to compile the kernels for")
set(ASCEND_CANN_PACKAGE_PATH ${ASCEND_CANN_PATH})

find_package(ASC REQUIRED HINTS ${ASCEND_CANN_PATH}/compiler/tikcpp/ascendc_kernel_cmake)

npu_op_package(${vendor_name} TYPE RUN)

# One OpDef + TilingFunc file per op; helpers (cann_glue.h, *_tiling.h) are headers.
file(GLOB ASCEND_EXT_OP_HOST_SOURCES ${CMAKE_SOURCE_DIR}/op_host/*.cpp)
npu_op_code_gen(
  SRC ${ASCEND_EXT_OP_HOST_SOURCES}
  PACKAGE ${vendor_name}
  OUT_DIR ${ASCEND_AUTOGEN_PATH}
  OPTIONS OPS_PRODUCT_NAME ${ASCEND_COMPUTE_UNIT}
)

file(GLOB ASCEND_EXT_ACLNN_SOURCES ${ASCEND_AUTOGEN_PATH}/aclnn_*.cpp)
set_source_files_properties(${ASCEND_EXT_ACLNN_SOURCES} PROPERTIES GENERATED TRUE)
npu_op_library(cust_opapi ACLNN ${ASCEND_EXT_ACLNN_SOURCES})

npu_op_library(cust_optiling TILING ${ASCEND_EXT_OP_HOST_SOURCES})
target_include_directories(cust_optiling PRIVATE ${CMAKE_SOURCE_DIR}/op_host)

npu_op_kernel_library(ascendc_kernels
  SRC_BASE ${CMAKE_SOURCE_DIR}/op_kernel/
  TILING_LIBRARY cust_optiling
)
# The kernels read their tiling structs from op_host/<op>_tiling.h.
npu_op_kernel_options(ascendc_kernels ALL OPTIONS -I${CMAKE_SOURCE_DIR}/op_host)

# One line per op: OpType (UpperCamel) and its kernel file (snake_case, same name as the entry point).
npu_op_kernel_sources(ascendc_kernels OP_TYPE VectorAdd KERNEL_FILE vector_add.cpp)
# MatmulCube's entry is matmul_cube (`matmul` is taken by the Matmul API's namespace alias).
npu_op_kernel_sources(ascendc_kernels OP_TYPE MatmulCube KERNEL_FILE matmul.cpp)

npu_op_package_add(${vendor_name} LIBRARY cust_opapi cust_optiling ascendc_kernels)
