/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_size.c - the flash a generated folder takes on a Cortex-M, for
 * `tinyaot report` (doc/report.md, "Flash").
 *
 * Measured when the cross toolchain is there ($ARM_CC, default
 * arm-none-eabi-gcc, and $ARM_SIZE, default arm-none-eabi-size): every
 * .c of the folder is compiled exactly as the Cortex-M bench build
 * compiles it (tests/arm/lib.sh: Cortex-M4F, -O2 -g -ffunction-sections
 * -fdata-sections -fno-common), linked with --gc-sections from
 * <prefix>_run (and _reset, _io when they exist) as the only roots, and
 * the linker's map charges every kept input section to the object it
 * came from - the generated runner, the weights, the kernels, or the C
 * library - the way tests/arm/mapsize.awk does for `make bench-arm`, so
 * the figures equal the bench build's flash_gen, flash_weights and
 * flash_rt.  arm-none-eabi-size on the linked image gives the total.
 *
 * Estimated otherwise, from the graph alone: weights = the constant
 * bytes the runner reads; code and kernels from the number of calls and
 * kernels (a stated rule of thumb, see estimate_flash()).
 *
 * Runs commands with system(); a toolchain that fails falls back to the
 * estimate and says why (Flash.note).  Never fatal.
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"

#include <stdlib.h>
#include <string.h>

static const char *sh_quote(const char *s) {
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

static bool have_tool(const char *tool) {
  return system(arena_printf("command -v %s > /dev/null 2>&1", sh_quote(tool))) == 0;
}

static const char *env_or(const char *name, const char *def) {
  const char *v = getenv(name);
  return v && *v ? v : def;
}

/* What category an object file of the size build is: its base name is
 * the source's path with '/' turned into '_' (lib.sh's scheme). */
static int category(const char *file, const char *prefix) {
  if (!*file)
    return -1; /* fill */
  if (strchr(file, '(') || strstr(file, "linker stubs"))
    return FLASH_LIB;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  size_t n = strlen(prefix);
  if (!strncmp(base, prefix, n) && !strcmp(base + n, "_weights.o"))
    return FLASH_WEIGHTS;
  if (!strncmp(base, prefix, n) && (!strcmp(base + n, ".o") || base[n] == '_'))
    return FLASH_CODE;
  if (!strncmp(base, "lib", 3))
    return FLASH_LIB;
  return FLASH_KERNELS;
}

/* Charges the map's input sections to the categories (mapsize.awk's
 * rules: flash is .vectors .text .weights .ARM.exidx .rodata* and
 * .data's initial values). */
static void read_map(const char *path, const char *prefix, Flash *fl) {
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char line[4096], out[256] = "";
  bool map = false, pending = false;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!map) {
      map = !strncmp(line, "Linker script and memory map", 28);
      continue;
    }
    char a[1024], b[64], c[64], d[1024] = "";
    if (line[0] == '.') {
      sscanf(line, "%255s", out);
      pending = false;
      continue;
    }
    bool flash = !strcmp(out, ".data") || !strncmp(out, ".vectors", 8) ||
                 !strncmp(out, ".text", 5) || !strncmp(out, ".weights", 8) ||
                 !strncmp(out, ".ARM.exidx", 10) || !strncmp(out, ".rodata", 7);
    unsigned long long size = 0;
    int k = -2;
    if (!strncmp(line, " *fill*", 7)) {
      continue; /* alignment padding: no category of ours */
    } else if (line[0] == ' ' && line[1] != ' ' && line[1]) {
      int nf = sscanf(line, "%1023s %63s %63s %1023[^\n]", a, b, c, d);
      if (nf >= 4 && !strncmp(b, "0x", 2) && !strncmp(c, "0x", 2)) {
        size = strtoull(c, NULL, 16);
        k = category(d, prefix);
        pending = false;
      } else {
        pending = nf == 1;
      }
    } else if (pending && line[0] == ' ' && line[1] == ' ') {
      int nf = sscanf(line, "%63s %63s %1023[^\n]", b, c, d);
      pending = false;
      if (nf >= 3 && !strncmp(b, "0x", 2) && !strncmp(c, "0x", 2)) {
        size = strtoull(c, NULL, 16);
        k = category(d, prefix);
      }
    }
    if (k >= 0 && flash && size)
      fl->bytes[k] += (size_t)size;
  }
  fclose(f);
}

/* The rule of thumb without a toolchain: 40 bytes per kernel call plus 4
 * per argument in the runner, 600 bytes per distinct kernel (the
 * bench's median for Cortex-M4F -O2 lies near it; big kernels such as
 * LSTM are several times larger), and the weights exactly: each
 * constant array once, as the emitter stores byte-identical ones once
 * (const_set.c). */
static void estimate_flash(const Graph *g, Flash *fl) {
  const char **seen = arena_array((size_t)g->nops + 1, sizeof(char *));
  int nseen = 0;
  bool *counted = arena_array((size_t)g->ntensors + 1, sizeof(bool));
  size_t most = (size_t)g->ntensors;
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = op_lowered(&g->ops[i]);
    most += l ? (size_t)l->nconsts : 0;
  }
  ConstSet *set = const_set_new(most), *structs = const_set_new(most);
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = op_lowered(&g->ops[i]);
    if (!l || !l->kernel)
      continue;
    fl->bytes[FLASH_CODE] += 40 + 4 * (size_t)l->nargs;
    bool dup = false;
    for (int k = 0; k < nseen && !dup; k++)
      dup = !strcmp(seen[k], l->kernel);
    if (!dup && !l->user_kernel && l->kernel[0] != '@') {
      seen[nseen++] = l->kernel;
      fl->bytes[FLASH_KERNELS] += 600;
    }
    for (int a = 0; a < l->nargs; a++) {
      const KernelArg *ka = &l->args[a];
      if (ka->kind != ARG_TENSOR)
        continue;
      const Tensor *t = &g->tensors[ka->index];
      if (is_const(t) && !counted[ka->index]) {
        counted[ka->index] = true;
        size_t bytes = tensor_bytes(t);
        ConstSlot c = {.op = -1, .k = ka->index, .dtype = t->dtype, .bytes = bytes,
                       .data = t->data};
        if (t->ndata < bytes || !const_set_intern(set, &c))
          fl->bytes[FLASH_WEIGHTS] += bytes;
      }
    }
    for (int c = 0; c < l->nconsts; c++) {
      /* As the emitter stores it: count elements (one when count is 0),
       * deduplicated over count elements' bytes. */
      const ConstObj *o = &l->consts[c];
      const size_t elem = (size_t)(dtype_bits(o->dtype) + 7) / 8, bytes = elem * o->count;
      ConstSlot s = {.op = i, .k = c, .dtype = o->dtype, .bytes = bytes, .data = o->data};
      if (o->init) {
        /* A struct naming no other constant is stored once per text
         * (emit.c compares the text with the names filled in). */
        const char *key = arena_printf("%s[%zu]=%s", o->ctype, o->count, o->init);
        ConstSlot t = {.op = i, .k = c, .dtype = DT_UINT8, .bytes = strlen(key), .data = key};
        if (strchr(o->init, '@') || !const_set_intern(structs, &t))
          fl->bytes[FLASH_CODE] += 32 * (o->count ? o->count : 1);
      } else if (!const_set_intern(set, &s))
        fl->bytes[FLASH_WEIGHTS] += bytes ? bytes : elem;
    }
  }
}

void measure_flash(const Graph *g, const char *dir, const char *prefix,
                   const char **sources, int nsources, Flash *fl) {
  memset(fl, 0, sizeof *fl);
  const char *cc = env_or("ARM_CC", "arm-none-eabi-gcc");
  const char *size = env_or("ARM_SIZE", "arm-none-eabi-size");
  const char *cpu = "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16";
  fl->target = "Cortex-M4F, -O2 (as make bench-arm)";
  if (!have_tool(cc) || !have_tool(size)) {
    estimate_flash(g, fl);
    fl->note = arena_printf("estimated: %s or %s not found", cc, size);
    return;
  }
  const char *obj = arena_printf("%s/.size", dir);
  const char *log = arena_printf("%s/log", obj);
  const char *objs = "";
  if (system(arena_printf("mkdir -p %s", sh_quote(obj))) != 0)
    goto fail;
  for (int i = 0; i < nsources; i++) {
    char *o = arena_strdup(sources[i]);
    for (char *c = o; *c; c++)
      if (*c == '/')
        *c = '_';
    o[strlen(o) - 2] = '\0';
    const char *out = arena_printf("%s/%s.o", obj, o);
    const char *cmd = arena_printf(
        "cd %s && %s %s -O2 -g -ffunction-sections -fdata-sections -fno-common "
        "-std=c99 -I. -Iruntime/include -c -o %s %s >> %s 2>&1",
        sh_quote(dir), sh_quote(cc), cpu, sh_quote(out), sh_quote(sources[i]),
        sh_quote(log));
    if (system(cmd) != 0)
      goto fail;
    objs = arena_printf("%s %s", objs, sh_quote(out));
  }
  const char *elf = arena_printf("%s/size.elf", obj);
  const char *map = arena_printf("%s/size.map", obj);
  /* The roots: the run function, and the others the header declares. */
  const char *roots = arena_printf("-Wl,-e,%s_run -Wl,-u,%s_reset -Wl,-u,%s_io",
                                   prefix, prefix, prefix);
  const char *link = arena_printf(
      "%s %s -nostartfiles --specs=nano.specs -Wl,--gc-sections "
      "-Wl,--unresolved-symbols=ignore-all %s -Wl,-Map=%s -o %s %s -lm >> %s 2>&1",
      sh_quote(cc), cpu, roots, sh_quote(map), sh_quote(elf), objs, sh_quote(log));
  if (system(link) != 0)
    goto fail;
  read_map(map, prefix, fl);
  /* The total: arm-none-eabi-size's text + data of the image. */
  const char *tot = arena_printf("%s/total", obj);
  if (system(arena_printf("%s %s > %s 2>> %s", sh_quote(size), sh_quote(elf),
                          sh_quote(tot), sh_quote(log))) != 0)
    goto fail;
  FILE *f = fopen(tot, "r");
  unsigned long long text = 0, data = 0;
  char head[256];
  if (f) {
    if (!fgets(head, sizeof head, f) || fscanf(f, "%llu %llu", &text, &data) != 2)
      text = data = 0;
    fclose(f);
  }
  fl->size_total = (size_t)(text + data);
  fl->measured = true;
  fl->note = arena_printf("measured: %s, linked with --gc-sections, %s", cc, size);
  remove_tree(obj);
  return;
fail:
  remove_tree(obj);
  memset(fl->bytes, 0, sizeof fl->bytes);
  estimate_flash(g, fl);
  fl->target = "Cortex-M4F, -O2 (as make bench-arm)";
  fl->note = arena_printf("estimated: the build with %s failed", cc);
}
