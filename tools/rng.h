/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rng.h - the seeded random numbers of the model generators (gen_ops,
 * gen_graphs): splitmix64, uniform and log-uniform draws, and FNV-1a for
 * naming cases by their content.  Deterministic on every host: the same
 * seed draws the same models.
 */
#ifndef TOOLS_RNG_H
#define TOOLS_RNG_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t s;
} Rng;

static inline uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static inline uint64_t rnext(Rng *r) { return splitmix(&r->s); }

/* Uniform integer in [lo, hi]. */
static inline int rint_in(Rng *r, int lo, int hi) {
  return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1));
}

static inline double runit(Rng *r) { return (double)(rnext(r) >> 11) / 9007199254740992.0; }

static inline float runif(Rng *r, double lo, double hi) { return (float)(lo + (hi - lo) * runit(r)); }

/* Log-uniform in [lo, hi]. */
static inline float rlog(Rng *r, double lo, double hi) {
  return (float)exp(log(lo) + (log(hi) - log(lo)) * runit(r));
}

static inline int rchance(Rng *r, double p) { return runit(r) < p; }

static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

#endif
