// The tiling of the test op axpy: how many elements, how they are split over cores and tiles.
#pragma once
#include <cstdint>

struct AxpyTiling {
    uint64_t total;      // elements of x, y and out
    uint32_t perCore;    // elements per core (the last core may get fewer), a multiple of the tile
    uint32_t tile;       // elements per UB tile, a whole number of 32-byte blocks
};
