/* SPDX-License-Identifier: Apache-2.0 */
/*
 * person_demo.c - runs person_detect_int8, compiled by tinyaot, on 96x96
 * grayscale images and prints the two scores.
 *
 *   person_demo IMAGE.bin...
 *
 * Each file holds the 9216 pixel bytes of one image, top row first (the
 * format of TFLM's person_detection test images; the goldens' person/ and
 * no_person/ cases are those images).  The model's int8 input takes the
 * bytes unchanged, as TFLM's person_detection_test does.
 *
 * Everything the model needs is here: a workspace of
 * PERSON_WORKSPACE_SIZE bytes (static, aligned) that holds the input and
 * the output too (person_io() points at them), and one call of
 * person_run() per image.  Nothing is allocated.
 */
#include <stdio.h>

#include "person.h"

static uint8_t workspace[PERSON_WORKSPACE_SIZE > 0 ? PERSON_WORKSPACE_SIZE : 1]
#if defined(__GNUC__)
    __attribute__((aligned(PERSON_WORKSPACE_ALIGN)))
#endif
    ;

static float real_value(int8_t q) {
  return PERSON_OUTPUT0_SCALE * (float)(q - PERSON_OUTPUT0_ZERO_POINT);
}

int main(int argc, char **argv) {
  struct person_inputs in;
  struct person_outputs out;
  int i;

  if (argc < 2) {
    fprintf(stderr, "usage: %s IMAGE.bin...\n", argv[0]);
    return 2;
  }
  person_io(workspace, &in, &out);
  for (i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    int8_t *image = person_input0(workspace);   /* written before every run */
    const int8_t *scores = person_output0(workspace); /* [0] no person, [1] person */
    int status;
    if (!f || fread(image, 1, PERSON_INPUT0_SIZE, f) != PERSON_INPUT0_SIZE) {
      fprintf(stderr, "%s: cannot read %d bytes\n", argv[i], PERSON_INPUT0_SIZE);
      return 1;
    }
    fclose(f);
    status = person_run(&in, &out, workspace);
    if (status != 0) {
      fprintf(stderr, "person_run failed with status %d\n", status);
      return 1;
    }
    printf("%s: person score %d (%.3f), no person score %d (%.3f) -> %s\n", argv[i],
           scores[1], real_value(scores[1]), scores[0], real_value(scores[0]),
           scores[1] > scores[0] ? "person" : "no person");
  }
  return 0;
}
