/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The protobuf wire-format reader (compiler/front/protobuf.c) on
 * hand-made messages: every wire type, packed and unpacked repeated
 * numbers, unknown fields skipped, and the refusals - truncated and
 * over-long varints, lengths beyond the message or beyond an enclosing
 * message, groups and invalid wire types, field number 0.  Each message
 * is copied into a buffer of exactly its size (ASan catches overreads).
 */
#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>

/* Reads every field of buf[0..n) (and of nested messages, field 9) into
 * a text trace; "" after a refusal, whose message goes to *err. */
static void walk(PbMsg m, char *out, size_t cap) {
  PbField f;
  while (pb_next(&m, &f)) {
    char item[96];
    if (f.wire == PB_LEN && f.num == 9) {
      snprintf(item, sizeof item, "%u:{", f.num);
      strncat(out, item, cap - strlen(out) - 1);
      walk(pb_message(&f), out, cap);
      strncat(out, "}", cap - strlen(out) - 1);
      continue;
    }
    if (f.wire == PB_LEN && f.num == 10) { /* packed varints */
      PbValues it = pb_values(&f, PB_VARINT);
      uint64_t v;
      snprintf(item, sizeof item, "%u:[", f.num);
      strncat(out, item, cap - strlen(out) - 1);
      while (pb_next_value(&it, &v)) {
        snprintf(item, sizeof item, "%llu,", (unsigned long long)v);
        strncat(out, item, cap - strlen(out) - 1);
      }
      strncat(out, "]", cap - strlen(out) - 1);
      continue;
    }
    if (f.num == 5) /* field 5 is a float */
      snprintf(item, sizeof item, "%u:%g", f.num, (double)pb_float(&f));
    else if (f.wire == PB_LEN)
      snprintf(item, sizeof item, "%u:'%s'", f.num, pb_string(&f));
    else if (f.wire == PB_FIXED32)
      snprintf(item, sizeof item, "%u:%g", f.num, (double)pb_float(&f));
    else
      snprintf(item, sizeof item, "%u:%llu", f.num, (unsigned long long)f.v);
    strncat(out, item, cap - strlen(out) - 1);
    strncat(out, " ", cap - strlen(out) - 1);
  }
}

static bool parse(const uint8_t *bytes, size_t n, char *out, size_t cap) {
  uint8_t *buf = malloc(n ? n : 1);
  memcpy(buf, bytes, n);
  out[0] = 0;
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  bool ok = false;
  if (!setjmp(jb)) {
    walk(pb_root("msg.pb", buf, n, "test"), out, cap);
    ok = true;
  }
  error_jmp = NULL;
  free(buf);
  return ok;
}

#define ACCEPT(bytes, want, what)                                                     \
  do {                                                                                \
    static const uint8_t b_[] = bytes;                                                \
    char got_[512];                                                                   \
    bool ok_ = parse(b_, sizeof b_, got_, sizeof got_);                               \
    CHECK(ok_ && !strcmp(got_, want), "%s reads as \"%s\" (got \"%s\"%s%s)", what,     \
          want, got_, ok_ ? "" : ", refused: ", ok_ ? "" : error_message);            \
  } while (0)

#define REFUSE(bytes, words, what)                                                    \
  do {                                                                                \
    static const uint8_t b_[] = bytes;                                                \
    char got_[512];                                                                   \
    bool ok_ = parse(b_, sizeof b_, got_, sizeof got_);                               \
    CHECK(!ok_ && strstr(error_message, words) &&                                     \
              !strncmp(error_message, "msg.pb: test: byte ", 19),                     \
          "%s is refused with a message naming the file and byte (\"%s\")", what,      \
          ok_ ? "accepted" : error_message);                                          \
  } while (0)

#define B(...) {__VA_ARGS__}

int main(void) {
  ACCEPT(B(0x08, 0x96, 0x01), "1:150 ", "a varint field (150 in two bytes)");
  ACCEPT(B(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
         "1:18446744073709551615 ", "a ten-byte varint holding 2^64 - 1");
  ACCEPT(B(0x11, 1, 2, 3, 4, 5, 6, 7, 8), "2:578437695752307201 ",
         "a fixed64 field (little-endian)");
  ACCEPT(B(0x2d, 0x00, 0x00, 0xc0, 0x3f), "5:1.5 ", "a fixed32 float field");
  ACCEPT(B(0x1a, 0x03, 'a', 'b', 'c'), "3:'abc' ", "a length-delimited string");
  ACCEPT(B(0x4a, 0x04, 0x08, 0x07, 0x1a, 0x00, 0x20, 0x01), "9:{1:7 3:'' }4:1 ",
         "a nested message as a sub-range, then the parent's next field");
  ACCEPT(B(0x52, 0x04, 0x01, 0x96, 0x01, 0x05), "10:[1,150,5,]",
         "a packed repeated varint field");
  ACCEPT(B(0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01), "536870911:1 ",
         "the largest field number (2^29 - 1)");
  ACCEPT(B(), "", "the empty message");

  REFUSE(B(0x08, 0x96), "truncated varint", "a varint cut in the middle");
  REFUSE(B(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02),
         "overflows 64 bits", "a ten-byte varint above 2^64 - 1");
  REFUSE(B(0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01),
         "varint", "an eleven-byte varint");
  REFUSE(B(0x11, 1, 2, 3), "truncated fixed64", "a fixed64 with 3 bytes");
  REFUSE(B(0x2d, 1, 2), "truncated fixed32", "a fixed32 with 2 bytes");
  REFUSE(B(0x1a, 0x05, 'a', 'b'), "length beyond", "a length beyond the message");
  REFUSE(B(0x1a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
         "length beyond", "a length of 2^64 - 1");
  REFUSE(B(0x4a, 0x02, 0x1a, 0x05, 'a', 'b', 'c', 'd', 'e'), "length beyond",
         "a nested length that reaches past its enclosing message");
  REFUSE(B(0x4a, 0x02, 0x08, 0x96, 0x01), "truncated varint",
         "a varint running past the end of its nested message");
  REFUSE(B(0x0b, 0x0c), "groups", "a group (wire type 3)");
  REFUSE(B(0x0c), "groups", "an end-group (wire type 4)");
  REFUSE(B(0x0e, 0x00), "invalid wire type", "wire type 6");
  REFUSE(B(0x0f, 0x00), "invalid wire type", "wire type 7");
  REFUSE(B(0x00, 0x00), "field number 0", "field number 0");
  REFUSE(B(0x52, 0x02, 0x01, 0x96), "truncated varint", "a packed varint cut at the end of its run");
  REFUSE(B(0x2a, 0x01, 'x'), "float field without wire type 5",
         "a float read from a length-delimited field");
  arena_reset();
  return test_exit();
}
