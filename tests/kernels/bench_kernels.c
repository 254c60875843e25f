/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_kernels - instruction counts of the kernels on a real model's ops.
 *
 *   bench_kernels MODEL.tflite GOLDEN_DIR fast|ref|plain
 *
 * Prepares every CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, pool, ADD
 * and SOFTMAX op of the model (int8) with inputs from GOLDEN_DIR's case0
 * tensor dumps, then runs them all once inside bench_run(): with `fast`
 * the kernels a compiler should emit (folded forms, softmax exp table),
 * with `plain` the reference forms, with `ref` the slow transliterations
 * of TFLite's reference loops in ref.h (a stand-in for TFLM's reference
 * kernels).  Measure with
 *   valgrind --tool=callgrind --toggle-collect=bench_run ...
 * (make bench-kernels does this for a few models).
 */
#include "tinyaot.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ref.h"

#include <stdio.h>

typedef struct {
  int kind;
  ta_conv_params cp;
  ta_pool_params pp;
  ta_fc_params fp;
  ta_add_params ap;
  ta_softmax_params sp;
  ta_bcast bc;
  ta_quant q;
  ta_dims id, fd, od;
  const int8_t *in, *in2, *w;
  const int32_t *bias, *bias_fold;
  int8_t *out;
  void *scratch;
  int32_t n1, n2, rank;
  int32_t s1[TA_MAX_DIMS], s2[TA_MAX_DIMS];
} BOp;

static BOp bops[512];
static int nbops;
static int mode; /* 0 fast, 1 plain, 2 ref */

static void *load(const char *dir, int t, size_t n) {
  char path[8192];
  snprintf(path, sizeof path, "%s/case0/tensors/t%d.bin", dir, t);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  void *b = malloc(n);
  if (fread(b, 1, n, f) != n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

static const void *tensor_in(const Graph *g, const char *dir, int t) {
  const Tensor *ts = &g->tensors[t];
  return ts->data ? (const void *)ts->data : load(dir, t, tensor_bytes(ts));
}

static ta_dims dims4(const Tensor *t) {
  int32_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t->ndims && i < 4; i++)
    d[4 - t->ndims + i] = t->dims[i];
  ta_dims r = {d[0], d[1], d[2], d[3]};
  return r;
}
static float sc(const Tensor *t, int i) { return t->q.nscale > i ? t->q.scale[i] : 0.0f; }
static int32_t zp(const Tensor *t) { return t->q.nscale ? (int32_t)t->q.zero_point[0] : 0; }

static void prepare(const Graph *g, const char *dir, int i) {
  const Op *o = &g->ops[i];
  if (o->ninputs < 1 || o->inputs[0] < 0)
    return;
  const Tensor *ti = &g->tensors[o->inputs[0]], *to = &g->tensors[o->outputs[0]];
  if (ti->dtype != DT_INT8 || to->dtype != DT_INT8)
    return;
  BOp *b = &bops[nbops];
  memset(b, 0, sizeof *b);
  b->kind = o->kind;
  b->in = tensor_in(g, dir, o->inputs[0]);
  b->out = malloc(tensor_bytes(to));
  if (!b->in)
    return;
  if (o->kind == OP_CONV_2D || o->kind == OP_DEPTHWISE_CONV_2D) {
    const Tensor *tf = &g->tensors[o->inputs[1]];
    b->id = dims4(ti);
    b->fd = dims4(tf);
    b->od = dims4(to);
    b->w = (const int8_t *)tf->data;
    ta_conv_params *p = &b->cp;
    p->stride_h = o->opt.stride_h;
    p->stride_w = o->opt.stride_w;
    p->dilation_h = o->opt.dilation_h;
    p->dilation_w = o->opt.dilation_w;
    int32_t oh, ow;
    compute_padding(o->opt.padding, b->id.h, b->fd.h, p->stride_h, p->dilation_h, &oh, &p->pad_h);
    compute_padding(o->opt.padding, b->id.w, b->fd.w, p->stride_w, p->dilation_w, &ow, &p->pad_w);
    p->depth_multiplier = b->od.c / b->id.c;
    p->input_offset = -zp(ti);
    p->output_offset = zp(to);
    activation_range_quantized(o->opt.activation, DT_INT8, sc(to, 0), zp(to), &p->act_min,
                               &p->act_max);
    int32_t oc = b->od.c, *m = malloc(4 * oc), *s = malloc(4 * oc), *bf = malloc(4 * oc);
    for (int c = 0; c < oc; c++)
      conv_multiplier(sc(ti, 0), sc(tf, tf->q.nscale > 1 ? c : 0), sc(to, 0), 0, &m[c], &s[c]);
    b->q = (ta_quant){m, s, 1, 0, 0};
    b->bias = o->ninputs > 2 && o->inputs[2] >= 0 ? (const int32_t *)g->tensors[o->inputs[2]].data
                                                   : NULL;
    if (o->kind == OP_CONV_2D)
      fold_bias_s8(b->w, oc, b->fd.h * b->fd.w * b->fd.c, b->bias, p->input_offset, bf);
    else
      fold_bias_depthwise_s8(b->w, b->fd.h * b->fd.w, oc, b->bias, p->input_offset, bf);
    b->bias_fold = bf;
    b->q.mmla = ta_quant_mmla_ok(&b->q, oc, bf,
                                 b->fd.h * b->fd.w * (o->kind == OP_CONV_2D ? b->fd.c : 1));
    b->scratch = malloc(1 + (o->kind == OP_CONV_2D
                                 ? ta_conv2d_fold_s8_scratch_size(p, &b->id, &b->fd, &b->od)
                                 : ta_depthwise_conv2d_fold_s8_scratch_size(p, &b->id, &b->fd,
                                                                            &b->od)));
  } else if (o->kind == OP_FULLY_CONNECTED) {
    const Tensor *tf = &g->tensors[o->inputs[1]];
    ta_fc_params *p = &b->fp;
    p->out_depth = tf->dims[0];
    p->in_depth = tf->dims[1];
    p->batches = (int32_t)(tensor_elems(ti) / p->in_depth);
    p->input_offset = -zp(ti);
    p->output_offset = zp(to);
    activation_range_quantized(o->opt.activation, DT_INT8, sc(to, 0), zp(to), &p->act_min,
                               &p->act_max);
    int32_t *m = malloc(4), *s = malloc(4), *bf = malloc(4 * p->out_depth);
    fc_multiplier(sc(ti, 0), sc(tf, 0), sc(to, 0), 0, m, s);
    b->q = (ta_quant){m, s, 0, 0, 0};
    b->w = (const int8_t *)tf->data;
    b->bias = o->ninputs > 2 && o->inputs[2] >= 0 ? (const int32_t *)g->tensors[o->inputs[2]].data
                                                   : NULL;
    fold_bias_s8(b->w, p->out_depth, p->in_depth, b->bias, p->input_offset, bf);
    b->bias_fold = bf;
  } else if (o->kind == OP_AVERAGE_POOL_2D || o->kind == OP_MAX_POOL_2D) {
    ta_pool_params *p = &b->pp;
    b->id = dims4(ti);
    b->od = dims4(to);
    p->stride_h = o->opt.stride_h;
    p->stride_w = o->opt.stride_w;
    p->filter_h = o->opt.filter_h;
    p->filter_w = o->opt.filter_w;
    int32_t oh, ow;
    compute_padding(o->opt.padding, b->id.h, p->filter_h, p->stride_h, 1, &oh, &p->pad_h);
    compute_padding(o->opt.padding, b->id.w, p->filter_w, p->stride_w, 1, &ow, &p->pad_w);
    activation_range_quantized(o->opt.activation, DT_INT8, sc(to, 0), zp(to), &p->act_min,
                               &p->act_max);
  } else if (o->kind == OP_ADD) {
    const Tensor *t2 = &g->tensors[o->inputs[1]];
    b->in2 = tensor_in(g, dir, o->inputs[1]);
    if (!b->in2 || ti->ndims != t2->ndims)
      return;
    make_broadcast(ti->dims, ti->ndims, t2->dims, t2->ndims, &b->bc, NULL, NULL);
    add_params(sc(ti, 0), zp(ti), sc(t2, 0), zp(t2), sc(to, 0), zp(to), DT_INT8,
               o->opt.activation, 0, &b->ap);
    int32_t *tab1 = malloc(256 * 4), *tab2 = malloc(256 * 4);
    add_tables(&b->ap, tab1, tab2);
    b->ap.table1 = tab1;
    b->ap.table2 = tab2;
    b->rank = ti->ndims;
    memcpy(b->s1, ti->dims, sizeof(int32_t) * ti->ndims);
    memcpy(b->s2, t2->dims, sizeof(int32_t) * t2->ndims);
  } else if (o->kind == OP_SOFTMAX) {
    softmax_params(o->opt.beta, sc(ti, 0), 0, &b->sp);
    b->sp.depth = ti->dims[ti->ndims - 1];
    b->sp.outer = (int32_t)(tensor_elems(ti) / b->sp.depth);
    int32_t *table = malloc(256 * 4);
    softmax_exp_table(&b->sp, table);
    b->sp.exp_table = table;
  } else {
    return;
  }
  nbops++;
}

__attribute__((noinline)) void bench_run(void) {
  for (int i = 0; i < nbops; i++) {
    BOp *b = &bops[i];
    switch (b->kind) {
    case OP_CONV_2D:
      if (mode == 0)
        ta_conv2d_fold_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias_fold, &b->od,
                          b->out, b->scratch);
      else if (mode == 1)
        ta_conv2d_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias, &b->od, b->out, NULL);
      else
        ref_conv_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias, &b->od, b->out);
      break;
    case OP_DEPTHWISE_CONV_2D:
      if (mode == 0)
        ta_depthwise_conv2d_fold_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias_fold,
                                    &b->od, b->out, b->scratch);
      else if (mode == 1)
        ta_depthwise_conv2d_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias, &b->od,
                               b->out, NULL);
      else
        ref_dw_s8(&b->cp, &b->q, &b->id, b->in, &b->fd, b->w, b->bias, &b->od, b->out);
      break;
    case OP_FULLY_CONNECTED:
      if (mode == 0)
        ta_fully_connected_fold_s8(&b->fp, &b->q, b->in, b->w, b->bias_fold, b->out);
      else if (mode == 1)
        ta_fully_connected_s8(&b->fp, &b->q, b->in, b->w, b->bias, b->out);
      else
        ref_fc_s8(&b->fp, &b->q, b->in, b->w, b->bias, b->out);
      break;
    case OP_AVERAGE_POOL_2D:
    case OP_MAX_POOL_2D:
      if (mode == 2)
        ref_pool_s8(b->kind == OP_AVERAGE_POOL_2D, &b->pp, &b->id, b->in, &b->od, b->out);
      else if (b->kind == OP_AVERAGE_POOL_2D)
        ta_avg_pool2d_s8(&b->pp, &b->id, b->in, &b->od, b->out);
      else
        ta_max_pool2d_s8(&b->pp, &b->id, b->in, &b->od, b->out);
      break;
    case OP_ADD:
      if (mode == 2) {
        ref_add_s8(&b->ap, b->rank, b->s1, b->s2, b->in, b->in2, b->out);
      } else {
        ta_add_params ap = b->ap;
        if (mode == 1)
          ap.table1 = ap.table2 = NULL;
        ta_add_s8(&ap, &b->bc, b->in, b->in2, b->out);
      }
      break;
    case OP_SOFTMAX: {
      ta_softmax_params sp = b->sp;
      if (mode != 0)
        sp.exp_table = NULL;
      ta_softmax_s8(&sp, b->in, b->out);
      break;
    }
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_kernels MODEL GOLDEN_DIR fast|plain|ref\n");
    return 2;
  }
  mode = !strcmp(argv[3], "fast") ? 0 : !strcmp(argv[3], "plain") ? 1 : 2;
  size_t size;
  uint8_t *buf = read_file(argv[1], &size);
  Graph *g = read_tflite(argv[1], buf, size);
  for (int i = 0; i < g->nops && nbops < 512; i++)
    prepare(g, argv[2], i);
  bench_run();
  unsigned long sum = 0;
  for (int i = 0; i < nbops; i++)
    sum += (unsigned char)bops[i].out[0];
  printf("%d ops prepared, checksum %lu\n", nbops, sum);
  return 0;
}
