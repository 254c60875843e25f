/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx.h - what the ONNX reader's parts share: the parsed model
 * (onnx.c) and the importer into the IR (onnx_import.c and the files
 * onnx_import.h names).  Private to front/.
 */
#ifndef TINYAOT_ONNX_H
#define TINYAOT_ONNX_H

#include "tinyaot.h"

/* Largest constant or tensor the reader accepts (as read_tflite). */
#define MAX_VAL_BYTES ((int64_t)INT32_MAX)

/* One AttributeProto; `has` bits: 1 f, 2 i, 4 s, 8 t, 16 graph, 32 floats,
 * 64 ints, 128 strings/tensors. */
typedef struct {
  const char *name;
  int type;
  unsigned has;
  float f;
  int64_t i;
  const char *s;
  PbMsg t;
  float *floats;
  int nfloats;
  int64_t *ints;
  int nints;
} OAttr;

typedef struct {
  int index;
  const char *name, *op_type, *domain;
  const char **inputs; /* "" = an optional input left out */
  int ninputs;
  const char **outputs;
  int noutputs;
  OAttr *attrs;
  int nattrs;
} ONode;

/* A ValueInfoProto: dims[k] == -1 with dim_param[k] for a symbolic one. */
typedef struct {
  const char *name;
  bool has_type, has_shape;
  int elem_type;
  int ndims;
  int64_t dims[MAX_DIMS];
  const char *dim_param[MAX_DIMS];
} VInfo;

/* Layouts of an IR tensor holding an ONNX value. */
enum { L_ONNX = 0, L_NHWC = 1 };

/*
 * One ONNX value.  dims: the ONNX shape (NCHW for images).  A constant
 * has data (ONNX order, host bytes).  An activation has IR tensors:
 * t[L_ONNX] in the ONNX element order, t[L_NHWC] (4-D values only) the
 * same elements as [N, H, W, C]; -1 until made (a TRANSPOSE makes the
 * other from the one that exists).
 */
typedef struct Val {
  const char *name;
  DType dt;
  int ndims;
  int64_t dims[MAX_DIMS];
  const uint8_t *data;
  int t[2];
  /* A DequantizeLinear's output (QDQ): the integer value it reads and
   * its scale and zero point (q.axis in the ONNX order).  An activation
   * gets its float IR ops only when a float op reads it; a constant has
   * the dequantized floats in data.  NULL otherwise. */
  struct Val *qsrc;
  Quant q;
} Val;

typedef struct {
  const char *path;
  const ImportOptions *opt;
  int64_t ir_version;
  int opset;
  const char *other_domain;
  int64_t other_version;
  const char *producer, *doc, *graph_name;
  ONode *nodes;
  int nnodes;
  Val **inits;
  int ninits;
  VInfo *ins, *outs, *vinfo;
  int nins, nouts, nvinfo;
  const ONode *node; /* node being imported, for messages */
} Onnx;

TA_NORETURN void onnx_fail(Onnx *x, const char *fmt, ...) TA_PRINTF(2, 3);
bool onnx_dtype(int code, DType *dt);
int64_t onnx_elems(Onnx *x, const int64_t *dims, int ndims, int width);
Val *onnx_tensor_val(Onnx *x, PbMsg m, const char *name);
Graph *onnx_import(Onnx *x);

static inline int64_t val_elems(const Val *v) {
  int64_t n = 1;
  for (int d = 0; d < v->ndims; d++)
    n *= v->dims[d];
  return n;
}
static inline size_t val_bytes(const Val *v) {
  if (dtype_bits(v->dt) < 8) /* packed: int4, uint4, int2, uint2, float4e2m1 */
    return ((size_t)val_elems(v) * (size_t)dtype_bits(v->dt) + 7) / 8;
  return (size_t)val_elems(v) * (size_t)((dtype_bits(v->dt) + 7) / 8);
}

#endif
