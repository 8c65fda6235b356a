/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results files: written atomically by run, read back by compare, report,
 * export and plot (schema in results/README.md).
 * A run is identified across files by its workload key (topology, modes,
 * chunk, pipe size, connections), never by its section name.
 */
#ifndef ZC_RESULTS_H
#define ZC_RESULTS_H

#include "lib/zcbench.h"
#include "modes/mode.h"
#include "results/keys.h"

#include "stats/verdict.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* At most this many samples of one run are read back. */
#define ZC_SAMPLES_MAX 4096

/* Write root to path atomically (zc_write_atomic): 0/-errno */
int zc_json_write_atomic(json_t *root, const char *path);
/* Results and pipebench files are read whole: at most this many bytes. */
#define ZC_RESULTS_MAX_BYTES (1ULL << 30)
/* A JSON input file (a regular file of at most max bytes, zc_read_input),
 * parsed strictly (duplicate keys refused). NULL with "path: why" in err. */
json_t *zc_json_load_input(const char *path, size_t max, char *err, size_t errlen);
/*
 * Is root a zcbench-results or zcbench-pipebench document this zcbench
 * reads: schema_version exactly "MAJOR.MINOR" with our major, and every key
 * a reader uses of its type (runs an array of objects, samples arrays of
 * objects, metrics numbers or null, ...)? 0 with *schema set, or -EINVAL with
 * "file: runs[3].samples[0].gbps: a string, expected a number or null".
 */
int zc_results_check(json_t *root, const char *file, const char **schema, char *err,
		     size_t errlen);
/* Load a results file (zcbench-results) and check it. NULL with a message in err. */
json_t *zc_results_load(const char *path, char *err, size_t errlen);
/*
 * Who writes this results file (alive.c): {"pid", "start_ticks", "boot_id",
 * "pid_ns"} of this process, the file's "controller".
 */
json_t *zc_controller_json(void);
/* A file its gone controller left at "running" reads as "interrupted"
 * (status_reason says why; its runs at "running" too, with a reason).
 * zc_results_load does it: every reader sees the same. */
void zc_results_settle(json_t *root);
/* Load and check a results file; on failure print "zcbench CMD: reason"
 * (file name included) and return NULL: the caller exits 2. */
json_t *zc_an_load(const char *cmd, const char *path);

/* "proxy send>splice>recv chunk=65536 pipe=262144 conn=1" (chunk=- where the
 * key has none: its DUT does not use it): every key field
 * that tells two runs apart, then the options that change what is measured
 * where set (" opts=MODE_OPTS alt=MODE srcw=N sinkw=N req=N"). */
void zc_an_key(json_t *run, char *out, size_t len);
/* The same as one short word for a label or a series: "proxy:splice@64k/1M",
 * then ",conn=N", ",workers=N", ",object=64k,churn" ..., ",opts=..." where
 * they are set: runs that differ in any key are distinct lines and rows. */
void zc_an_run_id(json_t *run, char *out, size_t len);
/* "64k/1M": chunk/pipe of o (a run's key, a headline row or side), "-" for
 * a size o has none of (a key its DUT does not use: modes/mode.h, uses). */
const char *zc_an_size_of(json_t *o, char *out, size_t len);
/* x as a JSON number; null when it is none (NaN: no figure, infinite). */
json_t *zc_an_num(double x);
/* One size as "64k"; "-" when v <= 0 (absent, or a pair's unused size). */
const char *zc_an_fmt_size(long long v, char *out, size_t len);
/* The options part of the key alone, "opts=...,alt=...,srcw=N" ("" when
 * none is set): what the exports add to a run's series. */
const char *zc_an_key_opts(json_t *run, char *out, size_t len);
/*
 * A request/response run's own fields of its key k ("" for a stream run):
 * "rr object=65536 churn inflight=4 rate=1000 sizes=FILE", and with_pool
 * " pool=N". Runs of one path differ by these; the headline pairs without
 * the pool (copy has no pipes to pool), compare and the exports with it.
 */
const char *zc_an_rr_key(json_t *k, bool with_pool, char *out, size_t len);
/* Short label of the data path: "proxy:splice", "tee", "send>splice-null". */
void zc_an_label(json_t *run, char *out, size_t len);
const char *zc_an_str(json_t *o, const char *key); /* "" when absent; key: zc_key */
/* Mode of the device under test (the proxy's, or the source's when direct). */
const char *zc_an_dut_mode(json_t *run);
long long zc_an_int(json_t *o, const char *key); /* 0 when absent; key: zc_key */
double zc_an_real(json_t *o, const char *key); /* NaN when no number; key: zc_key */

/* Values of metric over the run's "ok" samples, in repetition order; at most
 * max. Returns how many. What is no metric aborts (zc_metric_key). */
size_t zc_an_values(json_t *run, const char *metric, double *out, size_t max);

const char *zc_an_kernel(json_t *root);
const char *zc_an_hostname(json_t *root);
const char *zc_an_date(json_t *root);
/* Epoch seconds of meta.date ("2026-12-02T21:46:38Z"), or -1. */
long long zc_an_epoch(json_t *root);
/* The top-level fingerprint as one line: "none" when null or absent, else
 * compact JSON; *id gets the probe's one-line "label" when there is one,
 * else a short stable hash ("fp-1a2b3c4d"), or "none". */
void zc_an_fingerprint(json_t *root, char *line, size_t len, char *id, size_t idlen);

/* "before" or "after" when the fingerprint tells (zcbench probe's
 * vmsplice_state, from behaviour), else NULL. */
const char *zc_an_kernel_side(json_t *root);
/* Which side a headline ratio of root speaks for, in report's words:
 * "after, emulated" for an emulated after-mode's, else "before, measured",
 * "after, measured" or, unfingerprinted, "this kernel". */
const char *zc_an_side_words(json_t *root, bool emulated);

/*
 * The headline/peer engine (headline.c): every pair of runs that run,
 * report, plot, the dashboard and before-after show comes from here, built
 * from the modes' own declarations (mode.h: vs, principal, after_of).
 */
/* The device under test's role of a run: its "dut", else from the topology. */
const char *zc_an_dut_role(json_t *run);
/* The run in runs with run's key but role's mode replaced by mode (the
 * proxy ignored when direct); NULL if none. The one peer finder. */
json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode);

/* The same answers as zc_an_peer from an index of runs built once (a file of
 * many runs is paired in linear time). NULL from new when out of memory:
 * zc_run_index_peer then needs the runs, so keep using zc_an_peer. */
struct zc_run_index;
struct zc_run_index *zc_run_index_new(json_t *runs);
json_t *zc_run_index_peer(struct zc_run_index *x, json_t *run, const char *role, const char *mode);
void zc_run_index_free(struct zc_run_index *x);

enum zc_pair_kind {
	ZC_PAIR_HEADLINE,	/* run: a mode with vs; peer_run: its vs */
	ZC_PAIR_AFTER,		/* run: an after-mode of native; peer_run: native's vs */
	ZC_PAIR_BEFORE_AFTER,	/* run: a native mode ("before"); peer_run: its after-mode */
};

struct zc_pair {
	enum zc_pair_kind kind;
	const char *role;			/* the DUT's role of both runs */
	const struct zc_mode *mode, *peer;	/* the modes of run and peer_run */
	const struct zc_mode *native;		/* ZC_PAIR_AFTER: the mode run stands in for */
	json_t *run, *peer_run;			/* peer_run NULL: see ZC_PAIRS_UNPAIRED */
	bool principal;				/* a ratio of the mission's two */
	/* Its sizes, each from the side whose mode passes it on (mode.h,
	 * uses); 0 where neither's does: printed "-" (zc_an_fmt_size). */
	long long chunk, pipe_size;
	char name[224];				/* headline kinds: "splice/copy proxy" */
};

/* At most this many runs of one mode pair with one run (a sweep of 16
 * sizes by 16 the other side ignores). */
#define ZC_PEERS_MAX		256
#define ZC_PAIRS_AFTER		0x1	/* headline: each row followed by its after-modes' rows */
/* headline (with ZC_PAIRS_AFTER): a principal row without any after-mode run
 * is followed by one ZC_PAIR_AFTER with run and mode NULL; before-after: a
 * native run without its after-mode's run gives a pair with peer_run NULL. */
#define ZC_PAIRS_UNPAIRED	0x2

/* Headline pairs of runs: principal ratios first (splice/copy, tee/send),
 * then the list's order; runs in file order. How many; *out is malloc'd
 * (free it; NULL when none or out of memory). */
size_t zc_headline_pairs(json_t *runs, unsigned flags, struct zc_pair **out);
/* Before/after pairs: each run of a native mode with the run of each of its
 * after-modes, natives and after-modes in list order, then runs in file
 * order. How many; *out as above. */
size_t zc_before_after_pairs(json_t *runs, unsigned flags, struct zc_pair **out);

/* Bootstrap resamples per CI; the fuzzing build takes fewer (Makefile): the
 * statistics are not what it tests, and 10,000 make 2 inputs a second. */
#ifndef ZC_BOOT_ROUNDS
#define ZC_BOOT_ROUNDS 10000
#endif
#define ZC_BOOT_SEED 20260101UL

/* The level of every interval a reader is shown, and the +-T a ratio is
 * "about 1" within (its answer against 1.0: changed, unchanged, can't tell). */
#define ZC_LEVEL 0.95
#define ZC_RATIO_THRESHOLD 0.05

struct zc_ratio {
	double value, lo, hi;	/* the ratio and its 95% interval (NaN: none) */
	double num_gpc, den_gpc;	/* medians, Gbps per core */
	size_t nn, nd;		/* ok samples of each run (disturbed ones left out) */
	bool paired;		/* value: geometric mean of per-repetition ratios (zc_an_paired) */
	size_t npairs;		/* paired: repetitions with both samples ok */
	size_t disturbed;	/* samples of the two runs left out as disturbed */
	struct zc_change ch;	/* the interval on the log scale (stats/verdict.h) */
	struct zc_verdict vd;	/* the ratio against 1.0 at +-ZC_RATIO_THRESHOLD */
};
/*
 * Gbps-per-core ratio of two runs with its 95% interval (results/change.c).
 * When the two runs were taken in rounds (zc_an_paired), the geometric mean
 * of the per-repetition ratios and Student's t interval of their logs;
 * otherwise the ratio of the two runs' geometric means and Welch's interval.
 * Fewer than 3 (pairs, or samples on a side): value without an interval.
 */
void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r);
/*
 * The level a ratio of num over den is read at when both runs were in a
 * question of repetitions = auto (each run's "level": the level of the
 * look its question stopped at, which keeps 95% under the looks,
 * stats/sequential.h): the higher of the two. NaN otherwise (ZC_LEVEL:
 * a run out of every question took its first rounds only, a number fixed
 * in advance).
 */
double zc_an_run_level(json_t *num, json_t *den);
/*
 * The change of metric from run b (of the file root_b) to run n (of root_n):
 * paired by rounds when both were taken in rounds of one invocation (and 3
 * pairs are complete); from two invocations (zc_an_cross), each run's
 * samples one invocation, held to the stated spread between invocations
 * (stats/verdict.h, zc_change_invocations: no profile here); else the two
 * runs' samples apart (Welch's); on the logs when every value is > 0, else
 * on the values. 0 or -errno (stats/verdict.h).
 */
int zc_an_change(json_t *root_b, json_t *b, json_t *root_n, json_t *n, const char *metric,
		 double level, struct zc_change *c);
/* The median metric of run's ok, undisturbed samples; NaN when none (or no run). */
double zc_an_median(json_t *run, const char *metric);
/* Its dut_busy_frac. */
double zc_an_busy_frac(json_t *run);
/* A headline row's interval keys from r (num over den): lo, hi, level, n,
 * method, interval, half_width_pct, answer, threshold_pct, and each side's
 * DUT busy fraction (numerator_busy_frac, denominator_busy_frac). */
void zc_an_ratio_json(json_t *row, json_t *num, json_t *den, const struct zc_ratio *r);
/* A ratio's answer against 1.0 (answer: zc_answer_key's) in words: "above
 * 1.05" (the whole interval), "below 0.95", "within 0.95-1.05", "can't tell"
 * (it spans 0.95 or 1.05, or there is no interval). */
const char *zc_ratio_words(const char *answer, double value, char *buf, size_t len);

/* Was the sample left out as disturbed (another task on the DUT's cores)? */
bool zc_an_disturbed(json_t *sample);
/* How many of run's ok samples are disturbed (and so left out). */
size_t zc_an_disturbed_count(json_t *run);
/*
 * Can repetition i of a pair up with repetition i of b? Only when both were
 * taken in rounds (options.order interleaved or random) by one invocation
 * (the same results file, or the same "invocation" id): then repetition i of
 * both is one round, adjacent in time.
 */
bool zc_an_paired(json_t *root_a, json_t *a, json_t *root_b, json_t *b);
/* Are two results files two invocations (different roots, no invocation id
 * in common)? */
bool zc_an_cross(json_t *root_a, json_t *root_b);
/* metric of run's samples by repetition: out[rep] is the value of the ok,
 * undisturbed sample with that "rep", NaN where none; out[0..max) is
 * written. The number of repetitions (highest rep + 1, at most max). */
size_t zc_an_values_by_rep(json_t *run, const char *metric, double *out, size_t max);



/*
 * The position effect of root's rounds (results/position.c): each place in
 * a round (1 first), its effect on Gbit/s per core against the mean sample's place
 * after the run's and the round's (percent, with its standard error), from
 * the ok, undisturbed samples: {order, samples, runs, rounds,
 * residual_sd_pct, places: [{place, n, effect_pct, se_pct}]}. NULL when the
 * order does not vary the places (interleaved: a place is a run;
 * sequential) or there is too little to fit.
 */
json_t *zc_position_effect(json_t *root);

/* A question repetitions = auto answers: a headline ratio num over den. */
struct zc_question {
	json_t *num, *den;	/* borrowed runs of the file */
	char name[256];		/* "splice/copy proxy at the best sizes" */
};
/* The questions of runs (results/best.c): each headline ratio at each
 * side's best size (the fair question), then, with all or when no side
 * ran at two sizes, every headline ratio at its size; each pair of runs
 * once. How many (at most max). */
size_t zc_headline_questions(json_t *runs, bool all, struct zc_question *out, size_t max);

/* Each headline ratio at each side's best size (results/best.c), as JSON
 * (report's "headline_best"); [] when no side ran at two sizes. */
json_t *zc_headline_best(json_t *runs);

/*
 * The headline rows of root's runs (zc_headline_pairs with flags: each pair
 * at its size, ZC_PAIRS_AFTER its after-modes' too), the one builder report,
 * the exports, noise and repetitions = auto read: ratio, side (report's
 * words), numerator, denominator and their modes, chunk, pipe_size,
 * connections, workers, rr (null for a stream), value, the interval keys
 * (zc_an_ratio_json), each side's Gbps per core and samples, verified; then
 * ZC_HEADLINE_ROW_EXTRA: emulated, aa_side (an A/A file's) and
 * disturbed_left_out. missing (an array, or NULL): gets one {ratio,
 * after_modes} per principal ratio without an after-mode run.
 */
json_t *zc_headline_rows(json_t *root, unsigned flags, json_t *missing);
#define ZC_HEADLINE_ROW_EXTRA { "emulated", "aa_side", "disturbed_left_out" }

#endif
