/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory planner on the shared models, against TensorFlow Lite
 * Micro's figures in ../shared/anchors.md (the reference; read here, not
 * copied).
 *
 * To compare like with like we plan as TFLite Micro does: inputs and
 * outputs inside the arena (--io-in-workspace), 16-byte alignment, no
 * views (TFLite Micro copies RESHAPE outputs), no kernel scratch, variable
 * tensors outside.  Then for every model with anchors:
 *   - our lower bound equals TFLite Micro's "lower bound, TFLM order"
 *     (the same lifetimes, computed independently);
 *   - best uses no more than TFLite Micro's planner head;
 *   - best equals the lower bound wherever TFLite Micro reaches it;
 *   - with views, best still uses no more than the planner head.
 * And vww_96_int8 fits in 55,296 bytes.
 */
#include "anchors.h"
#include "test.h"
#include "tinyaot.h"

/* Plans one model; NULL (after a failed check) when it does not load. */
static Plan *plan_model(const char *path, bool views, bool io_in_workspace,
                        Graph **gout) {
  jmp_buf jb;
  error_jmp = &jb;
  if (setjmp(jb)) {
    error_jmp = NULL;
    CHECK(0, "%s loads and plans: %s", path, error_message);
    return NULL;
  }
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  if (views)
    run_passes(g);
  /* TFLite Micro's order, no op in place (nothing is lowered here, so
   * no op could be anyway). */
  PlanOptions opt = {.align = 16, .io_in_workspace = io_in_workspace,
                     .schedule = "model", .no_inplace = true};
  Plan *p = plan_graph(g, &opt);
  error_jmp = NULL;
  *gout = g;
  return p;
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  Anchor anchors[128];
  int n = read_anchors(arena_printf("%s/anchors.md", shared), anchors, 128);
  CHECK(n >= 20, "anchors.md lists TFLite Micro's figures for the models (%d rows)", n);
  int compared = 0;
  for (int i = 0; i < n; i++) {
    const Anchor *a = &anchors[i];
    if (a->head < 0 || a->lower_bound < 0)
      continue; /* TFLite Micro refused this model */
    char path[1024];
    snprintf(path, sizeof path, "%.700s/models/%.200s.tflite", shared, a->name);
    Graph *g;
    Plan *p = plan_model(path, false, true, &g);
    if (!p)
      continue;
    compared++;
    CHECK((long)p->lower_bound == a->lower_bound,
          "%s: our lower bound in TFLite Micro's terms equals its own "
          "(expected %ld, got %zu)", a->name, a->lower_bound, p->lower_bound);
    CHECK((long)p->workspace_bytes <= a->head,
          "%s: best (%s, %zu bytes) uses no more than TFLite Micro's planner "
          "head (%ld)", a->name, p->algo, p->workspace_bytes, a->head);
    if (a->head == a->lower_bound)
      CHECK((long)p->workspace_bytes == a->lower_bound,
            "%s: best reaches the lower bound where TFLite Micro does "
            "(expected %ld, got %zu)", a->name, a->lower_bound,
            p->workspace_bytes);
    if (!strcmp(a->name, "vww_96_int8"))
      CHECK(p->workspace_bytes <= 55296,
            "vww_96_int8 plans in at most 55,296 bytes (got %zu)",
            p->workspace_bytes);
    arena_reset();

    p = plan_model(path, true, true, &g);
    if (p)
      CHECK((long)p->workspace_bytes <= a->head,
            "%s: with views, best (%zu bytes) still uses no more than the "
            "planner head (%ld)", a->name, p->workspace_bytes, a->head);
    arena_reset();
  }
  CHECK(compared >= 20, "at least 20 models were compared with TFLite Micro (%d)",
        compared);
  return test_exit();
}
