#pragma once
// FNV-1a (64 bit) of a State's bit patterns (t, then r, q, u body by body), continuing from
// `seed`: equal hashes mean bit-identical states. `moreau simulate` folds every step's state into
// one rollout hash, printed in its summary (docs/reliability.md, determinism).
#include <cstdint>
#include <cstring>

#include "moreau/model/state.hpp"

namespace moreau {

constexpr uint64_t kStateHashSeed = 14695981039346656037ull;

inline uint64_t fnv1a(uint64_t h, const double* x, int n) {
  for (int k = 0; k < n; ++k) {
    uint64_t bits;
    std::memcpy(&bits, x + k, sizeof bits);
    for (int b = 0; b < 8; ++b) {
      h ^= (bits >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

inline uint64_t state_hash(const State& s, uint64_t seed = kStateHashSeed) {
  uint64_t h = fnv1a(seed, &s.t, 1);
  for (int b = 0; b < s.num_bodies(); ++b) {
    h = fnv1a(h, s.r[b].data(), 3);
    h = fnv1a(h, s.q[b].coeffs().data(), 4);
    h = fnv1a(h, s.u[b].data(), 6);
  }
  return h;
}

}  // namespace moreau
