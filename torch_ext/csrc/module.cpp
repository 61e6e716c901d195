// Makes ascend_ext._C importable; loading it runs the static registrations of the ops. Python talks to
// the twin and the tiling through C functions (ctypes), so this module defines no Python functions.
#include <Python.h>

extern "C" PyMODINIT_FUNC PyInit__C(void)
{
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, nullptr};
    return PyModule_Create(&module);
}
