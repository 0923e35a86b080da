/* SPDX-License-Identifier: MIT */
/* A JSON string's text, "" for anything else: what matrix files read
 * from summary.json and matrix.json, where a field may be missing. */
#ifndef MSTLAB_JSON_TEXT_H
#define MSTLAB_JSON_TEXT_H

#include <jansson.h>

static inline const char *json_text(const json_t *j)
{
	const char *s = json_string_value(j);

	return s ? s : "";
}

#endif
