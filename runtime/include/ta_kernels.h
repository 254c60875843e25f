/*
 * ta_kernels.h - the public API of tinyaot's kernel library.
 *
 * One kernel per file under runtime/<family>/, named after it:
 * ta_<op>[_<variant>]_<dtype>.  Kernels that need scratch memory have
 * <kernel>_scratch_size(), which the compiler links and calls while
 * planning, so the planned size and the kernel's use agree.
 */
#ifndef TA_KERNELS_H
#define TA_KERNELS_H

#include "ta_types.h"

#endif
