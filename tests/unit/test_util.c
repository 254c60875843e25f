/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of util.c: arena, overflow checks, the op and dtype tables. */
#include "test.h"
#include "tinyaot.h"

#include <stdint.h>

int main(void) {
  size_t out;
  CHECK(mul_overflows(SIZE_MAX / 2 + 1, 2, &out), "SIZE_MAX/2+1 times 2 overflows");
  CHECK(!mul_overflows(1000, 1000, &out) && out == 1000000, "1000 times 1000 is 1000000");
  CHECK(add_overflows(SIZE_MAX, 1, &out), "SIZE_MAX plus 1 overflows");

  unsigned char *p = arena_alloc(3), *q = arena_alloc(40);
  CHECK(((uintptr_t)p % 16) == 0 && ((uintptr_t)q % 16) == 0, "arena blocks are 16-byte aligned");
  CHECK(q >= p + 16 || p >= q + 40, "arena blocks do not overlap");
  char *big = arena_alloc(3u << 20);
  big[(3u << 20) - 1] = 1;
  CHECK(big[0] == 0, "a block larger than the chunk size is zeroed and usable");
  arena_reset();

  OpKind k;
  CHECK(op_from_tflite_code(3, &k) && k == OP_CONV_2D && !strcmp(op_name(k), "CONV_2D"),
        "TFLite builtin code 3 is CONV_2D");
  CHECK(op_from_tflite_code(114, &k) && k == OP_QUANTIZE, "TFLite builtin code 114 is QUANTIZE");
  CHECK(!op_from_tflite_code(9999, &k), "an unknown builtin code is not found");
  DType dt;
  CHECK(dtype_from_tflite(9, &dt) && dt == DT_INT8 && dtype_bits(dt) == 8, "TFLite type 9 is int8");

  Tensor t = {.dtype = DT_INT16, .ndims = 3, .dims = {2, 3, 4}};
  CHECK(tensor_bytes(&t) == 48, "an int16 tensor of 2x3x4 takes 48 bytes");

  jmp_buf jb;
  error_jmp = &jb;
  Graph g = {.path = "m.tflite"};
  if (!setjmp(jb))
    error_at(&g, -1, "bad %d", 7);
  CHECK(!strcmp(error_message, "m.tflite: bad 7"), "error_at names the model file (got '%s')", error_message);
  error_jmp = NULL;
  return test_exit();
}
