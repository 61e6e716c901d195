// REGISTER_TILING_FOR_TILINGKEY on the twin: the registration's EXPRESSION is evaluated with the launch's tiling
// key, as the toolchain evaluates it for every key it builds (REGISTER_TILING_FOR_TILINGKEY docs: TILING_KEY_VAR
// stands for the key; bit operators & | ~ ^, shifts << >>, arithmetic + - * / %, comparisons == != > < >= <=,
// && || and parentheses, with C++'s precedence).
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

#include "twin/kernel_sys_var.h"
#include "twin/runtime.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace {

constexpr const char* kCall = "REGISTER_TILING_FOR_TILINGKEY";

class KeyExpression {
public:
    KeyExpression(const char* text, uint64_t key) : text_(text), p_(text), key_(key) {}

    uint64_t Evaluate()
    {
        const uint64_t v = Binary(0);
        Skip();
        if (*p_ != '\0') Refuse("an unexpected '" + std::string(p_, 1) + "'");
        return v;
    }

private:
    // The binary operators from the loosest; each level's operators bind alike, left to right.
    static constexpr const char* kLevels[][4] = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"},
    };
    static constexpr int kLevelCount = sizeof(kLevels) / sizeof(kLevels[0]);

    [[noreturn]] void Refuse(const std::string& what) const
    {
        FailF(kCall,
              "EXPRESSION is a C++ expression over TILING_KEY_VAR with the operators the docs list (& | ~ ^ << >> + "
              "- * / % == != > < >= <= && || and parentheses)",
              "\"%s\": %s at offset %d", text_, what.c_str(), static_cast<int>(p_ - text_));
    }

    void Skip()
    {
        while (std::isspace(static_cast<unsigned char>(*p_))) ++p_;
    }

    // The operator of `level` at p_ (longest first), without taking the first half of "&&", "||" or "<<".
    const char* Operator(int level)
    {
        Skip();
        for (const char* op : kLevels[level]) {
            if (op == nullptr) break;
            const size_t n = std::strlen(op);
            if (std::strncmp(p_, op, n) != 0) continue;
            const char next = p_[n];
            if (n == 1 && (next == op[0] || ((op[0] == '<' || op[0] == '>') && next == '='))) continue;
            if (n == 1 && (op[0] == '<' || op[0] == '>') && (next == '<' || next == '>')) continue;
            p_ += n;
            return op;
        }
        return nullptr;
    }

    uint64_t Binary(int level)
    {
        if (level == kLevelCount) return Unary();
        uint64_t v = Binary(level + 1);
        for (const char* op; (op = Operator(level)) != nullptr;) {
            const uint64_t r = Binary(level + 1);
            v = Apply(op, v, r);
        }
        return v;
    }

    uint64_t Apply(const std::string& op, uint64_t a, uint64_t b)
    {
        if (op == "||") return (a != 0 || b != 0) ? 1 : 0;
        if (op == "&&") return (a != 0 && b != 0) ? 1 : 0;
        if (op == "|") return a | b;
        if (op == "^") return a ^ b;
        if (op == "&") return a & b;
        if (op == "==") return a == b ? 1 : 0;
        if (op == "!=") return a != b ? 1 : 0;
        if (op == "<=") return a <= b ? 1 : 0;
        if (op == ">=") return a >= b ? 1 : 0;
        if (op == "<") return a < b ? 1 : 0;
        if (op == ">") return a > b ? 1 : 0;
        if (op == "<<") return b >= 64 ? 0 : a << b;
        if (op == ">>") return b >= 64 ? 0 : a >> b;
        if (op == "+") return a + b;
        if (op == "-") return a - b;
        if (op == "*") return a * b;
        if (b == 0) Refuse("a division by zero");
        return op == "/" ? a / b : a % b;
    }

    uint64_t Unary()
    {
        Skip();
        if (*p_ == '~') return ++p_, ~Unary();
        if (*p_ == '-') return ++p_, 0 - Unary();
        if (*p_ == '+') return ++p_, Unary();
        if (*p_ == '(') {
            ++p_;
            const uint64_t v = Binary(0);
            Skip();
            if (*p_ != ')') Refuse("a missing ')'");
            ++p_;
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(*p_))) {
            char* end = nullptr;
            const uint64_t v = std::strtoull(p_, &end, 0);  // decimal, 0x hexadecimal, 0 octal
            p_ = end;
            while (*p_ == 'u' || *p_ == 'U' || *p_ == 'l' || *p_ == 'L') ++p_;
            return v;
        }
        const char* start = p_;
        while (std::isalnum(static_cast<unsigned char>(*p_)) || *p_ == '_') ++p_;
        const std::string name(start, p_);
        if (name == "TILING_KEY_VAR") return key_;
        p_ = start;
        Refuse(name.empty() ? "an operand expected" : "the name '" + name + "' (only TILING_KEY_VAR stands for a value)");
    }

    const char* text_;
    const char* p_;
    uint64_t key_;
};

}  // namespace

void RegisterTilingForKey(const char* expression, const void* tag, const char* name)
{
    CoreContext& core = CurrentCore();
    if (expression == nullptr || *expression == '\0') {
        Fail(kCall, "EXPRESSION is a C++ expression over TILING_KEY_VAR with the operators the docs list (& | ~ ^ << "
                    ">> + - * / % == != > < >= <= && || and parentheses)",
             "the expression is empty");
    }
    if (KeyExpression(expression, core.tilingKey).Evaluate() == 0) return;
    if (core.keyTiling != nullptr && core.keyTiling != tag) {
        FailF(kCall, "one TilingKey is registered with one TilingData struct (REGISTER_TILING_FOR_TILINGKEY docs)",
              "TILING_KEY_VAR = %llu is registered with %s and, by \"%s\", with %s (the toolchain refuses this when "
              "it builds the key)",
              static_cast<unsigned long long>(core.tilingKey), core.keyTilingName, expression, name);
    }
    core.keyTiling = tag;
    core.keyTilingName = name;
}

void LoadTilingAs(void* dst, uint64_t bytes, const void* tilingGm, const void* tag, const char* name)
{
    const CoreContext& core = CurrentCore();
    if (core.keyTiling != nullptr && core.keyTiling != tag) {
        FailF("GET_TILING_DATA",
              "the tiling is read as the struct REGISTER_TILING_FOR_TILINGKEY registered for the launch's TilingKey",
              "TILING_KEY_VAR = %llu is registered with %s, the kernel reads %s (the host wrote the registered struct: "
              "its bytes read as another struct are other values; the twin is stricter than the device here, which "
              "reads them as given)",
              static_cast<unsigned long long>(core.tilingKey), core.keyTilingName,
              std::strcmp(name, "AscendTwinDefaultTiling") == 0 ? "the default struct (GET_TILING_DATA)" : name);
    }
    LoadTiling(dst, bytes, tilingGm);
}

}  // namespace ascend_twin
