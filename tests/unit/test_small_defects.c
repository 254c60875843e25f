/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Regression tests for the smaller defects a hostile trial found, each
 * checked in process:
 *   - a message about a very long path keeps the file's name (the middle
 *     of the path is cut, error_at/error_file in util.c);
 *   - a byte-sized enum field out of range is reported as the byte
 *     stored (padding 255, not -1);
 *   - DEPTHWISE_CONV_2D's depth_multiplier must agree with the shapes
 *     (TFLite Micro's kernel loops over the option);
 *   - a model is mapped, not read whole: a 256 MB file (sparse, a small
 *     model followed by zeros) costs far less than 256 MB of memory;
 *   - inspect's tensor table keeps its columns when a dtype's name is
 *     longer than eight characters (complex64).
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tinyaot.h"

#include "lower_helpers.h"

#include <sys/resource.h>
#include <unistd.h>

/* The message error_file() gives for path (caught, not printed). */
static const char *message_for(const char *path) {
  jmp_buf jb;
  error_jmp = &jb;
  if (!setjmp(jb))
    error_file(path, "not a .tflite model");
  error_jmp = NULL;
  return error_message;
}

static void long_paths(void) {
  char *path = arena_alloc(1300);
  memset(path, 'd', 1212);
  for (int i = 50; i < 1200; i += 50)
    path[i] = '/';
  strcpy(path + 1190, "/my_model.tflite");
  const char *m = message_for(path);
  const char *tail = strstr(m, "/my_model.tflite: not a .tflite model");
  CHECK(tail != NULL && !strncmp(m, path, 100) && strstr(m, "..."),
        "a message about a %zu-character path keeps its start, '...' and the "
        "file's name: '%.80s...%s'", strlen(path), m, tail ? tail : "(no file name)");
  m = message_for("short/model.tflite");
  CHECK(!strcmp(m, "short/model.tflite: not a .tflite model"),
        "a message about a short path keeps it whole: '%s'", m);
}

/* in [1,4,4,c_in] -> DEPTHWISE_CONV_2D (3x3 VALID, option `mult`) ->
 * [1,2,2,c_out], float32; padding byte `padding`. */
static Graph *depthwise(int c_in, int c_out, int mult, int padding) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {1, 4, 4, c_in}, df[4] = {1, 3, 3, c_out}, dout[4] = {1, 2, 2, c_out};
  float w[9 * 16] = {0};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 4, di, 0);
  int f = tfw_const(m, "filter", TFW_FLOAT32, 4, df, w);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
  int op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 2, (int[]){in, f}, 1, &out);
  tfw_depthwise_options(m, op, padding, 1, 1, mult, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
  Graph *g = compile_model(m, "dw.tflite", &lo);
  tfw_free(m);
  return g;
}

static void depth_multipliers(void) {
  Graph *g = depthwise(2, 4, 2, TFW_PAD_VALID);
  CHECK(g != NULL, "a depthwise convolution 2 -> 4 channels with depth_multiplier 2 "
        "is accepted (%s)", g ? "" : error_message);
  const char *want = "dw.tflite: op 0 (DEPTHWISE_CONV_2D): depth_multiplier 3 "
                     "disagrees with the shapes: 2 input channels -> 4 output "
                     "channels make it 2";
  g = depthwise(2, 4, 3, TFW_PAD_VALID);
  CHECK(!g && !strcmp(error_message, want),
        "depth_multiplier 3 for 2 -> 4 channels is refused: '%s'", error_message);
  g = depthwise(2, 4, 0, TFW_PAD_VALID);
  CHECK(!g && strstr(error_message, "depth_multiplier 0 disagrees"),
        "depth_multiplier 0 for 2 -> 4 channels is refused: '%s'", error_message);
  g = depthwise(2, 4, 2, 255);
  CHECK(!g && strstr(error_message, "padding 255 is neither SAME (0) nor VALID (1)"),
        "a padding byte of 255 is reported as 255: '%s'", error_message);
}

static long max_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static void mapped_models(void) {
  char path[] = "/tmp/tinyaot-map-XXXXXX";
  int fd = mkstemp(path);
  if (!CHECK(fd >= 0, "a temporary file can be made"))
    return;
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, 4};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 2, d, 0);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 2, d, 0);
  tfw_op(m, TFW_OP_RELU, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  tfw_free(m);
  const size_t big = (size_t)256 << 20;
  bool written = write(fd, bytes, len) == (ssize_t)len && ftruncate(fd, (off_t)big) == 0;
  close(fd);
  free(bytes);
  if (!CHECK(written, "a 256 MB sparse model file can be written")) {
    unlink(path);
    return;
  }
  long before = max_rss_kb();
  size_t size;
  uint8_t *buf = map_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  long grew = max_rss_kb() - before;
  CHECK(size == big && g->nops == 1 && grew < 32 * 1024,
        "a 256 MB model file is mapped, not read: %zu bytes, %d op, the process "
        "grew by %ld KB (at most 32 MB)", size, g->nops, grew);
  unlink(path);
}

/* inspect of an RFFT2D: every row's shape starts under the header's. */
static void inspect_columns(void) {
  TfwModel *m = tfw_new();
  int32_t di[2] = {5, 32}, dl[1] = {2}, dout[2] = {1, 33};
  int32_t fl[2] = {1, 64};
  int in = tfw_tensor(m, "input", TFW_FLOAT32, 2, di, 0);
  int len = tfw_const(m, "fft_length", TFW_INT32, 1, dl, fl);
  int out = tfw_tensor(m, "output", TFW_COMPLEX64, 2, dout, 0);
  tfw_op(m, TFW_OP_RFFT2D, 2, (int[]){in, len}, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  Graph *g = compile_model(m, "rfft.tflite", NULL);
  tfw_free(m);
  CHECK(g != NULL, "an RFFT2D model is read: %s", error_message);
  if (!g)
    return;
  char *text = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  print_inspect(f, g, false);
  fclose(f);
  const char *h = strstr(text, "index  dtype");
  CHECK(h != NULL, "inspect prints the tensor table");
  if (!h) {
    free(text);
    return;
  }
  long col = strstr(h, "shape") - h;
  int rows = 0, aligned = 0;
  for (const char *l = strchr(h, '\n') + 1; *l && *l != '\n'; l = strchr(l, '\n') + 1) {
    const char *b = strchr(l, '[');
    rows++;
    aligned += b && b - l == col;
  }
  CHECK(rows == 3 && aligned == rows,
        "inspect's shape column stays aligned beside complex64 (%d of %d rows)", aligned, rows);
  free(text);
}

int main(void) {
  long_paths();
  inspect_columns();
  depth_multipliers();
  mapped_models();
  arena_reset();
  return test_exit();
}
