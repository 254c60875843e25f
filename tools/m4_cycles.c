/* SPDX-License-Identifier: Apache-2.0 */
/* tools/m4_cycles.c - an estimate of the Cortex-M4 cycles one function call
 * takes, from the instructions QEMU executed.
 *
 *   m4_cycles [-m] [-f] DISASSEMBLY FUNCTION < QEMU_LOG
 *
 * DISASSEMBLY is `arm-none-eabi-objdump -d` of the image; FUNCTION names
 * the function to time, called from exactly one place in it.  QEMU_LOG is
 * qemu-system-arm's log with -d in_asm,exec,nochain, read as a stream (it
 * is large: pipe it in): "IN:" blocks list each translation block's
 * instructions once, when QEMU translates it, and with nochain every
 * execution of a block prints one "Trace" line with the block's start PC.
 * The window is from the first block that starts at FUNCTION's address up
 * to the first block after it that starts at the call's return address.
 *
 * Each executed instruction is looked up in the disassembly and costs what
 * the Cortex-M4 Technical Reference Manual ("Processor instruction
 * timings", "Load/store timings"; zero wait states) gives it:
 *   - data processing, MOVW/MOVT, saturation, SIMD and packing, every
 *     multiply and multiply-accumulate (MUL, MLA, MLS, SMULL, SMLAL,
 *     UMAAL, SMLAD and its family, SMMLA, SMLAxy, ...): 1; IT: 1 (no
 *     folding assumed);
 *   - SDIV, UDIV: 12 (the manual's 2 to 12 depends on the operands; the
 *     worst case is assumed);
 *   - LDR (any single load): 2, or 1 when it directly follows a single
 *     LDR whose loaded register it does not use for its address
 *     (pipelined); STR with an immediate offset: 1; STR with a register
 *     offset: 2, 1 when it follows a single LDR the same way; nothing is
 *     pipelined after a store, LDRD/STRD (1 + N = 3) or LDM;
 *   - a load or store whose address uses the register the instruction
 *     just before it (data processing) wrote: one more (no forwarding);
 *   - LDM/STM/PUSH/POP: 1 + N, N the registers;
 *   - branches: 1 when not taken, 1 + P when taken (B, BL, BX, BLX, CBZ,
 *     CBNZ, data processing into the PC), with P = 1, or 2 when the
 *     target is a 32-bit instruction at an address that is 2 mod 4;
 *     a load into the PC (LDR PC, POP/LDM with PC) refills in P = 3
 *     ("at least five cycles" for LDR PC); TBB/TBH: 6;
 *   - floating point (FPv4-SP): VLDR 2 (3 for a double), VSTR the same,
 *     VLDM/VSTM/VPUSH/VPOP 1 + N (a double counts 2), VMLA/VMLS/VNMLA/
 *     VNMLS/VFMA/VFMS/VFNMA/VFNMS 3, VDIV/VSQRT 14, VMOV of two core
 *     registers 2, everything else 1.
 * Taken or not is read off the trace: a block that ends in a branch was
 * left taken when the next block does not start right after it.
 *
 * Output, one "key value" a line: instructions, cycles, and the counts
 * behind them: instructions per class (alu, multiply, smlad_family,
 * divide, load, store, ...), extra_CLASS = the cycles that class's
 * instructions took beyond one each (pipelining included, address
 * stalls and branch refills not), pipelined_loads, address_stalls (each
 * one cycle), branches_taken / branches_not_taken (every instruction that
 * can leave the straight line, loads into the PC included),
 * unaligned_targets, refill_cycles (the P of every taken branch); so
 * cycles = instructions + sum of extra_CLASS + address_stalls +
 * refill_cycles.  With -m, one line more per mnemonic executed:
 * "mnemonic NAME CLASS COUNT CYCLES" (its refills included); with -f, one
 * per function that ran: "function NAME INSTRUCTIONS CYCLES".  Exits 1
 * with a message on bad input (no such function, several or no call
 * sites, a block at an address the disassembly does not have, a window
 * that never opens or never closes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cls {
  C_ALU, C_MUL, C_SIMD_MAC, C_DIV, C_LOAD, C_STORE, C_LDRD, C_STRD, C_LDM, C_STM,
  C_BRANCH, C_TBB, C_IT, C_FP, C_FP_MEM, C_NCLS
};

static const char *const cls_name[C_NCLS] = {
  "alu", "multiply", "smlad_family", "divide", "load", "store", "ldrd", "strd",
  "ldm", "stm", "branch", "tbb", "it", "fp", "fp_load_store"
};

typedef struct {
  uint32_t addr;
  uint8_t size;       /* 2 or 4 bytes */
  uint8_t cls;
  uint8_t base;       /* cycles before pipelining, stalls and branch refills */
  uint8_t pc_load;    /* a load into the PC (refill P = 3) */
  uint8_t writes_pc;  /* may leave the straight line (branch, PC written) */
  uint8_t reg_off;    /* store with a register offset */
  uint16_t dst;       /* core registers written (loaded registers for loads) */
  uint16_t areg;      /* core registers the address is computed from */
  uint16_t mn;        /* index into mnems */
  uint32_t fn;        /* index into funcs */
} Insn;

static void fail(const char *msg, const char *arg) {
  fprintf(stderr, "m4_cycles: %s%s\n", msg, arg ? arg : "");
  exit(1);
}

/* The functions of the disassembly, for -f. */
typedef struct { char name[64]; unsigned long long n, cycles; } Func;
static Func *funcs;
static size_t nfuncs, capfuncs;

static uint32_t func_add(const char *name, size_t len) {
  if (nfuncs == capfuncs) {
    capfuncs = capfuncs ? capfuncs * 2 : 256;
    funcs = realloc(funcs, capfuncs * sizeof *funcs);
    if (!funcs) fail("out of memory", NULL);
  }
  if (len >= sizeof funcs[0].name) len = sizeof funcs[0].name - 1;
  memcpy(funcs[nfuncs].name, name, len);
  funcs[nfuncs].name[len] = 0;
  funcs[nfuncs].n = funcs[nfuncs].cycles = 0;
  return (uint32_t)nfuncs++;
}

/* Every mnemonic seen (as objdump spells it), for -m. */
#define MAX_MNEMS 1024
static struct { char name[24]; uint8_t cls; unsigned long long n, cycles; } mnems[MAX_MNEMS];
static int nmnems;

static uint16_t mnem_id(const char *mn, int cls) {
  int i;
  for (i = 0; i < nmnems; i++)
    if (!strcmp(mnems[i].name, mn)) return (uint16_t)i;
  if (nmnems == MAX_MNEMS) return MAX_MNEMS - 1; /* the last one collects the rest */
  snprintf(mnems[nmnems].name, sizeof mnems[nmnems].name, "%s", mn);
  mnems[nmnems].cls = (uint8_t)cls;
  return (uint16_t)nmnems++;
}

static Insn *insns;
static size_t ninsns, capinsns;


/* reg_at: the core register named at s (r0-r15, sb, sl, fp, ip, sp, lr,
 * pc) when a whole word, with its length in *len; -1 otherwise. */
static int reg_at(const char *s, int *len) {
  static const char *const alias[] = {"sb", "sl", "fp", "ip", "sp", "lr", "pc"};
  int r = -1, n = 0, i;
  if (s[0] == 'r' && s[1] >= '0' && s[1] <= '9') {
    r = s[1] - '0', n = 2;
    if (s[2] >= '0' && s[2] <= '9') r = r * 10 + (s[2] - '0'), n = 3;
    if (r > 15) return -1;
  } else {
    for (i = 0; i < 7; i++)
      if (s[0] == alias[i][0] && s[1] == alias[i][1]) { r = 9 + i; n = 2; break; }
  }
  if (r < 0) return -1;
  if ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_') return -1;
  *len = n;
  return r;
}

/* regs_in: the core registers named in s[0..n). */
static uint16_t regs_in(const char *s, size_t n) {
  uint16_t m = 0;
  size_t i = 0;
  int len, r;
  while (i < n) {
    int word_start = i == 0 || !((s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
                                 (s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '#');
    if (word_start && (r = reg_at(s + i, &len)) >= 0 && i + (size_t)len <= n) {
      m |= (uint16_t)(1u << r);
      i += (size_t)len;
    } else {
      i++;
    }
  }
  return m;
}

static int popcount16(uint16_t m) {
  int c = 0;
  for (; m; m &= (uint16_t)(m - 1)) c++;
  return c;
}

/* vfp_count: the single-precision registers in a VFP list "{s16-s31}",
 * "{d8-d15}", "{s0, s1}" (a double counts two). */
static int vfp_count(const char *s) {
  const char *p = strchr(s, '{');
  int n = 0;
  if (!p) return 1;
  for (p++; *p && *p != '}'; ) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == 's' || *p == 'd') {
      int w = *p == 'd' ? 2 : 1, a = atoi(p + 1), b = a;
      while (*p && *p != ',' && *p != '}' && *p != '-') p++;
      if (*p == '-') { p++; if (*p == 's' || *p == 'd') p++; b = atoi(p); }
      while (*p && *p != ',' && *p != '}') p++;
      n += (b >= a ? b - a + 1 : 1) * w;
    } else if (*p && *p != '}') {
      p++;
    }
  }
  return n ? n : 1;
}

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int is_cc(const char *s) {
  static const char *const cc[] = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs",
                                   "vc", "hi", "ls", "ge", "lt", "gt", "le", "al"};
  int i;
  for (i = 0; i < 17; i++)
    if (s[0] == cc[i][0] && s[1] == cc[i][1] && s[2] == 0) return 1;
  return 0;
}

/* is_branch: B, BL, BX, BLX, each with an optional condition. */
static int is_branch(const char *m) {
  size_t n = strlen(m);
  if (!strcmp(m, "b") || !strcmp(m, "bl") || !strcmp(m, "bx") || !strcmp(m, "blx")) return 1;
  if (n == 3 && m[0] == 'b' && is_cc(m + 1)) return 1;
  if (n == 4 && (starts(m, "bx") || starts(m, "bl")) && is_cc(m + 2)) return 1;
  if (n == 5 && starts(m, "blx") && is_cc(m + 3)) return 1;
  return 0;
}

/* classify: fills in everything but addr and size from the mnemonic and
 * the operands as objdump prints them. */
static void classify(Insn *in, const char *mn, const char *ops) {
  char m[32];
  size_t i;
  const char *lb = strchr(ops, '['), *rb = lb ? strchr(lb, ']') : NULL;
  for (i = 0; mn[i] && mn[i] != '.' && i + 1 < sizeof m; i++) m[i] = mn[i];
  m[i] = 0;
  in->cls = C_ALU, in->base = 1;
  in->pc_load = in->writes_pc = in->reg_off = 0;
  in->dst = in->areg = 0;
  if (m[0] == 'v') {
    if (starts(m, "vldr") || starts(m, "vstr")) {
      in->cls = C_FP_MEM;
      in->base = (uint8_t)(strchr(ops, 'd') == ops ? 3 : 2);
      if (lb && rb) in->areg = regs_in(lb, (size_t)(rb - lb));
    } else if (starts(m, "vldm") || starts(m, "vstm") || starts(m, "vpush") || starts(m, "vpop")) {
      in->cls = C_FP_MEM;
      in->base = (uint8_t)(1 + vfp_count(ops));
      in->areg = (starts(m, "vpush") || starts(m, "vpop")) ? (uint16_t)(1u << 13)
                                                           : regs_in(ops, strcspn(ops, ",!"));
    } else {
      in->cls = C_FP;
      if (starts(m, "vmla") || starts(m, "vmls") || starts(m, "vnmla") || starts(m, "vnmls") ||
          starts(m, "vfma") || starts(m, "vfms") || starts(m, "vfnma") || starts(m, "vfnms"))
        in->base = 3;
      else if (starts(m, "vdiv") || starts(m, "vsqrt"))
        in->base = 14;
      else if (starts(m, "vmov") && popcount16(regs_in(ops, strlen(ops))) >= 2)
        in->base = 2;
      if (starts(m, "vmov") || starts(m, "vmrs")) {
        uint16_t first = regs_in(ops, strcspn(ops, ","));
        in->dst = first;
        if (first & (1u << 15)) in->dst = 0; /* vmrs APSR_nzcv-style targets */
      }
    }
    return;
  }
  if (m[0] == 'i' && m[1] == 't' && strspn(m + 2, "te") == strlen(m + 2)) {
    in->cls = C_IT;
    return;
  }
  if (starts(m, "tbb") || starts(m, "tbh")) {
    in->cls = C_TBB, in->base = 6, in->writes_pc = 1;
    return;
  }
  if (is_branch(m) || starts(m, "cbz") || starts(m, "cbnz")) {
    in->cls = C_BRANCH, in->writes_pc = 1;
    if (m[1] == 'l') in->dst = 1u << 14;
    return;
  }
  if (starts(m, "ldrd") || starts(m, "strd")) {
    in->cls = m[0] == 'l' ? C_LDRD : C_STRD, in->base = 3;
    if (lb && rb) in->areg = regs_in(lb, (size_t)(rb - lb));
    if (m[0] == 'l') in->dst = regs_in(ops, lb ? (size_t)(lb - ops) : strlen(ops));
    return;
  }
  if (starts(m, "ldr") || starts(m, "str")) {
    if (lb && rb) in->areg = regs_in(lb, (size_t)(rb - lb));
    if (m[0] == 'l') {
      in->cls = C_LOAD, in->base = 2;
      in->dst = regs_in(ops, lb ? (size_t)(lb - ops) : strlen(ops));
      if (in->dst & (1u << 15)) in->pc_load = in->writes_pc = 1;
    } else {
      in->cls = C_STORE;
      in->reg_off = (uint8_t)(popcount16(in->areg) >= 2);
      in->base = (uint8_t)(in->reg_off ? 2 : 1);
    }
    return;
  }
  if (starts(m, "ldm") || starts(m, "stm") || starts(m, "pop") || starts(m, "push")) {
    const char *lc = strchr(ops, '{');
    uint16_t list = lc ? regs_in(lc, strlen(lc)) : 0;
    int load = m[0] == 'l' || m[1] == 'o';
    in->cls = load ? C_LDM : C_STM;
    in->base = (uint8_t)(1 + popcount16(list));
    in->areg = (m[0] == 'p') ? (uint16_t)(1u << 13) : regs_in(ops, lc ? (size_t)(lc - ops) : 0);
    if (load) {
      in->dst = list;
      if (list & (1u << 15)) in->pc_load = in->writes_pc = 1;
    }
    return;
  }
  if (starts(m, "sdiv") || starts(m, "udiv")) {
    in->cls = C_DIV, in->base = 12;
  } else if (starts(m, "smlad") || starts(m, "smlsd") || starts(m, "smuad") || starts(m, "smusd") ||
             starts(m, "smlald") || starts(m, "smlsld")) {
    in->cls = C_SIMD_MAC;
  } else if (starts(m, "mul") || starts(m, "mla") || starts(m, "mls") || starts(m, "sm") ||
             starts(m, "umull") || starts(m, "umlal") || starts(m, "umaal")) {
    in->cls = C_MUL;
  }
  if (starts(m, "cmp") || starts(m, "cmn") || starts(m, "tst") || starts(m, "teq") ||
      starts(m, "nop") || starts(m, "dmb") || starts(m, "dsb") || starts(m, "isb") ||
      starts(m, "bkpt") || starts(m, "svc") || starts(m, "cps") || starts(m, "msr") ||
      starts(m, "pld") || starts(m, "pli") || starts(m, "wf") || starts(m, "sev"))
    return;
  {
    int len, r = reg_at(ops, &len);
    if (r < 0) return;
    in->dst = (uint16_t)(1u << r);
    /* long multiplies write two registers: RdLo, RdHi */
    if ((in->cls == C_MUL || in->cls == C_SIMD_MAC) &&
        (starts(m, "smull") || starts(m, "umull") || starts(m, "smlal") || starts(m, "umlal") ||
         starts(m, "umaal") || starts(m, "smlsld"))) {
      const char *c2 = strchr(ops, ',');
      int r2;
      while (c2 && (*++c2 == ' ')) {}
      if (c2 && (r2 = reg_at(c2, &len)) >= 0) in->dst |= (uint16_t)(1u << r2);
    }
    if (r == 15) in->writes_pc = 1;
  }
}

/* read_disassembly: every instruction line "  addr:\tbytes \tmnemonic\toperands". */
static void read_disassembly(const char *path, const char *func, uint32_t *entry, uint32_t *ret) {
  FILE *f = fopen(path, "r");
  char line[1024], want[256], call[256];
  int calls = 0, found = 0;
  uint32_t fn = func_add("?", 1);
  if (!f) fail("cannot read ", path);
  snprintf(want, sizeof want, "<%s>:", func);
  snprintf(call, sizeof call, "<%s>", func);
  while (fgets(line, sizeof line, f)) {
    char *p = line, *tab1, *tab2, *mn, *ops, *end;
    unsigned long a;
    size_t hex = 0;
    Insn in;
    if (line[0] != ' ') {
      char *h = strstr(line, want), *lt = strchr(line, '<'), *gt = lt ? strstr(lt, ">:") : NULL;
      if (h && h != line) { *entry = (uint32_t)strtoul(line, NULL, 16); found = 1; }
      if (lt && gt) fn = func_add(lt + 1, (size_t)(gt - lt - 1));
      continue;
    }
    while (*p == ' ') p++;
    a = strtoul(p, &end, 16);
    if (end == p || *end != ':' || end[1] != '\t') continue;
    tab1 = end + 2;
    tab2 = strchr(tab1, '\t');
    if (!tab2) continue;
    for (p = tab1; p < tab2; p++)
      if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) hex++;
    mn = tab2 + 1;
    if (mn[0] == '.') continue; /* .word, .short: data */
    ops = mn + strcspn(mn, "\t\n");
    if (*ops == '\t') *ops++ = 0; else *ops = 0;
    ops[strcspn(ops, "@;\n")] = 0;
    in.addr = (uint32_t)a;
    in.size = (uint8_t)(hex == 4 ? 2 : 4);
    classify(&in, mn, ops);
    in.mn = mnem_id(mn, in.cls);
    in.fn = fn;
    if (ninsns == capinsns) {
      capinsns = capinsns ? capinsns * 2 : 4096;
      insns = realloc(insns, capinsns * sizeof *insns);
      if (!insns) fail("out of memory", NULL);
    }
    if (ninsns && insns[ninsns - 1].addr >= in.addr) fail("disassembly not in address order: ", path);
    insns[ninsns++] = in;
    if ((!strcmp(mn, "bl") || !strcmp(mn, "blx")) && strstr(ops, call)) {
      *ret = in.addr + in.size;
      calls++;
    }
  }
  fclose(f);
  if (!found) fail("no such function in the disassembly: ", func);
  if (calls != 1) fail(calls ? "called from more than one place: " : "never called: ", func);
}

static long find_insn(uint32_t addr) {
  size_t lo = 0, hi = ninsns;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (insns[mid].addr < addr) lo = mid + 1; else hi = mid;
  }
  return (lo < ninsns && insns[lo].addr == addr) ? (long)lo : -1;
}

/* Translation blocks: start PC -> first instruction and count. */
typedef struct { uint32_t pc; uint32_t first; uint32_t n; uint32_t used; } Block;
static Block *blocks;
static size_t capblocks = 1u << 16, nblocks;

static Block *block_slot(uint32_t pc) {
  size_t i = (pc * 2654435761u) & (capblocks - 1);
  while (blocks[i].used && blocks[i].pc != pc) i = (i + 1) & (capblocks - 1);
  return &blocks[i];
}

static void block_put(uint32_t pc, uint32_t last) {
  Block *b;
  long f = find_insn(pc), l = find_insn(last);
  if (f < 0 || l < f) {
    char s[32];
    snprintf(s, sizeof s, "0x%08x", (unsigned)pc);
    fail("a translation block at an address the disassembly has no instruction at: ", s);
  }
  if (2 * (nblocks + 1) > capblocks) {
    Block *old = blocks;
    size_t oldcap = capblocks, i;
    capblocks *= 2;
    blocks = calloc(capblocks, sizeof *blocks);
    if (!blocks) fail("out of memory", NULL);
    for (i = 0; i < oldcap; i++)
      if (old[i].used) *block_slot(old[i].pc) = old[i];
    free(old);
  }
  b = block_slot(pc);
  if (!b->used) nblocks++;
  b->pc = pc, b->first = (uint32_t)f, b->n = (uint32_t)(l - f + 1), b->used = 1;
}

int main(int argc, char **argv) {
  char line[4096];
  uint32_t entry = 0, ret = 0, tb_pc = 0, tb_last = 0;
  int in_tb = 0, tb_have = 0, state = 0; /* state: 0 before the window, 1 inside, 2 done */
  unsigned long long icount = 0, cycles = 0, cnt[C_NCLS] = {0}, extra[C_NCLS] = {0};
  unsigned long long taken = 0, not_taken = 0, refill = 0, piped = 0, agu = 0, unaligned = 0;
  const Insn *prev = NULL, *pending = NULL;
  int c, per_mnem = 0, per_func = 0;
  size_t fi;
  while (argc > 3 && argv[1][0] == '-') {
    if (!strcmp(argv[1], "-m")) per_mnem = 1;
    else if (!strcmp(argv[1], "-f")) per_func = 1;
    else break;
    argv++, argc--;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: m4_cycles [-m] [-f] DISASSEMBLY FUNCTION < QEMU_LOG (-d in_asm,exec,nochain)\n");
    return 2;
  }
  read_disassembly(argv[1], argv[2], &entry, &ret);
  blocks = calloc(capblocks, sizeof *blocks);
  if (!blocks) fail("out of memory", NULL);
  while (fgets(line, sizeof line, stdin)) {
    if (line[0] == 'I' && line[1] == 'N' && line[2] == ':') {
      if (in_tb && tb_have) block_put(tb_pc, tb_last);
      in_tb = 1, tb_have = 0;
      continue;
    }
    if (in_tb && line[0] == '0' && line[1] == 'x') {
      uint32_t a = (uint32_t)strtoul(line + 2, NULL, 16);
      if (!tb_have) tb_pc = a, tb_have = 1;
      tb_last = a;
      continue;
    }
    if (in_tb && (line[0] == '\n' || line[0] == '-' || line[0] == 'T')) {
      if (tb_have) block_put(tb_pc, tb_last);
      in_tb = 0;
    }
    if (line[0] == 'T' && starts(line, "Trace ") && state < 2) {
      const char *s = strchr(line, '['), *sl = s ? strchr(s, '/') : NULL;
      uint32_t pc;
      Block *b;
      size_t k;
      if (!sl) continue;
      pc = (uint32_t)strtoul(sl + 1, NULL, 16);
      if (state == 0 && pc != entry) continue;
      if (state == 0) state = 1;
      if (pending) { /* how the last block was left */
        long t = find_insn(pc);
        if (pc == pending->addr + pending->size) {
          not_taken++;
        } else {
          int p = 1;
          if (pending->pc_load || pending->cls == C_TBB) p = 3;
          else if (t >= 0 && insns[t].size == 4 && (pc & 3) == 2) p = 2, unaligned++;
          if (pending->cls == C_TBB) p = 0; /* its 6 include the refill */
          taken++, refill += (unsigned long long)p, cycles += (unsigned long long)p;
          mnems[pending->mn].cycles += (unsigned long long)p;
          funcs[pending->fn].cycles += (unsigned long long)p;
        }
        pending = NULL;
      }
      if (pc == ret) { state = 2; continue; }
      b = block_slot(pc);
      if (!b->used) {
        char m[32];
        snprintf(m, sizeof m, "0x%08x", (unsigned)pc);
        fail("a block executed before it was translated (no in_asm?): ", m);
      }
      for (k = 0; k < b->n; k++) {
        const Insn *in = &insns[b->first + k];
        int cost = in->base, piped_now = 0;
        int mem = in->cls == C_LOAD || in->cls == C_STORE || in->cls == C_LDRD ||
                  in->cls == C_STRD || in->cls == C_LDM || in->cls == C_STM || in->cls == C_FP_MEM;
        if (prev && (in->cls == C_LOAD || (in->cls == C_STORE && in->reg_off)) &&
            prev->cls == C_LOAD && !prev->pc_load && !(prev->dst & in->areg))
          cost--, piped++, piped_now = 1;
        if (prev && mem && (prev->cls == C_ALU || prev->cls == C_MUL || prev->cls == C_SIMD_MAC ||
                            prev->cls == C_DIV || prev->cls == C_FP) && (prev->dst & in->areg))
          cost++, agu++;
        cycles += (unsigned long long)cost;
        mnems[in->mn].n++, mnems[in->mn].cycles += (unsigned long long)cost;
        funcs[in->fn].n++, funcs[in->fn].cycles += (unsigned long long)cost;
        extra[in->cls] += (unsigned long long)(in->base - 1 - piped_now);
        cnt[in->cls]++;
        icount++;
        prev = in;
      }
      if (b->n) {
        const Insn *last = &insns[b->first + b->n - 1];
        if (last->writes_pc) pending = last;
      }
    }
  }
  if (state == 0) fail("the function never ran in the log: ", argv[2]);
  if (state == 1) fail("the log ends before the function returned: ", argv[2]);
  printf("instructions %llu\ncycles %llu\n", icount, cycles);
  for (c = 0; c < C_NCLS; c++) printf("%s %llu\n", cls_name[c], cnt[c]);
  for (c = 0; c < C_NCLS; c++) printf("extra_%s %llu\n", cls_name[c], extra[c]);
  printf("pipelined_loads %llu\naddress_stalls %llu\nbranches_taken %llu\n"
         "branches_not_taken %llu\nunaligned_targets %llu\nrefill_cycles %llu\n",
         piped, agu, taken, not_taken, unaligned, refill);
  if (per_mnem)
    for (c = 0; c < nmnems; c++)
      if (mnems[c].n)
        printf("mnemonic %s %s %llu %llu\n", mnems[c].name, cls_name[mnems[c].cls], mnems[c].n,
               mnems[c].cycles);
  if (per_func)
    for (fi = 0; fi < nfuncs; fi++)
      if (funcs[fi].n) printf("function %s %llu %llu\n", funcs[fi].name, funcs[fi].n, funcs[fi].cycles);
  return 0;
}
