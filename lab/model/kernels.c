// SPDX-License-Identifier: MIT
#include "kernels.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct kernel_known known[TOPO_KERNEL_COUNT] = {
	[TOPO_KERNEL_DEFAULT] = { "default", "6.1", "6.1", "default",
				  "linux-source-6.1" },
	[TOPO_KERNEL_DEBUG] = { "debug", "6.1-debug", "6.1", "debug",
				"linux-source-6.1" },
	[TOPO_KERNEL_612] = { "6.12", NULL, "6.12", "default",
			      "linux-source-6.12" },
	[TOPO_KERNEL_612_DEBUG] = { "6.12-debug", NULL, "6.12", "debug",
				    "linux-source-6.12" },
};

const struct kernel_known *kernel_known(enum topo_kernel k)
{
	return (unsigned)k < TOPO_KERNEL_COUNT ? &known[k] : &known[0];
}

const char *topo_kernel_name(enum topo_kernel k)
{
	return kernel_known(k)->name;
}

int kernel_by_name(const char *s, enum topo_kernel *k)
{
	for (int i = 0; s && i < TOPO_KERNEL_COUNT; i++)
		if (!strcmp(s, known[i].name) ||
		    (known[i].alias && !strcmp(s, known[i].alias))) {
			*k = (enum topo_kernel)i;
			return 0;
		}
	return -1;
}

int kernel_arg(const char *s, enum topo_kernel *k)
{
	if (!kernel_by_name(s, k))
		return 1;
	return strchr(s, '/') || !access(s, F_OK) ? 0 : -1;
}

void kernel_override(struct topo *t, enum topo_kernel k)
{
	t->defaults.kernel = k;
	for (size_t i = 0; i < t->n_nodes; i++)
		t->nodes[i].kernel = k;
}

void kernel_set_text(const bool set[TOPO_KERNEL_COUNT], char *buf,
		     size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (int k = 0; k < TOPO_KERNEL_COUNT && n < len; k++)
		if (set[k])
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? " " : "", known[k].name);
}

void kernel_needed(const struct topo *t, unsigned host,
		   bool need[TOPO_KERNEL_COUNT])
{
	memset(need, 0, TOPO_KERNEL_COUNT * sizeof(*need));
	for (size_t i = 0; i < t->n_nodes; i++)
		if (t->nodes[i].host == host)
			need[t->nodes[i].kernel] = true;
}

enum topo_kernel kernel_probe(const struct topo *t, unsigned host)
{
	for (size_t i = 0; t && i < t->n_nodes; i++)
		if (t->nodes[i].host == host)
			return t->nodes[i].kernel;
	return TOPO_KERNEL_DEFAULT;
}

const char *const *kernel_spellings(void)
{
	/* The names, then the aliases: made from the one table. */
	static const char *spellings[2 * TOPO_KERNEL_COUNT + 1];
	size_t n = 0;

	if (spellings[0])
		return spellings;
	for (int i = 0; i < TOPO_KERNEL_COUNT; i++)
		spellings[n++] = known[i].name;
	for (int i = 0; i < TOPO_KERNEL_COUNT; i++)
		if (known[i].alias)
			spellings[n++] = known[i].alias;
	return spellings;
}

const char *kernel_spellings_text(void)
{
	const char *const *spellings = kernel_spellings();
	static char text[96];

	if (!text[0])
		for (int j = 0; spellings[j]; j++)
			snprintf(text + strlen(text), sizeof(text) -
				 strlen(text), "%s%s", j ? ", " : "",
				 spellings[j]);
	return text;
}
