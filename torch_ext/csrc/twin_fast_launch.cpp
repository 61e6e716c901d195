// The launch of a kernel library's kernel (declared ops, compile_kernels) from Python without ctypes'
// per-argument marshalling: _C._twin_launch builds the twin's argument array from tensors, bytes and None
// and calls the library runtime's ascend_twin_launch through its address. ascend_ext.twin_kernels.Launcher
// uses it; the same C interface (twin/c_api.h) as the ctypes path, so both check the same things.
#include <Python.h>

#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <array>
#include <cstring>
#include <vector>

#include "storage_place.h"
#include "twin/c_api.h"

namespace ascend_ext {

using LaunchFn = int (*)(const char*, const AscendTwinEntry*, uint32_t, uint64_t, const char*, const AscendTwinArg*,
                         uint32_t, char*, uint64_t);

// _twin_launch(launch_fn: int, entry: int, kernel: bytes, block_dim: int, tiling_key: int, platform: bytes,
//              names: tuple[bytes], by_value: tuple[bool], values: list) -> (rc, message)
// values[i]: a CPU tensor (GM, with its element size and its place in its storage), None (a null GM address), or
// bytes (a GM buffer, copied into an allocation of its own, or the by-value parameter's bytes).
PyObject* TwinLaunch(PyObject* /*self*/, PyObject* const* args, Py_ssize_t nargs)
{
    HANDLE_TH_ERRORS
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "_twin_launch takes 9 arguments");
        return nullptr;
    }
    const auto fn = reinterpret_cast<LaunchFn>(PyLong_AsVoidPtr(args[0]));
    const auto* entry = static_cast<const AscendTwinEntry*>(PyLong_AsVoidPtr(args[1]));
    const char* kernel = PyBytes_AsString(args[2]);
    const auto blockDim = static_cast<uint32_t>(PyLong_AsUnsignedLong(args[3]));
    const uint64_t tilingKey = PyLong_AsUnsignedLongLong(args[4]);
    const char* platform = PyBytes_AsString(args[5]);
    PyObject* names = args[6];
    PyObject* byValue = args[7];
    PyObject* values = args[8];
    if (PyErr_Occurred()) return nullptr;
    if (!PyTuple_Check(names) || !PyTuple_Check(byValue) || !PyList_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "_twin_launch: names and by_value are tuples, values a list");
        return nullptr;
    }
    const Py_ssize_t n = PyList_GET_SIZE(values);
    if (n > ASCEND_TWIN_MAX_PARAMS || PyTuple_GET_SIZE(names) != n || PyTuple_GET_SIZE(byValue) != n) {
        PyErr_SetString(PyExc_ValueError, "_twin_launch: one name, flag and value per kernel parameter");
        return nullptr;
    }
    std::array<AscendTwinArg, ASCEND_TWIN_MAX_PARAMS> a{};
    std::array<std::vector<uint8_t>, ASCEND_TWIN_MAX_PARAMS> copies;  // GM buffers from bytes: the kernel may write
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = PyList_GET_ITEM(values, i);
        a[i].name = PyBytes_AsString(PyTuple_GET_ITEM(names, i));
        if (v == Py_None) continue;
        if (THPVariable_Check(v)) {
            const at::Tensor& t = THPVariable_Unpack(v);
            a[i].data = t.data_ptr();
            a[i].bytes = t.nbytes();
            a[i].elem_size = static_cast<uint32_t>(t.element_size());
            const StoragePlace place = PlaceInStorage(t);
            a[i].alloc_offset = place.offset;
            a[i].ends_allocation = place.endsAllocation ? 1 : 0;
        } else if (PyBytes_Check(v)) {
            char* data = PyBytes_AS_STRING(v);
            const Py_ssize_t size = PyBytes_GET_SIZE(v);
            a[i].bytes = static_cast<uint64_t>(size);
            if (PyTuple_GET_ITEM(byValue, i) == Py_True) {
                a[i].by_value = 1;
                a[i].data = data;  // copied into the parameter by the launch
            } else {
                copies[i].assign(data, data + size);
                a[i].data = copies[i].data();
                a[i].ends_allocation = 1;  // a buffer of its own
            }
        } else {
            PyErr_Format(PyExc_TypeError, "_twin_launch: value %zd is neither a tensor, bytes nor None", i);
            return nullptr;
        }
        if (PyErr_Occurred()) return nullptr;
    }
    char err[4096];
    err[0] = '\0';
    int rc;
    {
        pybind11::gil_scoped_release noGil;  // the virtual cores run on the twin's threads
        rc = fn(kernel, entry, blockDim, tilingKey, platform, a.data(), static_cast<uint32_t>(n), err, sizeof err);
    }
    if (rc == 0) return Py_BuildValue("(is)", 0, "");
    return Py_BuildValue("(is)", rc, err);
    END_HANDLE_TH_ERRORS
}

}  // namespace ascend_ext
