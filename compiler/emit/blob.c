/* SPDX-License-Identifier: Apache-2.0 */
/*
 * blob.c - the weights as one relocatable binary image (--weights-blob).
 *
 * With `compile --weights-blob FILE.bin` the model's constant tensors
 * leave <prefix>_weights.c and go into FILE.bin; the runner reads them
 * through a pointer the firmware binds at run time, so the image can sit
 * at any (16-byte aligned) address: external flash, a file system, a
 * region an over-the-air update writes.  The arrays the compiler computes
 * from the model (requantization multipliers and shifts, tables, folded
 * biases) stay in <prefix>_weights.c: the kernels' parameter structs point
 * at them from const data.  The image is therefore tied to the code
 * compiled from the same model, and says so in its header, which
 * <prefix>_bind_weights() checks before the first inference:
 *
 *   offset size
 *      0     4  magic "TAWB"
 *      4     4  format version, 1 (uint32, little-endian like every field)
 *      8     4  header size, 64: the payload starts here
 *     12     4  payload size in bytes
 *     16     4  CRC-32 (IEEE, zlib's) of the payload
 *     20    12  zero (reserved)
 *     32    32  SHA-256 of the model file the code was compiled from
 *     64     -  the payload: each tensor at its offset (a multiple of 16
 *               from the payload's start), zero padding between
 *
 * The bind function reads the header byte by byte (any endianness, any
 * alignment of the fields) and recomputes the CRC-32 bitwise: about 10
 * cycles per bit on a Cortex-M, once.  Nothing is allocated.
 */
#include "tinyaot.h"

#include <errno.h>
#include <string.h>

#define BLOB_HEADER 64

size_t blob_header_size(void) { return BLOB_HEADER; }

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* "ab01..." (64 hex digits) -> 32 bytes; zeros for NULL. */
static void sha_bytes(const char *hex, uint8_t out[32]) {
  memset(out, 0, 32);
  for (int i = 0; hex && i < 32 && hex[2 * i] && hex[2 * i + 1]; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) == 1)
      out[i] = (uint8_t)v;
  }
}

uint32_t write_weights_blob(const char *path, const char *sha256_hex,
                            const uint8_t *payload, size_t size) {
  if (size > UINT32_MAX - BLOB_HEADER)
    error_file(path, "the weights take %zu bytes: more than a blob holds", size);
  uint8_t h[BLOB_HEADER] = {'T', 'A', 'W', 'B'};
  uint32_t crc = crc32(payload, size);
  put_u32(h + 4, 1);
  put_u32(h + 8, BLOB_HEADER);
  put_u32(h + 12, (uint32_t)size);
  put_u32(h + 16, crc);
  sha_bytes(sha256_hex, h + 32);
  FILE *f = fopen(path, "wb");
  if (!f)
    error_file(path, "cannot write: %s", strerror(errno));
  fwrite(h, 1, sizeof h, f);
  fwrite(payload, 1, size, f);
  if (ferror(f) | (fclose(f) != 0))
    error_file(path, "write error");
  return crc;
}

void put_blob_interface(FILE *f, const char *P, const char *U, size_t size) {
  fprintf(f,
          "/* The weights are in a separate image (--weights-blob): bind it\n"
          " * before the first %s_run().  %s_WEIGHTS_BLOB_SIZE is the image's\n"
          " * size (header included); it must start on a 16-byte boundary. */\n"
          "#define %s_WEIGHTS_BLOB_SIZE %zu\n"
          "#define %s_BLOB_OK 0\n"
          "#define %s_BLOB_BAD_MAGIC 1     /* not a tinyaot weights image */\n"
          "#define %s_BLOB_BAD_VERSION 2   /* a format this code does not read */\n"
          "#define %s_BLOB_WRONG_MODEL 3   /* the image of another model */\n"
          "#define %s_BLOB_BAD_SIZE 4      /* not the size this model needs */\n"
          "#define %s_BLOB_BAD_CRC 5       /* corrupted: its CRC-32 differs */\n"
          "#define %s_BLOB_MISALIGNED 6    /* not on a 16-byte boundary */\n"
          "/* What %s_run() returns while no image is bound. */\n"
          "#define %s_ERR_NO_WEIGHTS 64\n\n"
          "/* Checks the image at `blob` (magic, version, model, size, CRC-32)\n"
          " * and, when it is good, makes %s_run() read its weights there\n"
          " * (it must stay there, unchanged).  Returns %s_BLOB_OK or why not;\n"
          " * a refused image leaves the previous binding (or none) in place. */\n"
          "int %s_bind_weights(const void *blob);\n\n",
          P, U, U, BLOB_HEADER + size, U, U, U, U, U, U, U, P, U, P, U, P);
}

void put_blob_binder(FILE *f, const char *P, const char *U, const char *sha256_hex,
                     size_t size) {
  uint8_t sha[32];
  sha_bytes(sha256_hex, sha);
  fprintf(f, "/* The weights image, bound by %s_bind_weights(). */\n"
             "static const uint8_t *%s_blob;\n\n", P, P);
  fprintf(f, "static const uint8_t %s_model_sha256[32] = {", P);
  for (int i = 0; i < 32; i++)
    fprintf(f, "%s0x%02x%s", i % 8 ? " " : "\n  ", sha[i], i < 31 ? "," : "");
  fprintf(f, "};\n\n");
  fprintf(f,
          "static uint32_t %s_u32(const uint8_t *p) {\n"
          "  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |\n"
          "         (uint32_t)p[3] << 24;\n"
          "}\n\n"
          "int %s_bind_weights(const void *blob) {\n"
          "  const uint8_t *b = (const uint8_t *)blob;\n"
          "  uint32_t crc = 0xFFFFFFFFu, i;\n"
          "  int k;\n"
          "  if (!b || b[0] != 'T' || b[1] != 'A' || b[2] != 'W' || b[3] != 'B')\n"
          "    return %s_BLOB_BAD_MAGIC;\n"
          "  if (%s_u32(b + 4) != 1u || %s_u32(b + 8) != %uu)\n"
          "    return %s_BLOB_BAD_VERSION;\n"
          "  for (k = 0; k < 32; k++)\n"
          "    if (b[32 + k] != %s_model_sha256[k])\n"
          "      return %s_BLOB_WRONG_MODEL;\n"
          "  if (%s_u32(b + 12) != %zuu)\n"
          "    return %s_BLOB_BAD_SIZE;\n"
          "  if (((uintptr_t)(const void *)b & 15u) != 0)\n"
          "    return %s_BLOB_MISALIGNED;\n"
          "  /* CRC-32 (IEEE), bit by bit: no table in flash. */\n"
          "  for (i = 0; i != %zuu; i++) { /* != : no warning for an empty payload */\n"
          "    crc ^= b[%u + i];\n"
          "    for (k = 0; k < 8; k++)\n"
          "      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));\n"
          "  }\n"
          "  if ((crc ^ 0xFFFFFFFFu) != %s_u32(b + 16))\n"
          "    return %s_BLOB_BAD_CRC;\n"
          "  %s_blob = b + %u;\n"
          "  return %s_BLOB_OK;\n"
          "}\n\n",
          P, P, U, P, P, BLOB_HEADER, U, P, U, P, size, U, U, size, BLOB_HEADER, P,
          U, P, BLOB_HEADER, U);
}
