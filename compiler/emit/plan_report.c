/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_report.c - the memory plan for people and tools: a table, one
 * JSON object, and an SVG picture (doc/memory-plan.md shows how to read
 * them).
 *
 * Needs: a Plan from plan_graph() and its Graph.  Guarantees: the JSON
 * and the SVG depend only on the plan (no times, no addresses): same
 * model and options, same bytes.  The table also prints how long each
 * algorithm took.
 */
#include "tinyaot.h"

#include <string.h>


/* The graph's patched run (passes/patch.c), or NULL. */
static const PatchRun *plan_patch(const Graph *g) {
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = g->ops[i].lowered ? op_lowered(&g->ops[i]) : NULL;
    if (l && l->patch && l->patch_end)
      return l->patch;
  }
  return NULL;
}

/* The model's MACs without the patched run's recomputation. */
static int64_t plain_model_macs(const Graph *g) {
  int64_t total = 0;
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = g->ops[i].lowered ? op_lowered(&g->ops[i]) : NULL;
    if (l && l->patch)
      total += l->patch_end ? l->patch->plain_macs : 0;
    else
      total += op_macs(g, &g->ops[i]);
  }
  return total > 0 ? total : 1;
}

static const char *pool_name(const Plan *p, const Buffer *b) {
  if (b->external)
    return "(caller)";
  if (b->persistent)
    return "(persistent)";
  return b->pool >= 0 ? p->pools[b->pool].name : "?";
}

/* "t12" or "t12=t13=t14" (a base and its views), or "scratch op 7". */
static const char *buffer_label(const Plan *p, const Buffer *b) {
  if (b->scratch_op >= 0)
    return arena_printf("scratch op %d", b->scratch_op);
  if (b->state_op >= 0 && b->persistent && b->ntensors == 0)
    return arena_printf("state op %d", b->state_op);
  char *s = "";
  for (int k = 0; k < b->ntensors; k++)
    s = arena_printf("%s%st%d", s, k ? "=" : "", b->tensors[k]);
  (void)p;
  return s;
}

static const char *buffer_role(const Graph *g, const Buffer *b) {
  if (b->scratch_op >= 0)
    return "scratch";
  if (b->state_op >= 0 && b->persistent && b->ntensors == 0)
    return "state";
  if (b->persistent)
    return "variable";
  for (int k = 0; k < b->ntensors; k++) {
    const Tensor *t = &g->tensors[b->tensors[k]];
    if (t->is_input)
      return "input";
    if (t->is_output)
      return "output";
  }
  return "activation";
}

static const char *op_at(const Graph *g, const Plan *p, int step) {
  if (step < 0 || step >= p->norder)
    return "no op";
  int op = p->order[step];
  return arena_printf("op %d %s", op, op_display_name(g, op));
}

/* ------------------------------------------------------------ table */

void print_plan(FILE *out, const Graph *g, const Plan *p) {
  fprintf(out, "memory plan of %s: %d ops, %d buffers, align %zu, inputs "
               "and outputs %s\n",
          g->path ? g->path : "?", g->nops, p->nbufs,
          p->nbufs > 0 ? p->bufs[0].align : (size_t)16,
          p->io_in_workspace ? "inside the workspace" : "in caller buffers");
  fprintf(out, "order: %s", p->schedule ? p->schedule : "model");
  if (p->schedule && !strcmp(p->schedule, "memory"))
    fprintf(out, " (the model's order needs %zu bytes)", p->model_order_bytes);
  fprintf(out, "; %d op%s in place; %d output%s overlapping %s input\n",
          p->ninplace, p->ninplace == 1 ? "" : "s", p->noverlap,
          p->noverlap == 1 ? "" : "s", p->noverlap == 1 ? "its" : "their");
  fprintf(out, "lower bound: %zu bytes live at step %d (%s)\n",
          p->lower_bound, p->peak_step, op_at(g, p, p->peak_step));
  fprintf(out, "lower bound with overlaps: %zu bytes\n", p->overlap_bound);
  const PatchRun *r = plan_patch(g);
  if (r) {
    int end = r->ops[r->nops - 1];
    fprintf(out, "patched run: ops %d-%d in %d bands of op %d's output rows; band "
                 "buffers and scratch %zu bytes (in op %d's scratch); MACs of the run "
                 "%lld -> %lld (%lld recomputed, %.2f%% of the model's %lld)\n",
            r->ops[0], end, r->nbands, end, r->total_bytes, end, (long long)r->plain_macs,
            (long long)r->macs, (long long)(r->macs - r->plain_macs),
            100.0 * (double)(r->macs - r->plain_macs) / (double)plain_model_macs(g),
            (long long)plain_model_macs(g));
  }
  fputc('\n', out);
  fprintf(out, "%-18s %12s %12s %10s\n", "algorithm", "workspace B",
          "/ lower bnd", "time ms");
  for (int i = 0; i < p->nresults; i++) {
    const AlgoResult *r = &p->results[i];
    double ratio = p->lower_bound ? (double)r->bytes / (double)p->lower_bound
                                  : 1.0;
    fprintf(out, "%-18s %12zu %12.3f %10.2f%s\n", r->algo, r->bytes, ratio,
            r->seconds * 1e3, r->algo == p->algo ? "  <- kept" : "");
  }
  fprintf(out, "\npools:\n");
  for (int i = 0; i < p->npools; i++) {
    const Pool *pl = &p->pools[i];
    if (pl->limit == SIZE_MAX)
      fprintf(out, "  %-16s %10zu bytes used (no limit)\n", pl->name,
              pl->used);
    else
      fprintf(out, "  %-16s %10zu bytes used of %zu\n", pl->name, pl->used,
              pl->limit);
  }
  fprintf(out, "workspace: %zu bytes; persistent: %zu bytes\n\n",
          p->workspace_bytes, p->persistent_bytes);

  fprintf(out, "%5s %10s %-14s %10s %6s %6s  %-10s %s\n", "id", "bytes", "pool",
          "offset", "first", "last", "role", "tensors");
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    const char *off = b->external ? "-" : arena_printf("%zu", b->offset);
    fprintf(out, "%5d %10zu %-14s %10s %6d %6d  %-10s %s", b->id, b->bytes,
            pool_name(p, b), off, b->first, b->last, buffer_role(g, b),
            buffer_label(p, b));
    if (b->inplace_of >= 0)
      fprintf(out, " (in place over %d)", b->inplace_of);
    if (b->overlap && b->overlap_rev)
      fprintf(out, " (overlaps %d backwards, at least %lld B above it)", b->overlap_of,
              (long long)b->overlap_min);
    else if (b->overlap)
      fprintf(out, " (overlaps %d, at most %lld B above it)", b->overlap_of,
              (long long)b->overlap_max);
    fputc('\n', out);
  }
}

/* ------------------------------------------------------------- JSON */

static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

void print_plan_json(FILE *out, const Graph *g, const Plan *p) {
  fprintf(out, "{\n  \"model\": ");
  json_string(out, g->path);
  fprintf(out, ",\n  \"algo\": ");
  json_string(out, p->algo);
  fprintf(out, ",\n  \"align\": %zu", p->nbufs ? p->bufs[0].align : (size_t)16);
  fprintf(out, ",\n  \"io_in_workspace\": %s",
          p->io_in_workspace ? "true" : "false");
  fprintf(out, ",\n  \"steps\": %d", p->nsteps);
  fprintf(out, ",\n  \"schedule\": [");
  for (int s = 0; s < p->norder; s++)
    fprintf(out, "%s%d", s ? ", " : "", p->order[s]);
  fprintf(out, "]");
  fprintf(out, ",\n  \"order\": ");
  json_string(out, p->schedule ? p->schedule : "model");
  fprintf(out, ",\n  \"model_order_bytes\": %zu", p->model_order_bytes);
  fprintf(out, ",\n  \"inplace_ops\": %d", p->ninplace);
  fprintf(out, ",\n  \"overlap_ops\": %d", p->noverlap);
  fprintf(out, ",\n  \"lower_bound_bytes\": %zu", p->lower_bound);
  fprintf(out, ",\n  \"whole_tensor_bound_bytes\": %zu", p->lower_bound);
  fprintf(out, ",\n  \"overlap_bound_bytes\": %zu", p->overlap_bound);
  const PatchRun *r = plan_patch(g);
  if (r) {
    fprintf(out, ",\n  \"patch\": {\"ops\": [");
    for (int j = 0; j < r->nops; j++)
      fprintf(out, "%s%d", j ? ", " : "", r->ops[j]);
    fprintf(out, "], \"bands\": %d, \"band_bytes\": %zu, \"macs\": %lld, "
                 "\"unpatched_macs\": %lld, \"extra_macs\": %lld, \"model_macs\": %lld, "
                 "\"rows\": [",
            r->nbands, r->total_bytes, (long long)r->macs, (long long)r->plain_macs,
            (long long)(r->macs - r->plain_macs), (long long)plain_model_macs(g));
    for (int b = 0; b < r->nbands; b++) {
      const PatchRows *pr = &r->rows[(size_t)b * r->nops + r->nops - 1];
      fprintf(out, "%s[%d, %d]", b ? ", " : "", (int)pr->a, (int)pr->e);
    }
    fprintf(out, "]}");
  } else {
    fprintf(out, ",\n  \"patch\": null");
  }
  fprintf(out, ",\n  \"lower_bound_step\": %d", p->peak_step);
  fprintf(out, ",\n  \"workspace_bytes\": %zu", p->workspace_bytes);
  fprintf(out, ",\n  \"persistent_bytes\": %zu", p->persistent_bytes);
  fprintf(out, ",\n  \"pools\": [");
  for (int i = 0; i < p->npools; i++) {
    const Pool *pl = &p->pools[i];
    fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
    json_string(out, pl->name);
    fprintf(out, ", \"size\": %zu, \"limit\": ", pl->used);
    if (pl->limit == SIZE_MAX)
      fprintf(out, "null}");
    else
      fprintf(out, "%zu}", pl->limit);
  }
  fprintf(out, "\n  ],\n  \"algorithms\": {");
  for (int i = 0; i < p->nresults; i++) {
    fprintf(out, "%s\n    ", i ? "," : "");
    json_string(out, p->results[i].algo);
    fprintf(out, ": %zu", p->results[i].bytes);
  }
  fprintf(out, "\n  },\n  \"buffers\": [");
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    fprintf(out, "%s\n    {\"id\": %d, \"tensors\": [", i ? "," : "", b->id);
    for (int k = 0; k < b->ntensors; k++)
      fprintf(out, "%s%d", k ? ", " : "", b->tensors[k]);
    fprintf(out, "], \"role\": \"%s\", \"bytes\": %zu, \"pool\": ",
            buffer_role(g, b), b->bytes);
    if (b->external || b->persistent)
      fprintf(out, "null");
    else
      json_string(out, p->pools[b->pool].name);
    fprintf(out, ", \"offset\": %zu, \"first\": %d, \"last\": %d, "
                 "\"external\": %s, \"persistent\": %s, \"scratch_op\": %d, "
                 "\"inplace_of\": %d",
            b->external ? (size_t)0 : b->offset, b->first, b->last,
            b->external ? "true" : "false", b->persistent ? "true" : "false",
            b->scratch_op, b->inplace_of);
    fprintf(out, ", \"overlap_of\": %d", b->overlap ? b->overlap_of : -1);
    if (b->state_op >= 0 && b->persistent && b->ntensors == 0)
      fprintf(out, ", \"state_op\": %d", b->state_op);
    fprintf(out, "}");
  }
  fprintf(out, "\n  ]\n}\n");
}

/* -------------------------------------------------------------- SVG */

static void xml_text(FILE *out, const char *s) {
  for (; s && *s; s++) {
    if (*s == '<')
      fputs("&lt;", out);
    else if (*s == '>')
      fputs("&gt;", out);
    else if (*s == '&')
      fputs("&amp;", out);
    else if (*s == '"')
      fputs("&quot;", out);
    else
      fputc(*s, out);
  }
}

/* The name of a buffer for people: the layer that produces it.  "#3
 * CONV_2D" (the output of op 3), "input" / "output 1" (a model input or
 * output nobody produces), "scratch #3 CONV_2D", "state #3 SVDF", "t12"
 * (a constant's view or anything else).  Views share their base's name. */
const char *plan_buffer_name(const Graph *g, const Plan *p, const Buffer *b) {
  (void)p;
  if (b->scratch_op >= 0)
    return arena_printf("scratch #%d %s", b->scratch_op,
                        op_display_name(g, b->scratch_op));
  if (b->state_op >= 0 && b->persistent && b->ntensors == 0)
    return arena_printf("state #%d %s", b->state_op, op_display_name(g, b->state_op));
  if (b->ntensors == 0)
    return arena_printf("buffer %d", b->id);
  /* The first tensor of the group an op writes names it. */
  for (int k = 0; k < b->ntensors; k++) {
    const Tensor *t = &g->tensors[b->tensors[k]];
    if (t->producer >= 0)
      return arena_printf("#%d %s", t->producer, op_display_name(g, t->producer));
  }
  const Tensor *t = &g->tensors[b->tensors[0]];
  for (int i = 0; i < g->ninputs; i++)
    if (g->inputs[i] == t->index)
      return g->ninputs > 1 ? arena_printf("input %d", i) : "input";
  if (t->is_variable)
    return arena_printf("variable t%d", t->index);
  return arena_printf("t%d", t->index);
}

/* A fill colour per buffer: by role, activations from a fixed palette by
 * id (neighbours differ), so the picture is the same every time. */
static const char *buffer_colour(const Graph *g, const Buffer *b) {
  static const char *const pal[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3"};
  const char *role = buffer_role(g, b);
  if (!strcmp(role, "scratch"))
    return "#d9d9d9";
  if (!strcmp(role, "input"))
    return "#9ecae1";
  if (!strcmp(role, "output"))
    return "#a1d99b";
  return pal[b->id % 12];
}

/* "999 B", "12.5 KiB", "1.20 MiB". */
const char *human_bytes(size_t n) {
  if (n < 1024)
    return arena_printf("%zu B", n);
  if (n < 1024 * 1024)
    return arena_printf("%.*f KiB", n < 10 * 1024 ? 2 : 1, (double)n / 1024);
  return arena_printf("%.2f MiB", (double)n / (1024.0 * 1024.0));
}

/* A round step for an axis of `span` units with about `want` ticks: 1, 2
 * or 5 times a power of two's neighbour in bytes (1, 2, 5, 10, ...,
 * 1024-multiples once above 1 KiB, so the labels stay short). */
static size_t nice_step(size_t span, int want) {
  double raw = (double)span / want;
  double unit = raw >= 1024 ? 1024 : 1;
  if (raw >= 1024 * 1024)
    unit = 1024 * 1024;
  double r = raw / unit, base = 1;
  while (base * 10 <= r)
    base *= 10;
  double m = r / base <= 1 ? 1 : r / base <= 2 ? 2 : r / base <= 5 ? 5 : 10;
  size_t s = (size_t)(m * base * unit);
  return s ? s : 1;
}

/* A label's box, to keep labels from overlapping. */
typedef struct {
  double x0, y0, x1, y1;
} Box;

static bool overlaps(const Box *boxes, int n, Box b) {
  for (int i = 0; i < n; i++)
    if (b.x0 < boxes[i].x1 && boxes[i].x0 < b.x1 && b.y0 < boxes[i].y1 &&
        boxes[i].y0 < b.y1)
      return true;
  return false;
}

#define CHAR_W 7.0 /* width of one character at font-size 10 (sans-serif capitals, generous) */
#define MIN_H 2.0  /* the smallest height a buffer is drawn with (px) */
#define MIN_W 3.0  /* ... and the smallest width */

/*
 * The picture (doc/memory-plan.md, "Picture"): one panel per pool, side
 * by side.  x is the schedule step (one column per op), y the byte
 * address inside the pool, 0 at the bottom, with a byte axis on the
 * left.  Each buffer is a rectangle from its first to its last step and
 * from offset to offset + bytes, named after the layer that produces it
 * (plan_buffer_name); a buffer too small to see is drawn MIN_H px high
 * and MIN_W wide, so it is still there to hover.  Labels go inside their
 * rectangle when they fit and never over another label.  The red line
 * is the pool's size (its peak), the dashed blue one the lower bound
 * (one pool), the shaded column the step with the largest live set.
 * The SVG has a viewBox and no fixed size: it scales to its container.
 * html: for the report, every rectangle also carries class="buf" and
 * data-b="ID" for its script, and there is no XML namespace header need.
 */
void print_plan_picture(FILE *out, const Graph *g, const Plan *p, bool html) {
  const double left = 78, right = 16, top = 44, plot_h = 380, bottom = 52;
  const double pool_gap = 24;
  int nsteps = p->nsteps;
  int npanels = p->npools > 0 ? p->npools : 1;
  double avail = (npanels == 1 ? 1100.0 : 1200.0 / npanels);
  double col = avail / nsteps;
  if (col > 60)
    col = 60;
  if (col < 4)
    col = 4;
  double plot_w = col * nsteps;
  if (plot_w < 360)
    plot_w = 360, col = plot_w / nsteps;
  double panel_w = left + plot_w + right;
  double width = npanels * panel_w + (npanels - 1) * pool_gap;
  double height = top + plot_h + bottom;
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\"%s viewBox=\"0 0 %.0f %.0f\" "
          "font-family=\"sans-serif\" font-size=\"10\">\n",
          html ? " id=\"plan\" class=\"plan\"" : "", width, height);
  fprintf(out, "<title>memory plan of ");
  xml_text(out, g->path);
  fprintf(out, "</title>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
          width, height);
  fprintf(out, "<text x=\"4\" y=\"14\" font-size=\"12\">");
  xml_text(out, g->path);
  fprintf(out, ": %s, workspace %zu B, lower bound %zu B at step %d (%s)</text>\n",
          p->algo ? p->algo : "?", p->workspace_bytes, p->lower_bound,
          p->peak_step, op_at(g, p, p->peak_step));

  Box *boxes = arena_array((size_t)p->nbufs + 1, sizeof(Box));
  for (int pi = 0; pi < npanels; pi++) {
    const Pool *pool = &p->pools[pi];
    double x0 = pi * (panel_w + pool_gap) + left;
    double y0 = top, ybase = top + plot_h; /* address 0 at ybase */
    size_t span = pool->used;
    if (p->npools == 1 && p->lower_bound > span)
      span = p->lower_bound;
    if (span == 0)
      span = 1;
    double scale = plot_h / (double)span;
    fprintf(out, "<g class=\"pool\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
                 "font-weight=\"bold\">pool ", x0, y0 - 8);
    xml_text(out, pool->name);
    fprintf(out, ": %zu B (%s)", pool->used, human_bytes(pool->used));
    if (pool->limit != SIZE_MAX)
      fprintf(out, " of %zu B", pool->limit);
    fprintf(out, "</text>\n");
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                 "fill=\"#fafafa\" stroke=\"#999\"/>\n",
            x0, y0, plot_w, plot_h);
    /* byte axis: round ticks, a faint grid line each */
    size_t tick = nice_step(span, 6);
    for (size_t v = 0; v <= span; v += tick) {
      double y = ybase - (double)v * scale;
      fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                   "stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.2f\" "
                   "text-anchor=\"end\" fill=\"#555\">%s</text>\n",
              x0, y, x0 + plot_w, y, x0 - 4, y + 3, human_bytes(v));
      if (v > SIZE_MAX - tick)
        break;
    }
    fprintf(out, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" "
                 "text-anchor=\"middle\" fill=\"#555\">address in the pool"
                 "</text>\n",
            x0 - left + 10, y0 + plot_h / 2);
    /* the step with the largest live set, under the buffers */
    fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                 "fill=\"#f00\" fill-opacity=\"0.08\" stroke=\"#c00\" "
                 "stroke-dasharray=\"3,3\"%s/>\n",
            x0 + p->peak_step * col, y0, col, plot_h,
            html ? arena_printf(" data-peak=\"%.1f\"", x0 + (p->peak_step + 0.5) * col) : "");
    int nboxes = 0;
    for (int i = 0; i < p->nbufs; i++) {
      const Buffer *b = &p->bufs[i];
      if (b->external || b->persistent || b->pool != pi)
        continue;
      double x = x0 + b->first * col;
      double w = (b->last - b->first + 1) * col;
      double h = (double)b->bytes * scale;
      double y = ybase - (double)(b->offset + b->bytes) * scale;
      if (w < MIN_W)
        w = MIN_W;
      if (h < MIN_H)
        y -= MIN_H - h, h = MIN_H;
      const char *name = plan_buffer_name(g, p, b);
      fprintf(out, "<g><title>");
      xml_text(out, name);
      fprintf(out, ": buffer %d (%s), %zu B at offset %zu, steps %d-%d</title>"
                   "<rect%s x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                   "fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"",
              b->id, buffer_label(p, b), b->bytes, b->offset, b->first, b->last,
              html ? " class=\"buf\"" : "", x, y, w, h, buffer_colour(g, b));
      if (html)
        fprintf(out, " data-b=\"%d\"", b->id);
      fprintf(out, "/>");
      /* The label: the whole name, else its "#3" part, when it fits
       * inside and crosses no other label. */
      const char *label = name;
      double lw = strlen(label) * CHAR_W;
      if (lw > w - 4) {
        const char *sp = strchr(name, ' ');
        if (name[0] == '#' && sp)
          label = arena_printf("%.*s", (int)(sp - name), name);
        lw = strlen(label) * CHAR_W;
      }
      Box bx = {x + 2, y + h / 2 - 6, x + 2 + lw, y + h / 2 + 6};
      if (h >= 12 && lw <= w - 4 && !overlaps(boxes, nboxes, bx)) {
        boxes[nboxes++] = bx;
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" pointer-events=\"none\">", x + 2,
                y + h / 2 + 3.5);
        xml_text(out, label);
        fprintf(out, "</text>");
      }
      fprintf(out, "</g>\n");
    }
    /* the pool's size (its peak) and, for one pool, the lower bound */
    double ypeak = ybase - (double)pool->used * scale;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                 "stroke=\"#c00\" stroke-width=\"1.5\"/>\n"
                 "<text x=\"%.1f\" y=\"%.2f\" fill=\"#c00\" text-anchor=\"end\">"
                 "peak %zu B</text>\n",
            x0, ypeak, x0 + plot_w, ypeak, x0 + plot_w, ypeak - 3, pool->used);
    if (p->npools == 1) {
      double ylb = ybase - (double)p->lower_bound * scale;
      double ty = ylb - ypeak < 12 ? ylb + 11 : ylb - 3;
      fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                   "stroke=\"#06c\" stroke-dasharray=\"6,3\" stroke-width=\"1.5\"/>\n"
                   "<text x=\"%.1f\" y=\"%.2f\" fill=\"#06c\">bound %zu B</text>\n",
              x0, ylb, x0 + plot_w, ylb, x0 + 4, ty, p->lower_bound);
    }
    /* step axis: labels at least 26 px apart */
    int every = 1;
    while (every * col < 26)
      every = every < 5 ? every + 1 : every * 2;
    for (int s = 0; s < nsteps; s += every)
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                   "fill=\"#555\">%d</text>\n",
              x0 + (s + 0.5) * col, ybase + 12, s);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">"
                 "schedule step (op order)</text>\n",
            x0 + plot_w / 2, ybase + 28);
    fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" fill=\"#c00\" text-anchor=\"middle\">"
                 "largest live set (step %d)</text>\n</g>\n",
            x0 + (p->peak_step + 0.5) * col, ybase + 44, p->peak_step);
  }
  fprintf(out, "</svg>\n");
}

void print_plan_svg(FILE *out, const Graph *g, const Plan *p) {
  print_plan_picture(out, g, p, false);
}
