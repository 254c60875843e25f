/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c - `tinyaot report`: what a compiled model costs, for people
 * (one HTML page) and for scripts (--json).  doc/report.md explains
 * every figure.
 *
 * Needs: a lowered graph, its Plan, and the flash figures
 * (report_size.c); optionally a per-op profile `tinyaot run --profile-out`
 * wrote.  Writes:
 *
 *   - the summary: flash (runner, kernels, weights; measured or
 *     estimated, said which), RAM by pool, I/O buffers, persistent
 *     state, the options, the tool's version, the model's hash field;
 *   - the per-layer table in schedule order: op index, op, kernel,
 *     input/output shapes and dtypes, MACs, weight bytes, activation
 *     bytes in and out, scratch, the RAM live at that step, the share of
 *     all MACs and, with a profile, the op's count and share of the time;
 *   - the memory plan: the planner algorithms side by side and the
 *     picture of plan_report.c (print_plan_picture) with zoom and hover;
 *   - the graph as an arc diagram: one box per op in schedule order, one
 *     arc per tensor from the op producing it to each op reading it.
 *
 * The HTML page is self-contained: inline CSS, SVG and script, no link
 * to anything outside (it opens from a USB stick), and the script only
 * adds sorting, zoom and hover to content that is already there.  The
 * JSON object is embedded in the page too (id "report-data").
 *
 * Same graph, plan, options and profile -> the same bytes: no dates,
 * no timings of the compiler itself.
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

/* ------------------------------------------------------ the data */

typedef struct {
  int op, step;
  const char *kernel; /* NULL: a view, no call */
  int64_t macs;
  size_t weight_bytes, act_in, act_out, scratch, live;
  bool has_count;
  unsigned long long count; /* from the profile */
} Row;

typedef struct {
  const char *unit; /* "ns", "cycles", "instructions" */
  unsigned long long total; /* the whole run, as measured apart */
  unsigned long long ops_total; /* the sum over the ops */
  bool has_total;
  int runs;
} Profile;

typedef struct {
  const Graph *g;
  const Plan *p;
  const ReportOptions *o;
  Row *rows; /* one per step */
  int nrows;
  int64_t macs;
  int64_t patch_extra; /* MACs the patched run recomputes (in macs) */
  size_t io_bytes; /* model inputs and outputs outside the workspace */
  Profile prof;
  bool has_prof;
  bool *heavy; /* per row: among the heaviest */
  int calls;   /* rows with a kernel call */
} Report;

/* RAM live at every step: bytes of the planned buffers whose lifetime
 * covers it, counted as live_lower_bound() counts them (a buffer in
 * place over another shares its first step's bytes). */
static size_t *live_per_step(const Plan *p) {
  size_t *live = arena_array((size_t)p->nsteps + 1, sizeof(size_t));
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    if (b->external || b->persistent)
      continue;
    int first = b->inplace_of >= 0 ? b->first + 1 : b->first;
    for (int s = first; s <= b->last && s < p->nsteps; s++)
      live[s] += b->bytes;
  }
  return live;
}

static void read_profile(Report *r, const char *path) {
  const Graph *g = r->g;
  size_t n;
  char *text = (char *)read_file(path, &n);
  char *buf = arena_alloc(n + 1);
  memcpy(buf, text, n);
  r->prof.unit = "count";
  int seen = 0;
  for (char *line = buf, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    if (line[0] == '#') {
      char *u = strstr(line, "unit ");
      if (u) {
        char unit[32];
        if (sscanf(u + 5, "%31[a-z]", unit) == 1)
          r->prof.unit = arena_strdup(unit);
      }
      char *runs = strstr(line, " runs");
      if (runs) {
        char *d = runs;
        while (d > line && d[-1] >= '0' && d[-1] <= '9')
          d--;
        r->prof.runs = atoi(d);
      }
      continue;
    }
    if (!*line || !strncmp(line, "op\t", 3))
      continue;
    unsigned long long c;
    int op;
    char name[128];
    if (sscanf(line, "total %127s %llu", name, &c) == 2) { /* spaces match tabs */
      r->prof.total = c;
      r->prof.has_total = true;
      continue;
    }
    if (sscanf(line, "%d\t%127s\t%llu", &op, name, &c) != 3)
      error_file(path, "line '%.60s' is not OP<tab>NAME<tab>COUNT", line);
    if (op < 0 || op >= g->nops)
      error_file(path, "op %d: the model has %d ops", op, g->nops);
    if (strcmp(name, op_display_name(g, op)))
      error_file(path, "op %d is %s in the profile but %s in the model", op, name,
                 op_display_name(g, op));
    for (int k = 0; k < r->nrows; k++)
      if (r->rows[k].op == op) {
        r->rows[k].has_count = true;
        r->rows[k].count = c;
      }
    r->prof.ops_total += c;
    seen++;
  }
  if (!seen)
    error_file(path, "holds no per-op counts");
  r->has_prof = true;
}

static int cmp_desc(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void gather(Report *r) {
  const Graph *g = r->g;
  const Plan *p = r->p;
  size_t *live = live_per_step(p);
  r->nrows = p->norder;
  r->rows = arena_array((size_t)r->nrows + 1, sizeof(Row));
  for (int s = 0; s < p->norder; s++) {
    const Op *op = &g->ops[p->order[s]];
    Row *w = &r->rows[s];
    w->op = op->index;
    w->step = s;
    const Lowered *l = op_lowered(op);
    w->kernel = l ? l->kernel : NULL;
    w->macs = op_macs(g, op);
    if (l && l->patch) /* a patched run: its last op makes every band's calls */
      w->macs = l->patch_end ? l->patch->macs : 0;
    if (l && l->patch && l->patch_end)
      r->patch_extra = l->patch->macs - l->patch->plain_macs;
    w->scratch = op->scratch_bytes;
    w->live = live[s];
    for (int k = 0; k < op->ninputs; k++) {
      if (op->inputs[k] < 0)
        continue;
      const Tensor *t = &g->tensors[op->inputs[k]];
      if (is_const(t))
        w->weight_bytes += tensor_bytes(t);
      else
        w->act_in += tensor_bytes(t);
    }
    for (int k = 0; k < op->noutputs; k++)
      w->act_out += tensor_bytes(&g->tensors[op->outputs[k]]);
    r->calls += !l || !l->patch ? w->kernel != NULL
                : l->patch_end ? l->patch->nbands * l->patch->nops : 0;
    r->macs = r->macs > INT64_MAX - w->macs ? INT64_MAX : r->macs + w->macs;
  }
  for (int i = 0; i < p->nbufs; i++)
    if (p->bufs[i].external)
      r->io_bytes += p->bufs[i].bytes;
  if (r->o->profile_data)
    read_profile(r, r->o->profile_data);
  /* The heaviest rows: the five largest by time (with a profile) or by
   * MACs, each at least 5% of the total. */
  r->heavy = arena_array((size_t)r->nrows + 1, sizeof(bool));
  double *v = arena_array((size_t)r->nrows + 1, sizeof(double));
  double total = 0;
  for (int s = 0; s < r->nrows; s++) {
    v[s] = r->has_prof ? (double)r->rows[s].count : (double)r->rows[s].macs;
    total += v[s];
  }
  double *sorted = arena_array((size_t)r->nrows + 1, sizeof(double));
  memcpy(sorted, v, (size_t)r->nrows * sizeof(double));
  qsort(sorted, (size_t)r->nrows, sizeof(double), cmp_desc);
  double cut = r->nrows >= 5 ? sorted[4] : r->nrows ? sorted[r->nrows - 1] : 0;
  for (int s = 0; s < r->nrows; s++)
    r->heavy[s] = total > 0 && v[s] > 0 && v[s] >= cut && v[s] >= 0.05 * total;
}

static double share(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* --------------------------------------------------------- JSON */

/* A JSON string, with '<' and '>' escaped so that it can stand inside
 * the page's <script> element. */
static void js(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20 || c == '<' || c == '>' || c == '&')
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void json_tensors(FILE *out, const Graph *g, const int *ts, int n) {
  fputc('[', out);
  bool first = true;
  for (int k = 0; k < n; k++) {
    if (ts[k] < 0)
      continue;
    const Tensor *t = &g->tensors[ts[k]];
    fprintf(out, "%s{\"tensor\": %d, \"name\": ", first ? "" : ", ", t->index);
    js(out, t->name);
    fprintf(out, ", \"dtype\": \"%s\", \"shape\": [", dtype_name(t->dtype));
    for (int d = 0; d < t->ndims; d++)
      fprintf(out, "%s%d", d ? ", " : "", (int)t->dims[d]);
    fprintf(out, "], \"bytes\": %zu, \"const\": %s, \"producer\": %d}", tensor_bytes(t),
            is_const(t) ? "true" : "false", t->producer);
    first = false;
  }
  fputc(']', out);
}

static const char *flash_key[FLASH_NCAT] = {"code", "weights", "kernels", "lib"};

static size_t flash_sum(const Flash *f) {
  size_t t = 0;
  for (int k = 0; k < FLASH_NCAT; k++)
    t += f->bytes[k];
  return t;
}

static void write_json(FILE *out, const Report *r) {
  const Graph *g = r->g;
  const Plan *p = r->p;
  const Flash *fl = r->o->flash;
  fprintf(out, "{\n  \"tool\": \"tinyaot\",\n  \"version\": ");
  js(out, TINYAOT_VERSION);
  fprintf(out, ",\n  \"model\": ");
  js(out, g->path);
  fprintf(out, ",\n  \"model_sha256\": ");
  js(out, r->o->sha256 ? r->o->sha256 : "");
  fprintf(out, ",\n  \"options\": ");
  js(out, r->o->options);
  fprintf(out, ",\n  \"prefix\": ");
  js(out, r->o->prefix);
  fprintf(out, ",\n  \"ops\": %d,\n  \"macs\": %" PRId64, g->nops, r->macs);
  fprintf(out, ",\n  \"patch_extra_macs\": %" PRId64, r->patch_extra);
  fprintf(out, ",\n  \"flash\": {\"measured\": %s, \"target\": ",
          fl->measured ? "true" : "false");
  js(out, fl->target);
  fprintf(out, ", \"note\": ");
  js(out, fl->note);
  for (int k = 0; k < FLASH_NCAT; k++)
    fprintf(out, ", \"%s\": %zu", flash_key[k], fl->bytes[k]);
  fprintf(out, ", \"total\": %zu", fl->measured ? fl->size_total : flash_sum(fl));
  fprintf(out, "},\n  \"ram\": {\"pools\": [");
  for (int i = 0; i < p->npools; i++) {
    fprintf(out, "%s{\"name\": ", i ? ", " : "");
    js(out, p->pools[i].name);
    fprintf(out, ", \"used\": %zu, \"limit\": ", p->pools[i].used);
    if (p->pools[i].limit == SIZE_MAX)
      fprintf(out, "null}");
    else
      fprintf(out, "%zu}", p->pools[i].limit);
  }
  fprintf(out, "], \"workspace\": %zu, \"persistent\": %zu, \"io_outside\": %zu, "
               "\"stack\": null, \"lower_bound\": %zu, \"peak_step\": %d}",
          p->workspace_bytes, p->persistent_bytes, r->io_bytes, p->lower_bound,
          p->peak_step);
  fprintf(out, ",\n  \"profile\": ");
  if (r->has_prof) {
    fprintf(out, "{\"unit\": ");
    js(out, r->prof.unit);
    fprintf(out, ", \"runs\": %d, \"ops_total\": %llu, \"total\": ", r->prof.runs,
            r->prof.ops_total);
    if (r->prof.has_total)
      fprintf(out, "%llu}", r->prof.total);
    else
      fprintf(out, "null}");
  } else {
    fprintf(out, "null");
  }
  fprintf(out, ",\n  \"layers\": [");
  for (int s = 0; s < r->nrows; s++) {
    const Row *w = &r->rows[s];
    const Op *op = &g->ops[w->op];
    fprintf(out, "%s\n    {\"op\": %d, \"step\": %d, \"name\": ", s ? "," : "", w->op,
            w->step);
    js(out, op_display_name(g, w->op));
    fprintf(out, ", \"kernel\": ");
    if (w->kernel)
      js(out, w->kernel);
    else
      fprintf(out, "null");
    fprintf(out, ", \"inputs\": ");
    json_tensors(out, g, op->inputs, op->ninputs);
    fprintf(out, ", \"outputs\": ");
    json_tensors(out, g, op->outputs, op->noutputs);
    fprintf(out, ", \"macs\": %" PRId64 ", \"macs_share\": %.2f, \"weight_bytes\": %zu, "
                 "\"act_in_bytes\": %zu, \"act_out_bytes\": %zu, \"scratch_bytes\": %zu, "
                 "\"live_bytes\": %zu, \"heavy\": %s, \"profile\": ",
            w->macs, share((double)w->macs, (double)r->macs), w->weight_bytes,
            w->act_in, w->act_out, w->scratch, w->live, r->heavy[s] ? "true" : "false");
    if (w->has_count)
      fprintf(out, "%llu, \"profile_share\": %.2f", w->count,
              share((double)w->count, (double)r->prof.ops_total));
    else
      fprintf(out, "null, \"profile_share\": null");
    fputc('}', out);
  }
  fprintf(out, "\n  ],\n  \"buffer_names\": [");
  for (int i = 0; i < p->nbufs; i++) {
    fprintf(out, "%s", i ? ", " : "");
    js(out, plan_buffer_name(g, p, &p->bufs[i]));
  }
  fprintf(out, "],\n  \"plan\": ");
  /* plan_report.c's object, with "</" written "<\/" (the same JSON) so
   * that no string in it can end the page's <script> element. */
  char *text = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&text, &n);
  if (!m)
    die("open_memstream failed");
  print_plan_json(m, g, p);
  fclose(m);
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '<' && i + 1 < n && text[i + 1] == '/')
      fputs("<\\", out);
    else
      fputc(text[i], out);
  }
  free(text);
  fprintf(out, "}\n");
}

/* --------------------------------------------------------- HTML */

static void h(FILE *out, const char *s) {
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

/* "int8[1,49,10,1]" for every non-constant tensor; constants as
 * "w int8[64,10,4,1]". */
static const char *tensors_text(const Graph *g, const int *ts, int n) {
  const char *s = "";
  for (int k = 0; k < n; k++) {
    if (ts[k] < 0)
      continue;
    const Tensor *t = &g->tensors[ts[k]];
    const char *shape = "";
    for (int d = 0; d < t->ndims; d++)
      shape = arena_printf("%s%s%d", shape, d ? "," : "", (int)t->dims[d]);
    s = arena_printf("%s%s%s%s[%s]", s, *s ? " " : "", is_const(t) ? "w " : "",
                     dtype_name(t->dtype), shape);
  }
  return s;
}

/* The same for the table's cells: one tensor a line, never broken. */
static void tensors_cell(FILE *out, const Graph *g, const int *ts, int n) {
  bool first = true;
  for (int k = 0; k < n; k++) {
    if (ts[k] < 0)
      continue;
    const Tensor *t = &g->tensors[ts[k]];
    fprintf(out, "%s<span class=\"t%s\">", first ? "" : "<br>", is_const(t) ? " w" : "");
    h(out, tensors_text(g, &ts[k], 1));
    fprintf(out, "</span>");
    first = false;
  }
}

/* A number with thin separators: 1 234 567. */
static const char *num(unsigned long long v) {
  char raw[32];
  snprintf(raw, sizeof raw, "%llu", v);
  size_t n = strlen(raw);
  char *o = arena_alloc(n * 2 + 1), *w = o;
  for (size_t i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0)
      *w++ = ' ';
    *w++ = raw[i];
  }
  return o;
}

static const char *css =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fff}"
    "header{background:#24364b;color:#fff;padding:12px 20px}"
    "header h1{font-size:20px;margin:0}header p{margin:2px 0 0;color:#cfd8e3}"
    "main{padding:8px 20px 40px}h2{font-size:17px;margin:22px 0 8px;"
    "border-bottom:1px solid #ddd;padding-bottom:3px}"
    ".cards{display:flex;flex-wrap:wrap;gap:12px}"
    ".card{border:1px solid #d5dbe3;border-radius:6px;padding:8px 12px;min-width:220px;"
    "background:#f8fafc}.card h3{margin:0 0 4px;font-size:13px;color:#556;"
    "text-transform:uppercase;letter-spacing:.04em}.big{font-size:22px;font-weight:600}"
    ".card table td{padding:0 10px 0 0}.note{color:#667;font-size:12px}"
    ".warn{color:#a15c00}"
    "table.layers{border-collapse:collapse;font-size:12px;width:100%}"
    "table.layers th{position:sticky;top:0;background:#e9eef4;cursor:pointer;"
    "text-align:left;padding:3px 4px;border-bottom:1px solid #bbb;vertical-align:bottom}"
    "table.layers th.sorted-up:after{content:' \\25B2'}"
    "table.layers th.sorted-down:after{content:' \\25BC'}"
    "table.layers td{padding:2px 4px;border-bottom:1px solid #eee;vertical-align:top}"
    "table.layers td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "table.layers td.sh{min-width:70px}"
    "table.layers tr.heavy td{background:#fff3cd}"
    "table.layers tr.sel td{background:#cfe5ff}"
    "table.layers code{font-size:11px}table.layers span.t{white-space:nowrap}"
    "table.layers span.w{color:#777}"
    ".bar{display:inline-block;height:8px;background:#e07b39;margin-right:4px;"
    "vertical-align:middle}.bar.t{background:#4a7fc1}"
    ".scroll{max-height:640px;overflow:auto;border:1px solid #ddd}"
    ".tools button{margin-right:4px}"
    "#planbox{border:1px solid #ddd;overflow:hidden;cursor:grab;background:#fff}"
    "#planbox svg{width:100%;height:auto;max-height:75vh;display:block}"
    "rect.buf:hover{stroke:#000;stroke-width:2}"
    "#tip{position:fixed;pointer-events:none;background:#222;color:#fff;padding:4px 7px;"
    "border-radius:4px;font-size:12px;display:none;max-width:420px;z-index:9}"
    "table.algos td,table.algos th{padding:2px 10px 2px 0;text-align:left}"
    ".graph{display:flex;gap:16px;align-items:flex-start}"
    "#graphbox{max-height:640px;overflow:auto;border:1px solid #ddd;flex:none}"
    "g.node{cursor:pointer}g.node:hover rect{stroke:#000}"
    "g.node.sel rect{fill:#cfe5ff;stroke:#0a58ca;stroke-width:2}"
    "path.edge{fill:none;stroke:#8aa0b8;stroke-width:1}path.edge:hover{stroke:#d00;stroke-width:2}"
    "path.edge.hl{stroke:#0a58ca;stroke-width:2}";

/* The script: sorting, selection shared by table and graph, the plan's
 * zoom (wheel, drag, buttons) and its hover details.  Everything it
 * needs is in the page already. */
static const char *script =
    "(function(){'use strict';\n"
    "var D=JSON.parse(document.getElementById('report-data').textContent);\n"
    "var tip=document.getElementById('tip');\n"
    "function show(e,html){tip.innerHTML=html;tip.style.display='block';"
    "tip.style.left=(e.clientX+14)+'px';tip.style.top=(e.clientY+14)+'px';}\n"
    "function hide(){tip.style.display='none';}\n"
    "function esc(s){return String(s).replace(/[&<>\"]/g,function(c){return "
    "{'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[c];});}\n"
    /* sorting: every th sorts by its column, numbers by data-v */
    "var table=document.getElementById('layers');\n"
    "var ths=table.tHead.rows[0].cells;\n"
    "Array.prototype.forEach.call(ths,function(th,col){th.addEventListener('click',function(){"
    "var down=!th.classList.contains('sorted-down');"
    "Array.prototype.forEach.call(ths,function(x){x.classList.remove('sorted-up','sorted-down');});"
    "th.classList.add(down?'sorted-down':'sorted-up');"
    "var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);"
    "var numeric=th.getAttribute('data-t')==='n';"
    "rows.sort(function(a,b){var x=a.cells[col],y=b.cells[col],r;"
    "if(numeric){r=parseFloat(x.getAttribute('data-v'))-parseFloat(y.getAttribute('data-v'));}"
    "else{r=x.textContent.localeCompare(y.textContent);}return down?-r:r;});"
    "rows.forEach(function(r){body.appendChild(r);});});});\n"
    /* selection: a row or a graph node selects the op in both */
    "function select(op,scroll){"
    "Array.prototype.forEach.call(document.querySelectorAll('.sel'),function(x){x.classList.remove('sel');});"
    "Array.prototype.forEach.call(document.querySelectorAll('path.edge.hl'),function(x){x.classList.remove('hl');});"
    "var row=document.getElementById('op-'+op),node=document.getElementById('node-'+op);"
    "if(row){row.classList.add('sel');if(scroll==='row')row.scrollIntoView({block:'center'});}"
    "if(node){node.classList.add('sel');if(scroll==='node')node.scrollIntoView({block:'center'});}"
    "Array.prototype.forEach.call(document.querySelectorAll('path.edge[data-from=\"'+op+'\"],"
    "path.edge[data-to=\"'+op+'\"]'),function(x){x.classList.add('hl');});}\n"
    "Array.prototype.forEach.call(table.tBodies[0].rows,function(r){r.addEventListener('click',"
    "function(){select(r.getAttribute('data-op'),'node');});});\n"
    "Array.prototype.forEach.call(document.querySelectorAll('g.node'),function(n){"
    "n.addEventListener('click',function(){select(n.getAttribute('data-op'),'row');});});\n"
    "Array.prototype.forEach.call(document.querySelectorAll('path.edge'),function(p){"
    "p.addEventListener('mousemove',function(e){show(e,esc(p.getAttribute('data-tip')));});"
    "p.addEventListener('mouseleave',hide);});\n"
    /* the plan: hover details from the embedded plan */
    "var bufs={};D.plan.buffers.forEach(function(b){bufs[b.id]=b;});\n"
    "function opname(s){var o=D.plan.schedule[s];if(o===undefined)return '';"
    "var l=D.layers[s];return ' (#'+o+' '+(l?esc(l.name):'')+')';}\n"
    "Array.prototype.forEach.call(document.querySelectorAll('rect.buf'),function(r){"
    "var b=bufs[r.getAttribute('data-b')];if(!b)return;"
    "r.addEventListener('mousemove',function(e){show(e,'<b>'+esc(D.buffer_names[b.id])+'</b><br>'"
    "+'buffer '+b.id+', '+b.role+', tensors '+(b.tensors.length?b.tensors.map(function(t){return 't'+t;}).join(' = '):'-')"
    "+'<br>'+b.bytes+' bytes at offset '+b.offset+' .. '+(b.offset+b.bytes)+' in '+esc(b.pool)"
    "+'<br>live from step '+b.first+opname(b.first)+' to '+b.last+opname(b.last)"
    "+(b.inplace_of>=0?'<br>in place over buffer '+b.inplace_of:''));});"
    "r.addEventListener('mouseleave',hide);"
    "r.addEventListener('click',function(){var s=b.scratch_op;if(s<0&&b.tensors.length){"
    "var l=null;D.layers.forEach(function(x){x.outputs.forEach(function(o){if(o.tensor===b.tensors[0])l=x;});});"
    "if(l)s=l.op;}if(s>=0)select(s,'row');});});\n"
    /* the plan: zoom with the wheel around the pointer, drag to pan */
    "var svg=document.getElementById('plan'),box=document.getElementById('planbox');\n"
    "if(svg){var vb0=svg.getAttribute('viewBox').split(' ').map(Number),vb=vb0.slice();"
    "function apply(){svg.setAttribute('viewBox',vb.join(' '));}"
    "function zoom(f,cx,cy){var w=vb[2]*f,hh=vb[3]*f;if(w>vb0[2]){w=vb0[2];hh=vb0[3];}"
    "if(w<vb0[2]/64)return;vb[0]=cx-(cx-vb[0])*w/vb[2];vb[1]=cy-(cy-vb[1])*hh/vb[3];"
    "vb[2]=w;vb[3]=hh;clamp();apply();}"
    "function clamp(){vb[0]=Math.max(vb0[0],Math.min(vb[0],vb0[0]+vb0[2]-vb[2]));"
    "vb[1]=Math.max(vb0[1],Math.min(vb[1],vb0[1]+vb0[3]-vb[3]));}"
    "function pt(e){var r=svg.getBoundingClientRect();return[vb[0]+(e.clientX-r.left)/r.width*vb[2],"
    "vb[1]+(e.clientY-r.top)/r.height*vb[3]];}"
    "box.addEventListener('wheel',function(e){e.preventDefault();var p=pt(e);"
    "zoom(e.deltaY<0?0.8:1.25,p[0],p[1]);},{passive:false});"
    "var drag=null;box.addEventListener('mousedown',function(e){drag=[e.clientX,e.clientY,vb[0],vb[1]];});"
    "window.addEventListener('mouseup',function(){drag=null;});"
    "window.addEventListener('mousemove',function(e){if(!drag)return;var r=svg.getBoundingClientRect();"
    "vb[0]=drag[2]-(e.clientX-drag[0])/r.width*vb[2];vb[1]=drag[3]-(e.clientY-drag[1])/r.height*vb[3];"
    "clamp();apply();});"
    "function centre(){return[vb[0]+vb[2]/2,vb[1]+vb[3]/2];}"
    "document.getElementById('zin').addEventListener('click',function(){var c=centre();zoom(0.5,c[0],c[1]);});"
    "document.getElementById('zout').addEventListener('click',function(){var c=centre();zoom(2,c[0],c[1]);});"
    "document.getElementById('zreset').addEventListener('click',function(){vb=vb0.slice();apply();});"
    "document.getElementById('zpeak').addEventListener('click',function(){var m=svg.querySelector('[data-peak]');"
    "if(!m)return;var x=parseFloat(m.getAttribute('data-peak'));vb=vb0.slice();zoom(0.25,x,vb0[1]+vb0[3]/2);});}\n"
    /* the page is complete: scripts (and tests) may rely on it */
    "document.documentElement.setAttribute('data-ready','1');\n"
    "})();\n";

static void summary_html(FILE *out, const Report *r) {
  const Graph *g = r->g;
  const Plan *p = r->p;
  const Flash *fl = r->o->flash;
  size_t ftotal = fl->measured ? fl->size_total : flash_sum(fl);
  fprintf(out, "<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">\n");
  fprintf(out, "<div class=\"card\" id=\"flash\"><h3>Flash</h3><div class=\"big\">%s</div>"
               "<table><tr><td>generated runner</td><td>%s B</td></tr>"
               "<tr><td>kernels</td><td>%s B</td></tr><tr><td>weights</td><td>%s B</td></tr>"
               "<tr><td>C library</td><td>%s B</td></tr></table>",
          human_bytes(ftotal), num(fl->bytes[FLASH_CODE]), num(fl->bytes[FLASH_KERNELS]),
          num(fl->bytes[FLASH_WEIGHTS]), num(fl->bytes[FLASH_LIB]));
  fprintf(out, "<div class=\"note%s\">%s<br>", fl->measured ? "" : " warn",
          fl->measured ? "measured" : "ESTIMATED");
  h(out, fl->note);
  fprintf(out, "<br>target: ");
  h(out, fl->target);
  fprintf(out, "</div></div>\n");
  fprintf(out, "<div class=\"card\" id=\"ram\"><h3>RAM</h3><div class=\"big\">%s</div><table>",
          human_bytes(p->workspace_bytes + p->persistent_bytes + r->io_bytes));
  for (int i = 0; i < p->npools; i++) {
    fprintf(out, "<tr><td>pool ");
    h(out, p->pools[i].name);
    fprintf(out, "</td><td>%s B", num(p->pools[i].used));
    if (p->pools[i].limit != SIZE_MAX)
      fprintf(out, " of %s", num(p->pools[i].limit));
    fprintf(out, "</td></tr>");
  }
  fprintf(out, "<tr><td>persistent state</td><td>%s B</td></tr>"
               "<tr><td>inputs/outputs (caller)</td><td>%s B</td></tr>"
               "<tr><td>lower bound</td><td>%s B</td></tr>"
               "<tr><td>stack</td><td>not known here</td></tr></table>"
               "<div class=\"note\">stack: measure with make bench-arm</div></div>\n",
          num(p->persistent_bytes), num(r->io_bytes), num(p->lower_bound));
  fprintf(out, "<div class=\"card\" id=\"compute\"><h3>Compute</h3><div class=\"big\">%s MACs</div>"
               "<table><tr><td>ops</td><td>%d</td></tr><tr><td>kernel calls</td><td>%d</td></tr>",
          num((unsigned long long)r->macs), g->nops, r->calls);
  if (r->patch_extra)
    fprintf(out, "<tr><td>recomputed by the patched run</td><td>%s MACs</td></tr>",
            num((unsigned long long)r->patch_extra));
  if (r->has_prof) {
    fprintf(out, "<tr><td>profile, all ops</td><td>%s %s</td></tr>", num(r->prof.ops_total),
            r->prof.unit);
    if (r->prof.has_total)
      fprintf(out, "<tr><td>profile, whole run</td><td>%s %s</td></tr>", num(r->prof.total),
              r->prof.unit);
  }
  fprintf(out, "</table></div>\n");
  fprintf(out, "<div class=\"card\" id=\"build\"><h3>Build</h3><table>"
               "<tr><td>tool</td><td>tinyaot %s</td></tr><tr><td>model</td><td>",
          TINYAOT_VERSION);
  h(out, g->path);
  fprintf(out, "</td></tr><tr><td>SHA-256</td><td><code>");
  h(out, r->o->sha256 ? r->o->sha256 : "");
  fprintf(out, "</code></td></tr><tr><td>options</td><td><code>");
  h(out, *r->o->options ? r->o->options : "(defaults)");
  fprintf(out, "</code></td></tr><tr><td>prefix</td><td><code>");
  h(out, r->o->prefix);
  fprintf(out, "</code></td></tr><tr><td>plan</td><td>%s, %s order, %d in place</td></tr>"
               "</table></div>\n</div></section>\n",
          p->algo, p->schedule ? p->schedule : "model", p->ninplace);
}

static void layers_html(FILE *out, const Report *r) {
  const Graph *g = r->g;
  fprintf(out, "<section id=\"layers-section\"><h2>Layers</h2>"
               "<p class=\"note\">One row per op in execution order; click a header to sort, "
               "a row to find the op in the graph. Highlighted: the heaviest ops (the five "
               "largest by %s, each at least 5%%).</p>\n<div class=\"scroll\">"
               "<table class=\"layers\" id=\"layers\"><thead><tr>"
               "<th data-t=\"n\">step</th><th data-t=\"n\">op</th><th>name</th><th>kernel</th>"
               "<th>inputs</th><th>outputs</th><th data-t=\"n\">MACs</th>"
               "<th data-t=\"n\">weights B</th><th data-t=\"n\">act. in B</th>"
               "<th data-t=\"n\">act. out B</th><th data-t=\"n\">scratch B</th>"
               "<th data-t=\"n\">RAM live B</th><th data-t=\"n\">MACs %%</th>",
          r->has_prof ? "measured time" : "MACs");
  if (r->has_prof)
    fprintf(out, "<th data-t=\"n\">%s</th><th data-t=\"n\">time %%</th>", r->prof.unit);
  fprintf(out, "</tr></thead><tbody>\n");
  for (int s = 0; s < r->nrows; s++) {
    const Row *w = &r->rows[s];
    const Op *op = &g->ops[w->op];
    fprintf(out, "<tr id=\"op-%d\" data-op=\"%d\"%s><td class=\"n\" data-v=\"%d\">%d</td>"
                 "<td class=\"n\" data-v=\"%d\">%d</td><td>",
            w->op, w->op, r->heavy[s] ? " class=\"heavy\"" : "", s, s, w->op, w->op);
    h(out, op_display_name(g, w->op));
    fprintf(out, "</td><td><code>");
    h(out, w->kernel ? w->kernel : "(view, no call)");
    fprintf(out, "</code></td><td><code>");
    tensors_cell(out, g, op->inputs, op->ninputs);
    fprintf(out, "</code></td><td><code>");
    tensors_cell(out, g, op->outputs, op->noutputs);
    double ms = share((double)w->macs, (double)r->macs);
    fprintf(out, "</code></td><td class=\"n\" data-v=\"%" PRId64 "\">%s</td>"
                 "<td class=\"n\" data-v=\"%zu\">%s</td><td class=\"n\" data-v=\"%zu\">%s</td>"
                 "<td class=\"n\" data-v=\"%zu\">%s</td><td class=\"n\" data-v=\"%zu\">%s</td>"
                 "<td class=\"n\" data-v=\"%zu\">%s</td>"
                 "<td class=\"n sh\" data-v=\"%.3f\"><span class=\"bar\" style=\"width:%.0fpx\">"
                 "</span>%.1f</td>",
            w->macs, num((unsigned long long)w->macs), w->weight_bytes, num(w->weight_bytes),
            w->act_in, num(w->act_in), w->act_out, num(w->act_out), w->scratch,
            num(w->scratch), w->live, num(w->live), ms, ms * 0.6, ms);
    if (r->has_prof) {
      double ts = share((double)w->count, (double)r->prof.ops_total);
      fprintf(out, "<td class=\"n\" data-v=\"%llu\">%s</td><td class=\"n sh\" data-v=\"%.3f\">"
                   "<span class=\"bar t\" style=\"width:%.0fpx\"></span>%.1f</td>",
              w->count, w->has_count ? num(w->count) : "-", ts, ts * 0.6, ts);
    }
    fprintf(out, "</tr>\n");
  }
  fprintf(out, "</tbody></table></div></section>\n");
}

static void plan_html(FILE *out, const Report *r) {
  const Plan *p = r->p;
  fprintf(out, "<section id=\"memory\"><h2>Memory plan</h2>\n"
               "<table class=\"algos\" id=\"algos\"><tr><th>algorithm</th><th>workspace B</th>"
               "<th>/ lower bound</th><th></th></tr>");
  size_t most = 1;
  for (int i = 0; i < p->nresults; i++)
    if (p->results[i].bytes > most)
      most = p->results[i].bytes;
  for (int i = 0; i < p->nresults; i++) {
    const AlgoResult *a = &p->results[i];
    fprintf(out, "<tr><td>%s%s</td><td>%s</td><td>%.3f</td><td><span class=\"bar t\" "
                 "style=\"width:%.0fpx\"></span></td></tr>",
            a->algo, a->algo == p->algo ? " (kept)" : "", num(a->bytes),
            p->lower_bound ? (double)a->bytes / (double)p->lower_bound : 1.0,
            300.0 * (double)a->bytes / (double)most);
  }
  fprintf(out, "<tr><td>lower bound</td><td>%s</td><td>1.000</td><td><span class=\"bar\" "
               "style=\"width:%.0fpx\"></span></td></tr></table>\n",
          num(p->lower_bound), 300.0 * (double)p->lower_bound / (double)most);
  fprintf(out, "<p class=\"note\">x: schedule step, y: address in the pool. Wheel to zoom, "
               "drag to pan, hover a buffer for its details, click it to find its layer. "
               "<span class=\"tools\"><button id=\"zin\">zoom in</button><button id=\"zout\">"
               "zoom out</button><button id=\"zpeak\">peak step</button><button id=\"zreset\">"
               "whole plan</button></span></p>\n<div id=\"planbox\">");
  print_plan_picture(out, r->g, p, true);
  fprintf(out, "</div></section>\n");
}

/* The graph as an arc diagram: op boxes in schedule order, top to
 * bottom, between a box for the model inputs and one for the outputs;
 * every non-constant tensor an arc on the right from its producer to
 * each reader (longer jumps bulge further). */
static void graph_html(FILE *out, const Report *r) {
  const Graph *g = r->g;
  const Plan *p = r->p;
  const double row = 20, bw = 250, top = 6;
  int n = p->norder;
  int *step_of = arena_array((size_t)g->nops + 1, sizeof(int));
  for (int s = 0; s < n; s++)
    step_of[p->order[s]] = s;
  /* Rows: 0 the inputs, 1..n the ops, n+1 the outputs. */
  double maxd = 0;
  for (int s = 0; s < n; s++) {
    const Op *op = &g->ops[p->order[s]];
    for (int k = 0; k < op->ninputs; k++) {
      int t = op->inputs[k];
      if (t < 0 || is_const(&g->tensors[t]))
        continue;
      int from = g->tensors[t].producer >= 0 ? step_of[g->tensors[t].producer] + 1 : 0;
      double d = 10 + 6.0 * (s + 1 - from);
      if (d > maxd)
        maxd = d;
    }
  }
  if (maxd > 220)
    maxd = 220;
  double width = 8 + bw + maxd * 0.75 + 16, height = top + (n + 2) * row + 4;
  fprintf(out, "<section id=\"graph\"><h2>Graph</h2><p class=\"note\">Ops in execution "
               "order; an arc per tensor from the op producing it to each op reading it "
               "(constants left out). Click an op to find it in the table; hover an arc "
               "for its tensor.</p><div class=\"graph\"><div id=\"graphbox\">"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"graphsvg\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
               "font-size=\"11\">\n",
          width, height, width, height);
#define ROW_Y(i) (top + (i) * row)
  fprintf(out, "<g><rect x=\"8\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" rx=\"8\" "
               "fill=\"#9ecae1\" stroke=\"#557\"/><text x=\"14\" y=\"%.1f\">inputs: %s</text></g>\n",
          ROW_Y(0), bw, row - 4, ROW_Y(0) + 12, tensors_text(g, g->inputs, g->ninputs));
  for (int s = 0; s < n; s++) {
    const Row *w = &r->rows[s];
    fprintf(out, "<g class=\"node\" id=\"node-%d\" data-op=\"%d\"><title>#%d ", w->op, w->op,
            w->op);
    h(out, op_display_name(g, w->op));
    fprintf(out, ": ");
    h(out, w->kernel ? w->kernel : "view, no call");
    fprintf(out, "</title><rect x=\"8\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" rx=\"3\" "
                 "fill=\"%s\" stroke=\"#889\"/><text x=\"14\" y=\"%.1f\">#%d ",
            ROW_Y(s + 1), bw, row - 4, r->heavy[s] ? "#fff3cd" : w->kernel ? "#fff" : "#eee",
            ROW_Y(s + 1) + 12, w->op);
    h(out, op_display_name(g, w->op));
    fprintf(out, "</text><text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#667\">",
            8 + bw - 5, ROW_Y(s + 1) + 12);
    h(out, tensors_text(g, g->ops[w->op].outputs, g->ops[w->op].noutputs > 1 ? 1 : g->ops[w->op].noutputs));
    fprintf(out, "</text></g>\n");
  }
  fprintf(out, "<g><rect x=\"8\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" rx=\"8\" "
               "fill=\"#a1d99b\" stroke=\"#575\"/><text x=\"14\" y=\"%.1f\">outputs: %s</text></g>\n",
          ROW_Y(n + 1), bw, row - 4, ROW_Y(n + 1) + 12,
          tensors_text(g, g->outputs, g->noutputs));
  /* arcs: readers of each tensor, then the model outputs */
  double x0 = 8 + bw;
  for (int s = 0; s <= n; s++) {
    const Op *op = s < n ? &g->ops[p->order[s]] : NULL;
    int nin = op ? op->ninputs : g->noutputs;
    for (int k = 0; k < nin; k++) {
      int t = op ? op->inputs[k] : g->outputs[k];
      if (t < 0 || is_const(&g->tensors[t]))
        continue;
      const Tensor *x = &g->tensors[t];
      int prod = x->producer;
      int from = prod >= 0 ? step_of[prod] + 1 : 0;
      int to = s + 1;
      double d = 10 + 6.0 * (to - from);
      if (d > maxd)
        d = maxd;
      double y1 = ROW_Y(from) + (row - 4) * 0.7, y2 = ROW_Y(to) + (row - 4) * 0.3;
      fprintf(out, "<path class=\"edge\" data-from=\"%d\" data-to=\"%d\" data-tip=\"t%d ",
              prod, op ? op->index : -1, t);
      h(out, tensors_text(g, &t, 1));
      fprintf(out, " ");
      h(out, x->name);
      fprintf(out, ": %s -&gt; %s\" d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f\"/>\n",
              prod >= 0 ? arena_printf("#%d", prod) : "input",
              op ? arena_printf("#%d", op->index) : "output", x0, y1, x0 + d, y1, x0 + d, y2,
              x0, y2);
    }
  }
#undef ROW_Y
  fprintf(out, "</svg></div></div></section>\n");
}

static void write_html(FILE *out, const Report *r) {
  const Graph *g = r->g;
  const char *base = strrchr(g->path, '/');
  base = base ? base + 1 : g->path;
  fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
               "<title>tinyaot report: ");
  h(out, base);
  /* Nothing may load from anywhere: the policy makes the browser refuse
   * (and report on its console) any fetch the page would attempt. */
  fprintf(out, "</title>\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
               "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
               "<link rel=\"icon\" href=\"data:,\">\n<style>%s</style></head>\n"
               "<body><header><h1>",
          css);
  h(out, base);
  fprintf(out, "</h1><p>tinyaot %s report: %d ops, %s MACs, workspace %s, flash %s (%s)</p>"
               "</header><main>\n",
          TINYAOT_VERSION, g->nops, num((unsigned long long)r->macs),
          human_bytes(r->p->workspace_bytes),
          human_bytes(r->o->flash->measured ? r->o->flash->size_total : flash_sum(r->o->flash)),
          r->o->flash->measured ? "measured" : "estimated");
  summary_html(out, r);
  layers_html(out, r);
  plan_html(out, r);
  graph_html(out, r);
  fprintf(out, "</main><div id=\"tip\"></div>\n<script type=\"application/json\" "
               "id=\"report-data\">");
  write_json(out, r);
  fprintf(out, "</script>\n<script>%s</script>\n</body></html>\n", script);
}

void write_report(FILE *out, const Graph *g, const Plan *p, const ReportOptions *o,
                  bool json) {
  Report r = {.g = g, .p = p, .o = o};
  gather(&r);
  if (json)
    write_json(out, &r);
  else
    write_html(out, &r);
}
