// The basic API's layouts and coordinates (kernel_operator_layout.h, kernel_operator_coord.h, namespace AscendC):
// Shape, Stride and Coord are AscendC::Std::tuples (possibly nested); MakeShape/MakeStride/MakeCoord build them;
// Layout<Shape, Stride> (MakeLayout) maps a coordinate to an element offset with Crd2Idx, as the API defines it:
// - a coordinate tuple against shape and stride tuples of its rank: the sum of each mode's offset;
// - an integer coordinate against a shape tuple: split over the modes colexicographically (the first mode's size
//   is the product of its shape, the remainder goes on to the next modes);
// - an integer coordinate against an integer shape: coordinate * stride.
// Mismatched ranks do not compile (the API's static_asserts).
#pragma once

#include <cstddef>
#include <cstdint>

#include "twin/kernel_std.h"

namespace AscendC {

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;

template <typename... Ts>
__aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t)
{
    return {t...};
}
template <typename... Ts>
__aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t)
{
    return {t...};
}
template <typename... Ts>
__aicore__ inline constexpr Coord<Ts...> MakeCoord(const Ts&... t)
{
    return {t...};
}

namespace twin_detail {
// The number of elements a (possibly nested) shape spans.
template <typename T>
constexpr auto ShapeProduct(const T& s)
{
    if constexpr (Std::is_tuple_v<T>) {
        return std::apply([](const auto&... e) { return (int64_t(1) * ... * ShapeProduct(e)); }, s);
    } else {
        static_assert(std::is_integral_v<T>, "a Shape holds integers or Shapes");
        return s;
    }
}
}  // namespace twin_detail

template <typename T, typename U, typename S>
__aicore__ inline constexpr auto Crd2Idx(const T& coord, const U& shape, const S& stride);

namespace twin_detail {
template <typename T, typename U, typename S, size_t... Is>
constexpr auto Crd2IdxModes(const T& coord, const U& shape, const S& stride, std::index_sequence<Is...>)
{
    return (... + Crd2Idx(Std::get<Is>(coord), Std::get<Is>(shape), Std::get<Is>(stride)));
}
template <typename T, typename U, typename S, size_t I0, size_t... Is>
constexpr auto Crd2IdxSplit(const T& coord, const U& shape, const S& stride, std::index_sequence<I0, Is...>)
{
    if constexpr (sizeof...(Is) == 0) {
        return Crd2Idx(coord, Std::get<I0>(shape), Std::get<I0>(stride));
    } else {
        const auto size = ShapeProduct(Std::get<I0>(shape));
        return Crd2Idx(coord % size, Std::get<I0>(shape), Std::get<I0>(stride)) +
               Crd2IdxSplit(coord / size, shape, stride, std::index_sequence<Is...>{});
    }
}
}  // namespace twin_detail

template <typename T, typename U, typename S>
__aicore__ inline constexpr auto Crd2Idx(const T& coord, const U& shape, const S& stride)
{
    if constexpr (Std::is_tuple_v<T>) {
        static_assert(Std::is_tuple_v<U>, "Crd2Idx: a coordinate tuple needs a Shape tuple");
        static_assert(Std::tuple_size_v<T> == Std::tuple_size_v<U>, "Crd2Idx: Shape and Coord of different ranks");
        static_assert(Std::tuple_size_v<T> == Std::tuple_size_v<S>, "Crd2Idx: Stride and Coord of different ranks");
        return twin_detail::Crd2IdxModes(coord, shape, stride, std::make_index_sequence<Std::tuple_size_v<T>>{});
    } else if constexpr (Std::is_tuple_v<U>) {
        static_assert(Std::tuple_size_v<U> == Std::tuple_size_v<S>, "Crd2Idx: Shape and Stride of different ranks");
        return twin_detail::Crd2IdxSplit(coord, shape, stride, std::make_index_sequence<Std::tuple_size_v<U>>{});
    } else {
        return coord * stride;
    }
}

template <typename T, typename U>
struct Layout : private Std::tuple<T, U> {
    __aicore__ inline constexpr Layout(const T& shape = {}, const U& stride = {}) : Std::tuple<T, U>(shape, stride)
    {
        static_assert(Std::is_tuple_v<T> && Std::is_tuple_v<U>, "Layout: Shape and Stride are tuples");
    }
    __aicore__ inline constexpr decltype(auto) layout() { return *this; }
    __aicore__ inline constexpr decltype(auto) layout() const { return *this; }
    // GetShape<>() the whole shape, GetShape<i>() its mode i, GetShape<i, j, ...>() a tuple of those modes.
    template <size_t... I>
    __aicore__ inline constexpr decltype(auto) GetShape() const
    {
        return Part<0, I...>();
    }
    template <size_t... I>
    __aicore__ inline constexpr decltype(auto) GetStride() const
    {
        return Part<1, I...>();
    }
    template <typename S>
    __aicore__ inline constexpr auto operator()(const S& coord) const
    {
        return Crd2Idx(coord, GetShape(), GetStride());
    }

private:
    template <size_t which, size_t... I>
    constexpr decltype(auto) Part() const
    {
        const auto& all = Std::get<which>(static_cast<const Std::tuple<T, U>&>(*this));
        if constexpr (sizeof...(I) == 0) {
            return all;
        } else if constexpr (sizeof...(I) == 1) {
            return Std::get<I...>(all);
        } else {
            return Std::make_tuple(Std::get<I>(all)...);
        }
    }
};

template <typename T, typename U>
__aicore__ inline constexpr auto MakeLayout(const T& shape, const U& stride)
{
    static_assert(Std::is_tuple_v<T> && Std::is_tuple_v<U>, "MakeLayout: Shape and Stride are tuples");
    return Layout<T, U>(shape, stride);
}

template <typename T, typename U, typename S>
__aicore__ inline constexpr auto Crd2Idx(const T& coord, const Layout<U, S>& layout)
{
    return Crd2Idx(coord, layout.GetShape(), layout.GetStride());
}

template <typename T>
struct is_layout : Std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : Std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

}  // namespace AscendC
