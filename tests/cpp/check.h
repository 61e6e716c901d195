// A minimal test harness for the C++ tests: CHECK records a failure and goes on; main returns non-zero
// when anything failed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace check {

// One generator per test program, freshly seeded; the seed is printed so that a failure can be replayed.
inline std::mt19937& Rng()
{
    static std::mt19937 rng = [] {
        const uint32_t seed = std::random_device{}();
        std::printf("seed %u\n", seed);
        return std::mt19937(seed);
    }();
    return rng;
}

inline int& Failures()
{
    static int failures = 0;
    return failures;
}

struct Case {
    const char* name;
    std::function<void()> body;
};

inline std::vector<Case>& Cases()
{
    static std::vector<Case> cases;
    return cases;
}

struct Register {
    Register(const char* name, std::function<void()> body) { Cases().push_back({name, std::move(body)}); }
};

inline int RunAll()
{
    for (const Case& c : Cases()) {
        const int before = Failures();
        try {
            c.body();
        } catch (const std::exception& e) {
            std::printf("  unexpected exception: %s\n", e.what());
            ++Failures();
        }
        std::printf("%s %s\n", Failures() == before ? "PASS" : "FAIL", c.name);
    }
    std::printf("%d cases, %d failed checks\n", static_cast<int>(Cases().size()), Failures());
    return Failures() == 0 ? 0 : 1;
}

}  // namespace check

#define CHECK_CONCAT2(a, b) a##b
#define CHECK_CONCAT(a, b) CHECK_CONCAT2(a, b)
#define TEST_CASE(name)                                                              \
    static void CHECK_CONCAT(test_body_, __LINE__)();                                \
    static check::Register CHECK_CONCAT(test_reg_, __LINE__)(name, &CHECK_CONCAT(test_body_, __LINE__)); \
    static void CHECK_CONCAT(test_body_, __LINE__)()

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            std::printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);     \
            ++check::Failures();                                                       \
        }                                                                              \
    } while (0)

#define CHECK_EQ(a, b)                                                                                       \
    do {                                                                                                     \
        const auto va = (a);                                                                                 \
        const auto vb = (b);                                                                                 \
        if (!(va == vb)) {                                                                                   \
            std::printf("  %s:%d: CHECK_EQ(%s, %s) failed: %s vs %s\n", __FILE__, __LINE__, #a, #b,           \
                        std::to_string(va).c_str(), std::to_string(vb).c_str());                             \
            ++check::Failures();                                                                             \
        }                                                                                                    \
    } while (0)

#define TEST_MAIN() \
    int main() { return check::RunAll(); }
