/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_import.c - the parsed ONNX graph (onnx.c) -> the IR: the walk
 * over the nodes in file order, the dispatch of each node by op_type
 * (import_node) and the graph's inputs and outputs.  onnx_import.h
 * describes the whole importer and which file holds what.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Ops whose meaning changed before opset 11, refused in older models
 * (what did not change is imported as at opset 11). */
static void old_opset(Imp *m) {
  const char *op = m->n->op_type;
  if (m->x->opset < 10 && !strcmp(op, "Slice"))
    FAIL("Slice before opset 10 (starts and ends as attributes) is not supported");
  if (m->x->opset < 11 && (!strcmp(op, "Resize") || !strcmp(op, "ConvTranspose")))
    FAIL("%s before opset 11 is not supported", op);
}

static void import_node(Imp *m) {
  const char *op = m->n->op_type;
  bool ms = !strcmp(m->n->domain, "com.microsoft");
  if (m->n->domain[0] && strcmp(m->n->domain, "ai.onnx") && !ms)
    FAIL("the domain '%s' is not supported (default domain and com.microsoft's QOperator "
         "nodes only)", m->n->domain);
  for (int k = 0; k < m->n->nattrs; k++)
    if (m->n->attrs[k].has & 16)
      FAIL("subgraph attributes (control flow) are not supported");
  if (m->n->noutputs < 1)
    FAIL("the node has no outputs");
  old_opset(m);
  if (import_qop(m))
    return;
  if (ms)
    FAIL("%s of domain com.microsoft is not supported (QLinearAdd, QLinearMul, "
         "QLinearGlobalAveragePool, QLinearLeakyRelu, QLinearConcat only)", op);
  if (import_qdq(m))
    return;
  if (try_fold(m))
    return;
#define IS(s) (!strcmp(op, s))
  if (IS("Conv")) import_conv(m);
  else if (IS("ConvTranspose")) import_conv_transpose(m);
  else if (IS("Gemm")) import_gemm(m);
  else if (IS("MatMul")) import_matmul(m);
  else if (IS("Add")) binary(m, OP_ADD);
  else if (IS("Sub")) binary(m, OP_SUB);
  else if (IS("Mul")) binary(m, OP_MUL);
  else if (IS("Div")) binary(m, OP_DIV);
  else if (IS("Max")) variadic(m, OP_MAXIMUM, false);
  else if (IS("Min")) variadic(m, OP_MINIMUM, false);
  else if (IS("Sum")) variadic(m, OP_ADD, false);
  else if (IS("Mean")) variadic(m, OP_ADD, true);
  else if (IS("PRelu")) binary(m, OP_PRELU);
  else if (IS("Pow")) import_pow(m);
  else if (IS("Reciprocal")) import_reciprocal(m);
  else if (IS("Relu")) activation(m, OP_RELU, ACT_RELU);
  else if (IS("Clip")) import_clip(m);
  else if (IS("Sigmoid")) activation(m, OP_LOGISTIC, ACT_NONE);
  else if (IS("Tanh")) activation(m, OP_TANH, ACT_NONE);
  else if (IS("HardSwish")) activation(m, OP_HARD_SWISH, ACT_NONE);
  else if (IS("HardSigmoid")) import_hard_sigmoid(m);
  else if (IS("LeakyRelu")) import_leaky_relu(m);
  else if (IS("Exp")) activation(m, OP_EXP, ACT_NONE);
  else if (IS("Neg")) activation(m, OP_NEG, ACT_NONE);
  else if (IS("Abs")) activation(m, OP_ABS, ACT_NONE);
  else if (IS("Sqrt")) activation(m, OP_SQRT, ACT_NONE);
  else if (IS("Floor")) activation(m, OP_FLOOR, ACT_NONE);
  else if (IS("Ceil")) unary_f32(m, OP_CEIL);
  else if (IS("Round")) unary_f32(m, OP_ROUND);
  else if (IS("Log")) unary_f32(m, OP_LOG);
  else if (IS("Erf")) unary_f32(m, OP_ERF);
  else if (IS("Gelu")) import_gelu(m);
  else if (IS("Elu")) import_elu(m, false);
  else if (IS("Selu")) import_elu(m, true);
  else if (IS("Softplus")) import_softplus(m);
  else if (IS("Equal")) compare_op(m, OP_EQUAL);
  else if (IS("Less")) compare_op(m, OP_LESS);
  else if (IS("Greater")) compare_op(m, OP_GREATER);
  else if (IS("LessOrEqual")) compare_op(m, OP_LESS_EQUAL);
  else if (IS("GreaterOrEqual")) compare_op(m, OP_GREATER_EQUAL);
  else if (IS("And")) compare_op(m, OP_LOGICAL_AND);
  else if (IS("Or")) compare_op(m, OP_LOGICAL_OR);
  else if (IS("Not")) import_not(m);
  else if (IS("Where")) import_where(m);
  else if (IS("Tile")) import_tile(m);
  else if (IS("QuantizeLinear")) import_quantize_linear(m);
  else if (IS("DequantizeLinear")) import_dequantize_linear(m);
  else if (IS("DepthToSpace")) import_block_shuffle(m, true);
  else if (IS("SpaceToDepth")) import_block_shuffle(m, false);
  else if (IS("Softmax")) import_softmax(m, false);
  else if (IS("LogSoftmax")) import_softmax(m, true);
  else if (IS("MaxPool")) import_pool(m, true);
  else if (IS("AveragePool")) import_pool(m, false);
  else if (IS("GlobalAveragePool")) import_global_pool(m, false);
  else if (IS("GlobalMaxPool")) import_global_pool(m, true);
  else if (IS("BatchNormalization")) import_batch_norm(m);
  else if (IS("LayerNormalization")) import_layer_norm(m);
  else if (IS("InstanceNormalization")) import_instance_norm(m);
  else if (IS("Concat")) import_concat(m);
  else if (IS("Split")) import_split(m);
  else if (IS("Slice")) import_slice(m);
  else if (IS("Gather")) import_gather(m);
  else if (IS("Transpose")) import_transpose(m);
  else if (IS("Pad")) import_pad(m);
  else if (IS("Resize") || IS("Upsample")) import_resize(m);
  else if (IS("ReduceMean")) import_reduce(m, OP_MEAN);
  else if (IS("ReduceSum")) import_reduce(m, OP_SUM);
  else if (IS("ReduceMax")) import_reduce(m, OP_REDUCE_MAX);
  else if (IS("ReduceMin")) import_reduce(m, OP_REDUCE_MIN);
  else if (IS("ArgMax")) import_arg(m, OP_ARG_MAX);
  else if (IS("ArgMin")) import_arg(m, OP_ARG_MIN);
  else if (IS("LSTM")) import_lstm(m);
  else if (IS("GRU")) import_gru(m);
  else if (IS("Identity") || (IS("Dropout"))) {
    if (IS("Dropout") && m->n->noutputs > 1 && m->n->outputs[1][0] && uses_of(m, m->n->outputs[1]))
      FAIL("the mask output of Dropout is not supported");
    Val *x = need_in(m, 0);
    bind(m, m->n->outputs[0], x);
    return;
  } else if (IS("Reshape") || IS("Flatten") || IS("Squeeze") || IS("Unsqueeze")) {
    Val *x = act_in(m, 0);
    int64_t dims[MAX_DIMS];
    int n = IS("Reshape") ? reshape_dims(m, x, need_const_input(m, 1, "shape"), dims)
          : IS("Flatten") ? flatten_dims(m, x, dims)
                          : squeeze_dims(m, x, dims, IS("Unsqueeze"));
    reshape_act(m, n, dims);
  } else if (IS("Cast") || IS("CastLike")) {
    /* float16, float64 and ONNX's small types (bfloat16, the float8s,
     * float4, the sub-byte integers) as activations only into and out of
     * a Cast. */
    Val *x = need_in(m, 0);
    if (x->dt != DT_FLOAT16 && x->dt != DT_FLOAT64 && !onnx_small_type(x->dt))
      x = act_in(m, 0);
    DType dt = cast_target(m);
    int l = pref(x);
    int t = ir(m, x, l);
    if (dt == x->dt) {
      bind(m, m->n->outputs[0], x);
      return;
    }
    int out = act_out(m, 0, dt, x->ndims, x->dims, l, NULL);
    int o = cast_op(m, t, out, x->dt, dt);
    onnx_cast_attrs(m, OP(m, o), dt);
  } else if (IS("Expand")) {
    import_expand(m);
  } else if (IS("ConstantOfShape")) {
    FAIL("the shape (input 0) is not constant");
  } else {
    FAIL("op_type %s is not supported", op);
  }
#undef IS
}

/* ------------------------------------------------------ graph I/O */

static const InputShape *bound_shape(Imp *m, const char *name) {
  for (int k = 0; k < m->x->opt->nshapes; k++)
    if (!strcmp(m->x->opt->shapes[k].name, name))
      return &m->x->opt->shapes[k];
  return NULL;
}

static const ConstantInput *bound_const(Imp *m, const char *name) {
  for (int k = 0; k < m->x->opt->nconstants; k++)
    if (!strcmp(m->x->opt->constants[k].name, name))
      return &m->x->opt->constants[k];
  return NULL;
}

/* A graph input: its Val (an IR input tensor, or a --constant-input). */
static Val *graph_input(Imp *m, const VInfo *vi, int *ins, int *nins) {
  DType dt;
  if (!vi->has_type || !onnx_dtype(vi->elem_type, &dt))
    FAIL("graph input '%s' has no supported tensor type (elem_type %d)", vi->name,
         vi->elem_type);
  int64_t dims[MAX_DIMS];
  int nd = vi->ndims;
  const InputShape *bs = bound_shape(m, vi->name);
  if (bs) {
    if (vi->has_shape && bs->ndims != vi->ndims)
      FAIL("--input-shape %s has rank %d; the model's input has rank %d", vi->name, bs->ndims,
           vi->ndims);
    nd = bs->ndims;
    for (int d = 0; d < nd; d++) {
      if (vi->has_shape && vi->dims[d] >= 0 && vi->dims[d] != bs->dims[d])
        FAIL("--input-shape %s: dimension %d is %lld in the model", vi->name, d,
             (long long)vi->dims[d]);
      dims[d] = bs->dims[d];
    }
  } else {
    if (!vi->has_shape)
      FAIL("graph input '%s' has no shape: give --input-shape %s=D0xD1x...", vi->name,
           vi->name);
    for (int d = 0; d < nd; d++) {
      if (vi->dims[d] < 0)
        FAIL("graph input '%s' has a symbolic dimension %d ('%s'): bind it with "
             "--input-shape %s=D0xD1x...", vi->name, d,
             vi->dim_param[d] ? vi->dim_param[d] : "?", vi->name);
      dims[d] = vi->dims[d];
    }
  }
  const ConstantInput *ci = bound_const(m, vi->name);
  if (ci) {
    size_t size;
    const uint8_t *buf = read_file(ci->file, &size);
    Val *v = new_const(m, vi->name, dt, nd, dims);
    if (size == val_bytes(v)) {
      memcpy((void *)v->data, buf, size);
      return v;
    }
    DType pdt;
    int pnd;
    int64_t pdims[MAX_DIMS];
    const uint8_t *pdata;
    size_t npd;
    const char *pname;
    read_tensor_pb(ci->file, &pname, &pdt, &pnd, pdims, &pdata, &npd);
    if (pdt != dt || npd != val_bytes(v))
      error_file(ci->file, "holds neither %zu raw bytes nor a TensorProto of %s[%lld "
                 "elements] for input '%s'", val_bytes(v), dtype_name(dt),
                 (long long)val_elems(v), vi->name);
    memcpy((void *)v->data, pdata, npd);
    return v;
  }
  Val *v = new_val(m, vi->name, dt, nd, dims);
  int l = nd == 4 && m->x->opt->nhwc_io ? L_NHWC : L_ONNX;
  int t = out_tensor(m, v, l);
  T(m, t)->is_input = true;
  ins[(*nins)++] = t;
  return v;
}

/* ------------------------------------------------------------ import */

Graph *onnx_import(Onnx *x) {
  Imp mm = {.x = x, .budget = (size_t)64 << 20}, *m = &mm;
  Graph *g = arena_alloc(sizeof *g);
  g->path = x->path;
  g->description = x->producer ? x->producer : "";
  g->nsubgraphs = 1;
  g->float_inf = true;
  m->g = g;
  /* Every name once in the table; reads counted and writers noted for
   * the fusions. */
  size_t names = (size_t)x->ninits + (size_t)x->nins;
  for (int i = 0; i < x->nnodes; i++)
    names += (size_t)x->nodes[i].noutputs + (size_t)x->nodes[i].ninputs;
  grow_slots(m, names + (size_t)x->opt->nprobes + 16);
  for (int i = 0; i < x->nnodes; i++) {
    const bool shape = !strcmp(x->nodes[i].op_type, "Shape") || !strcmp(x->nodes[i].op_type, "Size");
    for (int k = 0; k < x->nodes[i].ninputs; k++)
      if (x->nodes[i].inputs[k][0]) {
        Slot *s = slot(m, x->nodes[i].inputs[k], true);
        s->uses++;
        s->ort_reads += !shape;
      }
    for (int k = 0; k < x->nodes[i].noutputs; k++)
      if (x->nodes[i].outputs[k][0])
        slot(m, x->nodes[i].outputs[k], true)->writer = &x->nodes[i];
  }
  for (int i = 0; i < x->nouts; i++) {
    Slot *s = slot(m, x->outs[i].name, true);
    s->uses += 2; /* never fused away */
    s->ort_reads++;
  }
  /* --probe: outputs after the model's own.  Like an output, a probed
   * value is never fused away; unlike one, it is no reader for ONNX
   * Runtime's float-group decision (Slot.ort_reads). */
  const int nmodel_outs = x->nouts;
  for (int k = 0; k < x->opt->nprobes; k++)
    slot(m, x->opt->probes[k], true)->uses += 2;
  if (x->opt->nprobes) {
    VInfo *outs = arena_array((size_t)(x->nouts + x->opt->nprobes) + 1, sizeof(VInfo));
    memcpy(outs, x->outs, (size_t)x->nouts * sizeof(VInfo));
    for (int k = 0; k < x->opt->nprobes; k++)
      outs[x->nouts + k] = (VInfo){.name = x->opt->probes[k]};
    x->outs = outs;
    x->nouts += x->opt->nprobes;
  }

  for (int i = 0; i < x->ninits; i++) {
    Val *v = x->inits[i];
    Slot *s = slot(m, v->name, true);
    s->v = v; /* a later initializer of the same name wins, as in ONNX Runtime */
  }
  int *ins = arena_array((size_t)x->nins + 1, sizeof(int));
  int nins = 0;
  for (int i = 0; i < x->nins; i++) {
    const VInfo *vi = &x->ins[i];
    Slot *s = slot(m, vi->name, true);
    if (s->v && s->v->data && !bound_const(m, vi->name))
      continue; /* an initializer: a constant (its default value) */
    s->v = graph_input(m, vi, ins, &nins);
  }
  for (int k = 0; k < x->opt->nconstants; k++) {
    const char *name = x->opt->constants[k].name;
    bool found = false;
    for (int i = 0; i < x->nins; i++)
      found = found || !strcmp(x->ins[i].name, name);
    if (!found)
      FAIL("--constant-input %s: the model has no input of that name", name);
  }
  for (int k = 0; k < x->opt->nshapes; k++) {
    const char *name = x->opt->shapes[k].name;
    bool found = false;
    for (int i = 0; i < x->nins; i++)
      found = found || !strcmp(x->ins[i].name, name);
    if (!found)
      FAIL("--input-shape %s: the model has no input of that name", name);
  }
  m->fused = arena_array((size_t)x->nnodes + 1, sizeof(bool));
  for (int i = 0; i < x->nnodes; i++) {
    if (m->fused[i])
      continue;
    m->n = x->node = &x->nodes[i];
    for (int k = 0; k < m->n->noutputs; k++)
      if (m->n->outputs[k][0] && lookup(m, m->n->outputs[k]))
        FAIL("output '%s' is produced twice", m->n->outputs[k]);
    import_node(m);
  }
  m->n = x->node = NULL;

  int *outs = arena_array((size_t)x->nouts + 1, sizeof(int));
  for (int i = 0; i < x->nouts; i++) {
    Val *v = lookup(m, x->outs[i].name);
    if (!v && i >= nmodel_outs)
      FAIL("--probe %s: the model computes no such value (or it was fused into another "
           "node)", x->outs[i].name);
    if (!v)
      FAIL("graph output '%s' is produced by no node", x->outs[i].name);
    int l = v->ndims == 4 && x->opt->nhwc_io ? L_NHWC : L_ONNX;
    int t = ir(m, v, l);
    Tensor *tt = T(m, t);
    if (!(tt->is_input || tt->is_output || tt->data || tt->producer < 0))
      tt->name = v->name; /* the generated struct member takes the ONNX name */
    else {
      /* A copy gives the output its own tensor (and the ONNX name). */
      int64_t dims[MAX_DIMS];
      for (int d = 0; d < tt->ndims; d++)
        dims[d] = tt->dims[d];
      int c = new_tensor(m, v->name, tt->dtype, tt->ndims, dims);
      int32_t s[MAX_DIMS];
      for (int d = 0; d < tt->ndims; d++)
        s[d] = tt->dims[d];
      int rin[2] = {t, const_i32_tensor(m, s, tt->ndims)};
      int o = add_op(m, OP_RESHAPE, rin, 2, &c, 1);
      OP(m, o)->opt.fields = OPTF_NEW_SHAPE;
      OP(m, o)->opt.nnew_shape = tt->ndims;
      memcpy(OP(m, o)->opt.new_shape, s, sizeof s);
      t = c;
    }
    T(m, t)->is_output = true;
    outs[i] = t;
  }
  g->tensors = m->tensors;
  g->ntensors = m->ntensors;
  g->ops = m->ops;
  g->nops = m->nops;
  g->inputs = ins;
  g->ninputs = nins;
  g->outputs = outs;
  g->noutputs = x->nouts;
  g->metadata = arena_alloc(sizeof(Metadata));
  return g;
}
