/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_conv.c - the window ops: Conv (depthwise, grouped),
 * ConvTranspose, the pools and global pools onto the NHWC kernels with
 * their padding planned (plan_padding), and the N-D windows (1 to 3
 * spatial axes, ONNX layout: MAX_POOL_ND, AVERAGE_POOL_ND,
 * CONV_TRANSPOSE_ND).
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------ convolutions */

typedef struct {
  Padding pad;
  int64_t before[2], after[2]; /* explicit padding to apply first (PAD) */
  bool explicit_pad;
  int64_t out[2];
} PadPlan;

/* Spatial padding: TFLite SAME/VALID when they give ONNX's windows, else
 * explicit pads (before, after) with VALID.  k: kernel sizes, dil: their
 * dilations.  pads_ignored_ok: SAME's treatment of padded cells matches
 * the op's (false only for an average pool with count_include_pad). */
static void plan_padding(Imp *m, const int64_t *in, const int64_t *k, const int64_t *s,
                         const int64_t *dil, bool ceil_mode, bool pads_ignored_ok,
                         PadPlan *pp) {
  int64_t pads[4] = {0, 0, 0, 0};
  int np = attr_ints(m, "pads", pads, 4);
  if (np >= 0 && np != 4)
    FAIL("pads has %d entries, expected 4", np);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  memset(pp, 0, sizeof *pp);
  for (int a = 0; a < 2; a++) {
    int64_t eff = (k[a] - 1) * dil[a] + 1;
    if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
      int64_t o = (in[a] + s[a] - 1) / s[a];
      int64_t tot = (o - 1) * s[a] + eff - in[a];
      tot = tot < 0 ? 0 : tot;
      pads[a] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
      pads[a + 2] = tot - pads[a];
    } else if (!strcmp(ap, "VALID")) {
      pads[a] = pads[a + 2] = 0;
    } else if (strcmp(ap, "NOTSET")) {
      FAIL("auto_pad %s is not supported", ap);
    }
    if (pads[a] < 0 || pads[a + 2] < 0)
      FAIL("negative pads");
    int64_t span = in[a] + pads[a] + pads[a + 2] - eff;
    if (span < 0)
      FAIL("the kernel is larger than the padded input");
    int64_t o = ceil_mode ? (span + s[a] - 1) / s[a] + 1 : span / s[a] + 1;
    /* ceil_mode: the last window must start inside the input or the
     * leading padding. */
    if (ceil_mode && (o - 1) * s[a] >= in[a] + pads[a])
      o--;
    pp->out[a] = o;
  }
  bool zero = !pads[0] && !pads[1] && !pads[2] && !pads[3];
  bool valid = zero, same = true;
  for (int a = 0; a < 2; a++) {
    int64_t eff = (k[a] - 1) * dil[a] + 1;
    if ((in[a] - eff) / s[a] + 1 != pp->out[a] || in[a] < eff)
      valid = false;
    int32_t o, before;
    compute_padding(PAD_SAME, (int32_t)in[a], (int32_t)eff, (int32_t)s[a], 1, &o, &before);
    /* The kernels take the dilated extent through the dilation option:
     * compute SAME's padding from the effective size, as TFLite does. */
    if (o != pp->out[a] || before != pads[a])
      same = false;
    /* The same windows, then: cells outside the input are zeros in a
     * convolution either way, and ignored by max pools and by average
     * pools without count_include_pad, as by TFLite's SAME.  An average
     * pool that counts padded cells cannot use SAME (it divides by the
     * cells inside the input) unless SAME pads nothing. */
    int64_t total = (o - 1) * s[a] + eff - in[a];
    if (!pads_ignored_ok && total > 0)
      same = false;
  }
  if (valid) {
    pp->pad = PAD_VALID;
  } else if (same) {
    pp->pad = PAD_SAME;
  } else {
    pp->pad = PAD_VALID;
    pp->explicit_pad = true;
    for (int a = 0; a < 2; a++) {
      int64_t eff = (k[a] - 1) * dil[a] + 1;
      pp->before[a] = pads[a];
      int64_t need = (pp->out[a] - 1) * s[a] + eff - in[a] - pads[a];
      pp->after[a] = need < 0 ? 0 : need;
      if ((in[a] + pp->before[a] + pp->after[a] - eff) / s[a] + 1 != pp->out[a])
        FAIL("these pads cannot be expressed (axis %d)", a);
    }
  }
}

/* PAD (value 0) or PADV2 (value) of an NHWC tensor's H and W. */
static int pad_nhwc(Imp *m, int t, const PadPlan *pp, bool has_value, float value) {
  Tensor *x = T(m, t);
  int32_t p[8] = {0, 0, (int32_t)pp->before[0], (int32_t)pp->after[0],
                  (int32_t)pp->before[1], (int32_t)pp->after[1], 0, 0};
  int64_t pd[2] = {4, 2};
  int ins[3] = {t, const_tensor(m, "", DT_INT32, 2, pd, p), -1};
  int64_t dims[4] = {x->dims[0], x->dims[1] + p[2] + p[3], x->dims[2] + p[4] + p[5],
                     x->dims[3]};
  if (has_value)
    ins[2] = f32_tensor(m, "", 1, (int64_t[]){1}, &value);
  int out = new_tensor(m, arena_printf("%s:pad", x->name), x->dtype, 4, dims);
  add_op(m, has_value ? OP_PADV2 : OP_PAD, ins, has_value ? 3 : 2, &out, 1);
  return out;
}

static void spatial_attrs(Imp *m, const char *name, int64_t *v, int64_t def) {
  v[0] = v[1] = def;
  int n = attr_ints(m, name, v, 2);
  if (n >= 0 && n != 2)
    FAIL("%s has %d entries, expected 2", name, n);
  if (v[0] < 1 || v[1] < 1 || v[0] > INT32_MAX || v[1] > INT32_MAX)
    FAIL("%s must be positive", name);
}

/* ------------------------------- N-D windows and grouped convolution */

/* What TFLite's 2-D NHWC window kernels cannot express - 1-D and 3-D
 * pools and transposed convolutions, dilated pools, pads that SAME
 * cannot give, MaxPool's Indices, grouped or dilated ConvTranspose -
 * becomes MAX_POOL_ND, AVERAGE_POOL_ND or CONV_TRANSPOSE_ND in the ONNX
 * layout, with a window table [5][axes] (kernel, stride, dilation, pads
 * before, pads after; passes/lower_nd.c).  A grouped Conv (neither plain
 * nor depthwise) is split by channels into one CONV_2D per group and
 * concatenated back, which gives the same sums as one grouped kernel. */

typedef struct {
  int nsp;
  int64_t k[3], s[3], d[3], pb[3], pe[3], out[3];
} NdWin;

/* An attribute of nsp positive entries (def when absent). */
static void nd_list(Imp *m, const char *name, int64_t *v, int nsp, int64_t def) {
  for (int a = 0; a < nsp; a++)
    v[a] = def;
  int n = attr_ints(m, name, v, 3);
  if (n >= 0 && n != nsp)
    FAIL("%s has %d entries, expected %d", name, n, nsp);
  for (int a = 0; a < nsp; a++)
    if (v[a] < 1 || v[a] > INT32_MAX / 4)
      FAIL("%s must be positive", name);
}

static int nd_spatial(Imp *m, const Val *x) {
  if (x->ndims < 3 || x->ndims > 5)
    FAIL("input 0 has rank %d; 1 to 3 spatial axes (rank 3 to 5) are supported", x->ndims);
  return x->ndims - 2;
}

/* The window table as a constant int32 tensor [5][nsp]. */
static int nd_table(Imp *m, const NdWin *w) {
  int32_t v[15];
  for (int a = 0; a < w->nsp; a++) {
    const int64_t row[5] = {w->k[a], w->s[a], w->d[a], w->pb[a], w->pe[a]};
    for (int r = 0; r < 5; r++) {
      if (row[r] < -INT32_MAX / 4 || row[r] > INT32_MAX / 4)
        FAIL("window out of range");
      v[r * w->nsp + a] = (int32_t)row[r];
    }
  }
  int64_t d[2] = {5, w->nsp};
  return const_tensor(m, "", DT_INT32, 2, d, v);
}

/* A pool's pads and output extents (ONNX's formulas: auto_pad SAME_UPPER
 * puts the odd cell after, SAME_LOWER before; ceil_mode drops a last
 * window that would start in the trailing padding). */
static void nd_pool_window(Imp *m, const Val *x, NdWin *w) {
  int nsp = w->nsp;
  int64_t pads[6] = {0, 0, 0, 0, 0, 0};
  int np = attr_ints(m, "pads", pads, 6);
  if (np >= 0 && np != 2 * nsp)
    FAIL("pads has %d entries, expected %d", np, 2 * nsp);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  bool ceil_mode = attr_i(m, "ceil_mode", 0) != 0;
  for (int a = 0; a < nsp; a++) {
    int64_t in = x->dims[2 + a], eff = (w->k[a] - 1) * w->d[a] + 1;
    w->pb[a] = pads[a], w->pe[a] = pads[a + nsp];
    if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
      int64_t o = (in + w->s[a] - 1) / w->s[a];
      int64_t tot = (o - 1) * w->s[a] + eff - in;
      tot = tot < 0 ? 0 : tot;
      w->pb[a] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
      w->pe[a] = tot - w->pb[a];
    } else if (!strcmp(ap, "VALID")) {
      w->pb[a] = w->pe[a] = 0;
    } else if (strcmp(ap, "NOTSET")) {
      FAIL("auto_pad %s is not supported", ap);
    }
    if (w->pb[a] < 0 || w->pe[a] < 0 || w->pb[a] > INT32_MAX / 4 || w->pe[a] > INT32_MAX / 4)
      FAIL("pads out of range");
    int64_t span = in + w->pb[a] + w->pe[a] - eff;
    if (span < 0)
      FAIL("the kernel is larger than the padded input (axis %d)", a);
    int64_t o = ceil_mode ? (span + w->s[a] - 1) / w->s[a] + 1 : span / w->s[a] + 1;
    if (ceil_mode && (o - 1) * w->s[a] >= in + w->pb[a])
      o--;
    w->out[a] = o;
  }
}

static void set_attr_int(Imp *m, int o, const char *key, int64_t v) {
  Attr *e = arena_array(1, sizeof(Attr));
  e->key = key;
  e->kind = ATTR_INT;
  e->i = v;
  e->f = (double)v;
  OP(m, o)->attrs = e;
  OP(m, o)->nattrs = 1;
}

/* MaxPool / AveragePool as MAX_POOL_ND / AVERAGE_POOL_ND. */
static void import_pool_nd(Imp *m, bool max) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  NdWin w;
  w.nsp = nd_spatial(m, x);
  if (attr_ints(m, "kernel_shape", w.k, 3) != w.nsp)
    FAIL("kernel_shape must have %d entries", w.nsp);
  for (int a = 0; a < w.nsp; a++)
    if (w.k[a] < 1 || w.k[a] > INT32_MAX / 4)
      FAIL("kernel_shape must be positive");
  nd_list(m, "strides", w.s, w.nsp, 1);
  nd_list(m, "dilations", w.d, w.nsp, 1);
  nd_pool_window(m, x, &w);
  int64_t od[5] = {x->dims[0], x->dims[1], w.out[0], w.out[1], w.out[2]};
  int ins[2] = {ir(m, x, L_ONNX), nd_table(m, &w)};
  int outs[2] = {act_out(m, 0, DT_FLOAT32, x->ndims, od, L_ONNX, NULL), -1};
  bool indices = max && m->n->noutputs > 1 && m->n->outputs[1][0];
  if (indices)
    outs[1] = act_out(m, 1, DT_INT64, x->ndims, od, L_ONNX, NULL);
  int o = add_op(m, max ? OP_MAX_POOL_ND : OP_AVERAGE_POOL_ND, ins, 2, outs, indices ? 2 : 1);
  if (max) {
    int64_t so = attr_i(m, "storage_order", 0);
    if (so != 0 && so != 1)
      FAIL("storage_order must be 0 or 1");
    set_attr_int(m, o, "column_major", so);
  } else {
    set_attr_int(m, o, "count_include_pad", attr_i(m, "count_include_pad", 0) != 0);
  }
}

static int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

/* ConvTranspose as CONV_TRANSPOSE_ND: the full result is
 * stride * (in - 1) + output_padding + (k - 1) * dilation + 1 long; pads
 * cut it, or output_shape (and auto_pad SAME_*: in * stride) picks a
 * window of it, the odd cell cut before unless SAME_UPPER (ONNX's
 * formula, halves rounded down as its reference does, so that a
 * negative total padding extends the result at the end). */
static void import_conv_transpose_nd(Imp *m) {
  Val *x = act_in(m, 0), *w = need_const_input(m, 1, "weights"), *b = in(m, 2);
  need_f32(m, x);
  NdWin win;
  int nsp = win.nsp = nd_spatial(m, x);
  int64_t group = attr_i(m, "group", 1), cin = x->dims[1];
  if (group < 1 || cin % group)
    FAIL("group %lld does not divide %lld input channels", (long long)group, (long long)cin);
  if (w->ndims != x->ndims || w->dims[0] != cin)
    FAIL("the weights must be [C_in, C_out / group, kernel...]");
  int64_t cout = w->dims[1] * group;
  if (b && (!b->data || val_elems(b) != cout))
    FAIL("the bias must be a constant of %lld values", (long long)cout);
  int64_t ks[3], op[3] = {0, 0, 0}, os[5], pads[6] = {0, 0, 0, 0, 0, 0};
  int nk = attr_ints(m, "kernel_shape", ks, 3);
  for (int a = 0; a < nsp; a++) {
    win.k[a] = w->dims[2 + a];
    if (nk >= 0 && (nk != nsp || ks[a] != win.k[a]))
      FAIL("kernel_shape disagrees with the weights");
  }
  nd_list(m, "strides", win.s, nsp, 1);
  nd_list(m, "dilations", win.d, nsp, 1);
  int nop = attr_ints(m, "output_padding", op, 3);
  if (nop >= 0 && nop != nsp)
    FAIL("output_padding has %d entries, expected %d", nop, nsp);
  int np = attr_ints(m, "pads", pads, 6);
  if (np >= 0 && np != 2 * nsp)
    FAIL("pads has %d entries, expected %d", np, 2 * nsp);
  int nos = attr_ints(m, "output_shape", os, 5);
  if (nos == nsp + 2)
    memmove(os, os + 2, (size_t)nsp * sizeof *os);
  else if (nos >= 0 && nos != nsp)
    FAIL("output_shape has %d entries, expected %d", nos, nsp);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  bool same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
  if (!same && strcmp(ap, "NOTSET") && strcmp(ap, "VALID"))
    FAIL("auto_pad %s is not supported", ap);
  for (int a = 0; a < nsp; a++) {
    int64_t in = x->dims[2 + a];
    if (op[a] < 0 || (op[a] >= win.s[a] && op[a] >= win.d[a]))
      FAIL("output_padding must be below the stride or the dilation");
    int64_t full = win.s[a] * (in - 1) + op[a] + (win.k[a] - 1) * win.d[a] + 1;
    if (nos >= 0 || same) {
      int64_t o = nos >= 0 ? os[a] : in * win.s[a];
      int64_t tot = full - o;
      win.pe[a] = !strcmp(ap, "SAME_UPPER") ? tot - floor_half(tot) : floor_half(tot);
      win.pb[a] = tot - win.pe[a];
    } else if (!strcmp(ap, "VALID")) {
      win.pb[a] = win.pe[a] = 0;
    } else {
      win.pb[a] = pads[a], win.pe[a] = pads[a + nsp];
      if (win.pb[a] < 0 || win.pe[a] < 0)
        FAIL("negative pads");
    }
    win.out[a] = full - win.pb[a] - win.pe[a];
    if (win.out[a] < 1 || win.out[a] > INT32_MAX / 4)
      FAIL("the output extent %lld (axis %d) is out of range", (long long)win.out[a], a);
  }
  float *bias = b ? floats_of(m, b) : NULL;
  int ins[4] = {ir(m, x, L_ONNX),
                f32_tensor(m, arena_printf("%s:filter", m->n->outputs[0]), w->ndims, w->dims,
                           floats_of(m, w)),
                bias ? f32_tensor(m, arena_printf("%s:bias", m->n->outputs[0]), 1, &cout, bias)
                     : -1,
                nd_table(m, &win)};
  int64_t od[5] = {x->dims[0], cout, win.out[0], win.out[1], win.out[2]};
  int t = act_out(m, 0, DT_FLOAT32, x->ndims, od, L_ONNX, NULL);
  int o = add_op(m, OP_CONV_TRANSPOSE_ND, ins, 4, &t, 1);
  set_attr_int(m, o, "group", group);
}

/* A grouped Conv of NHWC t (already padded): SPLIT_V of the channels,
 * CONV_2D per group with filters [cout / group, kh, kw, cin / group]
 * cut from the OIHW weights wf, CONCATENATION of the results into out. */
static void grouped_conv(Imp *m, int t, const float *wf, const float *bias, int64_t group,
                         int64_t cin, int64_t cout, int64_t kh, int64_t kw, const int64_t *s,
                         const int64_t *d, Padding pad, int out) {
  int64_t gi = cin / group, go = cout / group;
  int32_t *sz = arena_array((size_t)group, sizeof(int32_t));
  int32_t ax = 3;
  for (int64_t g = 0; g < group; g++)
    sz[g] = (int32_t)gi;
  int *parts = arena_array((size_t)group, sizeof(int));
  int *outs = arena_array((size_t)group, sizeof(int));
  Tensor *x = T(m, t), *y = T(m, out);
  for (int64_t g = 0; g < group; g++) {
    int64_t pd[4] = {x->dims[0], x->dims[1], x->dims[2], gi};
    int64_t yd[4] = {y->dims[0], y->dims[1], y->dims[2], go};
    parts[g] = new_tensor(m, arena_printf("%s:group%lld", x->name, (long long)g), DT_FLOAT32,
                          4, pd);
    outs[g] = new_tensor(m, arena_printf("%s:group%lld", y->name, (long long)g), DT_FLOAT32,
                         4, yd);
  }
  int sins[3] = {t, const_i32_tensor(m, sz, (int)group), const_i32_tensor(m, &ax, 1)};
  int so = add_op(m, OP_SPLIT_V, sins, 3, parts, (int)group);
  OP(m, so)->opt.fields = OPTF_NUM;
  OP(m, so)->opt.num = (int)group;
  for (int64_t g = 0; g < group; g++) {
    float *filt = arena_array((size_t)(go * kh * kw * gi), sizeof(float));
    for (int64_t o = 0; o < go; o++)
      for (int64_t c = 0; c < gi; c++)
        for (int64_t yy = 0; yy < kh; yy++)
          for (int64_t xx = 0; xx < kw; xx++)
            filt[((o * kh + yy) * kw + xx) * gi + c] =
                wf[(((g * go + o) * gi + c) * kh + yy) * kw + xx];
    int64_t fd[4] = {go, kh, kw, gi};
    int ins[3] = {parts[g],
                  f32_tensor(m, arena_printf("%s:filter%lld", m->n->outputs[0], (long long)g),
                             4, fd, filt),
                  f32_tensor(m, arena_printf("%s:bias%lld", m->n->outputs[0], (long long)g), 1,
                             &go, bias + g * go)};
    int o = add_op(m, OP_CONV_2D, ins, 3, &outs[g], 1);
    Options *opt = &OP(m, o)->opt;
    opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_DILATION;
    opt->padding = pad;
    opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
    opt->dilation_h = (int)d[0], opt->dilation_w = (int)d[1];
  }
  int co = add_op(m, OP_CONCATENATION, outs, (int)group, &out, 1);
  OP(m, co)->opt.fields = OPTF_AXIS | OPTF_ACTIVATION;
  OP(m, co)->opt.axis = 3;
}

void import_conv(Imp *m) {
  Val *x = act4(m, 0), *w = need_const_input(m, 1, "weights"), *b = in(m, 2);
  need_f32(m, x);
  if (w->ndims != 4)
    FAIL("the weights have rank %d, expected 4", w->ndims);
  if (b && (!b->data || val_elems(b) != w->dims[0]))
    FAIL("the bias must be a constant of %lld values", (long long)w->dims[0]);
  int64_t group = attr_i(m, "group", 1);
  int64_t cin = x->dims[1], cout = w->dims[0], kh = w->dims[2], kw = w->dims[3];
  bool depthwise = group > 1 && group == cin && w->dims[1] == 1 && cout % cin == 0;
  bool grouped = !depthwise && group > 1 && cin % group == 0 && w->dims[1] == cin / group &&
                 cout % group == 0;
  if (!depthwise && !grouped && (group != 1 || w->dims[1] != cin))
    FAIL("grouped convolution (group %lld, %lld input channels) is not supported", (long long)group,
         (long long)cin);
  int64_t k[2] = {kh, kw}, s[2], d[2];
  int64_t ks[2];
  if (attr_ints(m, "kernel_shape", ks, 2) == 2 && (ks[0] != kh || ks[1] != kw))
    FAIL("kernel_shape disagrees with the weights");
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  PadPlan pp;
  plan_padding(m, x->dims + 2, k, s, d, false, true, &pp);

  const float *wf = floats_of(m, w);
  float *filt = arena_array((size_t)(cout * kh * kw * (depthwise ? 1 : cin)), sizeof(float));
  int64_t fdims[4];
  if (depthwise) {
    fdims[0] = 1, fdims[1] = kh, fdims[2] = kw, fdims[3] = cout;
    for (int64_t o = 0; o < cout; o++)
      for (int64_t y = 0; y < kh; y++)
        for (int64_t xx = 0; xx < kw; xx++)
          filt[(y * kw + xx) * cout + o] = wf[(o * kh + y) * kw + xx];
  } else {
    fdims[0] = cout, fdims[1] = kh, fdims[2] = kw, fdims[3] = cin;
    for (int64_t o = 0; o < cout; o++)
      for (int64_t c = 0; c < cin; c++)
        for (int64_t y = 0; y < kh; y++)
          for (int64_t xx = 0; xx < kw; xx++)
            filt[((o * kh + y) * kw + xx) * cin + c] = wf[((o * cin + c) * kh + y) * kw + xx];
  }
  float *bias = b ? floats_of(m, b) : arena_array((size_t)cout, sizeof(float));
  int t = ir(m, x, L_NHWC);
  if (pp.explicit_pad)
    t = pad_nhwc(m, t, &pp, false, 0);
  if (grouped) {
    int64_t od[4] = {x->dims[0], cout, pp.out[0], pp.out[1]};
    grouped_conv(m, t, wf, bias, group, cin, cout, kh, kw, s, d, pp.pad,
                 act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL));
    return;
  }
  int ins[3] = {t, f32_tensor(m, arena_printf("%s:filter", m->n->outputs[0]), 4, fdims, filt),
                f32_tensor(m, arena_printf("%s:bias", m->n->outputs[0]), 1, &cout, bias)};
  int64_t od[4] = {x->dims[0], cout, pp.out[0], pp.out[1]};
  int out = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, depthwise ? OP_DEPTHWISE_CONV_2D : OP_CONV_2D, ins, 3, &out, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_DILATION |
                (depthwise ? OPTF_DEPTH_MULT : 0);
  opt->padding = pp.pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
  opt->dilation_h = (int)d[0], opt->dilation_w = (int)d[1];
  opt->depth_multiplier = depthwise ? (int)(cout / cin) : 0;
}

void import_conv_transpose(Imp *m) {
  Val *x = act_in(m, 0), *w = need_const_input(m, 1, "weights"), *b = in(m, 2);
  if (x->ndims != 4 || attr_i(m, "group", 1) != 1)
    return import_conv_transpose_nd(m);
  need_f32(m, x);
  if (w->ndims != 4 || w->dims[0] != x->dims[1])
    FAIL("the weights must be [C_in, C_out, kh, kw]");
  int64_t cin = w->dims[0], cout = w->dims[1], kh = w->dims[2], kw = w->dims[3];
  if (b && (!b->data || val_elems(b) != cout))
    FAIL("the bias must be a constant of %lld values", (long long)cout);
  int64_t s[2], d[2], pads[4] = {0, 0, 0, 0}, op[2] = {0, 0}, os[2];
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  if (d[0] != 1 || d[1] != 1)
    return import_conv_transpose_nd(m);
  int np = attr_ints(m, "pads", pads, 4);
  attr_ints(m, "output_padding", op, 2);
  if (np >= 0 && np != 4)
    FAIL("pads has %d entries, expected 4", np);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  int64_t k[2] = {kh, kw}, out[2];
  for (int a = 0; a < 2; a++)
    out[a] = s[a] * (x->dims[2 + a] - 1) + op[a] + k[a] - pads[a] - pads[a + 2];
  if (attr_ints(m, "output_shape", os, 2) == 2 || strcmp(ap, "NOTSET")) {
    bool given = attr(m, "output_shape") != NULL;
    for (int a = 0; a < 2; a++) {
      int64_t o = given ? os[a] : x->dims[2 + a] * s[a];
      int64_t tot = s[a] * (x->dims[2 + a] - 1) + op[a] + k[a] - o;
      if (tot < 0)
        return import_conv_transpose_nd(m);
      pads[a] = !strcmp(ap, "SAME_LOWER") ? tot - tot / 2 : tot / 2;
      pads[a + 2] = tot - pads[a];
      out[a] = o;
    }
  }
  Padding pad = PAD_VALID;
  for (int a = 0; a < 2; a++) {
    if (out[a] < 1)
      FAIL("the output would be empty");
    int32_t o, before;
    compute_padding(PAD_SAME, (int32_t)out[a], (int32_t)k[a], (int32_t)s[a], 1, &o, &before);
    if (pads[a] == 0 && pad == PAD_VALID)
      continue;
    if (before == pads[a] && o == x->dims[2 + a] && (a == 0 || pad == PAD_SAME))
      pad = PAD_SAME;
    else
      return import_conv_transpose_nd(m);
  }
  if (pad == PAD_SAME && pads[0] == 0 && pads[1] == 0)
    pad = PAD_VALID;
  const float *wf = floats_of(m, w);
  float *filt = arena_array((size_t)(cout * kh * kw * cin), sizeof(float));
  for (int64_t c = 0; c < cin; c++)
    for (int64_t o = 0; o < cout; o++)
      for (int64_t y = 0; y < kh; y++)
        for (int64_t xx = 0; xx < kw; xx++)
          filt[((o * kh + y) * kw + xx) * cin + c] = wf[((c * cout + o) * kh + y) * kw + xx];
  int64_t fd[4] = {cout, kh, kw, cin};
  int32_t shape[4] = {(int32_t)x->dims[0], (int32_t)out[0], (int32_t)out[1], (int32_t)cout};
  float *bias = b ? floats_of(m, b) : arena_array((size_t)cout, sizeof(float));
  int ins[4] = {const_i32_tensor(m, shape, 4), f32_tensor(m, "", 4, fd, filt), ir(m, x, L_NHWC),
                f32_tensor(m, "", 1, &cout, bias)};
  int64_t od[4] = {x->dims[0], cout, out[0], out[1]};
  int t = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, OP_TRANSPOSE_CONV, ins, 4, &t, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION;
  opt->padding = pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
}

void import_pool(Imp *m, bool max) {
  Val *x = act_in(m, 0);
  if (x->ndims != 4 || (m->n->noutputs > 1 && m->n->outputs[1][0]))
    return import_pool_nd(m, max);
  int64_t k[2], s[2], d[2];
  if (attr_ints(m, "kernel_shape", k, 2) != 2)
    FAIL("kernel_shape must have 2 entries");
  if (k[0] < 1 || k[1] < 1 || k[0] > INT32_MAX || k[1] > INT32_MAX)
    FAIL("kernel_shape must be positive");
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  if (d[0] != 1 || d[1] != 1)
    return import_pool_nd(m, max);
  /* MaxPool also takes int8 and uint8 (opset 12): the integer kernel
   * with the identity quantization on both sides, padding with the
   * type's minimum. */
  bool narrow = max && !x->qsrc && (x->dt == DT_INT8 || x->dt == DT_UINT8);
  if (!narrow)
    need_f32(m, x);
  bool ceil_mode = attr_i(m, "ceil_mode", 0) != 0;
  bool include = attr_i(m, "count_include_pad", 0) != 0;
  PadPlan pp;
  /* Max pools and average pools without count_include_pad ignore padded
   * cells, as TFLite's SAME does. */
  plan_padding(m, x->dims + 2, k, s, d, ceil_mode, max || !include, &pp);
  if (pp.explicit_pad && !max && !include)
    return import_pool_nd(m, max);
  int t = ir(m, x, L_NHWC);
  if (narrow)
    T(m, t)->q = quant1(1.0f, 0);
  if (pp.explicit_pad) {
    t = pad_nhwc(m, t, &pp, max, -FLT_MAX);
    if (narrow) {
      Op *p = OP(m, m->nops - 1);
      Tensor *c = T(m, p->inputs[2]);
      uint8_t *lo = arena_alloc(1);
      lo[0] = x->dt == DT_INT8 ? 0x80 : 0;
      c->data = lo;
      c->ndata = 1;
      c->dtype = x->dt;
      c->q = T(m, t)->q = quant1(1.0f, 0);
    }
  }
  int64_t od[4] = {x->dims[0], x->dims[1], pp.out[0], pp.out[1]};
  int out = act_out(m, 0, narrow ? x->dt : DT_FLOAT32, 4, od, L_NHWC, NULL);
  if (narrow)
    T(m, out)->q = quant1(1.0f, 0);
  int o = add_op(m, max ? OP_MAX_POOL_2D : OP_AVERAGE_POOL_2D, &t, 1, &out, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_FILTER | OPTF_ACTIVATION;
  opt->padding = pp.pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
  opt->filter_h = (int)k[0], opt->filter_w = (int)k[1];
}

void import_global_pool(Imp *m, bool max) {
  Val *x = act4(m, 0);
  need_f32(m, x);
  int t = ir(m, x, L_NHWC);
  int64_t od[4] = {x->dims[0], x->dims[1], 1, 1};
  int out = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  if (max) {
    int o = add_op(m, OP_MAX_POOL_2D, &t, 1, &out, 1);
    Options *opt = &OP(m, o)->opt;
    opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_FILTER | OPTF_ACTIVATION;
    opt->padding = PAD_VALID;
    opt->stride_h = opt->stride_w = 1;
    opt->filter_h = dim32(m, x->dims[2]), opt->filter_w = dim32(m, x->dims[3]);
    return;
  }
  int32_t axes[2] = {1, 2};
  int ins[2] = {t, const_i32_tensor(m, axes, 2)};
  int o = add_op(m, OP_MEAN, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
}
