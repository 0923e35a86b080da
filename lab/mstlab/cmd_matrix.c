// SPDX-License-Identifier: MIT
#include "cmd_matrix.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "matrix.h"
#include "matrix_compare.h"
#include "opts.h"
#include "paths.h"
#include "version.h"

enum { O_KERNEL = 256, O_REPEAT, O_RETRIES, O_RESUME, O_SHARD };

static const struct opt matrix_opts[] = {
	OPT_VALUE("kernel", O_KERNEL), OPT_VALUE("repeat", O_REPEAT),
	OPT_VALUE("retries", O_RETRIES), OPT_VALUE("resume", O_RESUME),
	OPT_VALUE("shard", O_SHARD),
	{ "output", 'o', true, NULL },
	{ 0 },
};

static const struct opt_spec matrix_spec = {
	.opts = matrix_opts, .flags = OPT_QUIET, .min_words = 1,
	.max_words = 64,
};

static volatile int stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int number(const char *s, unsigned max, unsigned *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || end == s || *end || x > max || s[0] == '-')
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* --shard I/N, or ci: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, which must
 * be set (a job that lost them must not run everything). */
static int shard_arg(const char *arg, unsigned *i, unsigned *n, char *why,
		     size_t len)
{
	const char *ci_i = getenv("CI_NODE_INDEX");
	const char *ci_n = getenv("CI_NODE_TOTAL");

	if (!strcmp(arg, "ci")) {
		if (!ci_i || !ci_n || number(ci_i, MATRIX_MAX_CELLS, i) ||
		    number(ci_n, MATRIX_MAX_CELLS, n) || !*i || *i > *n) {
			snprintf(why, len, "--shard ci needs CI_NODE_INDEX and "
				 "CI_NODE_TOTAL (1 <= index <= total; GitLab's "
				 "parallel: sets them), got '%s' and '%s'",
				 ci_i ? ci_i : "", ci_n ? ci_n : "");
			return -1;
		}
		return 0;
	}
	{
		char *slash = strchr(arg, '/');
		char head[16];

		snprintf(head, sizeof(head), "%.*s",
			 slash ? (int)(slash - arg) : 0, arg);
		if (!slash || slash - arg >= 16 ||
		    number(head, MATRIX_MAX_CELLS, i) ||
		    number(slash + 1, MATRIX_MAX_CELLS, n) || !*i || *i > *n) {
			snprintf(why, len, "--shard takes I/N, 1 <= I <= N "
				 "(2/4: the second of four jobs), or ci");
			return -1;
		}
	}
	return 0;
}

/* results/matrix-YYYYMMDD-HHMMSS beside the runs (paths.h). */
static int default_dir(char *dir, size_t len)
{
	struct paths ps;
	time_t now = time(NULL);
	char stamp[32];

	if (paths_find(&ps))
		return -1;
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	return (size_t)snprintf(dir, len, "%s/matrix-%s", ps.results,
				stamp) < len ? 0 : -1;
}

int cmd_matrix(int argc, char **argv, FILE *out, FILE *err)
{
	char *kernels[16], why[PATH_MAX + 160];
	const char *dir = NULL, *resume = NULL;
	struct matrix m = { .retries = 1, .version = mstlab_version };
	unsigned repeats = 1, shard = 1, shards = 1;
	size_t n_kernels = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct opts o;
	ssize_t n;
	int k, rc;

	opts_start(&o, &matrix_spec, argc, argv);
	while ((k = opts_next(&o)) > 0) {
		if (k == O_KERNEL && n_kernels < 16)
			kernels[n_kernels++] = (char *)o.arg;
		else if (k == O_KERNEL) {
			snprintf(why, sizeof(why), "at most 16 --kernel");
			goto bad;
		} else if (k == O_REPEAT && (number(o.arg, 100, &repeats) ||
					     !repeats)) {
			snprintf(why, sizeof(why), "--repeat takes 1 to 100");
			goto bad;
		} else if (k == O_RETRIES && number(o.arg, 5, &m.retries)) {
			snprintf(why, sizeof(why), "--retries takes 0 to 5");
			goto bad;
		} else if (k == 'o')
			dir = o.arg;
		else if (k == O_RESUME)
			resume = o.arg;
		else if (k == O_SHARD &&
			 shard_arg(o.arg, &shard, &shards, why, sizeof(why)))
			goto bad;
	}
	if (k != OPT_END) {
		opts_why(&o, why, sizeof(why));
		goto bad;
	}
	if (dir && resume) {
		snprintf(why, sizeof(why), "-o and --resume exclude each "
			 "other: --resume DIR goes on in DIR");
		goto bad;
	}
	if (matrix_plan(&m, argv + o.ind, (size_t)(argc - o.ind), kernels,
			n_kernels, repeats, why, sizeof(why))) {
		fprintf(err, "mstlab matrix: %s\n", why);
		matrix_free(&m);
		return 1;
	}
	matrix_shard(&m, shard, shards);
	n = readlink("/proc/self/exe", m.mstlab, sizeof(m.mstlab) - 1);
	if (n <= 0 || (!resume && !dir && default_dir(m.dir, sizeof(m.dir)))) {
		fprintf(err, "mstlab matrix: cannot work out where mstlab "
			"and its results are\n");
		matrix_free(&m);
		return 1;
	}
	m.mstlab[n] = 0;
	if (dir || resume)
		snprintf(m.dir, sizeof(m.dir), "%s", resume ? resume : dir);
	if (resume && matrix_load(&m, why, sizeof(why))) {
		fprintf(err, "mstlab matrix: --resume: %s\n", why);
		matrix_free(&m);
		return 1;
	}
	if (mkdir(m.dir, 0755) && errno != EEXIST) {
		fprintf(err, "mstlab matrix: %s: %s\n", m.dir,
			strerror(errno));
		matrix_free(&m);
		return 1;
	}
	gethostname(m.host, sizeof(m.host) - 1);
	fprintf(err, "mstlab matrix: %zu cells into %s\n", m.n_cells, m.dir);
	/* Ctrl-C: the cell running stops in order, the rest stay pending
	 * for --resume. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = matrix_run(&m, out, err, &stop);
	if (matrix_save(&m) || matrix_junit(&m) || matrix_html(&m))
		fprintf(err, "mstlab matrix: cannot write its files in %s: "
			"%s\n", m.dir, strerror(errno));
	fprintf(out, "MATRIX: %s — %s/matrix.html\n",
		stop ? "STOPPED" : rc ? "FAIL" : "PASS", m.dir);
	if (stop)
		fprintf(err, "mstlab matrix: stopped; go on with: mstlab "
			"matrix --resume %s%s ...\n", m.dir,
			n_kernels ? " --kernel ..." : "");
	matrix_free(&m);
	return stop ? 130 : rc;
bad:
	fprintf(err, "mstlab matrix: %s\nusage: mstlab %s\n", why,
		MATRIX_USAGE);
	return 2;
}

enum { O_JSON = 300, O_ALPHA };

static const struct opt compare_opts[] = {
	OPT_FLAG("json", O_JSON), OPT_VALUE("alpha", O_ALPHA),
	{ 0 },
};

static const struct opt_spec compare_spec = {
	.opts = compare_opts, .flags = OPT_QUIET, .min_words = 2,
	.max_words = 2,
};

int cmd_compare(int argc, char **argv, FILE *out, FILE *err)
{
	struct compare_opts co = { .alpha = 0.05 };
	char why[160], *end;
	struct opts o;
	int k;

	opts_start(&o, &compare_spec, argc, argv);
	while ((k = opts_next(&o)) > 0) {
		if (k == O_JSON)
			co.json = true;
		else if (k == O_ALPHA) {
			co.alpha = strtod(o.arg, &end);
			if (*end || end == o.arg || !(co.alpha > 0) ||
			    co.alpha >= 1) {
				snprintf(why, sizeof(why), "--alpha takes a "
					 "probability between 0 and 1");
				goto bad;
			}
		}
	}
	if (k != OPT_END) {
		opts_why(&o, why, sizeof(why));
		goto bad;
	}
	return matrix_compare(argv[o.ind], argv[o.ind + 1], &co, out, err);
bad:
	fprintf(err, "mstlab compare: %s\nusage: mstlab %s\n", why,
		COMPARE_USAGE);
	return 2;
}

static const struct opt merge_opts[] = {
	{ "output", 'o', true, NULL },
	{ 0 },
};

static const struct opt_spec merge_spec = {
	.opts = merge_opts, .flags = OPT_QUIET, .min_words = 1,
	.max_words = 256,
};

int cmd_merge(int argc, char **argv, FILE *out, FILE *err)
{
	struct matrix m = { 0 };
	char why[PATH_MAX + 160];
	unsigned count[MATRIX_ERROR + 1] = { 0 };
	const char *dir = NULL;
	struct opts o;
	int k, rc = 0;

	opts_start(&o, &merge_spec, argc, argv);
	while ((k = opts_next(&o)) > 0)
		dir = o.arg;
	if (k != OPT_END || !dir) {
		if (k != OPT_END)
			opts_why(&o, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "-o DIR is needed");
		fprintf(err, "mstlab merge: %s\nusage: mstlab %s\n", why,
			MERGE_USAGE);
		return 2;
	}
	for (int i = o.ind; i < argc; i++)
		if (matrix_append(&m, argv[i], why, sizeof(why))) {
			fprintf(err, "mstlab merge: %s\n", why);
			matrix_free(&m);
			return 1;
		}
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	if ((mkdir(m.dir, 0755) && errno != EEXIST) || matrix_save(&m) ||
	    matrix_junit(&m) || matrix_html(&m)) {
		fprintf(err, "mstlab merge: %s: %s\n", m.dir, strerror(errno));
		matrix_free(&m);
		return 1;
	}
	for (size_t i = 0; i < m.n_cells; i++) {
		count[m.cells[i].status]++;
		rc |= m.cells[i].status != MATRIX_PASS;
	}
	fprintf(out, "MERGE: %s — %zu cells (%u pass, %u fail, %u flaky, %u "
		"error, %u pending) from %d shards — %s/matrix.html\n",
		rc ? "FAIL" : "PASS", m.n_cells, count[MATRIX_PASS],
		count[MATRIX_FAIL], count[MATRIX_FLAKY], count[MATRIX_ERROR],
		count[MATRIX_PENDING], argc - o.ind, m.dir);
	matrix_free(&m);
	return rc;
}
