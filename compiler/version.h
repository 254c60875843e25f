/* SPDX-License-Identifier: Apache-2.0 */
/*
 * version.h - the version of tinyaot, in one place.
 *
 * `tinyaot --version` prints it and every generated header carries it
 * (<PREFIX>_TINYAOT_VERSION).  Semantic versioning: the major number
 * changes when the generated interface (doc/generated-code.md) changes
 * incompatibly; CHANGELOG.md says what each version brought.
 */
#ifndef TINYAOT_VERSION_H
#define TINYAOT_VERSION_H

#define TINYAOT_VERSION "0.9.0"

#endif
