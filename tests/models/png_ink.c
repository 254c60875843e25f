/* SPDX-License-Identifier: Apache-2.0 */
/*
 * png_ink.c - how much of a screenshot is not white, for
 * test_report_browser.sh (which compiles it with the host cc and zlib).
 *
 *   png_ink FILE.png   prints the share of pixels that are not near white
 *                      (some channel below 235), in per mille
 *
 * Reads 8-bit RGB or RGBA PNGs (what Chromium writes): the IDAT chunks
 * inflated with zlib, each scanline's filter undone (None, Sub, Up,
 * Average, Paeth: PNG specification section 9).  Exit 1 on anything
 * else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *why) {
  fprintf(stderr, "png_ink: %s\n", why);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return fail("usage: png_ink FILE.png");
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return fail("cannot open the file");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc((size_t)n + 1);
  if (!d || fread(d, 1, (size_t)n, f) != (size_t)n)
    return fail("cannot read the file");
  fclose(f);
  if (n < 33 || memcmp(d, "\x89PNG\r\n\x1a\n", 8))
    return fail("not a PNG");
  uint32_t w = 0, h = 0;
  int bpp = 0;
  uint8_t *z = malloc((size_t)n);
  size_t nz = 0;
  for (long pos = 8; pos + 12 <= n;) {
    uint32_t len = be32(d + pos);
    const uint8_t *body = d + pos + 8;
    if ((long)len > n - pos - 12)
      return fail("truncated chunk");
    if (!memcmp(d + pos + 4, "IHDR", 4)) {
      w = be32(body), h = be32(body + 4);
      if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12])
        return fail("not 8-bit RGB(A), non-interlaced");
      bpp = body[9] == 2 ? 3 : 4;
    } else if (!memcmp(d + pos + 4, "IDAT", 4)) {
      memcpy(z + nz, body, len);
      nz += len;
    }
    pos += 12 + (long)len;
  }
  if (!bpp || !w || !h || w > 20000 || h > 20000)
    return fail("no usable IHDR");
  size_t stride = (size_t)w * (size_t)bpp;
  uLongf nraw = (uLongf)((stride + 1) * h);
  uint8_t *raw = malloc(nraw), *prev = calloc(stride, 1);
  if (!raw || !prev || uncompress(raw, &nraw, z, (uLong)nz) != Z_OK ||
      nraw != (stride + 1) * h)
    return fail("the image data does not inflate");
  unsigned long long ink = 0;
  for (uint32_t y = 0; y < h; y++) {
    uint8_t ft = raw[y * (stride + 1)], *line = raw + y * (stride + 1) + 1;
    for (size_t x = 0; x < stride; x++) {
      int a = x >= (size_t)bpp ? line[x - bpp] : 0, b = prev[x];
      int c = x >= (size_t)bpp ? prev[x - bpp] : 0;
      if (ft == 1)
        line[x] = (uint8_t)(line[x] + a);
      else if (ft == 2)
        line[x] = (uint8_t)(line[x] + b);
      else if (ft == 3)
        line[x] = (uint8_t)(line[x] + (a + b) / 2);
      else if (ft == 4) {
        int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
        line[x] = (uint8_t)(line[x] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c));
      }
    }
    for (size_t x = 0; x < stride; x += (size_t)bpp)
      ink += line[x] < 235 || line[x + 1] < 235 || line[x + 2] < 235;
    memcpy(prev, line, stride);
  }
  printf("%llu\n", ink * 1000 / ((unsigned long long)w * h));
  return 0;
}
