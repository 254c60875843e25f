/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_signal.c - lowering of custom ops: the TFLite Micro signal
 * library's ops (SignalWindow, SignalRfft, ... - the audio front end) and
 * kernels the user supplies with --custom-op; and of TFLite's builtin
 * spectral ops RFFT2D (float32 -> complex64) and COMPLEX_ABS.
 *
 * Needs: lower.h's helpers; the op's options as Op.attrs (the front end
 * decoded them).  Each signal op checks
 * what TFLM's Prepare checks (types, ranks, sizes), and also every index
 * its kernel will use with constant tables (filter bank starts and
 * widths, the PCAN gain table), so the kernels cannot read outside.  The
 * FFT's factorization and twiddles (KISS FFT's kf_factor and kf_cexp,
 * double precision on the host) become constant arrays.  The spectral
 * subtraction's noise estimate, which TFLM keeps in a persistent buffer
 * of the op, becomes Op.state_bytes: persistent, zeroed by reset.
 *
 * Precedence: a --custom-op for the op's name, then
 * TFLite_Detection_PostProcess (lower_detection.c), CIRCULAR_BUFFER
 * (lower_circular_buffer.c) or a known signal op;
 * anything else is refused with a message naming the op and the flag.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

/* ------------------------------------------------------------ options */

static int32_t opt_int(Lower *L, const char *key, int64_t lo, int64_t hi) {
  const Op *op = L->op;
  const Attr *a = op_attr(op, key);
  if (!a || a->kind != ATTR_INT)
    error_at(L->g, op->index, "the option '%s' is missing or not an integer", key);
  int64_t v = a->i;
  if (v < lo || v > hi)
    error_at(L->g, op->index, "the option '%s' is %lld; expected %lld to %lld", key,
             (long long)v, (long long)lo, (long long)hi);
  return (int32_t)v;
}

static void need_io(Lower *L, int nin, int nout) {
  if (L->op->ninputs != nin || L->op->noutputs != nout)
    error_at(L->g, L->op->index, "has %d inputs and %d outputs, expected %d and %d",
             L->op->ninputs, L->op->noutputs, nin, nout);
  for (int k = 0; k < nin; k++)
    input(L, k);
}

static void need_type(Lower *L, const Tensor *t, DType dt, const char *role) {
  if (t->dtype != dt)
    error_at(L->g, L->op->index, "the %s (tensor %d) is %s; expected %s", role, t->index,
             dtype_name(t->dtype), dtype_name(dt));
}

static void need_rank(Lower *L, const Tensor *t, int rank, const char *role) {
  if (t->ndims != rank)
    error_at(L->g, L->op->index, "the %s (tensor %d) has rank %d; expected %d", role,
             t->index, t->ndims, rank);
}

/* The int16 values of a constant tensor. */
static const int16_t *const_s16(Lower *L, const Tensor *t, const char *role) {
  need_type(L, t, DT_INT16, role);
  need_const(L, t, role);
  int16_t *v = arena_array((size_t)tensor_elems(t) + 1, sizeof(int16_t));
  for (int64_t i = 0; i < tensor_elems(t); i++)
    v[i] = (int16_t)(t->data[2 * i] | (t->data[2 * i + 1] << 8));
  return v;
}

/* ------------------------------------------------------ signal ops */

static void lower_window(Lower *L) {
  need_io(L, 2, 1);
  Tensor *in = input(L, 0), *w = input(L, 1), *out = output(L, 0);
  need_type(L, in, DT_INT16, "input");
  need_type(L, w, DT_INT16, "window");
  need_type(L, out, DT_INT16, "output");
  need_rank(L, w, 1, "window");
  need_const(L, w, "window");
  if (in->ndims < 1 || in->ndims != out->ndims)
    error_at(L->g, L->op->index, "input and output must have the same rank");
  int32_t size = elems32(in), ws = elems32(w);
  if (ws <= 0 || size % ws || elems32(out) != size)
    error_at(L->g, L->op->index, "the input (%d values) is not a whole number of "
             "windows of %d, or the output differs", (int)size, (int)ws);
  int32_t shift = opt_int(L, "shift", 0, 31);
  L->l->kernel = "ta_signal_window_s16";
  const_struct(L, "params", "ta_window_params",
               arena_printf("{.size = %d, .weight_size = %d, .shift = %d}", (int)size,
                            (int)ws, (int)shift),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, w->index);
  arg_tensor(L, out->index);
}

static void lower_fft_auto_scale(Lower *L) {
  need_io(L, 1, 2);
  Tensor *in = input(L, 0), *out = output(L, 0), *bits = output(L, 1);
  need_type(L, in, DT_INT16, "input");
  need_type(L, out, DT_INT16, "output");
  need_type(L, bits, DT_INT32, "scale bits output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  if (tensor_elems(bits) != 1 || out->dims[0] > in->dims[0])
    error_at(L->g, L->op->index, "the outputs' sizes disagree with the input");
  L->l->kernel = "ta_signal_fft_auto_scale_s16";
  add_arg(L, ARG_INT, -1, out->dims[0]);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  arg_tensor(L, bits->index);
}

/* KISS FFT's kf_factor: powers of 4, then 2, then odd numbers. */
static int kiss_factor(int32_t n, int32_t *factors) {
  int32_t p = 4, nf = 0;
  double floor_sqrt = floor(sqrt((double)n));
  do {
    while (n % p) {
      switch (p) {
      case 4: p = 2; break;
      case 2: p = 3; break;
      default: p += 2; break;
      }
      if (p > floor_sqrt)
        p = n;
    }
    n /= p;
    factors[2 * nf] = p;
    factors[2 * nf + 1] = n;
    nf++;
  } while (n > 1 && nf < TA_RFFT_MAX_FACTORS);
  return n > 1 ? -1 : nf;
}

/* kf_cexp in 16-bit fixed point: floor(0.5 + 32767 cos), the same for sin. */
static void cexp16(double phase, int16_t *re, int16_t *im) {
  *re = (int16_t)floor(.5 + 32767 * cos(phase));
  *im = (int16_t)floor(.5 + 32767 * sin(phase));
}

bool rfft_tables(int32_t fft_length, ta_rfft_params *p, int16_t *twiddles,
                 int16_t *split_twiddles) {
  int32_t half = fft_length / 2;
  if (fft_length < 2 || fft_length % 2)
    return false;
  p->fft_length = fft_length;
  p->nfactors = kiss_factor(half, p->factors);
  for (int s = 0; s < p->nfactors; s++)
    if (p->factors[2 * s] != 2 && p->factors[2 * s] != 4)
      p->nfactors = -1;
  if (p->nfactors < 0)
    return false;
  /* kiss_fft_alloc's and kiss_fftr_alloc's twiddles (forward). */
  const double pi = 3.141592653589793238462643383279502884197169399375105820974944;
  for (int32_t i = 0; i < half; i++)
    cexp16(-2 * pi * i / half, &twiddles[2 * i], &twiddles[2 * i + 1]);
  for (int32_t i = 0; i < half / 2; i++)
    cexp16(-3.14159265358979323846264338327 * ((double)(i + 1) / half + .5),
           &split_twiddles[2 * i], &split_twiddles[2 * i + 1]);
  return true;
}

static void lower_rfft(Lower *L) {
  need_io(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  int32_t type = opt_int(L, "T", 0, 255);
  if (type != 7)
    error_at(L->g, L->op->index, "only the int16 FFT is supported (T = %d)", (int)type);
  need_type(L, in, DT_INT16, "input");
  need_type(L, out, DT_INT16, "output");
  if (in->ndims < 1 || in->ndims != out->ndims)
    error_at(L->g, L->op->index, "input and output must have the same rank");
  ta_rfft_params p = {0};
  p.fft_length = opt_int(L, "fft_length", 2, 1 << 20);
  p.input_length = in->dims[in->ndims - 1];
  p.input_size = elems32(in);
  p.output_length = out->dims[out->ndims - 1] / 2;
  int32_t half = p.fft_length / 2;
  if (p.fft_length % 2 || p.input_length > p.fft_length || p.input_length <= 0 ||
      p.output_length != half + 1 ||
      (int64_t)elems32(out) != (int64_t)p.input_size / p.input_length * 2 * (half + 1))
    error_at(L->g, L->op->index, "fft_length %d does not fit input [%d] and output "
             "[%d] frames", (int)p.fft_length, (int)p.input_length,
             (int)out->dims[out->ndims - 1]);
  int16_t *tw = arena_array((size_t)half * 2 + 2, sizeof(int16_t));
  int16_t *stw = arena_array((size_t)half + 2, sizeof(int16_t));
  if (!rfft_tables(p.fft_length, &p, tw, stw))
    error_at(L->g, L->op->index, "fft_length %d is not a power of two (other FFT "
             "lengths are not supported)", (int)p.fft_length);

  L->l->kernel = "ta_signal_rfft_s16";
  L->op->scratch_bytes = ta_signal_rfft_s16_scratch_size(&p);
  const_struct(L, "params", "ta_rfft_params",
               arena_printf("{.fft_length = %d, .input_length = %d, .input_size = %d,\n"
                            "    .output_length = %d, .nfactors = %d, .factors = %s}",
                            (int)p.fft_length, (int)p.input_length, (int)p.input_size,
                            (int)p.output_length, (int)p.nfactors,
                            i32_list(p.factors, 2 * p.nfactors)),
               true);
  const_array(L, "twiddles", DT_INT16, tw, (size_t)half * 2, true);
  const_array(L, "split_twiddles", DT_INT16, stw, (size_t)(half / 2) * 2, true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  arg_scratch(L);
  /* Overlap (doc/memory-plan.md 2c): ta_signal_rfft_s16 copies frame f
   * of the input into its scratch, transforms it there and then writes
   * output frame f, before it reads frame f + 1: pixel-wise over the
   * frames. */
  overlap_pixels(L, p.input_size / p.input_length, p.input_length, 2, 2 * p.output_length, 2);
}

static void lower_energy(Lower *L) {
  need_io(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_type(L, in, DT_INT16, "input");
  need_type(L, out, DT_UINT32, "output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  ta_energy_params p = {elems32(out), 0, 0};
  p.end_index = opt_int(L, "end_index", 0, p.size);
  p.start_index = opt_int(L, "start_index", 0, p.end_index);
  if ((int64_t)in->dims[0] < 2 * (int64_t)p.end_index)
    error_at(L->g, L->op->index, "end_index %d reads past the %d input values",
             (int)p.end_index, (int)in->dims[0]);
  L->l->kernel = "ta_signal_energy_s16";
  const_struct(L, "params", "ta_energy_params",
               arena_printf("{.size = %d, .start_index = %d, .end_index = %d}",
                            (int)p.size, (int)p.start_index, (int)p.end_index),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

static void lower_filter_bank(Lower *L) {
  need_io(L, 6, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_type(L, in, DT_UINT32, "input");
  need_type(L, out, DT_UINT64, "output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  static const char *const roles[] = {"weights", "unweights", "channel frequency starts",
                                      "channel weight starts", "channel widths"};
  const int16_t *v[5];
  for (int k = 0; k < 5; k++) {
    need_rank(L, input(L, k + 1), 1, roles[k]);
    v[k] = const_s16(L, input(L, k + 1), roles[k]);
  }
  ta_filter_bank_params p = {opt_int(L, "num_channels", 0, 1 << 20)};
  int64_t nw = tensor_elems(input(L, 1)), nin = tensor_elems(in);
  if (tensor_elems(input(L, 2)) != nw || tensor_elems(out) != p.num_channels)
    error_at(L->g, L->op->index, "weights and unweights, or the output and "
             "num_channels %d, disagree", (int)p.num_channels);
  for (int k = 2; k < 5; k++)
    if (tensor_elems(input(L, k + 1)) < p.num_channels + 1)
      error_at(L->g, L->op->index, "the %s have fewer than num_channels + 1 = %d values",
               roles[k], (int)p.num_channels + 1);
  for (int32_t i = 0; i <= p.num_channels; i++) {
    int64_t fs = v[2][i], ws = v[3][i], width = v[4][i];
    if (fs < 0 || ws < 0 || width < 0 || fs + width > nin || ws + width > nw)
      error_at(L->g, L->op->index, "channel %d (start %lld, weights at %lld, width "
               "%lld) reaches outside the input or the weights", (int)i, (long long)fs,
               (long long)ws, (long long)width);
  }
  L->l->kernel = "ta_signal_filter_bank_u32";
  L->op->scratch_bytes = ta_signal_filter_bank_u32_scratch_size(&p);
  const_struct(L, "params", "ta_filter_bank_params",
               arena_printf("{.num_channels = %d}", (int)p.num_channels), true);
  for (int k = 0; k < 6; k++)
    arg_tensor(L, input(L, k)->index);
  arg_tensor(L, out->index);
  arg_scratch(L);
}

static void lower_filter_bank_sqrt(Lower *L) {
  need_io(L, 2, 1);
  Tensor *in = input(L, 0), *bits = input(L, 1), *out = output(L, 0);
  need_type(L, in, DT_UINT64, "input");
  need_type(L, bits, DT_INT32, "scale bits");
  need_type(L, out, DT_UINT32, "output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  if (tensor_elems(bits) != 1 || tensor_elems(out) != tensor_elems(in))
    error_at(L->g, L->op->index, "the scale bits must be a scalar and the output as "
             "long as the input");
  L->l->kernel = "ta_signal_filter_bank_sqrt_u64";
  add_arg(L, ARG_INT, -1, elems32(in));
  arg_tensor(L, in->index);
  arg_tensor(L, bits->index);
  arg_tensor(L, out->index);
}

static void lower_spectral_subtraction(Lower *L) {
  need_io(L, 1, 2);
  Tensor *in = input(L, 0), *out = output(L, 0), *noise = output(L, 1);
  need_type(L, in, DT_UINT32, "input");
  need_type(L, out, DT_UINT32, "output");
  need_type(L, noise, DT_UINT32, "noise estimate output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  need_rank(L, noise, 1, "noise estimate output");
  ta_spectral_subtraction_params p = {0};
  p.num_channels = opt_int(L, "num_channels", 0, 1 << 20);
  if (tensor_elems(in) < p.num_channels || tensor_elems(out) < p.num_channels ||
      tensor_elems(noise) < p.num_channels)
    error_at(L->g, L->op->index, "num_channels %d exceeds a tensor's size",
             (int)p.num_channels);
  p.smoothing = (uint32_t)opt_int(L, "smoothing", 0, INT32_MAX);
  p.one_minus_smoothing = (uint32_t)opt_int(L, "one_minus_smoothing", 0, INT32_MAX);
  p.alternate_smoothing = (uint32_t)opt_int(L, "alternate_smoothing", 0, INT32_MAX);
  p.alternate_one_minus_smoothing =
      (uint32_t)opt_int(L, "alternate_one_minus_smoothing", 0, INT32_MAX);
  p.min_signal_remaining = (uint32_t)opt_int(L, "min_signal_remaining", 0, INT32_MAX);
  p.smoothing_bits = (uint32_t)opt_int(L, "smoothing_bits", 0, 31);
  p.spectral_subtraction_bits = (uint32_t)opt_int(L, "spectral_subtraction_bits", 0, 63);
  p.clamping = opt_int(L, "clamping", 0, 1);
  L->l->kernel = "ta_signal_spectral_subtraction_u32";
  L->op->state_bytes = ta_signal_spectral_subtraction_u32_state_size(&p);
  const_struct(
      L, "params", "ta_spectral_subtraction_params",
      arena_printf("{.num_channels = %d, .smoothing = %uu, .one_minus_smoothing = %uu,\n"
                   "    .alternate_smoothing = %uu, .alternate_one_minus_smoothing = %uu,\n"
                   "    .min_signal_remaining = %uu, .smoothing_bits = %uu,\n"
                   "    .spectral_subtraction_bits = %uu, .clamping = %d}",
                   (int)p.num_channels, (unsigned)p.smoothing,
                   (unsigned)p.one_minus_smoothing, (unsigned)p.alternate_smoothing,
                   (unsigned)p.alternate_one_minus_smoothing,
                   (unsigned)p.min_signal_remaining, (unsigned)p.smoothing_bits,
                   (unsigned)p.spectral_subtraction_bits, (int)p.clamping),
      true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  arg_tensor(L, noise->index);
  add_arg(L, ARG_STATE, -1, 0);
}

static void lower_pcan(Lower *L) {
  need_io(L, 3, 1);
  Tensor *in = input(L, 0), *noise = input(L, 1), *lut = input(L, 2), *out = output(L, 0);
  need_type(L, in, DT_UINT32, "input");
  need_type(L, noise, DT_UINT32, "noise estimate");
  need_type(L, out, DT_UINT32, "output");
  need_rank(L, in, 1, "input");
  need_rank(L, noise, 1, "noise estimate");
  need_rank(L, lut, 1, "gain table");
  need_rank(L, out, 1, "output");
  const_s16(L, lut, "gain table");
  int32_t n = elems32(in);
  if (n <= 0 || elems32(noise) != n || elems32(out) != n)
    error_at(L->g, L->op->index, "input, noise estimate and output sizes differ");
  if (tensor_elems(lut) < 4 * 32 - 3)
    error_at(L->g, L->op->index, "the gain table has %lld values; the kernel reads up "
             "to 125", (long long)tensor_elems(lut));
  int32_t shift = opt_int(L, "snr_shift", 0, 63);
  L->l->kernel = "ta_signal_pcan_u32";
  const_struct(L, "params", "ta_pcan_params",
               arena_printf("{.num_channels = %d, .snr_shift = %d}", (int)n, (int)shift),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, noise->index);
  arg_tensor(L, lut->index);
  arg_tensor(L, out->index);
}

static void lower_filter_bank_log(Lower *L) {
  need_io(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_type(L, in, DT_UINT32, "input");
  need_type(L, out, DT_INT16, "output");
  need_rank(L, in, 1, "input");
  need_rank(L, out, 1, "output");
  if (tensor_elems(out) < tensor_elems(in))
    error_at(L->g, L->op->index, "the output is shorter than the input");
  ta_filter_bank_log_params p = {elems32(in), opt_int(L, "output_scale", INT32_MIN,
                                                       INT32_MAX),
                                 opt_int(L, "input_correction_bits", 0, 31)};
  L->l->kernel = "ta_signal_filter_bank_log_u32";
  const_struct(L, "params", "ta_filter_bank_log_params",
               arena_printf("{.num_channels = %d, .output_scale = %d,\n"
                            "    .input_correction_bits = %d}",
                            (int)p.num_channels, (int)p.output_scale,
                            (int)p.input_correction_bits),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------- RFFT2D, COMPLEX_ABS */

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* RFFT2D (TFLite's rfft2d.cc; TFLM has none): float32 [..., h, w] and a
 * constant int32 fft_length [2] of powers of two -> complex64 [...,
 * fft_h, fft_w / 2 + 1], the input cropped or zero-padded.  Its Prepare
 * checks the same.  The twiddles e^(-2 pi i k / n), k < n / 2, for n =
 * the larger FFT length (at least 2), computed in double here, serve
 * both directions' FFTs. */
void lower_rfft2d(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *len = input(L, 1), *out = output(L, 0);
  need_type(L, in, DT_FLOAT32, "input");
  need_type(L, out, DT_COMPLEX64, "output");
  need_type(L, len, DT_INT32, "fft_length");
  need_rank(L, len, 1, "fft_length");
  need_const(L, len, "fft_length");
  if (len->dims[0] != 2)
    error_at(L->g, L->op->index, "fft_length has %d values; expected 2", (int)len->dims[0]);
  if (in->ndims < 2)
    error_at(L->g, L->op->index, "the input has rank %d; expected at least 2", in->ndims);
  const int64_t fh = const_int(L, len, 0, "fft_length"), fw = const_int(L, len, 1, "fft_length");
  if (!is_pow2(fh) || !is_pow2(fw) || fh > (1 << 20) || fw > (1 << 20))
    error_at(L->g, L->op->index, "fft_length [%lld, %lld] must be powers of two (up to 2^20)",
             (long long)fh, (long long)fw);
  bool fits = out->ndims == in->ndims && out->dims[in->ndims - 2] == fh &&
              out->dims[in->ndims - 1] == fw / 2 + 1;
  for (int i = 0; fits && i < in->ndims - 2; i++)
    fits = out->dims[i] == in->dims[i];
  if (!fits)
    error_at(L->g, L->op->index, "the output shape is not the input's with the last two "
             "dimensions [%lld, %lld]", (long long)fh, (long long)(fw / 2 + 1));
  ta_rfft2d_params p = {0};
  p.in_h = in->dims[in->ndims - 2];
  p.in_w = in->dims[in->ndims - 1];
  p.slices = elems32(in) / (p.in_h * p.in_w); /* not empty: verify.c */
  p.fft_h = (int32_t)fh;
  p.fft_w = (int32_t)fw;
  p.table_n = p.fft_h > p.fft_w ? p.fft_h : p.fft_w;
  if (p.table_n < 2)
    p.table_n = 2;
  const double pi = 3.141592653589793238462643383279502884197169399375105820974944;
  float *tw = arena_array((size_t)p.table_n, sizeof(float));
  for (int32_t k = 0; k < p.table_n / 2; k++) {
    tw[2 * k] = (float)cos(2 * pi * k / p.table_n);
    tw[2 * k + 1] = (float)-sin(2 * pi * k / p.table_n);
  }
  L->l->kernel = "ta_rfft2d_f32";
  const_struct(L, "params", "ta_rfft2d_params",
               arena_printf("{.slices = %d, .in_h = %d, .in_w = %d, .fft_h = %d, "
                            ".fft_w = %d,\n    .table_n = %d}",
                            (int)p.slices, (int)p.in_h, (int)p.in_w, (int)p.fft_h,
                            (int)p.fft_w, (int)p.table_n),
               true);
  const_array(L, "twiddles", DT_FLOAT32, tw, (size_t)p.table_n, true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* COMPLEX_ABS (complex_support.cc): complex64 -> float32 of one shape. */
void lower_complex_abs(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_type(L, in, DT_COMPLEX64, "input");
  need_type(L, out, DT_FLOAT32, "output");
  if (tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  L->l->kernel = "ta_complex_abs_f32";
  const_struct(L, "params", "ta_unary_params",
               arena_printf("{.size = %d}", (int)elems32(in)), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------- user-supplied */

/* A C string literal for s (octal escapes for anything unusual). */
static const char *c_string(const char *s) {
  const char *r = "\"";
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c == '_' || c == ' ' || c == '-' || c == '.' || c == ':')
      r = arena_printf("%s%c", r, c);
    else
      r = arena_printf("%s\\%03o", r, c);
  }
  return arena_printf("%s\"", r);
}

static int tflite_type_code(DType dt) {
  switch (dt) {
  case DT_FLOAT32: return 0;
  case DT_INT32: return 2;
  case DT_UINT8: return 3;
  case DT_INT64: return 4;
  case DT_BOOL: return 6;
  case DT_INT16: return 7;
  case DT_INT8: return 9;
  case DT_UINT32: return 15;
  case DT_UINT16: return 16;
  case DT_FLOAT16: return 1;
  case DT_FLOAT64: return 10;
  case DT_UINT64: return 12;
  default: return -1;
  }
}

/* The initializer of one ta_tensor_info; its arrays become constants
 * named <prefix><k>_dims, _scale, _zp. */
static const char *tensor_info(Lower *L, const Tensor *t, const char *prefix, int k) {
  if (!t)
    return "{-1, 0, NULL, 0, 0, NULL, NULL, 0, 0}";
  const char *dims = arena_printf("%s%d_dims", prefix, k);
  const_array(L, dims, DT_INT32, t->dims, (size_t)t->ndims, false);
  const char *scale = "NULL", *zp = "NULL";
  if (t->q.nscale > 0) {
    int32_t *z = arena_array((size_t)t->q.nscale, sizeof(int32_t));
    for (int i = 0; i < t->q.nscale; i++)
      z[i] = t->q.zero_point ? (int32_t)t->q.zero_point[i] : 0;
    const char *sn = arena_printf("%s%d_scale", prefix, k);
    const char *zn = arena_printf("%s%d_zp", prefix, k);
    const_array(L, sn, DT_FLOAT32, t->q.scale, (size_t)t->q.nscale, false);
    const_array(L, zn, DT_INT32, z, (size_t)t->q.nscale, false);
    scale = arena_printf("@%s", sn);
    zp = arena_printf("@%s", zn);
  }
  return arena_printf("{%d, %d, @%s, %zu, %d, %s, %s, %d, %d}", tflite_type_code(t->dtype),
                      t->ndims, dims, tensor_bytes(t), t->q.nscale, scale, zp,
                      t->q.axis, is_const(t) ? 1 : 0);
}

static void lower_user(Lower *L, const CustomKernel *ck) {
  Op *op = L->op;
  const char *ins = "", *outs = "";
  for (int k = 0; k < op->ninputs; k++)
    ins = arena_printf("%s%s\n    %s", ins, k ? "," : "",
                       tensor_info(L, optional_input(L, k), "in", k));
  for (int k = 0; k < op->noutputs; k++)
    outs = arena_printf("%s%s\n    %s", outs, k ? "," : "",
                        tensor_info(L, output(L, k), "out", k));
  if (op->ninputs)
    add_const(L, (ConstObj){.name = "inputs", .ctype = "ta_tensor_info",
                            .init = arena_printf("{%s}", ins),
                            .count = (size_t)op->ninputs});
  if (op->noutputs)
    add_const(L, (ConstObj){.name = "outputs", .ctype = "ta_tensor_info",
                            .init = arena_printf("{%s}", outs),
                            .count = (size_t)op->noutputs});
  if (op->ncustom_options)
    const_array(L, "options", DT_UINT8, op->custom_options, op->ncustom_options, false);
  L->l->kernel = ck->function;
  L->l->user_kernel = true;
  L->op->scratch_bytes = ck->scratch;
  const_struct(
      L, "info", "ta_custom_op",
      arena_printf("{%s, %d, %s, %zu, %d, %d, %s, %s, %zu}", c_string(op->custom_name),
                   op->index, op->ncustom_options ? "@options" : "NULL",
                   op->ncustom_options, op->ninputs, op->noutputs,
                   op->ninputs ? "@inputs" : "NULL", op->noutputs ? "@outputs" : "NULL",
                   ck->scratch),
      true);
  add_arg(L, ARG_INPUTS, 0, op->ninputs);
  add_arg(L, ARG_OUTPUTS, 0, op->noutputs);
  arg_scratch(L);
}

/* ------------------------------------------------------ dispatch */

static const struct {
  const char *name;
  LowerFn *fn;
} signal_ops[] = {
    {"SignalWindow", lower_window},
    {"SignalFftAutoScale", lower_fft_auto_scale},
    {"SignalRfft", lower_rfft},
    {"SignalEnergy", lower_energy},
    {"SignalFilterBank", lower_filter_bank},
    {"SignalFilterBankSquareRoot", lower_filter_bank_sqrt},
    {"SignalFilterBankSpectralSubtraction", lower_spectral_subtraction},
    {"SignalPCAN", lower_pcan},
    {"SignalFilterBankLog", lower_filter_bank_log},
};

void lower_custom(Lower *L) {
  const char *name = L->op->custom_name ? L->op->custom_name : "";
  for (int i = 0; i < L->o->ncustom; i++)
    if (!strcmp(L->o->custom[i].name, name)) {
      lower_user(L, &L->o->custom[i]);
      return;
    }
  if (!strcmp(name, "TFLite_Detection_PostProcess")) {
    lower_detection_postprocess(L); /* lower_detection.c */
    return;
  }
  if (!strcmp(name, "CIRCULAR_BUFFER")) {
    lower_circular_buffer(L); /* lower_circular_buffer.c */
    return;
  }
  for (size_t i = 0; i < sizeof signal_ops / sizeof *signal_ops; i++)
    if (!strcmp(signal_ops[i].name, name)) {
      signal_ops[i].fn(L);
      return;
    }
  error_at(L->g, L->op->index,
           "custom op '%s' is not supported: implement it in C and pass "
           "--custom-op %s=<function> (see doc/generated-code.md, \"Custom ops\")",
           name, name);
}
