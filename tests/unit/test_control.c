/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IF and WHILE below the reader: graphs with structure ops built by hand
 * (test_plan_graph.h) go through verify_control(), the planner and the
 * independent checker.
 *   - the verifier refuses markers out of place, a condition that is no
 *     single bool, and a value computed inside a branch read after it;
 *   - the planner keeps a buffer written before a loop and read inside it
 *     alive to END_WHILE, lets the then and else branches' temporaries
 *     share bytes, and plans in model order even when asked for the
 *     memory order;
 *   - the checker derives the loop rule itself: a plan whose lifetimes
 *     stop inside the loop is rejected.
 */
#include "test.h"
#include "test_plan_graph.h"

#include <setjmp.h>

/* verify(g)'s message, or "" when it accepts g. */
static const char *try_verify(const Graph *g) {
  static jmp_buf jb;
  error_jmp = &jb;
  if (setjmp(jb)) {
    error_jmp = NULL;
    return arena_strdup(error_message);
  }
  verify(g);
  error_jmp = NULL;
  return "";
}

static bool has(const char *s, const char *part) { return strstr(s, part) != NULL; }

/*
 * x = ADD(in, in); v = WHILE(init); c = LESS(v, k); WHILE_COND(c);
 * y = ADD(x, v); z = ADD(y, y); END_WHILE(z, v); out = ADD(v, v).
 * x is written before the loop and read inside it, and is not a loop
 * variable (a TFLite body cannot see such a tensor, but the IR allows it).
 */
typedef struct {
  Graph *g;
  int x, v, y, z;
  int end; /* END_WHILE's op index */
} Loop;

/* Gives every ADD a lowering that may run in place over the inputs in
 * mask (as ta_add_s32 of equal shapes does). */
static void lower_adds(Graph *g, uint32_t mask) {
  for (int i = 0; i < g->nops; i++) {
    Lowered *l = arena_alloc(sizeof *l);
    l->kernel = g->ops[i].kind == OP_ADD ? "ta_add_s32" : "@structure";
    l->inplace = g->ops[i].kind == OP_ADD ? mask : 0;
    g->ops[i].lowered = l;
  }
}

static Loop loop_graph(void) {
  Loop L;
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT32, 64);
  tg_input(g, in);
  L.x = tg_tensor(g, DT_INT32, 64);
  int xin[2] = {in, in};
  tg_op(g, OP_ADD, 2, xin, 1, &L.x);
  int init = tg_const(g, DT_INT32, 64);
  L.v = tg_tensor(g, DT_INT32, 64);
  g->tensors[L.v].loop_var = true;
  tg_op1(g, OP_WHILE, init, L.v);
  int k = tg_const(g, DT_INT32, 64);
  int c = tg_tensor(g, DT_BOOL, 1);
  int cin[2] = {L.v, k};
  tg_op(g, OP_LESS, 2, cin, 1, &c);
  tg_op(g, OP_WHILE_COND, 1, &c, 0, NULL);
  L.y = tg_tensor(g, DT_INT32, 64);
  int yin[2] = {L.x, L.v};
  tg_op(g, OP_ADD, 2, yin, 1, &L.y);
  L.z = tg_tensor(g, DT_INT32, 64);
  int zin[2] = {L.y, L.y};
  tg_op(g, OP_ADD, 2, zin, 1, &L.z);
  int ein[2] = {L.z, L.v};
  L.end = tg_op(g, OP_END_WHILE, 2, ein, 0, NULL);
  int out = tg_tensor(g, DT_INT32, 64);
  int oin[2] = {L.v, L.v};
  tg_op(g, OP_ADD, 2, oin, 1, &out);
  tg_output(g, out);
  L.g = g;
  return L;
}

/* c = GREATER(in, k); IF(c); t1 = ADD(in, in); r1 = ADD(t1, t1); ELSE;
 * t2 = ADD(in, k); r2 = ADD(t2, t2); END_IF(c, r1, r2) -> o. */
typedef struct {
  Graph *g;
  int t1, t2, r1, r2, o, c;
  int end_if;
} Branches;

static Branches if_graph(void) {
  Branches B;
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT32, 256);
  tg_input(g, in);
  int k = tg_const(g, DT_INT32, 256);
  B.c = tg_tensor(g, DT_BOOL, 1);
  int cin[2] = {in, k};
  tg_op(g, OP_GREATER, 2, cin, 1, &B.c);
  tg_op(g, OP_IF, 1, &B.c, 0, NULL);
  B.t1 = tg_tensor(g, DT_INT32, 256);
  int a[2] = {in, in};
  tg_op(g, OP_ADD, 2, a, 1, &B.t1);
  B.r1 = tg_tensor(g, DT_INT32, 256);
  int b[2] = {B.t1, B.t1};
  tg_op(g, OP_ADD, 2, b, 1, &B.r1);
  tg_op(g, OP_ELSE, 0, NULL, 0, NULL);
  B.t2 = tg_tensor(g, DT_INT32, 256);
  int c2[2] = {in, k};
  tg_op(g, OP_ADD, 2, c2, 1, &B.t2);
  B.r2 = tg_tensor(g, DT_INT32, 256);
  int d[2] = {B.t2, B.t2};
  tg_op(g, OP_ADD, 2, d, 1, &B.r2);
  B.o = tg_tensor(g, DT_INT32, 256);
  int e[3] = {B.c, B.r1, B.r2};
  B.end_if = tg_op(g, OP_END_IF, 3, e, 1, &B.o);
  tg_output(g, B.o);
  B.g = g;
  return B;
}

static const Buffer *buf(const Graph *g, const Plan *p, int t) {
  return &p->bufs[g->tensors[t].storage];
}

static void test_verifier(void) {
  Loop L = loop_graph();
  CHECK(!*try_verify(L.g), "a loop reading a tensor written before it verifies (got '%s')",
        try_verify(L.g));
  Branches B = if_graph();
  CHECK(!*try_verify(B.g), "an IF with two branches verifies (got '%s')", try_verify(B.g));

  /* A then-branch value read after END_IF. */
  B = if_graph();
  int after = tg_tensor(B.g, DT_INT32, 256);
  int ain[2] = {B.t1, B.o};
  tg_op(B.g, OP_ADD, 2, ain, 1, &after);
  const char *m = try_verify(B.g);
  CHECK(has(m, "op 8 (ADD)") && has(m, "reads tensor") &&
            has(m, "inside the then subgraph") && has(m, "of op 1 (IF)"),
        "a value of the then branch read after END_IF is refused, naming the IF "
        "(got '%s')", m);

  /* The condition. */
  B = if_graph();
  B.g->tensors[B.c].dtype = DT_INT8;
  m = try_verify(B.g);
  CHECK(has(m, "op 1 (IF)") && has(m, "must be one bool"),
        "an IF whose condition is int8 is refused (got '%s')", m);

  /* Markers out of place. */
  B = if_graph();
  B.g->ops[4].kind = OP_WHILE_COND; /* ELSE -> WHILE_COND */
  m = try_verify(B.g);
  CHECK(has(m, "op 4 (WHILE_COND)") && has(m, "without an open WHILE"),
        "a WHILE_COND inside an IF is refused (got '%s')", m);
  L = loop_graph();
  L.g->nops = L.end; /* cut before END_WHILE */
  for (int t = 0; t < L.g->ntensors; t++) {
    if (L.g->tensors[t].producer >= L.end)
      L.g->tensors[t].producer = -1;
    L.g->tensors[t].is_output = false;
  }
  L.g->noutputs = 0;
  tg_output(L.g, L.v);
  m = try_verify(L.g);
  CHECK(has(m, "op 1 (WHILE)") && has(m, "never closed"),
        "a WHILE without END_WHILE is refused (got '%s')", m);

  /* A body output of another shape. */
  L = loop_graph();
  L.g->tensors[L.z].dims[1] = 32;
  m = try_verify(L.g);
  CHECK(has(m, "op 6 (END_WHILE)") && has(m, "body output 0") && has(m, "int32[1,32]"),
        "a body output of another shape than its loop variable is refused (got '%s')", m);
}

static void test_planner(void) {
  Loop L = loop_graph();
  lower_adds(L.g, 3);
  PlanOptions o = {.schedule = "memory"};
  Plan *p = plan_graph(L.g, &o);
  CHECK(!strcmp(p->schedule, "model"), "a graph with WHILE is planned in model order "
        "even when the memory order is asked for (got %s)", p->schedule);
  const Buffer *x = buf(L.g, p, L.x), *v = buf(L.g, p, L.v);
  CHECK(x->last == L.end, "the buffer written before the loop and read in it lives to "
        "END_WHILE (step %d; got %d)", L.end, x->last);
  CHECK(v->first == 1 && v->last >= L.end,
        "the loop variable lives from WHILE through END_WHILE (got %d-%d)", v->first, v->last);
  const Buffer *z = buf(L.g, p, L.z), *y = buf(L.g, p, L.y);
  CHECK(z->first > x->last || z->last < x->first || z->offset >= x->offset + x->bytes ||
            x->offset >= z->offset + z->bytes,
        "the body's temporaries keep clear of it (z at %zu, x at %zu)", z->offset, x->offset);
  CHECK(y->inplace_of < 0, "the body's first op does not run in place over the tensor "
        "the next iteration reads again (it takes over buffer %d)", y->inplace_of);
  CHECK(z->inplace_of == L.g->tensors[L.y].storage,
        "the body's second op runs in place over the first one's output, which dies "
        "within the iteration");
  CHECK(check_plan(L.g, p) == NULL, "the checker accepts the plan");

  /* The checker re-derives the rule: stop x's lifetime where its last
   * read inside the loop is and it objects. */
  Buffer *xw = &p->bufs[L.g->tensors[L.x].storage];
  int keep = xw->last;
  xw->last = 4;
  const char *why = check_plan(L.g, p);
  CHECK(why && has(why, "used at steps 0-6"),
        "the checker rejects a lifetime that stops inside the loop (got '%s')",
        why ? why : "accepted");
  xw->last = keep;

  Branches B = if_graph();
  lower_adds(B.g, 0);
  Plan *q = plan_graph(B.g, NULL);
  const Buffer *t1 = buf(B.g, q, B.t1), *t2 = buf(B.g, q, B.t2);
  CHECK(t1->last < t2->first, "the then branch's temporary is dead before the else "
        "branch's is born (steps %d-%d, %d-%d)", t1->first, t1->last, t2->first, t2->last);
  const Buffer *r1 = buf(B.g, q, B.r1), *o1 = buf(B.g, q, B.o);
  CHECK(r1->last == B.end_if && o1->first == B.end_if,
        "the then branch's output lives to END_IF, where IF's output begins");
  size_t sum = 0;
  for (int i = 0; i < q->nbufs; i++)
    if (!q->bufs[i].external)
      sum += q->bufs[i].bytes;
  CHECK(q->workspace_bytes < sum, "the branches share bytes: %zu bytes for %zu of buffers",
        q->workspace_bytes, sum);
  CHECK(check_plan(B.g, q) == NULL, "the checker accepts the IF's plan");
}

int main(void) {
  test_verifier();
  test_planner();
  arena_reset();
  return test_failures ? 1 : 0;
}
