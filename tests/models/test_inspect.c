/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `tinyaot inspect` on every shared model, checked against the goldens.
 *
 * For every .tflite under models/ (subfolders included) the compiler
 * binary ($TINYAOT) runs `inspect` and `inspect --json`; both must exit
 * 0 and the JSON must parse.  For every model with a
 * goldens/<stem>/manifest.json, the model's I/O tensors (tensor index,
 * dtype, shape, scale, zero point, quantized dimension, bytes) and its
 * operator list must equal the manifest's, both in the IR (read in
 * process) and in the --json output.  The manifests were written by
 * TFLite Micro's tooling, not by us.
 */
#define _POSIX_C_SOURCE 200809L
#include "json.h"
#include "test.h"
#include "tinyaot.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tinyaot_bin(void) {
  const char *b = getenv("TINYAOT");
  return b && *b ? b : "build/tinyaot";
}

/* Runs `tinyaot inspect [--json] model > out`; returns the exit status. */
static int run_inspect(const char *model, bool json, const char *out) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' inspect %s'%s' > '%s' 2>&1", tinyaot_bin(),
           json ? "--json " : "", model, out);
  int rc = system(cmd);
  return rc == -1 ? -1 : (rc >> 8) & 0xff;
}

static char tmp_text[64], tmp_json[64];

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the .tflite files under dir (recursively, sorted). */
static void find_models(const char *dir, char ***list, int *n, int *cap) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  char **names = NULL;
  int nn = 0, nc = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    if (nn == nc) {
      nc = nc ? 2 * nc : 64;
      names = realloc(names, (size_t)nc * sizeof *names);
    }
    names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof *names, cmp_names);
  for (int i = 0; i < nn; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct stat st;
    size_t len = strlen(names[i]);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      find_models(path, list, n, cap);
    } else if (len > 7 && !strcmp(names[i] + len - 7, ".tflite")) {
      if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *list = realloc(*list, (size_t)*cap * sizeof **list);
      }
      (*list)[(*n)++] = strdup(path);
    }
    free(names[i]);
  }
  free(names);
}

/* First difference between a manifest I/O entry and tensor t, or NULL. */
static const char *io_mismatch(const Json *e, const Tensor *t, char *buf,
                               size_t n) {
  const char *dt = json_str(json_get(e, "dtype"), "?");
  if (strcmp(dt, dtype_name(t->dtype)))
    return snprintf(buf, n, "dtype: expected %s, got %s", dt,
                    dtype_name(t->dtype)), buf;
  const Json *shape = json_get(e, "shape");
  if (json_len(shape) != t->ndims)
    return snprintf(buf, n, "rank: expected %d, got %d", json_len(shape),
                    t->ndims), buf;
  for (int i = 0; i < t->ndims; i++)
    if (json_int(json_at(shape, i), -1) != t->dims[i])
      return snprintf(buf, n, "shape[%d]: expected %lld, got %d", i,
                      json_int(json_at(shape, i), -1), t->dims[i]), buf;
  const Json *scale = json_get(e, "scale"), *zp = json_get(e, "zero_point");
  if (json_len(scale) != t->q.nscale)
    return snprintf(buf, n, "scale count: expected %d, got %d",
                    json_len(scale), t->q.nscale), buf;
  for (int i = 0; i < t->q.nscale; i++) {
    /* The manifest writes the float32 as the shortest double. */
    float want = (float)json_num(json_at(scale, i), -1.0);
    if (want != t->q.scale[i])
      return snprintf(buf, n, "scale[%d]: expected %.9g, got %.9g", i,
                      (double)want, (double)t->q.scale[i]), buf;
    if (json_int(json_at(zp, i), -99999) != t->q.zero_point[i])
      return snprintf(buf, n, "zero_point[%d]: expected %lld, got %lld", i,
                      json_int(json_at(zp, i), -99999),
                      (long long)t->q.zero_point[i]), buf;
  }
  const Json *qd = json_get(e, "quantized_dimension");
  if (qd && json_int(qd, -1) != t->q.axis)
    return snprintf(buf, n, "quantized_dimension: expected %lld, got %d",
                    json_int(qd, -1), t->q.axis), buf;
  long long bytes = json_int(json_get(e, "bytes"), -1);
  if (bytes != (long long)tensor_bytes(t))
    return snprintf(buf, n, "bytes: expected %lld, got %zu", bytes,
                    tensor_bytes(t)), buf;
  return NULL;
}

/* The same for our --json output's tensor entry. */
static const char *json_io_mismatch(const Json *e, const Json *ours, char *buf,
                                    size_t n) {
  static const char *const keys[] = {"dtype", "shape", "scale", "zero_point",
                                     "bytes"};
  for (int k = 0; k < 5; k++) {
    const Json *a = json_get(e, keys[k]), *b = json_get(ours, keys[k]);
    if (!a || !b || a->type != b->type)
      return snprintf(buf, n, "%s missing or of another type", keys[k]), buf;
    if (a->type == JSON_STRING && strcmp(a->string, b->string))
      return snprintf(buf, n, "%s: expected %s, got %s", keys[k], a->string,
                      b->string), buf;
    if (a->type == JSON_NUMBER && a->integer != b->integer)
      return snprintf(buf, n, "%s: expected %lld, got %lld", keys[k],
                      a->integer, b->integer), buf;
    if (a->type == JSON_ARRAY) {
      if (a->n != b->n)
        return snprintf(buf, n, "%s: expected %d entries, got %d", keys[k],
                        a->n, b->n), buf;
      for (int i = 0; i < a->n; i++)
        if ((float)a->items[i].number != (float)b->items[i].number)
          return snprintf(buf, n, "%s[%d]: expected %.9g, got %.9g", keys[k],
                          i, a->items[i].number, b->items[i].number), buf;
    }
  }
  return NULL;
}

static void check_manifest(const char *dir, const char *model_path,
                           const char *stem, const Json *ours) {
  char path[8192], err[256], why[512];
  snprintf(path, sizeof path, "%s/goldens/%s/manifest.json", dir, stem);
  if (access(path, R_OK) != 0)
    return;
  Json *m = json_load(path, err, sizeof err);
  if (!CHECK(m != NULL, "%s's manifest parses: %s", stem, err))
    return;

  jmp_buf jb;
  error_jmp = &jb;
  Graph *g = NULL;
  if (!setjmp(jb)) {
    size_t size;
    uint8_t *buf = read_file(model_path, &size);
    g = read_tflite(model_path, buf, size);
    verify(g);
  }
  error_jmp = NULL;
  if (!CHECK(g != NULL, "%s reads in process: %s", stem, error_message)) {
    json_free(m);
    return;
  }

  for (int io = 0; io < 2; io++) {
    const char *key = io ? "outputs" : "inputs";
    const Json *list = json_get(m, key);
    int n = io ? g->noutputs : g->ninputs;
    const int *idx = io ? g->outputs : g->inputs;
    const char *bad = NULL;
    if (json_len(list) != n)
      bad = (snprintf(why, sizeof why, "expected %d, got %d", json_len(list), n), why);
    for (int i = 0; i < n && !bad; i++) {
      const Json *e = json_at(list, i);
      long long ti = json_int(json_get(e, "tensor_index"), -1);
      if (ti != idx[i]) {
        bad = (snprintf(why, sizeof why, "%s %d: tensor index expected %lld, got %d",
                        key, i, ti, idx[i]), why);
        break;
      }
      char sub[400];
      const char *d = io_mismatch(e, &g->tensors[idx[i]], sub, sizeof sub);
      if (!d) {
        const Json *t = json_at(json_get(ours, "tensors"), idx[i]);
        d = json_io_mismatch(e, t, sub, sizeof sub);
        if (d) {
          snprintf(why, sizeof why, "%s %d in --json: %s", key, i, d);
          bad = why;
        }
      } else {
        snprintf(why, sizeof why, "%s %d: %s", key, i, d);
        bad = why;
      }
    }
    CHECK(!bad, "%s's %s match the manifest%s%s", stem, key, bad ? ": " : "",
          bad ? bad : "");
  }

  const Json *ops = json_get(m, "subgraph0_operators");
  const Json *our_ops = json_get(ours, "ops");
  const char *bad = NULL;
  if (json_len(ops) != g->nops || json_len(our_ops) != g->nops)
    bad = (snprintf(why, sizeof why, "expected %d ops, got %d (--json %d)",
                    json_len(ops), g->nops, json_len(our_ops)), why);
  for (int i = 0; i < g->nops && !bad; i++) {
    const char *want = json_str(json_at(ops, i), "?");
    const char *got = op_display_name(g, i);
    const char *got_json = json_str(json_get(json_at(our_ops, i), "name"), "?");
    if (strcmp(want, got) || strcmp(want, got_json))
      bad = (snprintf(why, sizeof why, "op %d: expected %s, got %s (--json %s)", i,
                      want, got, got_json), why);
  }
  CHECK(!bad, "%s's operator list matches the manifest%s%s", stem,
        bad ? ": " : "", bad ? bad : "");
  json_free(m);
  arena_reset();
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return strdup("");
  char *s = calloc(1, 1 << 12);
  size_t n = fread(s, 1, (1 << 12) - 1, f);
  s[n] = 0;
  for (char *p = s; *p; p++) /* one line */
    if (*p == '\n')
      *p = ' ';
  fclose(f);
  return s;
}

int main(void) {
  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();
  snprintf(tmp_text, sizeof tmp_text, "/tmp/tinyaot-inspect-%d.txt", (int)getpid());
  snprintf(tmp_json, sizeof tmp_json, "/tmp/tinyaot-inspect-%d.json", (int)getpid());

  char models_dir[4200];
  snprintf(models_dir, sizeof models_dir, "%s/models", dir);
  char **models = NULL;
  int n = 0, cap = 0;
  find_models(models_dir, &models, &n, &cap);
  CHECK(n >= 34, "the shared models folder holds at least 34 models (found %d)", n);

  int nmanifest = 0;
  for (int i = 0; i < n; i++) {
    const char *rel = models[i] + strlen(models_dir) + 1;
    int rc = run_inspect(models[i], false, tmp_text);
    if (rc == 0) {
      CHECK(1, "tinyaot inspect %s exits 0", rel);
    } else {
      char *msg = slurp(tmp_text);
      CHECK(0, "tinyaot inspect %s exits 0: got %d, %.300s", rel, rc, msg);
      free(msg);
    }
    rc = run_inspect(models[i], true, tmp_json);
    char err[256] = "";
    Json *ours = rc == 0 ? json_load(tmp_json, err, sizeof err) : NULL;
    CHECK(rc == 0 && ours, "tinyaot inspect --json %s exits 0 and prints valid JSON (exit %d%s%s)",
          rel, rc, *err ? ", " : "", err);
    if (ours && !strchr(rel, '/')) {
      char stem[512];
      snprintf(stem, sizeof stem, "%.*s", (int)(strlen(rel) - 7), rel);
      char mpath[8192];
      snprintf(mpath, sizeof mpath, "%s/goldens/%s/manifest.json", dir, stem);
      if (access(mpath, R_OK) == 0)
        nmanifest++;
      check_manifest(dir, models[i], stem, ours);
    }
    json_free(ours);
    free(models[i]);
  }
  free(models);
  CHECK(nmanifest >= 34, "at least 34 models have a manifest to compare with (found %d)", nmanifest);
  remove(tmp_text);
  remove(tmp_json);
  return test_exit();
}
