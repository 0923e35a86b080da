// SPDX-License-Identifier: MIT
#include "expect_cover.h"

#include <stdio.h>
#include <string.h>

/* Has sc a check whose name starts with prefix, for msti (or any tree:
 * RESULT_NO_TREE)? */
static bool judged(const struct result_scenario *sc, const char *prefix,
		   int msti)
{
	for (size_t k = 0; k < sc->n_checks; k++)
		if (!strncmp(sc->checks[k].name, prefix, strlen(prefix)) &&
		    (msti == RESULT_NO_TREE || sc->checks[k].msti == msti))
			return true;
	return false;
}

static void not_judged(struct result_run *r, struct result_scenario *sc,
		       const char *key, int msti, const char *failed_step,
		       const char *why)
{
	char name[64], text[160], tree[16], msg[400];
	struct result_check *c;

	if (msti == RESULT_NO_TREE)
		tree[0] = '\0';
	else
		result_tree_name(msti, tree, sizeof(tree));
	snprintf(name, sizeof(name), "expect-%s", key);
	snprintf(text, sizeof(text), "expect.%s%s%s", key, tree[0] ? " " : "",
		 tree);
	snprintf(msg, sizeof(msg), "not judged: %s",
		 failed_step ? failed_step : why);
	c = result_add_check(r, sc, name, msti, NULL, !failed_step, text,
			     msg);
	if (c && !failed_step)
		result_skip(r, c, msg);
}

void expect_cover(struct result_run *r, struct result_scenario *sc,
		  const struct topo_scenario *tsc, const struct topo_mst *mst,
		  const char *failed_step)
{
	const struct topo_expect *e = &tsc->expect;

	if (!sc || !e->set)
		return;
	if (e->settle_ms && !judged(sc, "settle-", RESULT_NO_TREE))
		not_judged(r, sc, "settle", RESULT_NO_TREE, failed_step,
			   "no link failed or came back in the scenario");
	if (e->flush != TOPO_FLUSH_UNSET && !judged(sc, "flush-",
						     RESULT_NO_TREE))
		not_judged(r, sc, "flush", RESULT_NO_TREE, failed_step,
			   "no link failed or came back in the scenario");
	for (int s = 0; s <= (int)mst->n_msti; s++) {
		int msti = topo_tree_id(mst, s);

		if (e->outage_max_ms[s] >= 0 && !judged(sc, "outage", msti))
			not_judged(r, sc, "outage_ms", msti, failed_step,
				   "no probe flow of this tree ran");
	}
}
