// SPDX-License-Identifier: MIT
/* TAP 14 lines from the verdicts: what `mstlab run` and `verdict` print. */
#include "report.h"

int report_tap(const struct result_run *r, FILE *out, int *tap)
{
	int failed = 0;

	if (r->analysed) {
		if (r->warning)
			fprintf(out, "# checks: %s\n", r->warning);
		fprintf(out, "# checks: %lu frames, %lu BPDUs (%lu malformed)\n",
			r->frames, r->bpdus, r->bad_bpdus);
	}
	for (size_t i = 0; i < r->n_scenarios; i++) {
		const struct result_scenario *sc = &r->scenarios[i];

		for (size_t k = 0; k < sc->n_checks; k++) {
			const struct result_check *c = &sc->checks[k];
			bool bad = c->status == RESULT_FAIL;

			fprintf(out, "%sok %d - check%s%s: %s", bad ? "not " : "",
				++*tap, sc->run_wide ? "s" : " ",
				sc->run_wide ? "" : sc->name, c->text);
			if (c->status == RESULT_SKIP)
				fprintf(out, " # SKIP %s",
					c->message ? c->message : "");
			fputc('\n', out);
			if (bad && c->message)
				fprintf(out, "# %s\n", c->message);
			failed += bad;
		}
	}
	if (r->oom) {
		fprintf(out, "not ok %d - checks: out of memory\n", ++*tap);
		failed++;
	}
	return failed;
}
