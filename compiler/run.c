/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run.c - `tinyaot run`: build a generated folder with the host C
 * compiler and run it on raw input files (TVM's compile-and-run).
 *
 * Needs: a folder emit_folder() wrote.  Adds a harness, tinyaot_harness.c,
 * written for this model: it reads the inputs, gives <prefix>_run()
 * exactly <PREFIX>_WORKSPACE_SIZE bytes ("use calculated workspaces"),
 * runs, checks, and writes the outputs.
 *
 * The workspace (every pool, the persistent area, every input and output
 * block) is a heap block of exactly its size between two guard zones;
 * the harness checks the guards after every inference and fails when one
 * changed.  Under AddressSanitizer the blocks have no guard zones and are
 * exactly their size, so ASan itself reports any access outside.  Before
 * every inference the workspace is filled with a pattern that changes
 * from one inference to the next, so a runner that read memory it never
 * wrote would not give stable results.
 *
 * Several inferences run in one process: k times the model's inputs and
 * outputs on the command line.  --dump-tensors writes every tensor of the
 * first inference as t<index>.bin right after the op producing it.
 *
 * Models with state (a persistent area): the area is filled with garbage,
 * then <prefix>_reset() runs once before the first inference, so the state
 * carries over from one inference to the next (a stream), or before every
 * inference with --reset-each.  --dump-state DIR writes every variable
 * tensor after inference k as DIR/step<k>/t<index>.bin.
 *
 * Streaming models (CIRCULAR_BUFFER): an inference whose run returns
 * <PREFIX>_PENDING stored its frame and wrote no outputs; the harness
 * says so on stderr ("inference K: pending ..."), leaves that
 * inference's output files unwritten, and goes on (exit status 0).
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* 'text' quoted for sh. */
static const char *shell_quote(const char *s) {
  size_t n = 3;
  for (const char *c = s; *c; c++)
    n += *c == '\'' ? 4 : 1;
  char *q = arena_alloc(n), *o = q;
  *o++ = '\'';
  for (const char *c = s; *c; c++) {
    if (*c == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *c;
    }
  }
  *o++ = '\'';
  *o = '\0';
  return q;
}

static const char *upper_case(const char *s) {
  char *u = arena_strdup(s);
  for (char *c = u; *c; c++)
    if (*c >= 'a' && *c <= 'z')
      *c = (char)(*c - 'a' + 'A');
  return u;
}

/* text safe inside a C string literal and a printf format. */
static const char *comment_free(const char *s) {
  char *o = arena_strdup(s ? s : "");
  for (char *c = o; *c; c++)
    if (*c == '"' || *c == '\\' || *c == '%' || (unsigned char)*c < 0x20)
      *c = '_';
  return o;
}

/* Every variable tensor in the persistent area: "{tensor, offset, bytes},". */
static const char *state_table(const Graph *g, const Plan *p, int *n) {
  const char *s = "";
  *n = 0;
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    for (int k = 0; b->persistent && k < b->ntensors; k++) {
      const Tensor *t = &g->tensors[b->tensors[k]];
      if (!t->is_variable)
        continue;
      s = arena_printf("%s  {%d, %zu, %zu},\n", s, t->index, b->offset, tensor_bytes(t));
      ++*n;
    }
  }
  return s;
}

/* The end of a profiled harness: the per-op table on stdout, and in the
 * file given with --profile (tab-separated, doc/report.md), with the
 * whole run timed by the same counter for comparison. */
static void put_profile_report(FILE *f, const Graph *g, const char *P, const char *model) {
  fprintf(f,
          "  {\n"
          "    unsigned long long ops = 0;\n"
          "    FILE *pf = profile_out ? fopen(profile_out, \"w\") : NULL;\n"
          "    if (profile_out && !pf) {\n"
          "      fprintf(stderr, \"harness: cannot write %%s\\n\", profile_out);\n"
          "      status = 5;\n"
          "    }\n"
          "    for (i = 0; i < %d; i++)\n"
          "      ops += %s_profile_counts[i];\n"
          "    printf(\"per-op profile of %s: %%s, %%d run(s) summed\\n\", %s_profile_unit, run);\n"
          "    printf(\"%%5s  %%-28s %%14s %%7s\\n\", \"op\", \"name\", %s_profile_unit, \"share\");\n"
          "    if (pf)\n"
          "      fprintf(pf, \"# tinyaot profile of %s: unit %%s, %%d runs (sums over the runs)\\n\"\n"
          "              \"op\\tname\\tcount\\n\", %s_profile_unit, run);\n"
          "    for (i = 0; i < %d; i++) {\n"
          "      const char *n = %s_profile_names[i] ? %s_profile_names[i] : \"?\";\n"
          "      printf(\"%%5d  %%-28s %%14llu %%6.2f%%%%\\n\", i, n, %s_profile_counts[i],\n"
          "             ops ? 100.0 * (double)%s_profile_counts[i] / (double)ops : 0.0);\n"
          "      if (pf)\n"
          "        fprintf(pf, \"%%d\\t%%s\\t%%llu\\n\", i, n, %s_profile_counts[i]);\n"
          "    }\n"
          "    printf(\"ops total %%llu %%s; whole run %%llu %%s (ops / whole run = %%.2f%%%%)\\n\",\n"
          "           ops, %s_profile_unit, whole, %s_profile_unit,\n"
          "           whole ? 100.0 * (double)ops / (double)whole : 0.0);\n"
          "    if (pf && (fprintf(pf, \"total\\t-\\t%%llu\\n\", whole) < 0 || fclose(pf))) {\n"
          "      fprintf(stderr, \"harness: cannot write %%s\\n\", profile_out);\n"
          "      status = 5;\n"
          "    }\n"
          "  }\n",
          g->nops, P, comment_free(model), P, P, comment_free(model), P, g->nops, P, P, P, P,
          P, P, P);
}

static void write_harness(FILE *f, const Graph *g, const Plan *p,
                          const EmitOptions *eo, const EmitResult *er,
                          const RunOptions *ro) {
  const char *P = eo->prefix;
  const char *U = upper_case(P);
  int nin = g->ninputs, nout = g->noutputs;
  bool multi = p->npools > 1;
  bool ps = p->persistent_bytes > 0;
  bool pends = model_pends(g);

  fprintf(f,
          "/* tinyaot_harness.c - runs %s_run() on raw files (tinyaot run). */\n"
          "#include \"%s.h\"\n\n"
          "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n",
          P, P);
  fputs("#if defined(__SANITIZE_ADDRESS__)\n"
        "#define EXACT_BLOCKS 1\n"
        "#elif defined(__has_feature)\n"
        "#if __has_feature(address_sanitizer)\n"
        "#define EXACT_BLOCKS 1\n"
        "#endif\n"
        "#endif\n"
        "#ifdef EXACT_BLOCKS\n#define GUARD 0\n#else\n#define GUARD 64\n#endif\n\n"
        "typedef struct {\n"
        "  const char *what;\n"
        "  unsigned char *block, *data;\n"
        "  size_t size;\n"
        "} region;\n\n"
        "static const char *dump_dir;\n\n",
        f);
  fprintf(f,
          "void tinyaot_tensor_hook(int tensor, const void *data, size_t bytes);\n"
          "void tinyaot_tensor_hook(int tensor, const void *data, size_t bytes) {\n"
          "  char path[4096];\n"
          "  FILE *out;\n"
          "  if (!dump_dir)\n    return;\n"
          "  sprintf(path, \"%%.4000s/t%%d.bin\", dump_dir, tensor);\n"
          "  out = fopen(path, \"wb\");\n"
          "  if (!out || fwrite(data, 1, bytes, out) != bytes || fclose(out)) {\n"
          "    fprintf(stderr, \"harness: cannot write %%s\\n\", path);\n"
          "    exit(1);\n"
          "  }\n"
          "}\n\n");
  fputs("static void alloc_region(region *r, const char *what, size_t size) {\n"
        "  r->what = what;\n"
        "  r->size = size;\n"
        "  r->block = malloc(size + 2 * GUARD ? size + 2 * GUARD : 1);\n"
        "  if (!r->block) {\n"
        "    fprintf(stderr, \"harness: out of memory\\n\");\n"
        "    exit(1);\n"
        "  }\n"
        "  memset(r->block, 0x5a, GUARD);\n"
        "  memset(r->block + GUARD + size, 0x5a, GUARD);\n"
        "  r->data = r->block + GUARD;\n"
        "}\n\n"
        "static int guards_intact(const region *r, int run) {\n"
        "  size_t i;\n"
        "  for (i = 0; i < GUARD; i++) {\n"
        "    if (r->block[i] != 0x5a || r->block[GUARD + r->size + i] != 0x5a) {\n"
        "      fprintf(stderr, \"harness: inference %d wrote outside the %s \"\n"
        "              \"(%lu bytes): guard byte %s%lu changed\\n\", run, r->what,\n"
        "              (unsigned long)r->size, r->block[i] != 0x5a ? \"-\" : \"+\",\n"
        "              (unsigned long)(r->block[i] != 0x5a ? GUARD - i : i));\n"
        "      return 0;\n"
        "    }\n"
        "  }\n"
        "  return 1;\n"
        "}\n\n"
        "static void read_exact(const char *path, unsigned char *dst, size_t n) {\n"
        "  FILE *in = fopen(path, \"rb\");\n"
        "  size_t got;\n"
        "  if (!in) {\n"
        "    fprintf(stderr, \"harness: cannot open %s\\n\", path);\n"
        "    exit(1);\n"
        "  }\n"
        "  got = fread(dst, 1, n, in);\n"
        "  if (got != n || fgetc(in) != EOF) {\n"
        "    fprintf(stderr, \"harness: %s must hold exactly %lu bytes\\n\", path,\n"
        "            (unsigned long)n);\n"
        "    exit(1);\n"
        "  }\n"
        "  fclose(in);\n"
        "}\n\n"
        "static void write_all(const char *path, const unsigned char *src, size_t n) {\n"
        "  FILE *out = fopen(path, \"wb\");\n"
        "  if (!out || fwrite(src, 1, n, out) != n || fclose(out)) {\n"
        "    fprintf(stderr, \"harness: cannot write %s\\n\", path);\n"
        "    exit(1);\n"
        "  }\n"
        "}\n\n",
        f);

  fprintf(f, "#define NIN %d\n#define NOUT %d\n#define NPOOLS %d\n\n", nin, nout,
          p->npools);
  fprintf(f, "static const size_t in_size[NIN + 1] = {");
  for (int i = 0; i < nin; i++)
    fprintf(f, "%s_INPUT%d_SIZE, ", U, i);
  fprintf(f, "0};\nstatic const size_t out_size[NOUT + 1] = {");
  for (int i = 0; i < nout; i++)
    fprintf(f, "%s_OUTPUT%d_SIZE, ", U, i);
  fprintf(f, "0};\nstatic const size_t pool_size[NPOOLS] = {");
  if (multi)
    for (int i = 0; i < p->npools; i++)
      fprintf(f, p->pools[i].used ? "%s%s_POOL_%s_SIZE" : "%s0 /* %s_POOL_%s_UNUSED */",
              i ? ", " : "", U, upper_case(p->pools[i].name));
  else
    fprintf(f, "%s_WORKSPACE_SIZE", U);
  fprintf(f, "};\n\n");
  int nstate = 0;
  const char *tab = ps ? state_table(g, p, &nstate) : "";
  if (ps && ro->state_dir)
    fprintf(f,
            "/* The variable tensors in the persistent area. */\n"
            "static const struct { int tensor; size_t offset, bytes; } state[%d] = {\n"
            "%s};\n\n"
            "static void dump_state(const char *dir, int run, const unsigned char *ps) {\n"
            "  char path[4096];\n"
            "  int k;\n"
            "  for (k = 0; k < %d; k++) {\n"
            "    sprintf(path, \"%%.4000s/step%%d/t%%d.bin\", dir, run, state[k].tensor);\n"
            "    write_all(path, ps + state[k].offset, state[k].bytes);\n"
            "  }\n"
            "}\n\n",
            nstate ? nstate : 1, nstate ? tab : "  {0, 0, 0},\n", nstate);
  fprintf(f,
          "int main(int argc, char **argv) {\n"
          "  region pool[NPOOLS], in[NIN + 1], out[NOUT + 1];\n"
          "  unsigned char *saved[NIN + 1];\n"
          "  struct %s_inputs inputs;\n"
          "  struct %s_outputs outputs;\n",
          P, P);
  if (multi)
    fprintf(f, "  struct %s_pools pools;\n", P);
  if (ps)
    fprintf(f, "  region persistent;\n");
  fprintf(f,
          "  int a = 1, run, i, status = 0;\n"
          "  const char *state_dir = NULL, *profile_out = NULL;\n"
          "  unsigned long long t0 = 0, whole = 0;\n\n"
          "  (void)state_dir;\n"
          "  (void)profile_out;\n"
          "  (void)t0;\n"
          "  (void)whole;\n"
          "  for (;;) {\n"
          "    if (argc > a + 1 && !strcmp(argv[a], \"--profile\")) {\n"
          "      profile_out = argv[a + 1];\n"
          "      a += 2;\n"
          "      continue;\n"
          "    }\n"
          "    if (argc > a + 1 && !strcmp(argv[a], \"--dump\")) {\n"
          "      dump_dir = argv[a + 1];\n"
          "      a += 2;\n"
          "    } else if (argc > a + 1 && !strcmp(argv[a], \"--state\")) {\n"
          "      state_dir = argv[a + 1];\n"
          "      a += 2;\n"
          "    } else {\n"
          "      break;\n"
          "    }\n"
          "  }\n"
          "  if (argc == a || (argc - a) %% (NIN + NOUT)) {\n"
          "    fprintf(stderr, \"usage: %%s [--dump DIR] (IN x %d, OUT x %d)...\\n\", argv[0]);\n"
          "    return 2;\n"
          "  }\n"
          "  memset(&inputs, 0, sizeof inputs);\n"
          "  memset(&outputs, 0, sizeof outputs);\n"
          "  for (i = 0; i < NPOOLS; i++)\n"
          "    alloc_region(&pool[i], \"workspace\", pool_size[i]);\n"
          "  for (i = 0; i < NIN; i++) {\n"
          "    alloc_region(&in[i], \"input\", in_size[i]);\n"
          "    saved[i] = malloc(in_size[i] ? in_size[i] : 1);\n"
          "  }\n"
          "  for (i = 0; i < NOUT; i++)\n"
          "    alloc_region(&out[i], \"output\", out_size[i]);\n",
          nin, nout);
  if (ps)
    fprintf(f,
            "  alloc_region(&persistent, \"persistent area\", %s_PERSISTENT_SIZE);\n"
            "  memset(persistent.data, 0xa5, persistent.size);\n",
            U);
  if (multi)
    for (int i = 0; i < p->npools; i++)
      fprintf(f, "  pools.%s = pool[%d].data;\n", p->pools[i].name, i);
  fprintf(f, "\n  for (run = 0; a < argc; run++, a += NIN + NOUT) {\n");
  fprintf(f,
          "    int st, ok = 1, skip_outputs = 0;\n"
          "    for (i = 0; i < NPOOLS; i++)\n"
          "      memset(pool[i].data, run %% 2 ? 0xc3 : 0x3c, pool[i].size);\n");
  if (ps)
    fprintf(f, "    if (%s)\n      %s_reset(persistent.data);\n",
            ro->reset_each ? "1" : "run == 0", P);
  for (int i = 0; i < nin; i++)
    fprintf(f, "    inputs.%s = (const void *)in[%d].data;\n", er->in_names[i], i);
  for (int i = 0; i < nout; i++)
    fprintf(f, "    outputs.%s = (void *)out[%d].data;\n", er->out_names[i], i);
  if (eo->io_in_workspace)
    fprintf(f, "    %s_io(%s, &inputs, &outputs);\n", P,
            multi ? "&pools" : "pool[0].data");
  for (int i = 0; i < nin; i++)
    fprintf(f,
            "    read_exact(argv[a + %d], (unsigned char *)inputs.%s, in_size[%d]);\n"
            "    memcpy(saved[%d], inputs.%s, in_size[%d]);\n",
            i, er->in_names[i], i, i, er->in_names[i], i);
  if (eo->profile)
    fprintf(f, "    t0 = %s_profile_now();\n", P);
  fprintf(f, "    st = %s_run(&inputs, &outputs, %s%s);\n", P,
          multi ? "&pools" : "pool[0].data", ps ? ", persistent.data" : "");
  if (eo->profile)
    fprintf(f, "    whole += %s_profile_now() - t0;\n", P);
  fprintf(f, "    dump_dir = NULL;\n");
  /* A streaming model's call that only stored its frame: no outputs. */
  if (pends)
    fprintf(f,
            "    if (st == %s_PENDING) {\n"
            "      fprintf(stderr, \"harness: inference %%d: pending (a CIRCULAR_BUFFER "
            "waits for more frames): outputs not written\\n\", run);\n"
            "      skip_outputs = 1;\n"
            "      st = 0;\n"
            "    }\n",
            U);
  fprintf(f,
          "    if (st != 0) {\n"
          "      fprintf(stderr, \"harness: inference %%d: %s_run returned %%d\\n\", run, st);\n"
          "      status = 3;\n"
          "      break;\n"
          "    }\n"
          "    for (i = 0; i < NPOOLS; i++)\n"
          "      ok &= guards_intact(&pool[i], run);\n"
          "    for (i = 0; i < NIN; i++)\n"
          "      ok &= guards_intact(&in[i], run);\n"
          "    for (i = 0; i < NOUT; i++)\n"
          "      ok &= guards_intact(&out[i], run);\n",
          P);
  if (ps)
    fprintf(f, "    ok &= guards_intact(&persistent, run);\n");
  if (!eo->io_in_workspace)
    fprintf(f,
            "    for (i = 0; i < NIN; i++) {\n"
            "      if (memcmp(saved[i], in[i].data, in_size[i])) {\n"
            "        fprintf(stderr, \"harness: inference %%d changed input %%d\\n\", run, i);\n"
            "        ok = 0;\n"
            "      }\n"
            "    }\n");
  fprintf(f, "    if (!ok) {\n      status = 4;\n      break;\n    }\n");
  if (ps && ro->state_dir)
    fprintf(f, "    if (state_dir)\n      dump_state(state_dir, run, persistent.data);\n");
  for (int i = 0; i < nout; i++)
    fprintf(f,
            "    if (!skip_outputs)\n"
            "      write_all(argv[a + NIN + %d], (const unsigned char *)outputs.%s, "
            "out_size[%d]);\n",
            i, er->out_names[i], i);
  fprintf(f, "  }\n");
  if (eo->profile) {
    fprintf(f, "  if (!status) {\n");
    put_profile_report(f, g, P, eo->model);
    fprintf(f, "  }\n");
  }
  /* Every exit after the allocations frees them (a leak report under
   * the sanitizers would turn status 3 or 4 into 1). */
  fprintf(f,
          "  for (i = 0; i < NPOOLS; i++)\n    free(pool[i].block);\n"
          "  for (i = 0; i < NIN; i++) {\n    free(in[i].block);\n    free(saved[i]);\n  }\n"
          "  for (i = 0; i < NOUT; i++)\n    free(out[i].block);\n");
  if (ps)
    fprintf(f, "  free(persistent.block);\n");
  fprintf(f, "  return status;\n}\n");
}

static void make_folder(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
    error_file(dir, "cannot create folder: %s", strerror(errno));
}

static int exit_status(int rc) {
  if (rc == -1)
    return 1;
  if (WIFEXITED(rc))
    return WEXITSTATUS(rc);
  return 128 + (WIFSIGNALED(rc) ? WTERMSIG(rc) : 0);
}

/* The compiler command's first word (--cc "ccache gcc" runs ccache) must
 * be a program: a path that can be run, or a name found on $PATH.  Else
 * error_file() naming it, before the shell would say "not found" and
 * exit 127. */
void check_compiler(const char *cc) {
  size_t n = strcspn(cc, " \t");
  const char *prog = arena_printf("%.*s", (int)n, cc);
  if (!*prog)
    error_file("--cc", "no C compiler given");
  if (strchr(prog, '/')) {
    if (access(prog, X_OK) != 0)
      error_file(prog, "cannot run the C compiler (--cc or $CC): %s", strerror(errno));
    return;
  }
  const char *path = getenv("PATH");
  for (const char *d = path ? path : ""; ; ) {
    size_t k = strcspn(d, ":");
    const char *full = arena_printf("%.*s/%s", (int)k, k ? d : ".", prog);
    if (access(full, X_OK) == 0)
      return;
    if (!d[k])
      break;
    d += k + 1;
  }
  error_file(prog, "cannot run the C compiler (--cc or $CC): not found on $PATH");
}

int build_and_run(const Graph *g, const Plan *p, const EmitOptions *eo,
                  const EmitResult *er, const char *dir, const RunOptions *ro,
                  char **inputs, int ninputs, char **outputs, int noutputs) {
  const char *hpath = arena_printf("%s/tinyaot_harness.c", dir);
  FILE *f = fopen(hpath, "wb");
  if (!f)
    error_file(hpath, "cannot write: %s", strerror(errno));
  write_harness(f, g, p, eo, er, ro);
  if (ferror(f) | (fclose(f) != 0))
    error_file(hpath, "write error");

  const char *U = upper_case(eo->prefix);
  const char *exe = arena_printf("%s/tinyaot_harness", dir);
  const char *cmd = arena_printf(
      "%s -std=c99 -O2 -I%s -I%s/runtime/include%s %s -o %s", ro->cc,
      shell_quote(dir), shell_quote(dir),
      ro->dump ? arena_printf(" -D%s_TENSOR_HOOK=tinyaot_tensor_hook", U) : "",
      ro->cflags ? ro->cflags : "", shell_quote(exe));
  for (int i = 0; i < er->nsources; i++)
    cmd = arena_printf("%s %s", cmd,
                       shell_quote(arena_printf("%s/%s", dir, er->sources[i])));
  for (int i = 0; i < ro->nsources; i++)
    cmd = arena_printf("%s %s", cmd, shell_quote(ro->sources[i]));
  cmd = arena_printf("%s %s -lm", cmd, shell_quote(hpath));
  /* The command, kept with the folder (--keep) to rebuild by hand. */
  const char *spath = arena_printf("%s/tinyaot_build.sh", dir);
  FILE *sh = fopen(spath, "wb");
  if (!sh || fprintf(sh, "#!/bin/sh\n# Builds tinyaot_harness (tinyaot run).\n%s\n", cmd) < 0 ||
      fclose(sh) != 0)
    error_file(spath, "cannot write");
  fflush(stdout);
  int rc = exit_status(system(cmd));
  if (rc != 0) {
    fprintf(stderr, "tinyaot: building the generated code failed (%s)\n", cmd);
    return rc;
  }

  const char *run = shell_quote(exe);
  if (ro->dump) {
    make_folder(ro->dump);
    run = arena_printf("%s --dump %s", run, shell_quote(ro->dump));
  }
  if (eo->profile && ro->profile_out)
    run = arena_printf("%s --profile %s", run, shell_quote(ro->profile_out));
  int per_in = g->ninputs, per_out = g->noutputs;
  int runs = per_in ? ninputs / per_in : 1;
  if (ro->state_dir) {
    make_folder(ro->state_dir);
    for (int k = 0; k < runs; k++)
      make_folder(arena_printf("%s/step%d", ro->state_dir, k));
    run = arena_printf("%s --state %s", run, shell_quote(ro->state_dir));
  }
  for (int k = 0; k < runs; k++) {
    for (int i = 0; i < per_in; i++)
      run = arena_printf("%s %s", run, shell_quote(inputs[k * per_in + i]));
    for (int i = 0; i < per_out; i++)
      run = arena_printf("%s %s", run, shell_quote(outputs[k * per_out + i]));
  }
  (void)noutputs;
  fflush(stdout);
  rc = exit_status(system(run));
  if (rc != 0)
    fprintf(stderr, "tinyaot: the generated code failed (exit status %d)\n", rc);
  return rc;
}
