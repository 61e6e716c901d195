// Makes ascend_ext._C importable; loading it runs the static registrations of the ops. Python talks to
// the twin and the tiling through C functions (ctypes). The one Python function defined here is a
// shorter way into the dispatcher for the latency-bound call of ascend_ext.vector_add(x, y):
// torch.ops' OpOverload matches Python arguments against the schema on every call, which costs more
// than the twin's whole launch of a small tensor. It calls the same registered op through the same
// dispatcher (autograd, autocast, vmap, profiler, dispatch modes all apply); the Python wrapper uses it
// only where nothing at the Python level would see the call (no __torch_function__, not under
// torch.compile or TorchScript) and torch.ops otherwise.
#include <Python.h>

#include <stdexcept>

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

namespace ascend_ext {
PyObject* RegisterDeclaredAutograd(PyObject* self, PyObject* const* args, Py_ssize_t nargs);  // declared_autograd.cpp
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

PyMethodDef kMethods[] = {
    {"vector_add", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&VectorAdd)), METH_FASTCALL,
     "vector_add(x, y): the registered ascend_ext::vector_add with alpha = 1, through the dispatcher"},
    {"_register_declared_autograd",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ascend_ext::RegisterDeclaredAutograd)), METH_FASTCALL,
     "_register_declared_autograd(namespace, name, formulas): the C++ Autograd kernel of a declared op"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

extern "C" PyMODINIT_FUNC PyInit__C(void)
{
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, kMethods};
    return PyModule_Create(&module);
}
