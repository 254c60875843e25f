/* SPDX-License-Identifier: Apache-2.0 */
/*
 * help.c - every command and option of the command line, described once.
 *
 * One table (commands[] and options[]) from which three texts are made:
 * the short usage main.c prints on a usage error (stderr, exit 2),
 * `tinyaot help [COMMAND]` / `--help` (stdout, exit 0), and the man page
 * doc/tinyaot.1 (`tinyaot help --man`; tests/unit/test_help.sh checks
 * that the file in doc/ is exactly that output, and that every option the
 * parser in main.c accepts has a row here and every row is accepted).
 * The parser itself stays in main.c: this file knows what an option
 * means, not how its value is checked.
 */
#include "tinyaot.h"
#include "version.h"

#include <string.h>

/* Which commands take an option (a bit per command). */
enum {
  C_INSPECT = 1, C_PLAN = 2, C_COMPILE = 4, C_RUN = 8, C_RUNTIME = 16, C_REPORT = 32,
  C_BUILD = C_PLAN | C_COMPILE | C_RUN | C_REPORT, /* the compile options */
};

typedef struct {
  const char *name;    /* "inspect" */
  unsigned bit;        /* C_* */
  const char *synopsis;
  const char *summary; /* one line */
  const char *text;    /* a paragraph */
} Command;

static const Command commands[] = {
    {"inspect", C_INSPECT, "inspect MODEL [--json]",
     "print the model's ops, tensors, shapes, quantization and MACs",
     "Reads and verifies MODEL and prints one line per op and tensor (or, "
     "with --json, the same as JSON)."},
    {"plan", C_PLAN, "plan MODEL [--json] [--svg FILE] [compile options]",
     "print the memory plan compile would emit",
     "Runs the whole pipeline up to the memory plan and prints it: every "
     "buffer's offset, size and lifetime, the workspace size and the lower "
     "bound (doc/memory-plan.md)."},
    {"compile", C_COMPILE, "compile MODEL -o DIR [compile options]",
     "write the generated C for MODEL into DIR",
     "Writes <prefix>.h, <prefix>.c, <prefix>_weights.c, <prefix>_plan.json, "
     "<prefix>.mk, CMakeLists.txt and (unless --runtime DIR) the kernels the "
     "model calls under DIR/runtime (doc/generated-code.md)."},
    {"run", C_RUN,
     "run MODEL -i IN.bin ... -o OUT.bin ... [run options] [compile options]",
     "compile MODEL, build it with the host compiler and run it",
     "Compiles MODEL into a temporary folder, builds it with $CC (default cc) "
     "and a harness, runs it on raw little-endian tensor files and writes the "
     "raw outputs.  The workspace is exactly <PREFIX>_WORKSPACE_SIZE bytes "
     "between guard zones, checked after every inference.  k times the inputs "
     "and outputs run k inferences in one process; an inference a streaming "
     "model (CIRCULAR_BUFFER) leaves pending writes no output files and says "
     "so on stderr."},
    {"runtime", C_RUNTIME, "runtime -o DIR [--kernels LIST|all]",
     "write the kernel library once, for models compiled with --runtime DIR",
     "Writes the runtime sources (runtime/include and one .c per kernel) into "
     "DIR, with runtime.mk and CMakeLists.txt building libtinyaot_runtime.a.  "
     "Models compiled with --runtime DIR then carry no kernels of their own, "
     "so several models build together in one flat compilation."},
    {"report", C_REPORT,
     "report MODEL [-o REPORT.html] [--json] [--profile-data FILE] [compile options]",
     "write an HTML report of what the model costs (doc/report.md)",
     "Compiles MODEL as compile would and writes one self-contained HTML page: "
     "flash (measured with arm-none-eabi-size when the toolchain is there, "
     "estimated otherwise), RAM by pool, the per-layer table, the memory plan "
     "as an interactive picture and the graph; --json prints the same data."},
    {"help", 0, "help [COMMAND]", "print this help, or one command's",
     "Prints the commands, or one command's options, to stdout.  "
     "`tinyaot help --man` prints the man page (doc/tinyaot.1)."},
};

typedef struct {
  const char *name; /* "--prefix" */
  const char *arg;  /* "P", or NULL for a flag */
  unsigned cmds;    /* C_* bits */
  const char *text;
} Option;

static const Option options[] = {
    /* inspect, plan */
    {"--json", NULL, C_INSPECT | C_PLAN | C_REPORT, "print JSON instead of a table (report: instead of HTML)"},
    {"--svg", "FILE", C_PLAN, "also draw the plan as an SVG picture into FILE"},
    /* compile and run */
    {"-o", "DIR", C_COMPILE | C_RUNTIME, "the folder to write (created if needed)"},
    {"--prefix", "P", C_BUILD,
     "the C identifier prefixing every generated name (default: the model "
     "file's stem)"},
    {"--rounding", "double|single|onnxruntime", C_BUILD,
     "whose bytes to reproduce: double (default) TFLite Micro's, single "
     "TFLite's builtin kernels, onnxruntime ONNX Runtime's for QDQ models "
     "(doc/operators.md)"},
    {"--io-in-workspace", NULL, C_BUILD,
     "plan the inputs and outputs inside the workspace, <prefix>_io() "
     "pointing at them (the default)"},
    {"--io-in-caller-buffers", NULL, C_BUILD,
     "keep the inputs and outputs out of the plan, in buffers the caller "
     "passes (<prefix>_IO_SIZE bytes more RAM)"},
    {"--pool", "NAME[:BYTES]", C_BUILD,
     "a memory pool (repeatable, fastest first; BYTES may end in k or M): "
     "tensors go to the first pool with room"},
    {"--align", "N", C_BUILD, "align every buffer to N bytes, a power of two (default 16)"},
    {"--algo", "A", C_BUILD,
     "the planner: linear, greedy-size, greedy-conflicts, search or best "
     "(default)"},
    {"--schedule", "S", C_BUILD,
     "execution order: model, memory or best (default; the memory-saving "
     "order only when it is smaller)"},
    {"--no-inplace", NULL, C_BUILD,
     "never write an element-wise op's output over its dying input"},
    {"--no-overlap", NULL, C_BUILD,
     "never let an op's output overlap part of its dying input"},
    {"--patch", "[START:]END:N", C_BUILD,
     "run ops START..END (default START 0; a chain of int8 CONV_2D and "
     "DEPTHWISE_CONV_2D) in N row bands of op END's output, halo rows "
     "recomputed: less RAM, more MACs (doc/memory-plan.md)"},
    {"--fuse-add", NULL, C_BUILD,
     "run each int8 residual ADD in the epilogue of the CONV_2D computing "
     "one of its operands, in place over the other: that output is never "
     "stored (less RAM where it is at the peak; more code beside plain "
     "convolutions; doc/memory-plan.md)"},
    {"--lean-conv", "OPS", C_BUILD,
     "run the int8 convolutions OPS (op indices, separated by commas) in "
     "their lean DSP form, slower in less scratch: a CONV_2D two output "
     "pixels per block instead of four (half the columns), a 3x3 "
     "DEPTHWISE_CONV_2D without its ring of rows (doc/memory-plan.md)"},
    {"--optimize", "speed|size", C_BUILD,
     "speed: the DSP paths of CONV_2D and FULLY_CONNECTED read filters "
     "widened to int16 on the host (9-33% fewer Cortex-M4 instructions in "
     "those ops, twice their filters' flash); size (default): int8 filters "
     "(doc/cortex-m.md)"},
    {"--ram-limit", "BYTES", C_BUILD,
     "fit workspace and persistent area in BYTES: the plan without patches "
     "when it fits, else the same with --fuse-add, else with the "
     "convolution at the peak lean (--lean-conv, op after op), else the "
     "patched run with the fewest MACs recomputed that fits, else an error "
     "naming the least RAM reachable"},
    {"--patch-table", NULL, C_PLAN,
     "also plan every patched run and list RAM against the MACs recomputed"},
    {"--no-views", NULL, C_BUILD,
     "skip the graph passes: every RESHAPE and the like copies"},
    {"--custom-op", "NAME=FUNCTION", C_BUILD,
     "custom op NAME runs the C function FUNCTION, which you supply "
     "(repeatable; doc/generated-code.md)"},
    {"--custom-op-scratch", "NAME=BYTES", C_BUILD,
     "give custom op NAME's function a planned scratch buffer of BYTES "
     "(needs --custom-op NAME=...)"},
    {"--int8-io", NULL, C_BUILD,
     "drop a float-I/O model's boundary QUANTIZE and DEQUANTIZE: the "
     "caller passes and receives the quantized tensors (the header's "
     "<prefix>_quantize_input<i>() and <prefix>_dequantize_output<i>() "
     "convert)"},
    {"--weights-section", "NAME", C_BUILD,
     "the linker section of the weight arrays (default .weights; "
     "doc/integration.md)"},
    {"-dI", NULL, C_BUILD, "dump the IR after reading to stderr"},
    {"-dL", NULL, C_BUILD, "dump the kernel and scratch of each op to stderr"},
    {"-dP", NULL, C_BUILD, "dump the memory plan to stderr (letters combine: -dILP)"},
    {"--layout", "nchw|nhwc", C_BUILD,
     "an .onnx model's 4-D inputs and outputs: nchw (default, the model's "
     "own layout) or nhwc (the kernels' layout, without boundary transposes)"},
    {"--input-shape", "NAME=D0xD1...", C_BUILD,
     "bind the symbolic dimensions of input NAME (repeatable; .onnx)"},
    {"--constant-input", "NAME=FILE", C_BUILD,
     "make model input NAME a constant: raw little-endian bytes, or an ONNX "
     "TensorProto .pb (repeatable)"},
    {"--probe", "NAME", C_BUILD,
     "also output the value or tensor NAME the model computes, after the "
     "model's own outputs; unlike a graph output it leaves ONNX Runtime's "
     "QDQ float groups alone (repeatable)"},
    {"--profile", NULL, C_BUILD,
     "call <prefix>_profile_hook() around every op (ready counters for "
     "Cortex-M DWT and the host; run prints the per-op table)"},
    /* compile only */
    {"--force", NULL, C_COMPILE,
     "replace files in DIR that tinyaot did not write (never the model)"},
    {"--runtime", "DIR|embedded", C_COMPILE,
     "take the kernels from the shared runtime in DIR (written by tinyaot "
     "runtime) instead of copying them into the folder; embedded (default) "
     "copies them"},
    {"--weights-blob", "FILE.bin", C_COMPILE,
     "write the model's constant tensors into one binary image FILE.bin "
     "(header: magic, version, model SHA-256, size, CRC-32) that the firmware "
     "binds at run time with <prefix>_bind_weights(blob), anywhere in memory"},
    {"--package", "KIND", C_COMPILE,
     "lay the folder out for a build ecosystem: cmake (adds <prefix>Config.cmake "
     "for find_package), zephyr (a module: zephyr/module.yml, CMakeLists.txt, "
     "Kconfig), esp-idf (a component), arduino (a library: library.properties, "
     "src/) or platformio (library.json, src/); doc/integration.md"},
    /* report */
    {"-o", "FILE", C_REPORT, "where to write the report (default: standard output)"},
    {"--profile-data", "FILE", C_REPORT,
     "per-op counts written by tinyaot run --profile --profile-out FILE"},
    /* runtime */
    {"--kernels", "LIST|all", C_RUNTIME,
     "the kernels to write, comma-separated (ta_conv2d_s8,ta_softmax_s8; "
     "what they call comes too), or all (default)"},
    /* run only */
    {"-i", "IN.bin", C_RUN, "an input tensor file, one per model input, in order"},
    {"--input", "IN.bin", C_RUN, "the same as -i"},
    {"-o", "OUT.bin", C_RUN, "where to write an output, one per model output, in order"},
    {"--output", "OUT.bin", C_RUN, "the same as -o"},
    {"--keep", "DIR", C_RUN, "build in DIR and keep it"},
    {"--dump-tensors", "DIR", C_RUN,
     "write every tensor of the first inference as DIR/t<index>.bin"},
    {"--dump-state", "DIR", C_RUN,
     "after inference k, write the model state as DIR/step<k>/t<index>.bin"},
    {"--reset-each", NULL, C_RUN,
     "reset the model state before every inference (default: once)"},
    {"--custom-op-source", "FILE.c", C_RUN,
     "build FILE.c (your custom op kernels) with the model (repeatable)"},
    {"--cc", "CC", C_RUN, "the host C compiler (default $CC, else cc)"},
    {"--cflags", "FLAGS", C_RUN, "extra flags for it (default $TINYAOT_CFLAGS)"},
    {"--profile-out", "FILE", C_RUN,
     "with --profile: also write the per-op table to FILE (report --profile-data)"},
    /* everywhere */
    {"--help", NULL, C_INSPECT | C_BUILD | C_RUNTIME, "print this command's help"},
    {"-h", NULL, C_INSPECT | C_BUILD | C_RUNTIME, "the same as --help"},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static const Command *find_command(const char *name) {
  for (int i = 0; i < COUNT(commands); i++)
    if (!strcmp(commands[i].name, name))
      return &commands[i];
  return NULL;
}

/* Prints text wrapped before column 79, each line starting with indent
 * spaces (the first line after `col` columns already used). */
static void put_wrapped_text(FILE *f, const char *text, int indent, int col) {
  const char *s = text;
  while (*s) {
    const char *w = s;
    while (*w && *w != ' ')
      w++;
    int len = (int)(w - s);
    if (col > indent && col + 1 + len > 78) {
      fprintf(f, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', f);
      col++;
    } else if (col < indent) {
      fprintf(f, "%*s", indent - col, "");
      col = indent;
    }
    fwrite(s, 1, (size_t)len, f);
    col += len;
    s = *w ? w + 1 : w;
  }
  fputc('\n', f);
}

void print_usage(FILE *f) {
  for (int i = 0; i < COUNT(commands); i++)
    fprintf(f, "%s tinyaot %s\n", i ? "      " : "usage:", commands[i].synopsis);
  fprintf(f, "       tinyaot --version\n"
             "`tinyaot help COMMAND` describes a command and its options.\n");
}

static void print_options(FILE *f, unsigned bit) {
  for (int i = 0; i < COUNT(options); i++) {
    const Option *o = &options[i];
    if (!(o->cmds & bit))
      continue;
    char head[64];
    int n = snprintf(head, sizeof head, "  %s%s%s", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
    fputs(head, f);
    if (n >= 26) {
      fputc('\n', f);
      n = 0;
    }
    put_wrapped_text(f, o->text, 26, n);
  }
}

int print_help(FILE *f, const char *command) {
  if (!command) {
    fprintf(f, "tinyaot %s - an ahead-of-time compiler from .tflite models to "
               "dependency-free C99\n\n", TINYAOT_VERSION);
    print_usage(f);
    fprintf(f, "\ncommands:\n");
    for (int i = 0; i < COUNT(commands); i++)
      fprintf(f, "  %-10s%s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nExit status: 0 success, 1 bad input (the model), 2 bad usage.\n");
    return 0;
  }
  const Command *c = find_command(command);
  if (!c)
    return -1;
  fprintf(f, "usage: tinyaot %s\n\n", c->synopsis);
  put_wrapped_text(f, c->text, 0, 0);
  if (c->bit) {
    fprintf(f, "\noptions:\n");
    print_options(f, c->bit);
  }
  return 0;
}

/* roff: a backslash is \e, a leading dot or quote needs \&, '-' is \-. */
static void put_roff(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\\')
      fputs("\\e", f);
    else if (*s == '-')
      fputs("\\-", f);
    else
      fputc(*s, f);
  }
}

void print_man(FILE *f) {
  fprintf(f, ".\\\" SPDX-License-Identifier: Apache-2.0\n"
             ".\\\" Generated by `tinyaot help --man` (compiler/help.c); do not edit.\n"
             ".TH TINYAOT 1 \"\" \"tinyaot %s\" \"User Commands\"\n"
             ".SH NAME\ntinyaot \\- ahead-of-time compiler from .tflite models to C99\n"
             ".SH SYNOPSIS\n", TINYAOT_VERSION);
  for (int i = 0; i < COUNT(commands); i++) {
    fputs(".B tinyaot\n", f);
    put_roff(f, commands[i].synopsis);
    fputs("\n.br\n", f);
  }
  fputs(".B tinyaot \\-\\-version\n"
        ".SH DESCRIPTION\n"
        "tinyaot reads a trained model and writes plain C99: one function that "
        "runs the network by calling kernels in order, the weights as const "
        "arrays, and a static memory plan that puts every intermediate tensor "
        "at a fixed offset in one workspace.  The generated code allocates "
        "nothing and compiles with \\-std=c99 \\-pedantic.\n"
        ".SH COMMANDS\n", f);
  for (int i = 0; i < COUNT(commands); i++) {
    const Command *c = &commands[i];
    fputs(".SS ", f);
    put_roff(f, c->synopsis);
    fputc('\n', f);
    put_roff(f, c->text);
    fputc('\n', f);
  }
  fputs(".SH OPTIONS\n", f);
  for (int i = 0; i < COUNT(options); i++) {
    const Option *o = &options[i];
    fputs(".TP\n.B ", f);
    put_roff(f, o->name);
    if (o->arg) {
      fputs(" \"", f);
      put_roff(f, o->arg);
      fputc('"', f);
    }
    fputc('\n', f);
    put_roff(f, o->text);
    fputs(" (", f);
    bool first = true;
    for (int k = 0; k < COUNT(commands); k++)
      if (o->cmds & commands[k].bit) {
        fprintf(f, "%s%s", first ? "" : ", ", commands[k].name);
        first = false;
      }
    fputs(")\n", f);
  }
  fputs(".SH EXIT STATUS\n0 success, 1 bad input (the model or a file), 2 bad usage.\n"
        ".SH ENVIRONMENT\n"
        ".TP\n.B CC\nthe host compiler of run (default cc)\n"
        ".TP\n.B TINYAOT_CFLAGS\nextra flags for run's build\n"
        ".SH SEE ALSO\n"
        "README.md, doc/generated-code.md, doc/integration.md, doc/memory-plan.md, "
        "doc/operators.md in the tinyaot sources.\n", f);
}
