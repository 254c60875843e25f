/* SPDX-License-Identifier: Apache-2.0 */
/*
 * const_set.c - the set of constant arrays by content: the emitter stores
 * byte-identical constants once (emit.c, dedup_constants), and the flash
 * estimate of `tinyaot report` counts them once the same way
 * (report_size.c).  Open addressing over a power-of-two table; an entry
 * is equal to another when kind (tensor or lowered array), element type,
 * size and bytes all are.
 */
#include "tinyaot.h"

#include <string.h>

struct ConstSet {
  int *tab; /* cap entries: 0 empty, else index + 1 into slots */
  size_t cap;
  ConstSlot *slots;
  int nslots;
};

ConstSet *const_set_new(size_t most) {
  ConstSet *s = arena_alloc(sizeof *s);
  s->cap = 16;
  while (s->cap < 2 * most + 2)
    s->cap *= 2;
  s->tab = arena_array(s->cap, sizeof(int));
  s->slots = arena_array(most + 1, sizeof(ConstSlot));
  s->nslots = 0;
  return s;
}

static uint64_t hash_bytes(const void *p, size_t n, uint64_t h) {
  const uint8_t *b = (const uint8_t *)p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211u; /* FNV-1a */
  return h;
}

const ConstSlot *const_set_intern(ConstSet *s, const ConstSlot *c) {
  uint64_t h = hash_bytes(c->data, c->bytes,
                          14695981039346656037u ^ ((uint64_t)c->dtype << 1 | (c->op < 0)));
  h = hash_bytes(&c->bytes, sizeof c->bytes, h);
  for (size_t i = (size_t)h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
    if (!s->tab[i]) {
      s->slots[s->nslots] = *c;
      s->tab[i] = ++s->nslots;
      return NULL;
    }
    const ConstSlot *o = &s->slots[s->tab[i] - 1];
    if ((o->op < 0) == (c->op < 0) && o->dtype == c->dtype && o->bytes == c->bytes &&
        (c->bytes == 0 || !memcmp(o->data, c->data, c->bytes)))
      return o;
  }
}
