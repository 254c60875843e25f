/* SPDX-License-Identifier: Apache-2.0 */
/*
 * digest.c - SHA-256 (FIPS 180-4) and CRC-32 (IEEE 802.3, the zlib and
 * PNG checksum) of a byte string.
 *
 * SHA-256 names the model a generated folder came from (the header's
 * <PREFIX>_MODEL_SHA256 and the weights blob's header); CRC-32 guards a
 * weights blob against corruption, cheap enough to check on a device.
 * Both are the textbook algorithms, written for reading, not speed: a
 * model of a few megabytes hashes in milliseconds.
 */
#include "tinyaot.h"

#include <string.h>

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* One 64-byte block into the state h[8]. */
static void sha256_block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
           (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5],
           g = h[6], k = h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
                  ((e & f) ^ (~e & g)) + K[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
                  ((a & b) ^ (a & c) ^ (b & c));
    k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d;
  h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void sha256(const void *data, size_t n, uint8_t out[32]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const uint8_t *p = data;
  size_t left = n;
  for (; left >= 64; left -= 64, p += 64)
    sha256_block(h, p);
  /* The tail, a 1 bit, zeros, and the length in bits (big-endian) in the
   * last 8 bytes of a block: one or two more blocks. */
  uint8_t tail[128] = {0};
  memcpy(tail, p, left);
  tail[left] = 0x80;
  size_t blocks = left + 9 <= 64 ? 1 : 2;
  uint64_t bits = (uint64_t)n * 8;
  for (int i = 0; i < 8; i++)
    tail[blocks * 64 - 1 - (size_t)i] = (uint8_t)(bits >> (8 * i));
  for (size_t b = 0; b < blocks; b++)
    sha256_block(h, tail + 64 * b);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 4; j++)
      out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

const char *sha256_hex(const void *data, size_t n) {
  uint8_t d[32];
  sha256(data, n, d);
  char *s = arena_alloc(65);
  for (int i = 0; i < 32; i++)
    snprintf(s + 2 * i, 3, "%02x", d[i]);
  return s;
}

/* Bitwise, reflected polynomial 0xEDB88320, initial value and final xor
 * 0xFFFFFFFF: crc32("123456789") = 0xCBF43926. */
uint32_t crc32(const void *data, size_t n) {
  const uint8_t *p = data;
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++)
      c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}
