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
  fprintf(out, "; %d op%s in place\n", p->ninplace, p->ninplace == 1 ? "" : "s");
  fprintf(out, "lower bound: %zu bytes live at step %d (%s)\n\n",
          p->lower_bound, p->peak_step, op_at(g, p, p->peak_step));
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
  fprintf(out, ",\n  \"lower_bound_bytes\": %zu", p->lower_bound);
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

/* A fill colour per buffer from its id: fixed, so the picture is too. */
static void buffer_colour(const Buffer *b, char out[8]) {
  static const char *const pal[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
  if (b->scratch_op >= 0) {
    memcpy(out, "#eeeeee", 8);
    return;
  }
  memcpy(out, pal[b->id % 12], 8);
}

/*
 * One panel per pool, stacked: x = schedule step (one column per op),
 * y = address inside the pool, growing upwards from 0.  Each buffer is a
 * rectangle from its first to its last step, from offset to offset +
 * bytes, labelled with its tensors; hovering shows the details.  The
 * dashed line is the lower bound, the solid one the pool's peak (its
 * used bytes); the shaded column is the step where the live set is
 * largest.
 */
void print_plan_svg(FILE *out, const Graph *g, const Plan *p) {
  const double left = 90, right = 20, top = 40, panel_h = 360, gap = 60;
  int nsteps = p->nsteps;
  double col = 900.0 / nsteps; /* a column per step, 480 to 900 px */
  if (col > 120)
    col = 120;
  if (col * nsteps < 480)
    col = 480.0 / nsteps;
  if (col < 2)
    col = 2;
  double plot_w = col * nsteps;
  double width = left + plot_w + right;
  if (width < 640)
    width = 640;
  double height = top + p->npools * (panel_h + gap);
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
          "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"10\">\n",
          width, height);
  fprintf(out, "<title>memory plan of ");
  xml_text(out, g->path);
  fprintf(out, "</title>\n<text x=\"4\" y=\"16\" font-size=\"12\">");
  xml_text(out, g->path);
  fprintf(out, ": %s, workspace %zu B, lower bound %zu B (step %d)</text>\n",
          p->algo, p->workspace_bytes, p->lower_bound, p->peak_step);

  for (int pi = 0; pi < p->npools; pi++) {
    const Pool *pool = &p->pools[pi];
    double y0 = top + pi * (panel_h + gap);
    double ybase = y0 + panel_h; /* address 0 */
    size_t span = pool->used;
    if (p->npools == 1 && p->lower_bound > span)
      span = p->lower_bound;
    if (span == 0)
      span = 1;
    double scale = panel_h / (double)span;
    fprintf(out, "<g>\n<text x=\"%.0f\" y=\"%.1f\" font-size=\"12\">pool ",
            left, y0 - 6);
    xml_text(out, pool->name);
    fprintf(out, " (%zu bytes)</text>\n", pool->used);
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
            "fill=\"none\" stroke=\"#999\"/>\n",
            left, y0, plot_w, panel_h);
    for (int i = 0; i < p->nbufs; i++) {
      const Buffer *b = &p->bufs[i];
      if (b->external || b->persistent || b->pool != pi)
        continue;
      double x = left + b->first * col;
      double w = (b->last - b->first + 1) * col;
      double y = ybase - (double)(b->offset + b->bytes) * scale;
      double h = (double)b->bytes * scale;
      char colour[8];
      buffer_colour(b, colour);
      fprintf(out,
              "<g><title>buffer %d: %s, %zu bytes at %zu, steps %d-%d"
              "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
              "height=\"%.2f\" fill=\"%s\" stroke=\"#333\" "
              "stroke-width=\"0.5\"/>",
              b->id, buffer_label(p, b), b->bytes, b->offset, b->first,
              b->last, x, y, w, h < 0.5 ? 0.5 : h, colour);
      if (h >= 11 && w >= 24)
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">%s</text>", x + 2,
                y + h / 2 + 4, buffer_label(p, b));
      fprintf(out, "</g>\n");
    }
    /* the step with the largest live set, over the buffers */
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
            "fill=\"#f00\" fill-opacity=\"0.07\" stroke=\"#c00\" "
            "stroke-dasharray=\"3,3\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c00\" "
            "text-anchor=\"middle\">largest live set</text>\n",
            left + p->peak_step * col, y0, col, panel_h,
            left + (p->peak_step + 0.5) * col, ybase + 38);
    /* peak (this pool's size) and, for one pool, the lower bound */
    double ypeak = ybase - (double)pool->used * scale;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
            "stroke=\"#c00\" stroke-width=\"1.5\"/>\n"
            "<text x=\"4\" y=\"%.2f\" fill=\"#c00\">peak %zu</text>\n",
            left, ypeak, left + plot_w, ypeak, ypeak + 4, pool->used);
    if (p->npools == 1) {
      double ylb = ybase - (double)p->lower_bound * scale;
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
              "stroke=\"#06c\" stroke-dasharray=\"6,3\" stroke-width=\"1.5\"/>\n"
              "<text x=\"4\" y=\"%.2f\" fill=\"#06c\">bound %zu</text>\n",
              left, ylb, left + plot_w, ylb, ylb + (ylb - ypeak < 12 ? 14 : 4),
              p->lower_bound);
    }
    /* step axis */
    int every = nsteps <= 40 ? 1 : nsteps / 20;
    for (int s = 0; s < nsteps; s += every)
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d"
                   "</text>\n",
              left + (s + 0.5) * col, ybase + 12, s);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">step</text>\n</g>\n",
            left + plot_w - 20, ybase + 26);
  }
  fprintf(out, "</svg>\n");
}
