// AscendC::Std: the device's small standard library (include/utils/std/: algorithm.h, cmath.h, tuple.h,
// type_traits.h, utility.h). The type traits, tuple and utility parts behave as the C++ standard library's
// of the same names, which the twin uses for them; the arithmetic helpers and the traits the standard does
// not have (is_one_of, is_one_of_value, is_constant, is_tuple) are written out as the real headers define
// them, with their dtype rules.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "twin/kernel_types.h"
#include "twin/kernel_utils.h"

namespace AscendC {
namespace Std {

// type_traits.h
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_function;
using std::is_function_v;
using std::is_integral;
using std::is_integral_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;

template <typename T>
struct remove_cvref {
    using type = remove_cv_t<remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Args>
struct is_one_of : public false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...> : conditional_t<is_same_v<T, Head>, true_type, is_one_of<T, Tail...>> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

template <typename T, T... Value>
struct is_one_of_value : public false_type {};
template <typename T, T Value, T Head, T... Tail>
struct is_one_of_value<T, Value, Head, Tail...>
    : conditional_t<Value == Head, true_type, is_one_of_value<T, Value, Tail...>> {};
template <typename T, T... Value>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Value...>::value;

template <auto n, typename T>
struct is_constant : false_type {};
template <auto n, typename T>
struct is_constant<n, T const> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T const&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

// tuple.h
using std::get;
using std::ignore;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
using std::tuple_size_v;

namespace twin_detail {
template <typename T, typename = void>
struct HasTupleSize : false_type {};
template <typename T>
struct HasTupleSize<T, std::void_t<decltype(tuple_size<T>::value)>> : true_type {};
}  // namespace twin_detail
template <typename T>
struct is_tuple : bool_constant<twin_detail::HasTupleSize<T>::value> {};
template <typename T>
constexpr bool is_tuple_v = is_tuple<T>::value;

// utility.h (index sequences hold at most 64 values on the device)
using std::declval;
using std::forward;
using std::move;
template <class T, T... Ns>
using integer_sequence = std::integer_sequence<T, Ns...>;
template <size_t... Ns>
using index_sequence = std::index_sequence<Ns...>;
template <class T, T N>
struct TwinCheckedSequence {
    static_assert(0 <= N && N <= 64, "Std::make_index_sequence must be within [0,64].");
    using type = std::make_integer_sequence<T, (0 <= N ? N : 0)>;
};
template <class T, T N>
using make_integer_sequence = typename TwinCheckedSequence<T, N>::type;
template <size_t N>
using make_index_sequence = make_integer_sequence<size_t, N>;
template <class... T>
using index_sequence_for = make_index_sequence<sizeof...(T)>;

// algorithm.h
template <typename T, typename U>
__aicore__ inline constexpr auto min(const T& src0, const U& src1)
{
    return (src0 < src1) ? src0 : src1;
}
template <typename T, typename U>
__aicore__ inline constexpr auto max(const T& src0, const U& src1)
{
    return (src0 > src1) ? src0 : src1;
}

// cmath.h
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_division(const T& num1, const U& num2)
{
    if constexpr (std::is_integral_v<T> && std::is_integral_v<U>) {
        if (num2 == 0) AscendC::twin_detail::DivisorZero("Std::ceil_division");
    }
    return (num1 + num2 - 1) / num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_align(const T& num1, const U& num2)
{
    return ceil_division(num1, num2) * num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto divide(const T& num1, const U& num2)
{
    if constexpr (std::is_integral_v<T> && std::is_integral_v<U>) {
        if (num2 == 0) AscendC::twin_detail::DivisorZero("Std::divide");
    }
    return num1 / num2;
}
template <typename T>
__aicore__ inline T abs(const T src)
{
    static_assert(is_one_of<T, int8_t, int16_t, int32_t, float, int64_t>(),
                  "current data type is not supported on current device!");
    if constexpr (std::is_floating_point_v<T>) return std::fabs(src);
    else return static_cast<T>(src < 0 ? -src : src);
}
template <typename T>
__aicore__ inline T sqrt(const T src)
{
    static_assert(is_one_of<T, float, int64_t>(), "current data type is not supported on current device!");
    if constexpr (std::is_floating_point_v<T>) return std::sqrt(src);
    else return static_cast<T>(std::sqrt(static_cast<double>(src)));
}

}  // namespace Std
}  // namespace AscendC
