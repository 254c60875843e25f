/*
 * lower_legacy.c - the uint8 (legacy asymmetric) and hybrid variants of
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, the pools, ADD and
 * SOFTMAX, which lower.c's lowerings hand over to.
 */
#include "lower.h"

void lower_conv_legacy(Lower *L, bool depthwise) {
  (void)depthwise;
  unsupported_types(L);
}
void lower_fully_connected_legacy(Lower *L) { unsupported_types(L); }
void lower_pool_legacy(Lower *L) { unsupported_types(L); }
void lower_add_legacy(Lower *L) { unsupported_types(L); }
void lower_softmax_legacy(Lower *L) { unsupported_types(L); }
