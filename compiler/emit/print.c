/* SPDX-License-Identifier: Apache-2.0 */
/*
 * print.c - `tinyaot inspect`: the IR as text tables or as JSON.
 *
 * Text: a header (model, schema version, inputs, outputs, metadata), the
 * op list (index, name, inputs -> outputs with dtype and shape, the op's
 * options, MACs), the tensor table (index, dtype, shape, quantization,
 * kind, bytes, name) and totals.  JSON: the same facts as one object
 * (doc/ir.md lists its keys).
 *
 * MACs count multiply-accumulates of the ops that do matrix work
 * (convolutions, fully connected, batch matmul, LSTM, SVDF); other ops
 * count 0.  Weight bytes count each constant buffer once; activation
 * bytes are the sum of every non-constant, non-variable tensor (no
 * reuse: the memory plan is `tinyaot plan`'s job).
 */
#include "tinyaot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int64_t dim(const Tensor *t, int i) {
  if (i < 0)
    i += t->ndims;
  return (i >= 0 && i < t->ndims) ? t->dims[i] : 1;
}

static const Tensor *in(const Graph *g, const Op *op, int k) {
  if (k >= op->ninputs || op->inputs[k] < 0)
    return NULL;
  return &g->tensors[op->inputs[k]];
}

/* Saturating arithmetic on counts >= 0: a corrupt but accepted model
 * can ask for absurd MAC counts; they print as INT64_MAX. */
static int64_t smul(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0)
    return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}
static int64_t sadd(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}
static int64_t smul4(int64_t a, int64_t b, int64_t c, int64_t d) {
  return smul(smul(a, b), smul(c, d));
}

/* Multiply-accumulates of op i (0 for ops without matrix work). */
int64_t op_macs(const Graph *g, const Op *op) {
  const Tensor *x = in(g, op, 0), *w = in(g, op, 1);
  const Tensor *y = op->noutputs ? &g->tensors[op->outputs[0]] : NULL;
  if (!x || !y)
    return 0;
  switch (op->kind) {
  case OP_CONV_2D: /* weights [cout, kh, kw, cin/groups] */
    return w ? smul4(tensor_elems(y), dim(w, 1), dim(w, 2), dim(w, 3)) : 0;
  case OP_DEPTHWISE_CONV_2D: /* weights [1, kh, kw, cout] */
    return w ? smul4(tensor_elems(y), dim(w, 1), dim(w, 2), 1) : 0;
  case OP_TRANSPOSE_CONV: { /* inputs: shape, weights [cout,kh,kw,cin], x */
    const Tensor *wt = in(g, op, 1), *xt = in(g, op, 2);
    return wt && xt ? smul4(tensor_elems(xt), dim(wt, 0), dim(wt, 1),
                            dim(wt, 2))
                    : 0;
  }
  case OP_FULLY_CONNECTED: /* weights [units, depth] */
    return w ? smul(tensor_elems(y), dim(w, -1)) : 0;
  case OP_BATCH_MATMUL:
    return smul(tensor_elems(y), op->opt.adj_x ? dim(x, -2) : dim(x, -1));
  case OP_UNIDIRECTIONAL_SEQUENCE_LSTM:
  case OP_SVDF: {
    /* Every constant 2-D weight matrix once per step (batch x time). */
    int64_t steps = op->kind == OP_SVDF ? dim(x, 0) : smul(dim(x, 0), dim(x, 1));
    int64_t macs = 0;
    for (int k = 1; k < op->ninputs; k++) {
      const Tensor *t = in(g, op, k);
      if (t && is_const(t) && t->ndims == 2)
        macs = sadd(macs, tensor_elems(t));
    }
    return smul(macs, steps);
  }
  default:
    return 0;
  }
}

static const char *act_name(Activation a) {
  static const char *const names[] = {"NONE", "RELU", "RELU_N1_TO_1",
                                      "RELU6", "TANH", "SIGN_BIT"};
  return (unsigned)a < 6 ? names[a] : "?";
}

static const char *kind_name(const Tensor *t) {
  if (t->is_variable)
    return "variable";
  if (is_const(t))
    return "constant";
  if (t->is_input)
    return "input";
  if (t->is_output)
    return "output";
  return "activation";
}

/* ------------------------------------------------------------- text */

/* "[1,49,10,1]" into buf. */
static void shape_str(char *buf, size_t n, const Tensor *t) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->ndims && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? "," : "", t->dims[i]);
  if (k < n)
    snprintf(buf + k, n - k, "]");
}

static void print_shape(FILE *out, const Tensor *t) {
  char buf[16 * MAX_DIMS + 4];
  shape_str(buf, sizeof buf, t);
  fputs(buf, out);
}

static void print_ref(FILE *out, const Graph *g, int ti) {
  if (ti < 0) {
    fputs("-", out);
    return;
  }
  const Tensor *t = &g->tensors[ti];
  fprintf(out, "t%d:%s", ti, dtype_name(t->dtype));
  print_shape(out, t);
}

static void json_str(FILE *out, const char *s);

/* The options the op has (Options.fields): "  key=value key=value" in
 * text, "\"key\": value, ..." in JSON. */
static void print_options(FILE *out, OpKind kind, const Options *o, bool json) {
  const char *sep = json ? ", " : " ";
  const char *fmt_s = json ? "\"%s\": \"%s\"" : "%s=%s";
  const char *fmt_d = json ? "\"%s\": %d" : "%s=%d";
  const char *fmt_b = json ? "\"%s\": %s" : "%s=%s";
  bool first = true;
#define SEP() (fputs(first ? (json ? "" : "  ") : sep, out), first = false)
#define PS(k, v) (SEP(), fprintf(out, fmt_s, k, v))
#define PD(k, v) (SEP(), fprintf(out, fmt_d, k, (int)(v)))
#define PB(k, v) (SEP(), fprintf(out, fmt_b, k, (v) ? "true" : "false"))
#define PF(k, v)                                                              \
  (SEP(), isfinite(v) ? fprintf(out, json ? "\"%s\": %.9g" : "%s=%.9g", k,   \
                                (double)(v))                                   \
                      : fprintf(out, json ? "\"%s\": null" : "%s=%g", k,       \
                                (double)(v)))
  unsigned f = o->fields;
  if (f & OPTF_PADDING)
    PS("padding", o->padding == PAD_SAME ? "SAME" : "VALID");
  if (f & OPTF_STRIDE) {
    PD("stride_w", o->stride_w);
    PD("stride_h", o->stride_h);
  }
  if (f & OPTF_DILATION) {
    PD("dilation_w", o->dilation_w);
    PD("dilation_h", o->dilation_h);
  }
  if (f & OPTF_FILTER) {
    PD("filter_w", o->filter_w);
    PD("filter_h", o->filter_h);
  }
  if (f & OPTF_DEPTH_MULT)
    PD("depth_multiplier", o->depth_multiplier);
  if (f & OPTF_ACTIVATION)
    PS("activation", act_name(o->activation));
  if (f & OPTF_BETA)
    PF("beta", o->beta);
  if (f & OPTF_ALPHA)
    PF("alpha", o->alpha);
  if (f & OPTF_AXIS)
    PD("axis", o->axis);
  if (f & OPTF_NUM)
    PD("num", o->num);
  if (f & OPTF_KEEP_DIMS)
    PB("keep_dims", o->keep_dims);
  if (f & OPTF_FC) {
    PB("keep_num_dims", o->keep_num_dims);
    PD("weights_format", o->weights_format);
  }
  if (f & OPTF_RESIZE) {
    PB("align_corners", o->align_corners);
    PB("half_pixel_centers", o->half_pixel_centers);
  }
  if (f & OPTF_SLICE_MASKS) {
    PD("begin_mask", o->begin_mask);
    PD("end_mask", o->end_mask);
    PD("ellipsis_mask", o->ellipsis_mask);
    PD("new_axis_mask", o->new_axis_mask);
    PD("shrink_axis_mask", o->shrink_axis_mask);
    PB("offset", o->offset);
  }
  if (f & OPTF_OUT_TYPE)
    PS("output_type", dtype_name(o->out_type));
  if (f & OPTF_CAST) {
    PS("in_data_type", dtype_name(o->in_dtype));
    PS("out_data_type", dtype_name(o->out_dtype));
  }
  if ((f & OPTF_NEW_SHAPE) && o->nnew_shape >= 0) {
    SEP();
    fprintf(out, json ? "\"new_shape\": [" : "new_shape=[");
    for (int i = 0; i < o->nnew_shape; i++)
      fprintf(out, "%s%d", i ? (json ? ", " : ",") : "", o->new_shape[i]);
    fputc(']', out);
  }
  if (f & OPTF_SQUEEZE_DIMS) {
    SEP();
    fprintf(out, json ? "\"squeeze_dims\": [" : "squeeze_dims=[");
    for (int i = 0; i < o->nsqueeze_dims; i++)
      fprintf(out, "%s%d", i ? (json ? ", " : ",") : "", o->squeeze_dims[i]);
    fputc(']', out);
  }
  if (f & OPTF_LSTM) {
    PF("cell_clip", o->cell_clip);
    PF("proj_clip", o->proj_clip);
    PB("time_major", o->time_major);
  }
  if (f & OPTF_RANK)
    PD("rank", o->rank);
  if (f & OPTF_POT_SCALE)
    PB("pot_scale_int16", o->pot_scale_int16);
  if (f & OPTF_BLOCK_SIZE)
    PD("block_size", o->block_size);
  if (f & OPTF_BATCH_DIMS)
    PD("batch_dims", o->batch_dims);
  if (f & OPTF_ADJ) {
    PB("adj_x", o->adj_x);
    PB("adj_y", o->adj_y);
  }
  if ((f & OPTF_ASYMMETRIC) && o->asymmetric_quantize_inputs)
    PB("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs);
  if ((f & OPTF_BIAS_TYPE) && o->quantized_bias_type != DT_FLOAT32)
    PS("quantized_bias_type", dtype_name(o->quantized_bias_type));
  if (f & OPTF_VAR_HANDLE) { /* strings from the file: JSON-escaped */
    const char *k[2] = {"container", "shared_name"};
    const char *v[2] = {o->container, o->shared_name};
    for (int i = 0; i < 2; i++) {
      SEP();
      fprintf(out, json ? "\"%s\": " : "%s=", k[i]);
      if (json)
        json_str(out, v[i] ? v[i] : "");
      else
        fputs(v[i] ? v[i] : "", out);
    }
  }
  if (f & OPTF_CALL_ONCE)
    PD("init_subgraph_index", o->init_subgraph);
  if (f & OPTF_SUBGRAPHS) {
    bool w = kind == OP_WHILE;
    PD(w ? "cond_subgraph_index" : "then_subgraph_index", o->subgraph[0]);
    PD(w ? "body_subgraph_index" : "else_subgraph_index", o->subgraph[1]);
  }
#undef SEP
#undef PS
#undef PD
#undef PB
#undef PF
}

typedef struct {
  size_t weight_bytes, activation_bytes, variable_bytes;
  int64_t macs;
} Totals;

static int cmp_data(const void *a, const void *b) {
  const Tensor *x = *(const Tensor *const *)a, *y = *(const Tensor *const *)b;
  if (x->data != y->data)
    return x->data < y->data ? -1 : 1;
  return x->ndata < y->ndata ? -1 : x->ndata > y->ndata;
}

static Totals totals(const Graph *g) {
  Totals s = {0, 0, 0, 0};
  /* Constants: count a buffer shared by several tensors once. */
  const Tensor **consts = arena_array((size_t)g->ntensors + 1, sizeof *consts);
  int nconsts = 0;
  for (int i = 0; i < g->ntensors; i++) {
    const Tensor *t = &g->tensors[i];
    if (t->is_variable)
      s.variable_bytes += tensor_bytes(t);
    else if (is_const(t))
      consts[nconsts++] = t;
    else
      s.activation_bytes += tensor_bytes(t);
  }
  qsort(consts, (size_t)nconsts, sizeof *consts, cmp_data);
  for (int i = 0; i < nconsts; i++)
    if (i == 0 || cmp_data(&consts[i - 1], &consts[i]) != 0)
      s.weight_bytes += consts[i]->ndata;
  for (int i = 0; i < g->nops; i++)
    s.macs = sadd(s.macs, op_macs(g, &g->ops[i]));
  return s;
}

/* Why op i was refused (Op.refused), without the "MODEL: op I (NAME): "
 * that error_at() put in front. */
static const char *refusal_reason(const Graph *g, int i) {
  const char *why = g->ops[i].refused;
  const char *prefix = arena_printf("%s: op %d (%s): ", g->path ? g->path : "<model>", i,
                                    op_display_name(g, i));
  size_t n = strlen(prefix);
  return strncmp(why, prefix, n) ? why : why + n;
}

static void print_text(FILE *out, const Graph *g) {
  fprintf(out, "model %s: schema version %u, %d ops, %d tensors\n", g->path,
          g->schema_version, g->nops, g->ntensors);
  if (g->description && *g->description)
    fprintf(out, "description: %s\n", g->description);
  for (int io = 0; io < 2; io++) {
    int n = io ? g->noutputs : g->ninputs;
    const int *v = io ? g->outputs : g->inputs;
    fprintf(out, "%s:", io ? "outputs" : "inputs");
    for (int i = 0; i < n; i++) {
      fputc(' ', out);
      print_ref(out, g, v[i]);
    }
    fputc('\n', out);
  }
  for (int i = 0; i < g->nmetadata; i++)
    fprintf(out, "metadata %s: %zu bytes\n", g->metadata[i].key,
            g->metadata[i].ndata);

  fprintf(out, "\nops:\n");
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    fprintf(out, "%4d  %-28s ", i, op_display_name(g, i));
    for (int k = 0; k < op->ninputs; k++) {
      if (k)
        fputs(", ", out);
      print_ref(out, g, op->inputs[k]);
    }
    fputs(" -> ", out);
    for (int k = 0; k < op->noutputs; k++) {
      if (k)
        fputs(", ", out);
      print_ref(out, g, op->outputs[k]);
    }
    print_options(out, op->kind, &op->opt, false);
    int64_t macs = op_macs(g, op);
    if (macs)
      fprintf(out, "  MACs=%lld", (long long)macs);
    if (op->refused)
      fprintf(out, "\n      ^ refused: %s", refusal_reason(g, i));
    fputc('\n', out);
  }
  int nrefused = 0;
  for (int i = 0; i < g->nops; i++)
    nrefused += g->ops[i].refused != NULL;
  if (nrefused)
    fprintf(out, "%d of %d ops are not supported (marked \"refused\")\n", nrefused, g->nops);

  int dw = 8; /* the dtype column: as wide as its longest name */
  for (int i = 0; i < g->ntensors; i++) {
    int w = (int)strlen(dtype_name(g->tensors[i].dtype));
    if (w > dw)
      dw = w;
  }
  fprintf(out, "\ntensors:\n");
  fprintf(out, "%5s  %-*s %-18s %-26s %-10s %10s  %s\n", "index", dw, "dtype",
          "shape", "quantization", "kind", "bytes", "name");
  for (int i = 0; i < g->ntensors; i++) {
    const Tensor *t = &g->tensors[i];
    char shape[16 * MAX_DIMS + 4], quant[96];
    shape_str(shape, sizeof shape, t);
    if (t->q.nscale == 0)
      snprintf(quant, sizeof quant, "-");
    else if (t->q.nscale == 1)
      snprintf(quant, sizeof quant, "s=%.6g zp=%lld", t->q.scale[0],
               (long long)t->q.zero_point[0]);
    else
      snprintf(quant, sizeof quant, "per-channel x%d axis %d", t->q.nscale,
               t->q.axis);
    fprintf(out, "%5d  %-*s %-18s %-26s %-10s %10zu  %s\n", i, dw,
            dtype_name(t->dtype), shape, quant, kind_name(t),
            is_const(t) ? t->ndata : tensor_bytes(t), t->name);
  }

  Totals s = totals(g);
  fprintf(out, "\ntotals: weights %zu bytes, activations %zu bytes, "
               "variables %zu bytes, %lld MACs\n",
          s.weight_bytes, s.activation_bytes, s.variable_bytes,
          (long long)s.macs);
}

/* ------------------------------------------------------------- JSON */

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20 || *p >= 0x7f)
      fprintf(out, "\\u%04x", *p); /* bytes as code points: valid JSON */
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static void json_ints(FILE *out, const int *v, int n) {
  fputc('[', out);
  for (int i = 0; i < n; i++)
    fprintf(out, "%s%d", i ? ", " : "", v[i]);
  fputc(']', out);
}

static void json_dims(FILE *out, const int32_t *v, int n) {
  fputc('[', out);
  for (int i = 0; i < n; i++)
    fprintf(out, "%s%d", i ? ", " : "", (int)v[i]);
  fputc(']', out);
}

static void json_float(FILE *out, double v) {
  if (isfinite(v))
    fprintf(out, "%.9g", v);
  else
    fputs("null", out);
}

static void print_json(FILE *out, const Graph *g) {
  fputs("{\n  \"model\": ", out);
  json_str(out, g->path);
  fprintf(out, ",\n  \"schema_version\": %u,\n  \"description\": ",
          g->schema_version);
  json_str(out, g->description ? g->description : "");
  fputs(",\n  \"inputs\": ", out);
  json_ints(out, g->inputs, g->ninputs);
  fputs(",\n  \"outputs\": ", out);
  json_ints(out, g->outputs, g->noutputs);

  fputs(",\n  \"metadata\": [", out);
  for (int i = 0; i < g->nmetadata; i++) {
    fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
    json_str(out, g->metadata[i].key);
    fprintf(out, ", \"bytes\": %zu}", g->metadata[i].ndata);
  }
  fputs(g->nmetadata ? "\n  ]" : "]", out);

  fputs(",\n  \"ops\": [", out);
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    fprintf(out, "%s\n    {\"index\": %d, \"name\": ", i ? "," : "", i);
    json_str(out, op_display_name(g, i));
    fprintf(out, ", \"version\": %d, \"inputs\": ", op->version);
    json_ints(out, op->inputs, op->ninputs);
    fputs(", \"outputs\": ", out);
    json_ints(out, op->outputs, op->noutputs);
    if (op->nintermediates) {
      fputs(", \"intermediates\": ", out);
      json_ints(out, op->intermediates, op->nintermediates);
    }
    fputs(", \"options\": {", out);
    print_options(out, op->kind, &op->opt, true);
    fprintf(out, "}, \"macs\": %lld", (long long)op_macs(g, op));
    if (op->refused) {
      fputs(", \"refused\": ", out);
      json_str(out, refusal_reason(g, i));
    }
    fputc('}', out);
  }
  fputs(g->nops ? "\n  ]" : "]", out);

  fputs(",\n  \"tensors\": [", out);
  for (int i = 0; i < g->ntensors; i++) {
    const Tensor *t = &g->tensors[i];
    fprintf(out, "%s\n    {\"index\": %d, \"name\": ", i ? "," : "", i);
    json_str(out, t->name);
    fprintf(out, ", \"dtype\": \"%s\", \"shape\": ", dtype_name(t->dtype));
    json_dims(out, t->dims, t->ndims);
    if (t->nsignature) {
      fputs(", \"shape_signature\": ", out);
      json_dims(out, t->signature, t->nsignature);
    }
    fputs(", \"scale\": [", out);
    for (int k = 0; k < t->q.nscale; k++) {
      if (k)
        fputs(", ", out);
      json_float(out, t->q.scale[k]);
    }
    fputs("], \"zero_point\": [", out);
    for (int k = 0; k < t->q.nscale; k++)
      fprintf(out, "%s%lld", k ? ", " : "", (long long)t->q.zero_point[k]);
    fputc(']', out);
    if (t->q.nscale > 1)
      fprintf(out, ", \"quantized_dimension\": %d", t->q.axis);
    fprintf(out, ", \"kind\": \"%s\", \"buffer\": %d, \"bytes\": %zu",
            kind_name(t), t->buffer, is_const(t) ? t->ndata : tensor_bytes(t));
    fprintf(out, ", \"is_input\": %s, \"is_output\": %s, \"producer\": %d}",
            t->is_input ? "true" : "false", t->is_output ? "true" : "false",
            t->producer);
  }
  fputs(g->ntensors ? "\n  ]" : "]", out);

  Totals s = totals(g);
  fprintf(out,
          ",\n  \"totals\": {\"weight_bytes\": %zu, \"activation_bytes\": "
          "%zu, \"variable_bytes\": %zu, \"macs\": %lld}\n}\n",
          s.weight_bytes, s.activation_bytes, s.variable_bytes,
          (long long)s.macs);
}

void print_inspect(FILE *out, const Graph *g, bool json) {
  if (json)
    print_json(out, g);
  else
    print_text(out, g);
}

/* ------------------------------------------------------- -dL */

void print_lowering(FILE *out, const Graph *g) {
  fprintf(out, "lowering of %s: %d ops\n", g->path ? g->path : "?", g->nops);
  fprintf(out, "%5s  %-24s %-32s %10s  %s\n", "op", "name", "kernel",
          "scratch B", "in place over");
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    const Lowered *l = op_lowered(op);
    const char *kernel = !l ? "(not lowered)"
                         : l->kernel ? l->kernel
                         : l->fused  ? arena_printf("(in op %d's epilogue)", l->fused_op)
                         : op->noutputs == 1 && op->outputs[0] >= 0
                             ? arena_printf("(view of t%d: no call)",
                                            g->tensors[op->outputs[0]].view_of)
                             : "(no call)";
    const char *inplace = "";
    for (int k = 0; l && k < 32 && k < op->ninputs; k++)
      if (l->inplace >> k & 1)
        inplace = arena_printf("%s%sinput %d", inplace, *inplace ? ", " : "", k);
    if (!*inplace)
      inplace = "-";
    fprintf(out, "%5d  %-24s %-32s %10zu  %s\n", i, op_display_name(g, i),
            kernel, op->scratch_bytes, inplace);
  }
}
