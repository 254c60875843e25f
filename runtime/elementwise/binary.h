/* SPDX-License-Identifier: Apache-2.0 */
/*
 * binary.h - the broadcasting loop of the element-wise binary kernels
 * (private to runtime/elementwise/).
 *
 * TA_BINARY_LOOP(shape, in1, in2, out, F) sets out[k] = F(a, b) for
 * every output element k in order, a and b the input elements the
 * ta_bcast walk (bcast.h) pairs with it.  The innermost run is
 * specialised for the common patterns (both dense, one input a scalar)
 * so the compiler can vectorise it.  F is a function or macro of two
 * values.
 */
#ifndef TA_BINARY_H
#define TA_BINARY_H

#include "bcast.h"

#define TA_BINARY_LOOP(shape, in1, in2, out, F)                                  \
  do {                                                                           \
    const int nd_ = (shape)->ndims;                                              \
    const int32_t n_ = (shape)->shape[nd_ - 1];                                  \
    const size_t s1_ = (size_t)(shape)->stride1[nd_ - 1];                        \
    const size_t s2_ = (size_t)(shape)->stride2[nd_ - 1];                        \
    const size_t rows_ = ta_bcast_rows(shape);                                   \
    int32_t idx_[TA_MAX_DIMS] = {0};                                             \
    size_t o1_ = 0, o2_ = 0;                                                     \
    for (size_t r_ = 0; r_ < rows_; r_++, (out) += n_) {                         \
      if (s1_ == 1 && s2_ == 1) {                                                \
        for (int32_t i_ = 0; i_ < n_; i_++)                                      \
          (out)[i_] = F((in1)[o1_ + (size_t)i_], (in2)[o2_ + (size_t)i_]);       \
      } else if (s2_ == 0) {                                                     \
        for (int32_t i_ = 0; i_ < n_; i_++)                                      \
          (out)[i_] = F((in1)[o1_ + (size_t)i_ * s1_], (in2)[o2_]);              \
      } else if (s1_ == 0) {                                                     \
        for (int32_t i_ = 0; i_ < n_; i_++)                                      \
          (out)[i_] = F((in1)[o1_], (in2)[o2_ + (size_t)i_ * s2_]);              \
      } else {                                                                   \
        for (int32_t i_ = 0; i_ < n_; i_++)                                      \
          (out)[i_] = F((in1)[o1_ + (size_t)i_ * s1_], (in2)[o2_ + (size_t)i_ * s2_]); \
      }                                                                          \
      ta_bcast_next(shape, idx_, &o1_, &o2_);                                    \
    }                                                                            \
  } while (0)

#endif
