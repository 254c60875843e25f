/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outdir.c - writes a generated folder without ever losing a user's file.
 *
 * A folder is written in three steps:
 *
 *   outdir_begin(DIR)   makes a fresh temporary folder beside DIR
 *                       (DIR/../.NAME.tinyaot-XXXXXX; inside DIR when its
 *                       parent cannot take it)
 *   outdir_open/close   write each file there, by its path inside DIR
 *                       (or inside DIR/SUB after outdir_set_base(SUB))
 *   outdir_commit()     moves the files into DIR, only once every one of
 *                       them is written
 *
 * so a failure while writing (a name too long, a full disk, a file size
 * limit, a compiler bug) leaves DIR exactly as it was: the temporary
 * folder is removed by the error path (error_cleanup_hook, util.c).
 *
 * Ownership: DIR/.tinyaot-manifest lists, one path a line, the files the
 * last commit wrote.  A commit replaces a file already in DIR only when
 * that manifest lists it (or with --force), and never the protected
 * file (the input model), not even with --force; it checks all of this
 * before it moves anything, so a refusal also leaves DIR as it was.
 * After moving, it removes the files of the old manifest it did not
 * write this time (the kernel files of a previous model, a previous
 * prefix's files) and the folders they leave empty, and writes the new
 * manifest.  Nothing else in DIR is ever touched.
 *
 * A DIR that does not exist yet is created by renaming the temporary
 * folder: it appears whole or not at all.  Several OutDirs may be open
 * at once (a model folder and a runtime folder, say).
 */
#define _XOPEN_SOURCE 700
#include "tinyaot.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MANIFEST ".tinyaot-manifest"

struct OutDir {
  const char *dir;   /* the target, as the user wrote it */
  const char *tmp;   /* the temporary folder */
  bool exists;       /* the target existed at outdir_begin() */
  bool force;
  bool has_protect;  /* protect_dev/ino name the input model */
  dev_t protect_dev;
  ino_t protect_ino;
  const char *base;  /* outdir_set_base(): "" or "SUB/", before every rel */
  const char **files; /* written so far, paths inside the folder */
  int nfiles, capfiles;
  OutDir *next_pending; /* begun, neither committed nor discarded */
};

static OutDir *pending;

void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *ent;
    while ((ent = readdir(d))) {
      if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
        continue;
      const char *path = arena_printf("%s/%s", dir, ent->d_name);
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        remove_tree(path);
      else
        unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

static void unlink_pending(OutDir *d) {
  for (OutDir **p = &pending; *p; p = &(*p)->next_pending)
    if (*p == d) {
      *p = d->next_pending;
      return;
    }
}

void outdir_discard(OutDir *d) {
  unlink_pending(d);
  if (d->tmp)
    remove_tree(d->tmp);
  d->tmp = NULL;
}

/* On any error (error_at/error_file/die): remove every temporary folder
 * still open, so that a failed compile leaves nothing behind. */
static void discard_pending(void) {
  while (pending)
    outdir_discard(pending);
}

/* mkdir -p. */
static void make_dirs(const char *path, const char *shown) {
  char *p = arena_strdup(path);
  for (char *s = p + 1;; s++) {
    if (*s == '/' || *s == '\0') {
      char c = *s;
      *s = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        error_file(shown ? shown : p, "cannot create folder: %s", strerror(errno));
      *s = c;
      if (!c)
        break;
    }
  }
}

static bool is_folder(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

OutDir *outdir_begin(const char *dir, const OutDirOptions *o) {
  if (!dir || !*dir)
    die("outdir_begin: no folder");
  OutDir *d = arena_alloc(sizeof *d);
  d->dir = dir;
  d->base = "";
  d->force = o && o->force;
  struct stat st;
  if (o && o->protect && stat(o->protect, &st) == 0) {
    d->has_protect = true;
    d->protect_dev = st.st_dev;
    d->protect_ino = st.st_ino;
  }
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      error_file(dir, "is not a folder");
    d->exists = true;
  }
  /* The parent and name of the target, with "." and ".." resolved. */
  char *path = arena_strdup(dir);
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/')
    path[--n] = '\0';
  char *slash = strrchr(path, '/');
  const char *parent = slash ? (slash == path ? "/" : path) : ".";
  const char *name = slash ? slash + 1 : path;
  if (slash)
    *slash = '\0';
  if (!d->exists)
    make_dirs(parent, NULL);
  char real[PATH_MAX];
  if (d->exists || !strcmp(name, ".") || !strcmp(name, "..")) {
    if (!realpath(dir, real))
      error_file(dir, "cannot resolve the folder: %s", strerror(errno));
    if (!strcmp(real, "/"))
      error_file(dir, "is the root folder: give a folder of its own");
    char *r = strrchr(real, '/');
    *r = '\0';
    parent = arena_strdup(r == real ? "/" : real);
    name = arena_strdup(r + 1);
  }
  char *tmpl = arena_printf("%s/.%s.tinyaot-XXXXXX", parent, name);
  if (!mkdtemp(tmpl)) {
    if (!d->exists)
      error_file(dir, "cannot create a temporary folder beside it: %s",
                 strerror(errno));
    tmpl = arena_printf("%s/.tinyaot-XXXXXX", dir);
    if (!mkdtemp(tmpl))
      error_file(dir, "cannot create a temporary folder: %s", strerror(errno));
  }
  /* mkdtemp makes it 0700; the folder it may become gets what mkdir
   * would give it. */
  mode_t mask = umask(0);
  umask(mask);
  chmod(tmpl, 0777 & ~mask);
  d->tmp = tmpl;
  d->next_pending = pending;
  pending = d;
  error_cleanup_hook = discard_pending;
  return d;
}

static bool inside_path(const char *s);

void outdir_set_base(OutDir *d, const char *sub) {
  if (!sub || !*sub)
    d->base = "";
  else if (!inside_path(sub))
    die("outdir_set_base: %s is not a path inside the folder", sub);
  else
    d->base = arena_printf("%s/", sub);
}

const char *outdir_path(const OutDir *d, const char *rel) {
  if (!d->tmp)
    die("outdir_path after commit");
  return arena_printf("%s/%s%s", d->tmp, d->base, rel);
}

FILE *outdir_open(OutDir *d, const char *rel) {
  if (!d->tmp)
    die("outdir_open after commit");
  if (*d->base)
    rel = arena_printf("%s%s", d->base, rel);
  const char *shown = arena_printf("%s/%s", d->dir, rel);
  const char *slash = strrchr(rel, '/');
  if (slash)
    make_dirs(arena_printf("%s/%.*s", d->tmp, (int)(slash - rel), rel), shown);
  FILE *f = fopen(arena_printf("%s/%s", d->tmp, rel), "wb");
  if (!f)
    error_file(shown, "cannot write: %s", strerror(errno));
  for (int i = 0; i < d->nfiles; i++)
    if (!strcmp(d->files[i], rel))
      return f;
  if (d->nfiles == d->capfiles) {
    d->capfiles = d->capfiles ? 2 * d->capfiles : 64;
    const char **more = arena_array((size_t)d->capfiles, sizeof(char *));
    if (d->nfiles)
      memcpy(more, d->files, (size_t)d->nfiles * sizeof(char *));
    d->files = more;
  }
  d->files[d->nfiles++] = arena_strdup(rel);
  return f;
}

void outdir_close(OutDir *d, FILE *f, const char *rel) {
  if (ferror(f) | (fclose(f) != 0))
    error_file(arena_printf("%s/%s%s", d->dir, d->base, rel), "write error: %s",
               errno ? strerror(errno) : "?");
}

/* A manifest line is a path inside the folder: relative, no empty, "."
 * or ".." part, no control characters. */
static bool inside_path(const char *s) {
  if (!*s || *s == '/')
    return false;
  for (const char *c = s; *c; c++)
    if ((unsigned char)*c < 0x20)
      return false;
  const char *part = s;
  for (;;) {
    const char *end = strchr(part, '/');
    size_t len = end ? (size_t)(end - part) : strlen(part);
    if (len == 0 || (len == 1 && part[0] == '.') ||
        (len == 2 && part[0] == '.' && part[1] == '.'))
      return false;
    if (!end)
      return true;
    part = end + 1;
  }
}

/* The paths DIR/.tinyaot-manifest lists (none when there is none). */
static const char **read_manifest(const OutDir *d, int *n) {
  *n = 0;
  const char *path = arena_printf("%s/%s", d->dir, MANIFEST);
  struct stat st;
  if (!d->exists || lstat(path, &st) != 0)
    return NULL;
  if (!S_ISREG(st.st_mode))
    error_file(path, "is not a file (tinyaot's list of the files it wrote)");
  size_t size;
  char *text = (char *)read_file(path, &size);
  text[size] = '\0';
  int cap = 1;
  for (size_t i = 0; i < size; i++)
    cap += text[i] == '\n';
  const char **list = arena_array((size_t)cap, sizeof(char *));
  int line = 0;
  for (char *s = text; s && *s;) {
    char *nl = strchr(s, '\n');
    if (nl)
      *nl = '\0';
    line++;
    if (*s && *s != '#') {
      if (!inside_path(s))
        error_file(path, "line %d: '%.200s' is not a path inside the folder", line, s);
      list[(*n)++] = s;
    }
    s = nl ? nl + 1 : NULL;
  }
  return list;
}

static bool listed(const char *const *list, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (!strcmp(list[i], s))
      return true;
  return false;
}

static bool is_protected(const OutDir *d, const char *path) {
  struct stat st;
  return d->has_protect && stat(path, &st) == 0 && st.st_dev == d->protect_dev &&
         st.st_ino == d->protect_ino;
}

/* Refuses (before anything moves) to put rel over something not ours. */
static void check_target(const OutDir *d, const char *rel, const char *const *old,
                         int nold) {
  /* Every folder on the way must be a folder. */
  for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
    const char *part = arena_printf("%s/%.*s", d->dir, (int)(s - rel), rel);
    struct stat st;
    if (lstat(part, &st) == 0 && !S_ISDIR(st.st_mode))
      error_file(part, "is in the way of the generated folder %.*s/ "
                 "(a file, not a folder): not replaced",
                 (int)(s - rel), rel);
  }
  const char *path = arena_printf("%s/%s", d->dir, rel);
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode))
    error_file(path, "is a folder, in the way of a generated file: not replaced");
  if (is_protected(d, path))
    error_file(path, "is the input model: refusing to overwrite it with the "
               "generated %s (choose another -o folder or --prefix)", rel);
  if (!d->force && !listed(old, nold, rel) && strcmp(rel, MANIFEST))
    error_file(path, "exists and was not written by tinyaot (it is not in %s/%s): "
               "refusing to overwrite it; use --force to replace it",
               d->dir, MANIFEST);
}

/* Removes a stale file and then each folder it leaves empty. */
static void remove_stale(const OutDir *d, const char *rel) {
  const char *path = arena_printf("%s/%s", d->dir, rel);
  struct stat st;
  if (lstat(path, &st) != 0 || S_ISDIR(st.st_mode) || is_protected(d, path))
    return;
  unlink(path);
  char *r = arena_strdup(rel);
  for (char *s = strrchr(r, '/'); s; s = strrchr(r, '/')) {
    *s = '\0';
    if (rmdir(arena_printf("%s/%s", d->dir, r)) != 0)
      break;
  }
}

static void write_manifest(OutDir *d) {
  FILE *f = outdir_open(d, MANIFEST);
  fprintf(f, "# The files tinyaot compile wrote in this folder.  The next compile\n"
             "# replaces exactly these and removes those it no longer writes.\n");
  for (int i = 0; i < d->nfiles; i++)
    if (strcmp(d->files[i], MANIFEST))
      fprintf(f, "%s\n", d->files[i]);
  outdir_close(d, f, MANIFEST);
}

void outdir_commit(OutDir *d) {
  if (!d->tmp)
    die("outdir_commit twice");
  d->base = "";
  write_manifest(d);
  if (!d->exists && !is_folder(d->dir)) {
    if (rename(d->tmp, d->dir) != 0)
      error_file(d->dir, "cannot create folder: %s", strerror(errno));
    d->tmp = NULL;
    unlink_pending(d);
    return;
  }
  int nold;
  const char **old = read_manifest(d, &nold);
  for (int i = 0; i < d->nfiles; i++)
    check_target(d, d->files[i], old, nold);
  for (int i = 0; i < d->nfiles; i++) {
    const char *rel = d->files[i];
    const char *slash = strrchr(rel, '/');
    const char *shown = arena_printf("%s/%s", d->dir, rel);
    if (slash)
      make_dirs(arena_printf("%s/%.*s", d->dir, (int)(slash - rel), rel), shown);
    if (rename(arena_printf("%s/%s", d->tmp, rel), shown) != 0)
      error_file(shown, "cannot move into place: %s", strerror(errno));
  }
  for (int i = 0; i < nold; i++)
    if (!listed(d->files, d->nfiles, old[i]))
      remove_stale(d, old[i]);
  outdir_discard(d);
}
