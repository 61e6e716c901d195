// Makes ascend_ext._C importable; loading it runs the static registrations of the ops. Python talks to
// the twin and the tiling through C functions (ctypes). The one Python function defined here is a
// shorter way into the dispatcher for the latency-bound call of ascend_ext.vector_add(x, y):
// torch.ops' OpOverload matches Python arguments against the schema on every call, which costs more
// than the twin's whole launch of a small tensor. It calls the same registered op through the same
// dispatcher (autograd, autocast, vmap, profiler, dispatch modes all apply); the Python wrapper uses it
// only where nothing at the Python level would see the call (no __torch_function__, not under
// torch.compile or TorchScript) and torch.ops otherwise. In the NPU build, _npu_launch_kernel is the launcher
// of a user's own kernel-launch library (ascend_ext.npu_kernels).
#include <Python.h>

#include <stdexcept>
#if defined(ASCEND_EXT_WITH_TORCH_NPU)
#include <string>
#include <utility>
#include <vector>

#include "npu/kernel_launch.h"
#endif

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

namespace ascend_ext {
PyObject* RegisterDeclaredAutograd(PyObject* self, PyObject* const* args, Py_ssize_t nargs);  // declared_autograd.cpp
PyObject* TwinLaunch(PyObject* self, PyObject* const* args, Py_ssize_t nargs);  // twin_fast_launch.cpp
}

namespace {

PyObject* VectorAdd(PyObject* /*self*/, PyObject* const* args, Py_ssize_t nargs)
{
    HANDLE_TH_ERRORS
    if (nargs != 2 || !THPVariable_Check(args[0]) || !THPVariable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "ascend_ext._C.vector_add(x, y) takes two tensors");
        return nullptr;
    }
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("ascend_ext::vector_add", "")
                               .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const c10::Scalar&)>();
    const at::Tensor& x = THPVariable_Unpack(args[0]);
    const at::Tensor& y = THPVariable_Unpack(args[1]);
    at::Tensor z;
    try {
        pybind11::gil_scoped_release noGil;  // as torch's own bindings do while an op runs
        z = op.call(x, y, c10::Scalar(1));
    } catch (const c10::Error&) {
        throw;  // below: c10's ValueError/TypeError/... become their Python types
    } catch (const std::invalid_argument& e) {
        // The Python types torch.ops (pybind11) gives the standard exceptions, so both entries agree.
        PyErr_SetString(PyExc_ValueError, e.what());
        return nullptr;
    } catch (const std::out_of_range& e) {
        PyErr_SetString(PyExc_IndexError, e.what());
        return nullptr;
    }
    return THPVariable_Wrap(std::move(z));
    END_HANDLE_TH_ERRORS
}

#if defined(ASCEND_EXT_WITH_TORCH_NPU)
// _npu_launch_kernel(fn, kernel, block_dim, device, kinds, names, values, workspace_bytes): the NPU launcher of a
// user's kernel-launch library (npu/kernel_launch.h), for ascend_ext.npu_kernels.NpuKernelLibrary.launch. fn is
// the address of the variant's uniform entry; kinds holds one KernelArgKind per parameter; names the parameters'
// names; values a tensor (kTensor), bytes (kValue, kDeviceBytes) or None per parameter. Not a torch op: it is
// the body of a user op that is registered itself (its schema, autograd, profiler entry), called with raw
// addresses and by-value bytes that no schema types.
PyObject* NpuLaunchKernel(PyObject* /*self*/, PyObject* const* args, Py_ssize_t nargs)
{
    HANDLE_TH_ERRORS
    constexpr const char* kUsage = "ascend_ext._C._npu_launch_kernel(fn: int, kernel: str, block_dim: int, device: int, "
                                   "kinds: bytes, names: list, values: list, workspace_bytes: int)";
    if (nargs != 8 || !PyLong_Check(args[0]) || !PyUnicode_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyLong_Check(args[3]) || !PyBytes_Check(args[4]) || !PyList_Check(args[5]) || !PyList_Check(args[6]) ||
        !PyLong_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, kUsage);
        return nullptr;
    }
    const auto fn = reinterpret_cast<ascend_ext::npu::KernelLaunchFn>(PyLong_AsVoidPtr(args[0]));
    const std::string kernel = PyUnicode_AsUTF8(args[1]);
    const int64_t blockDim = PyLong_AsLongLong(args[2]);
    const int64_t device = PyLong_AsLongLong(args[3]);
    const int64_t workspace = PyLong_AsLongLong(args[7]);
    if (PyErr_Occurred() != nullptr) return nullptr;
    const char* kinds = PyBytes_AS_STRING(args[4]);
    const Py_ssize_t count = PyBytes_GET_SIZE(args[4]);
    if (PyList_GET_SIZE(args[5]) != count || PyList_GET_SIZE(args[6]) != count) {
        PyErr_SetString(PyExc_TypeError, kUsage);
        return nullptr;
    }
    std::vector<ascend_ext::npu::KernelArg> launchArgs(static_cast<size_t>(count));
    for (Py_ssize_t i = 0; i < count; ++i) {
        auto& arg = launchArgs[static_cast<size_t>(i)];
        arg.kind = static_cast<ascend_ext::npu::KernelArgKind>(kinds[i]);
        PyObject* name = PyList_GET_ITEM(args[5], i);
        PyObject* value = PyList_GET_ITEM(args[6], i);
        if (PyUnicode_Check(name)) arg.name = PyUnicode_AsUTF8(name);
        if (THPVariable_Check(value)) {
            arg.tensor = THPVariable_Unpack(value);
        } else if (PyBytes_Check(value)) {
            arg.bytes.assign(PyBytes_AS_STRING(value), static_cast<size_t>(PyBytes_GET_SIZE(value)));
        } else if (value != Py_None) {
            PyErr_Format(PyExc_TypeError, "%s: value %zd must be a tensor, bytes or None", kUsage, i);
            return nullptr;
        }
    }
    {
        pybind11::gil_scoped_release noGil;
        ascend_ext::npu::LaunchKernel(fn, kernel, blockDim, device, std::move(launchArgs), workspace);
    }
    Py_RETURN_NONE;
    END_HANDLE_TH_ERRORS
}

PyMethodDef kNpuMethods[] = {
    {"_npu_launch_kernel", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&NpuLaunchKernel)),
     METH_FASTCALL, "the NPU launcher of ascend_ext.npu_kernels (internal)"},
    {nullptr, nullptr, 0, nullptr},
};
#endif

PyMethodDef kMethods[] = {
    {"vector_add", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&VectorAdd)), METH_FASTCALL,
     "vector_add(x, y): the registered ascend_ext::vector_add with alpha = 1, through the dispatcher"},
    {"_register_declared_autograd",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ascend_ext::RegisterDeclaredAutograd)), METH_FASTCALL,
     "_register_declared_autograd(namespace, name, formulas): the C++ Autograd kernel of a declared op"},
    {"_twin_launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ascend_ext::TwinLaunch)),
     METH_FASTCALL, "_twin_launch(...): a kernel library's launch without ctypes marshalling (twin_kernels.Launcher)"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

extern "C" PyMODINIT_FUNC PyInit__C(void)
{
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, kMethods};
    PyObject* m = PyModule_Create(&module);
#if defined(ASCEND_EXT_WITH_TORCH_NPU)
    if (m != nullptr && PyModule_AddFunctions(m, kNpuMethods) != 0) {
        Py_DECREF(m);
        return nullptr;
    }
#endif
    return m;
}
