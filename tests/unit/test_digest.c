/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_digest.c - SHA-256 and CRC-32 (compiler/digest.c) against the
 * published test vectors: FIPS 180-4's examples (NIST's "SHA-256 example
 * values": "abc", the 448-bit two-block message, a million 'a'), the
 * empty string, and the CRC-32 check value of "123456789" (0xCBF43926,
 * the catalogue of parametrised CRC algorithms).  Also messages of
 * 55, 56 and 64 bytes, where the padding spills into a second block.
 */
#include "test.h"
#include "tinyaot.h"

static void check_sha(const char *what, const void *data, size_t n,
                      const char *want) {
  const char *got = sha256_hex(data, n);
  CHECK(!strcmp(got, want), "SHA-256 of %s is %s (got %s)", what, want, got);
}

int main(void) {
  check_sha("the empty string", "", 0,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_sha("\"abc\"", "abc", 3,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check_sha("the 448-bit FIPS message", m448, strlen(m448),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  static char million[1000000];
  memset(million, 'a', sizeof million);
  check_sha("a million 'a'", million, sizeof million,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  /* Padding edge cases: 55 bytes fit one block with the length, 56 do not. */
  check_sha("55 'a'", million, 55,
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  check_sha("56 'a'", million, 56,
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  check_sha("64 'a'", million, 64,
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  CHECK(crc32("123456789", 9) == 0xCBF43926u,
        "CRC-32 of \"123456789\" is 0xCBF43926 (got 0x%08X)",
        (unsigned)crc32("123456789", 9));
  CHECK(crc32("", 0) == 0, "CRC-32 of the empty string is 0 (got 0x%08X)",
        (unsigned)crc32("", 0));
  return test_failures != 0;
}
