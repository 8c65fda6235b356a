/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of subcommands: X(name, function, summary). main.c builds
 * the dispatch table and --help from it; a new subcommand is one line here
 * and its function in its own file.
 */
#ifndef ZC_COMMANDS_H
#define ZC_COMMANDS_H

#define ZC_COMMANDS(X)                                                              \
	X("run", zc_cmd_run, "run a workload: start roles, measure, write results/")   \
	X("noise", zc_cmd_noise, "A/A in one invocation: every run twice, interleaved") \
	X("compare", zc_cmd_compare, "A/B table, regression gate (compare --help lists the layouts)") \
	X("trend", zc_cmd_trend, "a series of nights: change points, what changed, a nightly gate") \
	X("report", zc_cmd_report, "headline ratios with intervals and answers, fingerprints") \
	X("export", zc_cmd_export, "results in other tools' formats (export --help lists them)") \
	X("plot", zc_cmd_plot, "gnuplot pictures and the HTML dashboard")             \
	X("list", zc_cmd_list, "list every mode, with why it is unavailable here")     \
	X("kernel-ab", zc_cmd_kernel_ab, "boot two kernels under qemu, run, compare")  \
	X("kernel-build", zc_cmd_kernel_build, "build a guest kernel from a tree + patches") \
	X("source", zc_role_main, "role: generate payload (started by run)")           \
	X("proxy", zc_role_main, "role: forward payload, the device under test")       \
	X("sink", zc_role_main, "role: receive and verify payload")                    \
	X("keys", zc_cmd_keys, "list workload keys / flags with defaults and help")    \
	X("profile", zc_cmd_profile, "sample CPUs with call chains: buckets, top symbols, flame graph") \
	X("probe", zc_cmd_probe, "kernel fingerprint: is vmsplice/splice zero-copy here?")  \
	X("pipebench", zc_cmd_pipebench, "pipe-only patterns: stress-ng vm-splice, CRIU dump")   \
	X("before-after", zc_cmd_before_after, "table: each patched path before vs after") \
	X("scale", zc_cmd_scale, "scaling table: Gbps and Gbps/core against workers")     \
	X("size", zc_cmd_size, "cores needed for a target rate, per mode and mode pair")  \
	X("man", zc_cmd_man, "print this manual page (roff), made from the option tables") \
	X("completion", zc_cmd_completion, "print the bash completion script, made the same way")

#endif
