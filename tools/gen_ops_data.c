/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_ops_data.c - the generators of the data-movement and reduction
 * rows of tools/gen_ops.c (SUM, REDUCE_MAX, REDUCE_MIN, GATHER, ...).
 * Not compiled alone: gen_ops.c includes it before its table, so these
 * generators use its helpers (Case, the random draws, input_q, output_q,
 * const_vec ...) and DATA_ROWS adds their rows to the table.  Each row
 * names the dtypes TensorFlow Lite Micro's kernel accepts for the op
 * (and TFLite's builtin kernel, which the oracle runs, accepts too).
 */

static void gen_sum(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_SUM); }
static void gen_reduce_max(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_REDUCE_MAX); }
static void gen_reduce_min(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_REDUCE_MIN); }

/* BuiltinOptions union types of the options tables these ops carry. */
enum {
  OPTT_GATHER = 23,
  OPTT_GATHER_ND = 83,
  OPTT_SPACE_TO_DEPTH = 19,
  OPTT_TILE = 51,
  OPTT_REVERSE_V2 = 81,
  OPTT_DEPTH_TO_SPACE = 94,
  OPTT_BROADCAST_TO = 104,
  OPTT_SHAPE = 55,
  OPTT_FILL = 68,
  OPTT_CONCATENATION = 10,
  OPTT_BATCH_MATMUL = 101,
  OPTT_BATCH_TO_SPACE_ND = 24,
  OPTT_SPACE_TO_BATCH_ND = 25,
  OPTT_MIRROR_PAD = 77,
  OPTT_L2_NORM = 12,
  OPTT_CUMSUM = 102,
  OPTT_SLICE = 48,
};

enum { OPC_SLICE = 65 };

/* An int32 index input: n values uniform in [0, limit). */
static int index_input(Case *c, const char *name, int nd, const int32_t *d, int limit) {
  Q q = {TFW_INT32, 0, 0, 0, (float)(limit - 1)};
  return input_q(c, name, nd, d, &q);
}

/* GATHER: params of rank 1-4, a random axis and sometimes one batch
 * dimension, indices of rank 0-2 after it. */
static void gen_gather(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], di[4], dout[8];
  int nd = random_shape(r, 1, 4, 5, d);
  int axis = rint_in(r, 0, nd - 1);
  int bd = axis > 0 && rchance(r, 0.3) ? 1 : 0;
  int ni = bd;
  for (int i = 0; i < bd; i++)
    di[i] = d[i];
  int extra = rint_in(r, bd ? 1 : 0, 2);
  for (int i = 0; i < extra; i++)
    di[ni++] = rint_in(r, 1, 4);
  int no = 0;
  for (int i = 0; i < axis; i++)
    dout[no++] = d[i];
  for (int i = bd; i < ni; i++)
    dout[no++] = di[i];
  for (int i = axis + 1; i < nd; i++)
    dout[no++] = d[i];
  Q q = act_in(c);
  int ti = input_q(c, "params", nd, d, &q);
  int tx = index_input(c, "indices", ni, di, d[axis]);
  int to = output_q(c, "output", no, dout, &q);
  int ins[2] = {ti, tx};
  int op = tfw_op(c->m, TFW_OP_GATHER, 2, ins, 1, &to);
  int32_t opts[2] = {rchance(r, 0.2) ? axis - nd : axis, bd};
  tfw_scalar_options(c->m, op, OPTT_GATHER, "ii", opts);
}

/* GATHER_ND: params of rank 1-4, indices [n..., depth]. */
static void gen_gather_nd(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], di[4], dout[8];
  int nd = random_shape(r, 1, 4, 5, d);
  int depth = rint_in(r, 1, nd);
  int ni = rint_in(r, 1, 2);
  for (int i = 0; i < ni - 1; i++)
    di[i] = rint_in(r, 1, 4);
  di[ni - 1] = depth;
  int no = 0;
  for (int i = 0; i < ni - 1; i++)
    dout[no++] = di[i];
  for (int i = depth; i < nd; i++)
    dout[no++] = d[i];
  Q q = act_in(c);
  int ti = input_q(c, "params", nd, d, &q);
  /* Each index column k in [0, d[k]): a constant built row by row. */
  int64_t rows = count_of(ni - 1, di);
  int32_t *idx = xmalloc(sizeof(int32_t) * (size_t)(rows * depth));
  for (int64_t k = 0; k < rows; k++)
    for (int j = 0; j < depth; j++)
      idx[k * depth + j] = rint_in(r, 0, d[j] - 1);
  int tx = const_i32(c, "indices", ni, di, idx);
  free(idx);
  int to = output_q(c, "output", no, dout, &q);
  int ins[2] = {ti, tx};
  int op = tfw_op(c->m, TFW_OP_GATHER_ND, 2, ins, 1, &to);
  tfw_scalar_options(c->m, op, OPTT_GATHER_ND, "", NULL);
}

/* EMBEDDING_LOOKUP: ids (rank 1) into a value table (constant or not). */
static void gen_embedding_lookup(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], dout[4];
  int nd = random_shape(r, 2, 3, 6, d); /* TFLite wants rank >= 2 */
  int32_t n = rint_in(r, 1, 6);
  dout[0] = n;
  for (int i = 1; i < nd; i++)
    dout[i] = d[i];
  Q q = act_in(c), qv = q;
  if (c->kind == K_HYB) { /* int8 rows, zero point 0, dequantized to float32 */
    qv = q_random(r, TFW_INT8);
    qv.zp = 0;
  }
  int tx = index_input(c, "ids", 1, &n, d[0]);
  int tv = rchance(r, 0.5) ? const_q(c, "value", nd, d, &qv) : input_q(c, "value", nd, d, &qv);
  int to = output_q(c, "output", nd, dout, &q);
  int ins[2] = {tx, tv};
  tfw_op(c->m, TFW_OP_EMBEDDING_LOOKUP, 2, ins, 1, &to);
}

/* DEPTH_TO_SPACE (to_space) and SPACE_TO_DEPTH: NHWC, block 2 or 3. */
static void gen_block_shuffle(Case *c, int to_space) {
  Rng *r = c->r;
  int b = rint_in(r, 2, 3);
  int32_t d[4] = {rint_in(r, 1, 2), rint_in(r, 1, 3), rint_in(r, 1, 3), rint_in(r, 1, 3)};
  int32_t dout[4] = {d[0], d[1], d[2], d[3]};
  if (to_space) {
    d[3] *= b * b;
    dout[1] *= b;
    dout[2] *= b;
  } else {
    d[1] *= b;
    d[2] *= b;
    dout[3] *= b * b;
  }
  Q q = act_in(c);
  int ti = input_q(c, "input", 4, d, &q);
  int to = output_q(c, "output", 4, to_space ? dout : dout, &q);
  int op = tfw_op(c->m, to_space ? TFW_OP_DEPTH_TO_SPACE : TFW_OP_SPACE_TO_DEPTH, 1, &ti, 1, &to);
  int32_t opts[1] = {b};
  tfw_scalar_options(c->m, op, to_space ? OPTT_DEPTH_TO_SPACE : OPTT_SPACE_TO_DEPTH, "i", opts);
}

static void gen_depth_to_space(Case *c, int v) { (void)v; gen_block_shuffle(c, 1); }
static void gen_space_to_depth(Case *c, int v) { (void)v; gen_block_shuffle(c, 0); }

/* TILE: rank 1-4, multiples 1-3 (constant). */
static void gen_tile(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], m[4], dout[4];
  int nd = random_shape(r, 1, 4, 4, d);
  for (int i = 0; i < nd; i++) {
    m[i] = rint_in(r, 1, 3);
    dout[i] = d[i] * m[i];
  }
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int tm = const_vec(c, "multiples", nd, m);
  int to = output_q(c, "output", nd, dout, &q);
  int ins[2] = {ti, tm};
  int op = tfw_op(c->m, TFW_OP_TILE, 2, ins, 1, &to);
  tfw_scalar_options(c->m, op, OPTT_TILE, "", NULL);
}

/* BROADCAST_TO: an output shape of rank 1-4, the input a suffix of it
 * with some dimensions 1. */
static void gen_broadcast_to(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t dout[4], d[4];
  int no = random_shape(r, 1, 4, 4, dout);
  int nd = rint_in(r, 1, no);
  for (int i = 0; i < nd; i++)
    d[i] = rchance(r, 0.5) ? 1 : dout[no - nd + i];
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int ts = const_vec(c, "shape", no, dout);
  int to = output_q(c, "output", no, dout, &q);
  int ins[2] = {ti, ts};
  int op = tfw_op(c->m, TFW_OP_BROADCAST_TO, 2, ins, 1, &to);
  tfw_op_version(c->m, op, 2); /* TFLite registers versions 2 and 3 */
  tfw_scalar_options(c->m, op, OPTT_BROADCAST_TO, "", NULL);
}

/* REVERSE_V2: rank 1-4, one axis (the oracle's TFLite reverses one). */
static void gen_reverse_v2(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 5, d);
  int32_t axis = rint_in(r, 0, nd - 1);
  if (rchance(r, 0.2))
    axis -= nd;
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int ta = const_vec(c, "axis", 1, &axis);
  int to = output_q(c, "output", nd, d, &q);
  int ins[2] = {ti, ta};
  int op = tfw_op(c->m, TFW_OP_REVERSE_V2, 2, ins, 1, &to);
  tfw_scalar_options(c->m, op, OPTT_REVERSE_V2, "", NULL);
}

/* SLICE: rank 1-4, a constant begin and size per dimension (a size of
 * -1, "to the end", a fifth of the time); int32 or int64 begin/size. */
static void gen_slice(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], dout[4], b[4], sz[4];
  int nd = random_shape(r, 1, 4, 6, d);
  for (int i = 0; i < nd; i++) {
    b[i] = rint_in(r, 0, d[i] - 1);
    dout[i] = rint_in(r, 1, d[i] - b[i]);
    sz[i] = rchance(r, 0.2) ? (dout[i] = d[i] - b[i], -1) : dout[i];
  }
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int32_t n = nd;
  int tb, ts;
  if (rchance(r, 0.3)) {
    int64_t b64[4], s64[4];
    for (int i = 0; i < nd; i++)
      b64[i] = b[i], s64[i] = sz[i];
    tb = tfw_const(c->m, "begin", TFW_INT64, 1, &n, b64);
    ts = tfw_const(c->m, "size", TFW_INT64, 1, &n, s64);
  } else {
    tb = const_vec(c, "begin", nd, b);
    ts = const_vec(c, "size", nd, sz);
  }
  int to = output_q(c, "output", nd, dout, &q);
  int ins[3] = {ti, tb, ts};
  int op = tfw_op(c->m, OPC_SLICE, 3, ins, 1, &to);
  tfw_scalar_options(c->m, op, OPTT_SLICE, "", NULL);
}

/* SHAPE: half the cases feed the shape of x to RESHAPE(y, shape) (the
 * compiler folds SHAPE), half make it a model output (then it copies
 * the constant). */
static void gen_shape(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 5, d);
  Q q = act_in(c);
  int tx = input_q(c, "x", nd, d, &q);
  int32_t ns = nd;
  int i64 = 0; /* the oracle reads no int64 outputs */
  int ts = tfw_tensor(c->m, "shape", i64 ? TFW_INT64 : TFW_INT32, 1, &ns, 0);
  int op = tfw_op(c->m, TFW_OP_SHAPE, 1, &tx, 1, &ts);
  int32_t opts[1] = {i64 ? TFW_INT64 : TFW_INT32};
  tfw_scalar_options(c->m, op, OPTT_SHAPE, "b", opts);
  if (rchance(r, 0.5)) {
    c->out_tensor[c->nout] = ts;
    c->out_dtype[c->nout++] = i64 ? TFW_INT64 : TFW_INT32;
    return;
  }
  int32_t flat = (int32_t)count_of(nd, d);
  int ty = input_q(c, "y", 1, &flat, &q);
  int to = output_q(c, "output", nd, d, &q);
  int ins[2] = {ty, ts};
  op = tfw_op(c->m, TFW_OP_RESHAPE, 2, ins, 1, &to);
  tfw_reshape_options(c->m, op, -1, NULL);
}

/* FILL: a constant value (folded), concatenated after the input so that
 * the folded constant feeds an op; or a run-time value straight to the
 * output (ta_fill_*). */
static void gen_fill(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 4, d);
  Q q = act_in(c);
  int tdims = const_vec(c, "dims", nd, d);
  int32_t one = 1;
  int runtime = rchance(r, 0.5);
  int tval = runtime ? input_q(c, "value", 0, &one, &q) : const_q(c, "value", 0, &one, &q);
  if (runtime) {
    int to = output_q(c, "output", nd, d, &q);
    int ins[2] = {tdims, tval};
    int op = tfw_op(c->m, TFW_OP_FILL, 2, ins, 1, &to);
    tfw_scalar_options(c->m, op, OPTT_FILL, "", NULL);
    return;
  }
  int tf = tensor_q(c, "filled", nd, d, &q);
  int ins[2] = {tdims, tval};
  int op = tfw_op(c->m, TFW_OP_FILL, 2, ins, 1, &tf);
  tfw_scalar_options(c->m, op, OPTT_FILL, "", NULL);
  int tx = input_q(c, "x", nd, d, &q);
  int32_t dout[4];
  memcpy(dout, d, sizeof dout);
  dout[0] *= 2;
  int to = output_q(c, "output", nd, dout, &q);
  int cins[2] = {tx, tf};
  op = tfw_op(c->m, TFW_OP_CONCATENATION, 2, cins, 1, &to);
  tfw_concatenation_options(c->m, op, 0, TFW_ACT_NONE);
}

/* BROADCAST_ARGS of two constant shapes, feeding BROADCAST_TO (the
 * compiler folds it), or a model output (it copies the constant). */
static void gen_broadcast_args(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t a[4], b[4], o[4];
  int na, nb;
  int no = broadcast_shapes(r, a, &na, b, &nb, o);
  int32_t la = na, lb = nb, lo = no;
  int ta = const_vec(c, "a", na, a);
  int tb = const_vec(c, "b", nb, b);
  int ts = tfw_tensor(c->m, "shape", TFW_INT32, 1, &lo, 0);
  (void)la;
  (void)lb;
  int ins[2] = {ta, tb};
  tfw_op(c->m, TFW_OP_BROADCAST_ARGS, 2, ins, 1, &ts);
  Q q = act_in(c);
  if (rchance(r, 0.4)) {
    /* An input so that the model has one (TFLite wants it). */
    int32_t one = 1;
    int tx = input_q(c, "x", 1, &one, &q);
    int to = output_q(c, "x_out", 1, &one, &q);
    int op = tfw_op(c->m, TFW_OP_RESHAPE, 1, &tx, 1, &to);
    tfw_reshape_options(c->m, op, 1, &one);
    c->out_tensor[c->nout] = ts;
    c->out_dtype[c->nout++] = TFW_INT32;
    return;
  }
  int tx = input_q(c, "x", na, a, &q);
  int to = output_q(c, "output", no, o, &q);
  int bins[2] = {tx, ts};
  int op = tfw_op(c->m, TFW_OP_BROADCAST_TO, 2, bins, 1, &to);
  tfw_op_version(c->m, op, 2);
  tfw_scalar_options(c->m, op, OPTT_BROADCAST_TO, "", NULL);
}

/* BATCH_MATMUL: 0-2 batch dimensions (broadcasting), adj_x, adj_y, the
 * RHS sometimes constant. */
static void gen_batch_matmul(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int nbd = rint_in(r, 0, 2);
  int32_t da[5], db[5], dout[5];
  int rows = rint_in(r, 1, 5), cols = rint_in(r, 1, 5), depth = rint_in(r, 1, 8);
  int na = nbd + 2, nb = nbd + 2;
  for (int i = 0; i < nbd; i++) {
    int32_t d = rint_in(r, 1, 3);
    da[i] = rchance(r, 0.25) ? 1 : d;
    db[i] = rchance(r, 0.25) ? 1 : d;
    dout[i] = da[i] > db[i] ? da[i] : db[i];
  }
  if (nbd && rchance(r, 0.3))
    nb -= 1; /* the RHS of lower rank: broadcast */
  int adj_x = rchance(r, 0.3), adj_y = rchance(r, 0.3);
  da[na - 2] = adj_x ? depth : rows;
  da[na - 1] = adj_x ? rows : depth;
  int32_t *bb = db + (nbd + 2 - nb);
  if (nb < nbd + 2)
    memmove(db, db + 1, sizeof(int32_t) * (size_t)(nb - 2));
  bb = db;
  bb[nb - 2] = adj_y ? cols : depth;
  bb[nb - 1] = adj_y ? depth : cols;
  if (nb < nbd + 2)
    for (int i = 0; i < nbd; i++) /* the missing leading dimension is 1 */
      dout[i] = i == 0 ? da[0] : (da[i] > db[i - 1] ? da[i] : db[i - 1]);
  dout[nbd] = rows;
  dout[nbd + 1] = cols;
  Q qa = act_in(c), qb = act_in(c);
  if (c->kind == K_I8)
    qb = q_fixed(TFW_INT8, qb.scale, 0); /* symmetric RHS, as converters write */
  int ta = input_q(c, "lhs", na, da, &qa);
  int tb = rchance(r, 0.5) ? const_q(c, "rhs", nb, db, &qb) : input_q(c, "rhs", nb, db, &qb);
  float ma = fmaxf(fabsf(qa.lo), fabsf(qa.hi)), mb = fmaxf(fabsf(qb.lo), fabsf(qb.hi));
  float spread = 0.6f * sqrtf((float)depth) * ma * mb;
  Q qo = act_out(c, -spread, spread);
  int to = output_q(c, "output", nbd + 2, dout, &qo);
  int ins[2] = {ta, tb};
  int op = tfw_op(c->m, TFW_OP_BATCH_MATMUL, 2, ins, 1, &to);
  int32_t opts[3] = {adj_x, adj_y, 0};
  tfw_scalar_options(c->m, op, OPTT_BATCH_MATMUL, "bbb", opts);
  tol_sum(c);
}

/* SPACE_TO_BATCH_ND (to_batch) and BATCH_TO_SPACE_ND: NHWC, blocks 1-3,
 * paddings that make the padded size a multiple of the block (crops
 * smaller than the block's output). */
static void gen_space_batch(Case *c, int to_batch) {
  Rng *r = c->r;
  int32_t block[2] = {rint_in(r, 1, 3), rint_in(r, 1, 3)};
  int32_t pads[4], small[4], big[4];
  int32_t n = rint_in(r, 1, 2), ch = rint_in(r, 1, 3);
  for (int d = 0; d < 2; d++) {
    int32_t so = rint_in(r, 1, 3); /* the blocked size */
    int32_t extra = rint_in(r, 0, block[d] + 1 < so * block[d] ? block[d] : 0);
    pads[2 * d] = rint_in(r, 0, extra);
    pads[2 * d + 1] = extra - pads[2 * d];
    small[1 + d] = so;
    big[1 + d] = so * block[d] - extra;
    if (big[1 + d] < 1) {
      big[1 + d] = so * block[d];
      pads[2 * d] = pads[2 * d + 1] = 0;
    }
  }
  big[0] = n;
  small[0] = n * block[0] * block[1];
  big[3] = small[3] = ch;
  Q q = act_in(c);
  int32_t two = 2, d22[2] = {2, 2};
  int ti = input_q(c, "input", 4, to_batch ? big : small, &q);
  int tb = const_i32(c, "block_shape", 1, &two, block);
  int tp = const_i32(c, to_batch ? "paddings" : "crops", 2, d22, pads);
  int to = output_q(c, "output", 4, to_batch ? small : big, &q);
  int ins[3] = {ti, tb, tp};
  int op = tfw_op(c->m, to_batch ? TFW_OP_SPACE_TO_BATCH_ND : TFW_OP_BATCH_TO_SPACE_ND, 3, ins,
                  1, &to);
  tfw_scalar_options(c->m, op, to_batch ? OPTT_SPACE_TO_BATCH_ND : OPTT_BATCH_TO_SPACE_ND, "",
                     NULL);
}

static void gen_space_to_batch(Case *c, int v) { (void)v; gen_space_batch(c, 1); }
static void gen_batch_to_space(Case *c, int v) { (void)v; gen_space_batch(c, 0); }

/* MIRROR_PAD: rank 1-4, REFLECT or SYMMETRIC, paddings within the mode's
 * limit (size - 1, or size). */
static void gen_mirror_pad(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4], dout[4], pads[8];
  int nd = random_shape(r, 1, 4, 5, d);
  int symmetric = rchance(r, 0.5);
  for (int i = 0; i < nd; i++) {
    int limit = symmetric ? d[i] : d[i] - 1;
    if (limit > 3)
      limit = 3;
    pads[2 * i] = rint_in(r, 0, limit);
    pads[2 * i + 1] = rint_in(r, 0, limit);
    dout[i] = d[i] + pads[2 * i] + pads[2 * i + 1];
  }
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int32_t dp[2] = {nd, 2};
  int tp = const_i32(c, "paddings", 2, dp, pads);
  int to = output_q(c, "output", nd, dout, &q);
  int ins[2] = {ti, tp};
  int op = tfw_op(c->m, TFW_OP_MIRROR_PAD, 2, ins, 1, &to);
  int32_t mode[1] = {symmetric};
  tfw_scalar_options(c->m, op, OPTT_MIRROR_PAD, "b", mode);
}

static void gen_l2_pool(Case *c, int v) { (void)v; gen_pool(c, 2); }

/* L2_NORMALIZATION: rank 1-4 over the last dimension; an int8 output has
 * the scale 1/128 and zero point 0 that TFLite and TFLM demand. */
static void gen_l2_normalization(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 6, d);
  Q q = act_in(c);
  Q qo = c->kind == K_I8 ? q_fixed(TFW_INT8, 1.0f / 128, 0) : q;
  int ti = input_q(c, "input", nd, d, &q);
  int to = output_q(c, "output", nd, d, &qo);
  int op = tfw_op(c->m, TFW_OP_L2_NORMALIZATION, 1, &ti, 1, &to);
  int32_t act[1] = {TFW_ACT_NONE};
  tfw_scalar_options(c->m, op, OPTT_L2_NORM, "b", act);
  tol_sum(c);
}

/* CUMSUM: rank 1-4, a random axis (sometimes negative), exclusive and
 * reverse at random. */
static void gen_cumsum(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 6, d);
  int32_t axis = rint_in(r, 0, nd - 1);
  if (rchance(r, 0.2))
    axis -= nd;
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int ta = const_scalar(c, "axis", axis);
  int to = output_q(c, "output", nd, d, &q);
  int ins[2] = {ti, ta};
  int op = tfw_op(c->m, TFW_OP_CUMSUM, 2, ins, 1, &to);
  int32_t opts[2] = {rchance(r, 0.5), rchance(r, 0.5)};
  tfw_scalar_options(c->m, op, OPTT_CUMSUM, "bb", opts);
  tol_sum(c);
}

/* float32, int8 and uint8 (TFLite has no int16 kernel for these). */
#define NO16(OP, FN) \
  {OP, "float32", FN, K_F32, 0}, {OP, "int8", FN, K_I8, 0}, {OP, "uint8", FN, K_U8, 0}

#define DATA_ROWS                                                          \
  {"SUM", "float32", gen_sum, K_F32, 0}, {"SUM", "int8", gen_sum, K_I8, 0}, \
      {"SUM", "int16", gen_sum, K_I16, 0},                                 \
      {"REDUCE_MAX", "float32", gen_reduce_max, K_F32, 0},                 \
      {"REDUCE_MAX", "int8", gen_reduce_max, K_I8, 0},                     \
      {"REDUCE_MAX", "int16", gen_reduce_max, K_I16, 0},                   \
      {"REDUCE_MIN", "float32", gen_reduce_min, K_F32, 0},                 \
      {"REDUCE_MIN", "int8", gen_reduce_min, K_I8, 0},                     \
      {"REDUCE_MIN", "int16", gen_reduce_min, K_I16, 0},                   \
      {"GATHER", "float32", gen_gather, K_F32, 0},                         \
      {"GATHER", "int8", gen_gather, K_I8, 0},                             \
      {"GATHER", "int16", gen_gather, K_I16, 0},                           \
      {"GATHER_ND", "float32", gen_gather_nd, K_F32, 0},                   \
      {"GATHER_ND", "int8", gen_gather_nd, K_I8, 0},                       \
      {"GATHER_ND", "int16", gen_gather_nd, K_I16, 0},                     \
      {"EMBEDDING_LOOKUP", "float32", gen_embedding_lookup, K_F32, 0},     \
      {"EMBEDDING_LOOKUP", "int8", gen_embedding_lookup, K_I8, 0},         \
      {"EMBEDDING_LOOKUP", "hybrid", gen_embedding_lookup, K_HYB, 0},      \
      NO16("DEPTH_TO_SPACE", gen_depth_to_space),                          \
      NO16("SPACE_TO_DEPTH", gen_space_to_depth),                          \
      NO16("TILE", gen_tile),                                              \
      ALL4("BROADCAST_TO", gen_broadcast_to),                              \
      ALL4("REVERSE_V2", gen_reverse_v2),                                  \
      ALL4("SLICE", gen_slice),                                            \
      ALL4("SHAPE", gen_shape),                                            \
      {"FILL", "float32", gen_fill, K_F32, 0}, {"FILL", "int8", gen_fill, K_I8, 0}, \
      {"FILL", "int16", gen_fill, K_I16, 0}, /* TFLite's FILL has no uint8 */ \
      ALL4("BROADCAST_ARGS", gen_broadcast_args),                          \
      {"BATCH_MATMUL", "float32", gen_batch_matmul, K_F32, 0},             \
      {"BATCH_MATMUL", "int8", gen_batch_matmul, K_I8, 0},                 \
      {"BATCH_MATMUL", "int16", gen_batch_matmul, K_I16, 0},               \
      NO16("SPACE_TO_BATCH_ND", gen_space_to_batch),                       \
      NO16("BATCH_TO_SPACE_ND", gen_batch_to_space),                       \
      NO16("MIRROR_PAD", gen_mirror_pad),                                  \
      {"L2_POOL_2D", "float32", gen_l2_pool, K_F32, 0},                    \
      {"L2_NORMALIZATION", "float32", gen_l2_normalization, K_F32, 0},     \
      {"L2_NORMALIZATION", "int8", gen_l2_normalization, K_I8, 0},         \
      {"CUMSUM", "float32", gen_cumsum, K_F32, 0},
