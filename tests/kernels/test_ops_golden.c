/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every supported operator of every shared model, one at a time, against
 * TensorFlow Lite Micro's own intermediate tensors.
 *
 * goldens/<model>/case0/tensors/t<N>.bin are the tensors TFLM (reference
 * kernels, tflite-micro@90b983c2) produced for case0 (see
 * goldens/README.md).  For each op this test takes the op's inputs from
 * those dumps (constants from the model), derives the kernel parameters
 * with quant.c exactly as the compiler's lowering must, runs our kernel
 * and compares its output with TFLM's dump of the op's output: int8 byte
 * for byte, float32 within 1e-5 relative (and counts exact matches).
 * Both the reference and the folded forms of CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED are checked, and SOFTMAX with and
 * without its precomputed exp table.
 *
 * This checks quant.c's derivations and the kernels together, op by op,
 * independently of the code emitter.
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tinyaot.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

static char golden_dir[4096];

/* Bytes of TFLM's dump of tensor t, or NULL. */
static void *load_dump(int t, size_t want) {
  char path[8192];
  snprintf(path, sizeof path, "%s/case0/tensors/t%d.bin", golden_dir, t);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  void *buf = malloc(want ? want : 1);
  size_t got = fread(buf, 1, want, f);
  int extra = fgetc(f);
  fclose(f);
  if (got != want || extra != EOF) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* An op input: the model's constant or TFLM's dump (caller frees dumps). */
static const void *input_data(const Graph *g, int t, void **to_free) {
  const Tensor *ts = &g->tensors[t];
  *to_free = NULL;
  if (ts->data)
    return ts->data;
  *to_free = load_dump(t, tensor_bytes(ts));
  return *to_free;
}

static ta_dims dims4(const Tensor *t) {
  int32_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t->ndims && i < 4; i++)
    d[4 - t->ndims + i] = t->dims[i];
  ta_dims r = {d[0], d[1], d[2], d[3]};
  return r;
}

static float scale_of(const Tensor *t, int i) { return t->q.nscale > i ? t->q.scale[i] : 0.0f; }
static int32_t zp_of(const Tensor *t) { return t->q.nscale > 0 ? (int32_t)t->q.zero_point[0] : 0; }

/* Per-kind tallies for the summary lines. */
enum { K_CONV, K_DW, K_FC, K_AVG, K_MAX, K_ADD, K_SOFTMAX, K_QUANT, K_DEQUANT, K_N };
static const char *kind_name[K_N] = {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED",
                                     "AVERAGE_POOL_2D", "MAX_POOL_2D", "ADD", "SOFTMAX",
                                     "QUANTIZE", "DEQUANTIZE"};
static int tally_ok[K_N], tally_bad[K_N], tally_float[K_N], tally_float_exact[K_N];
static int models_checked;

/* Compares out (n elements of dtype dt) with TFLM's dump of tensor t. */
static bool compare(const Graph *g, int op, int kind, const char *form, int t, const void *out) {
  const Tensor *ts = &g->tensors[t];
  size_t n = (size_t)tensor_elems(ts), bytes = tensor_bytes(ts);
  void *want = load_dump(t, bytes);
  if (!want)
    return false; /* no dump for this tensor: not checked */
  bool ok = true;
  char msg[256] = "";
  if (ts->dtype == DT_FLOAT32) {
    const float *a = out, *b = want;
    size_t exact = 0;
    for (size_t i = 0; i < n; i++) {
      float d = fabsf(a[i] - b[i]), m = fabsf(b[i]) > 1e-3f ? fabsf(b[i]) : 1e-3f;
      exact += a[i] == b[i];
      if (!(d <= 1e-5f * m) && ok) {
        ok = false;
        snprintf(msg, sizeof msg, "index %zu expected %.9g actual %.9g", i, b[i], a[i]);
      }
    }
    tally_float[kind]++;
    if (exact == n)
      tally_float_exact[kind]++;
  } else {
    const unsigned char *a = out, *b = want;
    for (size_t i = 0; i < bytes; i++)
      if (a[i] != b[i]) {
        ok = false;
        size_t e = ts->dtype == DT_INT16 ? 2 : 1;
        long ev = e == 2 ? ((const int16_t *)want)[i / 2] : (long)((const int8_t *)want)[i];
        long av = e == 2 ? ((const int16_t *)out)[i / 2] : (long)((const int8_t *)out)[i];
        snprintf(msg, sizeof msg, "byte %zu expected %ld actual %ld", i, ev, av);
        break;
      }
  }
  if (ok)
    tally_ok[kind]++;
  else {
    tally_bad[kind]++;
    CHECK(0, "%s: op %d (%s, %s) matches TFLM's tensor t%d: %s", g->path, op, kind_name[kind],
          form, t, msg);
  }
  free(want);
  return ok;
}

static void conv_like(const Graph *g, int i, bool depthwise) {
  const Op *o = &g->ops[i];
  const Tensor *ti = &g->tensors[o->inputs[0]], *tf = &g->tensors[o->inputs[1]];
  const Tensor *tb = o->ninputs > 2 && o->inputs[2] >= 0 ? &g->tensors[o->inputs[2]] : NULL;
  const Tensor *to = &g->tensors[o->outputs[0]];
  if (ti->ndims != 4 || tf->ndims != 4 || to->ndims != 4 || !tf->data)
    return;
  ta_dims id = dims4(ti), fd = dims4(tf), od = dims4(to);
  const void *wdat = tf->data;
  ta_conv_params p;
  memset(&p, 0, sizeof p);
  p.stride_h = o->opt.stride_h;
  p.stride_w = o->opt.stride_w;
  p.dilation_h = o->opt.dilation_h;
  p.dilation_w = o->opt.dilation_w;
  int32_t oh, ow;
  compute_padding(o->opt.padding, id.h, fd.h, p.stride_h, p.dilation_h, &oh, &p.pad_h);
  compute_padding(o->opt.padding, id.w, fd.w, p.stride_w, p.dilation_w, &ow, &p.pad_w);
  if (oh != od.h || ow != od.w) {
    CHECK(0, "%s: op %d output size from padding matches the model", g->path, i);
    return;
  }
  p.depth_multiplier = depthwise ? od.c / id.c : 1;
  int kind = depthwise ? K_DW : K_CONV;
  void *fin;
  const void *in = input_data(g, o->inputs[0], &fin);
  if (!in)
    return;
  int32_t oc = od.c;
  void *out = malloc(tensor_bytes(to));
  if (ti->dtype == DT_INT8 && tf->dtype == DT_INT8 && to->dtype == DT_INT8) {
    int32_t *mult = malloc(sizeof(int32_t) * oc), *shift = malloc(sizeof(int32_t) * oc);
    for (int c = 0; c < oc; c++)
      conv_multiplier(scale_of(ti, 0), scale_of(tf, tf->q.nscale > 1 ? c : 0), scale_of(to, 0),
                      TA_ROUND_DOUBLE, &mult[c], &shift[c]);
    ta_quant q = {mult, shift, 1, TA_ROUND_DOUBLE, 0};
    p.input_offset = -zp_of(ti);
    p.output_offset = zp_of(to);
    activation_range_quantized(o->opt.activation, DT_INT8, scale_of(to, 0), zp_of(to),
                               &p.act_min, &p.act_max);
    const int32_t *bias = tb ? (const int32_t *)tb->data : NULL;
    int32_t *bf = malloc(sizeof(int32_t) * oc);
    const char *form = "folded form";
    ta_status st;
    if (depthwise) {
      st = ta_depthwise_conv2d_s8(&p, &q, &id, in, &fd, wdat, bias, &od, out, NULL);
      if (st == TA_OK)
        compare(g, i, kind, "reference form", o->outputs[0], out);
      fold_bias_depthwise_s8((const int8_t *)tf->data, fd.h * fd.w, oc, bias, p.input_offset, bf);
      q.mmla = ta_quant_mmla_ok(&q, oc, bf, fd.h * fd.w);
      void *scratch = malloc(ta_depthwise_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od) + 1);
      st = ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, wdat, bf, &od, out, scratch);
      free(scratch);
    } else {
      st = ta_conv2d_s8(&p, &q, &id, in, &fd, wdat, bias, &od, out, NULL);
      if (st == TA_OK)
        compare(g, i, kind, "reference form", o->outputs[0], out);
      fold_bias_s8((const int8_t *)tf->data, oc, fd.h * fd.w * fd.c, bias, p.input_offset, bf);
      const int32_t K = fd.h * fd.w * fd.c;
      q.mmla = ta_quant_mmla_ok(&q, oc, bf, K);
      void *scratch = malloc(ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od) + 4);
      st = ta_conv2d_fold_s8(&p, &q, &id, in, &fd, wdat, bf, &od, out, scratch);
      /* The DSP entry as the compiler calls it: packed filter, records. */
      int32_t *rec = malloc(sizeof(int32_t) * 8 * (size_t)(oc / 2 + 1));
      int8_t *packed = malloc(ta_pack_size(oc, K));
      if (st == TA_OK && q.mmla && ta_pack_records(&q, oc, bf, K, p.output_offset, 2, rec)) {
        compare(g, i, kind, "folded form", o->outputs[0], out);
        q.mmla |= TA_MMLA_RECORDS;
        ta_pack_rows_s8(&q, bf, wdat, oc, K, 2, packed);
        st = ta_conv2d_fold_dsp_s8(&p, &q, &id, in, &fd, packed, rec, &od, out, scratch);
        form = "DSP entry";
      }
      free(rec);
      free(packed);
      free(scratch);
    }
    if (st == TA_OK)
      compare(g, i, kind, form, o->outputs[0], out);
    else
      CHECK(0, "%s: op %d runs (status %d)", g->path, i, st);
    free(mult);
    free(shift);
    free(bf);
  } else if (ti->dtype == DT_FLOAT32 && tf->dtype == DT_FLOAT32) {
    activation_range_float(o->opt.activation, &p.act_min_f32, &p.act_max_f32);
    const float *bias = tb ? (const float *)tb->data : NULL;
    ta_status st = depthwise
                       ? ta_depthwise_conv2d_f32(&p, &id, in, &fd, wdat, bias, &od, out)
                       : ta_conv2d_f32(&p, &id, in, &fd, wdat, bias, &od, out);
    if (st == TA_OK)
      compare(g, i, kind, "float", o->outputs[0], out);
  }
  free(out);
  free(fin);
}

static void fully_connected(const Graph *g, int i) {
  const Op *o = &g->ops[i];
  const Tensor *ti = &g->tensors[o->inputs[0]], *tf = &g->tensors[o->inputs[1]];
  const Tensor *tb = o->ninputs > 2 && o->inputs[2] >= 0 ? &g->tensors[o->inputs[2]] : NULL;
  const Tensor *to = &g->tensors[o->outputs[0]];
  if (tf->ndims != 2 || !tf->data || (tb && !tb->data))
    return;
  const void *wdat = tf->data;
  ta_fc_params p;
  memset(&p, 0, sizeof p);
  p.out_depth = tf->dims[0];
  p.in_depth = tf->dims[1];
  p.batches = (int32_t)(tensor_elems(ti) / p.in_depth);
  void *fin;
  const void *in = input_data(g, o->inputs[0], &fin);
  if (!in)
    return;
  void *out = malloc(tensor_bytes(to));
  if (ti->dtype == DT_INT8 && tf->dtype == DT_INT8 && to->dtype == DT_INT8) {
    int32_t n = tf->q.nscale > 1 ? p.out_depth : 1;
    int32_t *mult = malloc(sizeof(int32_t) * n), *shift = malloc(sizeof(int32_t) * n);
    if (n == 1)
      fc_multiplier(scale_of(ti, 0), scale_of(tf, 0), scale_of(to, 0), TA_ROUND_DOUBLE, mult,
                    shift);
    else
      for (int c = 0; c < n; c++)
        conv_multiplier(scale_of(ti, 0), scale_of(tf, c), scale_of(to, 0), TA_ROUND_DOUBLE,
                        &mult[c], &shift[c]);
    ta_quant q = {mult, shift, n > 1, TA_ROUND_DOUBLE, 0};
    p.input_offset = -zp_of(ti);
    p.filter_offset = -zp_of(tf);
    p.output_offset = zp_of(to);
    activation_range_quantized(o->opt.activation, DT_INT8, scale_of(to, 0), zp_of(to),
                               &p.act_min, &p.act_max);
    const int32_t *bias = tb ? (const int32_t *)tb->data : NULL;
    if (ta_fully_connected_s8(&p, &q, in, wdat, bias, out) == TA_OK)
      compare(g, i, K_FC, "reference form", o->outputs[0], out);
    int32_t *bf = malloc(sizeof(int32_t) * p.out_depth);
    fold_bias_s8((const int8_t *)tf->data, p.out_depth, p.in_depth, bias, p.input_offset, bf);
    if (ta_fully_connected_fold_s8(&p, &q, in, wdat, bf, out) == TA_OK)
      compare(g, i, K_FC, "folded form", o->outputs[0], out);
    free(bf);
    free(mult);
    free(shift);
  } else if (ti->dtype == DT_FLOAT32 && tf->dtype == DT_FLOAT32) {
    activation_range_float(o->opt.activation, &p.act_min_f32, &p.act_max_f32);
    if (ta_fully_connected_f32(&p, in, wdat, tb ? (const float *)tb->data : NULL, out) ==
        TA_OK)
      compare(g, i, K_FC, "float", o->outputs[0], out);
  }
  free(out);
  free(fin);
}

static void pool(const Graph *g, int i, bool avg) {
  const Op *o = &g->ops[i];
  const Tensor *ti = &g->tensors[o->inputs[0]], *to = &g->tensors[o->outputs[0]];
  if (ti->ndims != 4)
    return;
  ta_dims id = dims4(ti), od = dims4(to);
  ta_pool_params p;
  memset(&p, 0, sizeof p);
  p.stride_h = o->opt.stride_h;
  p.stride_w = o->opt.stride_w;
  p.filter_h = o->opt.filter_h;
  p.filter_w = o->opt.filter_w;
  int32_t oh, ow;
  compute_padding(o->opt.padding, id.h, p.filter_h, p.stride_h, 1, &oh, &p.pad_h);
  compute_padding(o->opt.padding, id.w, p.filter_w, p.stride_w, 1, &ow, &p.pad_w);
  void *fin;
  const void *in = input_data(g, o->inputs[0], &fin);
  if (!in || oh != od.h || ow != od.w) {
    free(fin);
    return;
  }
  void *out = malloc(tensor_bytes(to));
  ta_status st = TA_ERR_UNSUPPORTED;
  if (ti->dtype == DT_INT8) {
    activation_range_quantized(o->opt.activation, DT_INT8, scale_of(to, 0), zp_of(to),
                               &p.act_min, &p.act_max);
    st = avg ? ta_avg_pool2d_s8(&p, &id, in, &od, out) : ta_max_pool2d_s8(&p, &id, in, &od, out);
  } else if (ti->dtype == DT_FLOAT32) {
    activation_range_float(o->opt.activation, &p.act_min_f32, &p.act_max_f32);
    st = avg ? ta_avg_pool2d_f32(&p, &id, in, &od, out) : ta_max_pool2d_f32(&p, &id, in, &od, out);
  }
  if (st == TA_OK)
    compare(g, i, avg ? K_AVG : K_MAX, ti->dtype == DT_INT8 ? "int8" : "float", o->outputs[0],
            out);
  free(out);
  free(fin);
}

static void add(const Graph *g, int i) {
  const Op *o = &g->ops[i];
  const Tensor *t1 = &g->tensors[o->inputs[0]], *t2 = &g->tensors[o->inputs[1]];
  const Tensor *to = &g->tensors[o->outputs[0]];
  ta_bcast b;
  if (!make_broadcast(t1->dims, t1->ndims, t2->dims, t2->ndims, &b, NULL, NULL))
    return;
  void *f1, *f2;
  const void *in1 = input_data(g, o->inputs[0], &f1), *in2 = input_data(g, o->inputs[1], &f2);
  void *out = malloc(tensor_bytes(to));
  ta_add_params p;
  memset(&p, 0, sizeof p);
  if (in1 && in2 && t1->dtype == DT_INT8 && t2->dtype == DT_INT8 && to->dtype == DT_INT8) {
    if (add_params(scale_of(t1, 0), zp_of(t1), scale_of(t2, 0), zp_of(t2), scale_of(to, 0),
                   zp_of(to), DT_INT8, o->opt.activation, TA_ROUND_DOUBLE, &p) &&
        ta_add_s8(&p, &b, in1, in2, out) == TA_OK) {
      compare(g, i, K_ADD, "int8", o->outputs[0], out);
      int32_t t1[256], t2[256];
      add_tables(&p, t1, t2);
      p.table1 = t1;
      p.table2 = t2;
      if (ta_add_s8(&p, &b, in1, in2, out) == TA_OK)
        compare(g, i, K_ADD, "int8, input tables", o->outputs[0], out);
    }
  } else if (in1 && in2 && t1->dtype == DT_FLOAT32 && to->dtype == DT_FLOAT32) {
    activation_range_float(o->opt.activation, &p.act_min_f32, &p.act_max_f32);
    if (ta_add_f32(&p, &b, in1, in2, out) == TA_OK)
      compare(g, i, K_ADD, "float", o->outputs[0], out);
  }
  free(out);
  free(f1);
  free(f2);
}

static void softmax(const Graph *g, int i) {
  const Op *o = &g->ops[i];
  const Tensor *ti = &g->tensors[o->inputs[0]], *to = &g->tensors[o->outputs[0]];
  if (ti->ndims < 1)
    return;
  ta_softmax_params p;
  memset(&p, 0, sizeof p);
  p.depth = ti->dims[ti->ndims - 1];
  p.outer = (int32_t)(tensor_elems(ti) / (p.depth ? p.depth : 1));
  void *fin;
  const void *in = input_data(g, o->inputs[0], &fin);
  void *out = malloc(tensor_bytes(to));
  if (in && ti->dtype == DT_INT8 && (to->dtype == DT_INT8 || to->dtype == DT_INT16)) {
    int32_t table[256];
    if (softmax_params(o->opt.beta, scale_of(ti, 0), TA_ROUND_DOUBLE, &p)) {
      int32_t o0 = p.outer, d0 = p.depth;
      p.outer = o0;
      p.depth = d0;
      ta_status st = to->dtype == DT_INT8 ? ta_softmax_s8(&p, in, out)
                                          : ta_softmax_s8_s16(&p, in, out);
      if (st == TA_OK)
        compare(g, i, K_SOFTMAX, "computed exps", o->outputs[0], out);
      softmax_exp_table(&p, table);
      p.exp_table = table;
      st = to->dtype == DT_INT8 ? ta_softmax_s8(&p, in, out) : ta_softmax_s8_s16(&p, in, out);
      if (st == TA_OK)
        compare(g, i, K_SOFTMAX, "exp table", o->outputs[0], out);
    }
  } else if (in && ti->dtype == DT_FLOAT32) {
    p.beta = o->opt.beta;
    if (ta_softmax_f32(&p, in, out) == TA_OK)
      compare(g, i, K_SOFTMAX, "float", o->outputs[0], out);
  }
  free(out);
  free(fin);
}

static void quantize(const Graph *g, int i, bool deq) {
  const Op *o = &g->ops[i];
  const Tensor *ti = &g->tensors[o->inputs[0]], *to = &g->tensors[o->outputs[0]];
  void *fin;
  const void *in = input_data(g, o->inputs[0], &fin);
  void *out = malloc(tensor_bytes(to));
  int32_t n = (int32_t)tensor_elems(ti);
  ta_status st = TA_ERR_UNSUPPORTED;
  if (!in) {
  } else if (deq && to->dtype == DT_FLOAT32) {
    ta_affine_params p = {n, scale_of(ti, 0), zp_of(ti)};
    if (ti->dtype == DT_INT8)
      st = ta_dequantize_s8_f32(&p, in, out);
    else if (ti->dtype == DT_UINT8)
      st = ta_dequantize_u8_f32(&p, in, out);
    else if (ti->dtype == DT_INT16)
      st = ta_dequantize_s16_f32(&p, in, out);
  } else if (!deq && ti->dtype == DT_FLOAT32) {
    ta_affine_params p = {n, scale_of(to, 0), zp_of(to)};
    if (to->dtype == DT_INT8)
      st = ta_quantize_f32_s8(&p, in, out);
    else if (to->dtype == DT_INT16)
      st = ta_quantize_f32_s16(&p, in, out);
  } else if (!deq) {
    ta_requant_params p;
    requant_params(scale_of(ti, 0), zp_of(ti), scale_of(to, 0), zp_of(to), TA_ROUND_DOUBLE, &p);
    p.size = n;
    if (ti->dtype == DT_INT8 && to->dtype == DT_INT8)
      st = ta_requantize_s8_s8(&p, in, out);
    else if (ti->dtype == DT_INT8 && to->dtype == DT_INT16)
      st = ta_requantize_s8_s16(&p, in, out);
    else if (ti->dtype == DT_INT16 && to->dtype == DT_INT8)
      st = ta_requantize_s16_s8(&p, in, out);
    else if (ti->dtype == DT_INT16 && to->dtype == DT_INT16)
      st = ta_requantize_s16_s16(&p, in, out);
    else if (ti->dtype == DT_UINT8 && to->dtype == DT_INT8)
      st = ta_requantize_u8_s8(&p, in, out);
    else if (ti->dtype == DT_INT8 && to->dtype == DT_UINT8)
      st = ta_requantize_s8_u8(&p, in, out);
  }
  if (st == TA_OK)
    compare(g, i, deq ? K_DEQUANT : K_QUANT, dtype_name(ti->dtype), o->outputs[0], out);
  free(out);
  free(fin);
}

static void check_model(const char *shared, const char *stem) {
  char path[8192];
  snprintf(golden_dir, sizeof golden_dir, "%s/goldens/%s", shared, stem);
  snprintf(path, sizeof path, "%s/case0/tensors", golden_dir);
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  snprintf(path, sizeof path, "%s/models/%s.tflite", shared, stem);
  if (stat(path, &st) != 0)
    return;
  jmp_buf jb;
  error_jmp = &jb;
  if (setjmp(jb)) {
    error_jmp = NULL;
    return; /* a model the reader refuses is the reader's test's business */
  }
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(arena_strdup(path), buf, size);
  error_jmp = NULL;
  models_checked++;
  for (int i = 0; i < g->nops; i++) {
    const Op *o = &g->ops[i];
    if (o->ninputs < 1 || o->noutputs < 1 || o->inputs[0] < 0)
      continue;
    switch (o->kind) {
    case OP_CONV_2D: conv_like(g, i, false); break;
    case OP_DEPTHWISE_CONV_2D: conv_like(g, i, true); break;
    case OP_FULLY_CONNECTED: fully_connected(g, i); break;
    case OP_AVERAGE_POOL_2D: pool(g, i, true); break;
    case OP_MAX_POOL_2D: pool(g, i, false); break;
    case OP_ADD: add(g, i); break;
    case OP_SOFTMAX: softmax(g, i); break;
    case OP_QUANTIZE: quantize(g, i, false); break;
    case OP_DEQUANTIZE: quantize(g, i, true); break;
    default: break;
    }
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  char gdir[8192];
  snprintf(gdir, sizeof gdir, "%s/goldens", shared);
  DIR *d = opendir(gdir);
  if (!d) {
    CHECK(0, "the goldens folder %s opens", gdir);
    return test_exit();
  }
  char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256)
    if (e->d_name[0] != '.')
      names[n++] = arena_strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++)
    check_model(shared, names[i]);
  CHECK(models_checked >= 20, "%d models with TFLM tensor dumps were read", models_checked);
  for (int k = 0; k < K_N; k++) {
    int total = tally_ok[k] + tally_bad[k];
    CHECK(tally_bad[k] == 0 && total > 0,
          "%d %s kernel runs match TFLM's tensors (%d of them float, %d of those bit-exact)",
          tally_ok[k], kind_name[k], tally_float[k], tally_float_exact[k]);
  }
  return test_exit();
}
