// The Autograd kernel of ops declared with ascend_ext.library: a C++ kernel, like our own ops', that calls
// the declaration's Python formulas (setup_context, backward, jvp). Being a C++ autograd kernel, it
// composes with the torch.func transforms (grad, jacrev, jvp, jacfwd, vmap over them) the way native ops
// do; an autograd.Function applied inside a dispatcher kernel would not.
//
// The Python side (ascend_ext/_declared_autograd.py) registers one per op with a `formulas` object:
//   formulas.new_ctx() -> ctx                  a fresh context object
//   formulas.setup_context(ctx, inputs, output) the declaration's setup_context (inputs: every argument)
//   formulas.backward(ctx, grads) -> tuple      one gradient (or None) per schema argument
//   formulas.jvp(ctx, tangents) -> tangent(s)   tangents: one per schema argument (None where none)
// Tensors the formulas pass to ctx.save_for_backward are kept as SavedVariables in the node (outputs
// without a reference cycle through the graph) and handed back as ctx.saved_tensors.
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/jit/python/pybind_utils.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/utils/pybind.h>
#include <torch/library.h>

#include <ATen/core/dispatch/Dispatcher.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;

namespace ascend_ext {
namespace {

using torch::autograd::SavedVariable;
using torch::autograd::variable_list;

// Python objects held by C++ objects that may outlive the interpreter's view of them: released under the GIL.
struct PyRef {
    PyObject* obj = nullptr;
    explicit PyRef(py::object o) : obj(o.release().ptr()) {}
    PyRef(const PyRef&) = delete;
    ~PyRef()
    {
        if (obj != nullptr && Py_IsInitialized()) {
            py::gil_scoped_acquire gil;
            Py_DECREF(obj);
        }
    }
    py::handle get() const { return obj; }
};

struct Formulas {
    std::string qualname;
    std::shared_ptr<PyRef> fns;
};

py::object ToPy(const c10::IValue& v)
{
    return torch::jit::toPyObject(v);
}

// The tensors the formulas saved, as SavedVariables (outputs recognised by identity).
std::vector<SavedVariable> TakeSaved(py::handle ctx, const std::vector<at::Tensor>& outputs)
{
    std::vector<SavedVariable> saved;
    py::object list = ctx.attr("_take_saved")();
    for (py::handle item : list) {
        if (item.is_none()) {
            saved.emplace_back();
            continue;
        }
        const at::Tensor& t = THPVariable_Unpack(item.ptr());
        bool isOutput = false;
        for (const at::Tensor& o : outputs) {
            isOutput = isOutput || o.unsafeGetTensorImpl() == t.unsafeGetTensorImpl();
        }
        saved.emplace_back(t, isOutput);
    }
    return saved;
}

void GiveSaved(py::handle ctx, std::vector<SavedVariable>& saved, const c10::intrusive_ptr<torch::autograd::Node>& node)
{
    py::tuple tensors(saved.size());
    for (size_t i = 0; i < saved.size(); ++i) {
        at::Tensor t = saved[i].unpack(node);
        tensors[i] = t.defined() ? py::reinterpret_steal<py::object>(THPVariable_Wrap(std::move(t))) : py::none();
    }
    ctx.attr("_set_saved")(tensors);
}

class DeclaredBackward : public torch::autograd::Node {
public:
    DeclaredBackward(std::shared_ptr<Formulas> formulas, std::shared_ptr<PyRef> ctx, std::vector<size_t> tensorArgs,
                     size_t nargs)
        : formulas_(std::move(formulas)), ctx_(std::move(ctx)), tensorArgs_(std::move(tensorArgs)), nargs_(nargs)
    {
    }

    std::string name() const override { return "DeclaredBackward<" + formulas_->qualname + ">"; }

    variable_list apply(variable_list&& grads) override
    {
        py::gil_scoped_acquire gil;
        // needs_input_grad per schema argument: the edges are the tensor arguments, in order.
        py::tuple needs(nargs_);
        for (size_t i = 0; i < nargs_; ++i) needs[i] = py::bool_(false);
        for (size_t k = 0; k < tensorArgs_.size(); ++k) needs[tensorArgs_[k]] = py::bool_(task_should_compute_output(k));
        py::handle ctx = ctx_->get();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (released_) {
                throw std::runtime_error(formulas_->qualname + ": backward through the graph a second time, but its "
                                         "saved tensors were freed after the first; pass retain_graph=True");
            }
            GiveSaved(ctx, saved_, getptr());
        }
        ctx.attr("needs_input_grad") = needs;
        py::tuple g(grads.size());
        for (size_t i = 0; i < grads.size(); ++i) {
            g[i] = grads[i].defined() ? py::reinterpret_steal<py::object>(THPVariable_Wrap(grads[i])) : py::none();
        }
        py::object result = formulas_->fns->get().attr("backward")(ctx, g);
        py::tuple r = result.cast<py::tuple>();
        variable_list out(tensorArgs_.size());
        for (size_t k = 0; k < tensorArgs_.size(); ++k) {
            py::handle v = r[tensorArgs_[k]];
            if (!v.is_none()) out[k] = THPVariable_Unpack(v.ptr());
        }
        return out;
    }

    void release_variables() override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (SavedVariable& s : saved_) s.reset_data();
        released_ = true;
    }

    std::vector<SavedVariable> saved_;

private:
    std::shared_ptr<Formulas> formulas_;
    std::shared_ptr<PyRef> ctx_;
    std::vector<size_t> tensorArgs_;  // the schema positions of the tensor arguments (the node's edges)
    size_t nargs_;
    std::mutex mutex_;
    bool released_ = false;
};

at::Tensor Tangent(const at::Tensor& t) { return t.defined() ? t._fw_grad(/*level=*/0) : at::Tensor(); }

class DeclaredAutogradKernel final : public c10::OperatorKernel {
public:
    explicit DeclaredAutogradKernel(std::shared_ptr<Formulas> f) : formulas_(std::move(f)) {}

    void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack)
    {
        const c10::FunctionSchema& schema = op.schema();
        const size_t nargs = schema.arguments().size();
        const size_t nret = schema.returns().size();
        std::vector<c10::IValue> args(stack->end() - nargs, stack->end());
        std::vector<size_t> tensorArgs;
        std::vector<at::Tensor> tensors;
        bool needsGrad = false;
        bool needsTangent = false;
        for (size_t i = 0; i < nargs; ++i) {
            const c10::IValue& v = args[i];
            const c10::TypePtr& type = schema.arguments()[i].type();
            const bool isTensorArg = type->kind() == c10::TypeKind::TensorType ||
                                     (type->kind() == c10::TypeKind::OptionalType &&
                                      type->castRaw<c10::OptionalType>()->getElementType()->kind() ==
                                          c10::TypeKind::TensorType);
            if (!isTensorArg) continue;
            tensorArgs.push_back(i);
            at::Tensor t = v.isTensor() ? v.toTensor() : at::Tensor();
            needsGrad = needsGrad || (t.defined() && t.requires_grad());
            needsTangent = needsTangent || Tangent(t).defined();
            tensors.push_back(std::move(t));
        }
        needsGrad = needsGrad && at::GradMode::is_enabled();
        {
            at::AutoDispatchBelowADInplaceOrView guard;
            op.redispatchBoxed(ks & c10::after_autograd_keyset, stack);
        }
        if (!needsGrad && !needsTangent) return;
        std::vector<at::Tensor> outputs;
        for (auto it = stack->end() - nret; it != stack->end(); ++it) outputs.push_back(it->toTensor());

        py::gil_scoped_acquire gil;
        py::handle fns = formulas_->fns->get();
        auto ctx = std::make_shared<PyRef>(fns.attr("new_ctx")());
        py::tuple inputs(nargs);
        for (size_t i = 0; i < nargs; ++i) inputs[i] = ToPy(args[i]);
        py::object output;
        if (nret == 1) {
            output = py::reinterpret_steal<py::object>(THPVariable_Wrap(outputs[0]));
        } else {
            py::tuple outs(nret);
            for (size_t k = 0; k < nret; ++k) outs[k] = py::reinterpret_steal<py::object>(THPVariable_Wrap(outputs[k]));
            output = outs;
        }
        fns.attr("setup_context")(ctx->get(), inputs, output);
        std::vector<SavedVariable> saved = TakeSaved(ctx->get(), outputs);

        if (needsTangent) {
            py::tuple tangents(nargs);
            for (size_t i = 0; i < nargs; ++i) tangents[i] = py::none();
            for (size_t k = 0; k < tensorArgs.size(); ++k) {
                at::Tensor tan = Tangent(tensors[k]);
                if (tan.defined()) tangents[tensorArgs[k]] = py::reinterpret_steal<py::object>(THPVariable_Wrap(tan));
            }
            // The primals' saved tensors, for the jvp formula: without their tangents (as native formulas
            // see self_p), or a formula using them would give a tangent that has a tangent of its own.
            py::tuple savedNow(saved.size());
            for (size_t i = 0; i < saved.size(); ++i) {
                at::Tensor t = saved[i].unpack();
                if (t.defined() && Tangent(t).defined()) t = t._fw_primal(/*level=*/0);
                savedNow[i] = t.defined() ? py::reinterpret_steal<py::object>(THPVariable_Wrap(std::move(t))) : py::none();
            }
            ctx->get().attr("_set_saved")(savedNow);
            py::object result = fns.attr("jvp")(ctx->get(), tangents);
            for (size_t k = 0; k < nret; ++k) {
                py::handle r = nret == 1 ? result : result.cast<py::tuple>()[k];
                if (r.is_none()) continue;
                at::Tensor tan = THPVariable_Unpack(r.ptr());
                outputs[k]._set_fw_grad(tan.to(outputs[k].scalar_type()), /*level=*/0, /*is_inplace_op=*/false);
            }
        }
        if (needsGrad) {
            auto node = c10::make_intrusive<DeclaredBackward>(formulas_, ctx, tensorArgs, nargs);
            node->saved_ = std::move(saved);
            node->set_next_edges(torch::autograd::collect_next_edges(tensors));
            for (at::Tensor& o : outputs) {
                if (o.is_floating_point() || o.is_complex()) torch::autograd::set_history(o, node);
            }
        }
    }

private:
    std::shared_ptr<Formulas> formulas_;
};

std::mutex gLibrariesMutex;
std::vector<std::unique_ptr<torch::Library>>& Libraries()
{
    static auto* libs = new std::vector<std::unique_ptr<torch::Library>>();  // kept for the process's life
    return *libs;
}

}  // namespace

// _C._register_declared_autograd(namespace, name, formulas): the Autograd kernel of namespace::name.
PyObject* RegisterDeclaredAutograd(PyObject* /*self*/, PyObject* const* args, Py_ssize_t nargs)
{
    HANDLE_TH_ERRORS
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_register_declared_autograd(namespace, name, formulas)");
        return nullptr;
    }
    const std::string ns = PyUnicode_AsUTF8(args[0]);
    const std::string name = PyUnicode_AsUTF8(args[1]);
    auto formulas = std::make_shared<Formulas>();
    formulas->qualname = ns + "::" + name;
    formulas->fns = std::make_shared<PyRef>(py::reinterpret_borrow<py::object>(args[2]));
    std::lock_guard<std::mutex> lock(gLibrariesMutex);
    auto lib = std::make_unique<torch::Library>(torch::Library::IMPL, ns, c10::DispatchKey::Autograd, __FILE__,
                                                static_cast<uint32_t>(__LINE__));
    lib->impl(name.c_str(), torch::CppFunction::makeFromBoxedFunctor(std::make_unique<DeclaredAutogradKernel>(formulas)));
    Libraries().push_back(std::move(lib));
    Py_RETURN_NONE;
    END_HANDLE_TH_ERRORS
}

}  // namespace ascend_ext
