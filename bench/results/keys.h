/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every key bench/ reads or writes in JSON is one of three lists: a metric
 * (metrics/metrics.c), a workload key (config/cfg.c), or a word of ZC_KEYS
 * below: the structure of a results file as results/README.md's schema
 * gives it, each word once, under the first part that holds it. A key
 * spelled in no list is a typo: tests/unit/test_keys.c scans the sources
 * for every key literal (jansson's getters and setters, json_pack's keys,
 * our getters) and fails naming file:line, and the readers' getters check
 * at run time (zc_key, zc_metric_key). A new key is one word here, in its
 * part and in alphabetical order, and its line in results/README.md.
 */
#ifndef ZC_KEYS_H
#define ZC_KEYS_H

#include <stdbool.h>

/* The file: its meta, host, schedule and machine state, runs, samples,
 * headline rows, sizing (the controller's and results/'s). */
#define ZC_KEYS_RESULTS(X) \
	X(a) X(aa_side) X(address) X(affinity) X(after) X(answer) X(applied) X(b) X(backend) \
	X(backend_note) X(before) X(bind_device) X(boost) X(boot_id) X(budget_s) X(bus) X(changed) \
	X(changes) X(channels) X(ci_target_pct) X(cmdline) X(combined) X(comm) X(command) \
	X(compiler) X(connections_checked) X(controller) X(controller_dut_busy_s) \
	X(controller_off_dut_cpu) X(core) X(core_busy_s) X(cores) X(count) X(cpu) X(cpu_model) \
	X(cpu_s) X(cpu_softirq) X(cpufreq) X(cpuidle) X(data) X(date) X(decided) X(denominator) \
	X(denominator_busy_frac) X(denominator_gbps_per_core) X(denominator_sizes) X(description) \
	X(dirty) X(disabled) X(disturbed) X(disturbed_left_out) X(driver) X(driver_version) \
	X(dur_s) X(dut_alone) X(dut_busy_s) X(dut_bytes) X(dut_irq_busy_s) X(dut_numa_node_wanted) \
	X(dut_threads_s) X(effect_pct) X(effective_affinity) X(emulated) X(error) X(event) \
	X(event_note) X(exe) X(exit) X(file) X(fingerprint) X(firmware) X(flamegraph) X(folded) \
	X(foreign) X(foreign_busy) X(foreign_busy_reason) X(frac) X(frequency_hz) X(from) X(git) \
	X(governor) X(gro) X(gso) X(half_width_pct) X(hard) X(headline) X(headline_best) \
	X(headline_slices) X(hi) X(histogram) X(host) X(hostname) X(i) X(idle) X(in) \
	X(intel_pstate) X(interface) X(interval) X(interval_s) X(intervals) X(invocation) X(irq) \
	X(irq_cpu) X(irq_note) X(irq_softirq_s) X(irqs) X(kernel) X(key) X(l3_caches) \
	X(latency_merged) X(latency_us) X(level) X(libnuma) X(lo) X(load_avg) X(local_address) \
	X(looks) X(loss_method) X(lost) X(lro) X(machine) X(machine_state) X(max) X(max_us) \
	X(mean) X(mean_us) X(median) X(meta) X(method) X(min) X(min_rounds) X(mitigations) X(mtu) \
	X(n) X(name) X(needed) X(net_rx) X(net_tx) X(netem_delay) X(netem_links) X(netem_loss) \
	X(netns) X(nic) X(no_turbo) X(note) X(notes) X(numa_node) X(numa_nodes) X(numerator) \
	X(numerator_busy_frac) X(numerator_gbps_per_core) X(numerator_sizes) X(offloads) \
	X(online_cpus) X(open) X(operstate) X(options) X(others) X(others_share) X(out) X(p50_us) \
	X(p90_us) X(p999_us) X(p99_us) X(packages) X(page_size) X(pairs) X(path) X(peer) \
	X(perf_version) X(period_effective) X(pid) X(pid_ns) X(place) X(placed_by) X(placement) \
	X(places) X(policy) X(preliminary) X(previous) X(previous_affinity) X(profile) \
	X(profile_buckets) X(profile_error) X(pus) X(question) X(questions) X(queues) X(ratio) \
	X(reason) X(release) X(remote_version) X(rep) X(replaces_slot) X(requested) \
	X(residual_sd_pct) X(results) X(retaken) X(rfs) X(rlimit_nofile) X(role) X(roles) \
	X(roles_s) X(round) X(rounds) X(rounds_would_tell) X(rps) X(rps_sock_flow_entries) X(rr) \
	X(run) X(runs) X(rx) X(rx_checksum) X(rx_queues) X(samples) X(samples_planned) X(schedule) \
	X(schema) X(schema_version) X(se_pct) X(sections) X(sg) X(sha) X(share) X(sink_bytes) \
	X(sizing) X(slices_dropped) X(slot) X(soft) X(soft_before) X(softirq_elsewhere_s) \
	X(softirq_landed_elsewhere) X(speed_mbps) X(ssh) X(start_s) X(start_ticks) X(started_at) \
	X(state) X(status) X(status_reason) X(stddev) X(steal) X(steering) X(stopped) X(summary) \
	X(sysctls) X(t_s) X(tasks_truncated) X(threshold_pct) X(threshold_share) X(tid) X(to) \
	X(transport) X(tso) X(tx) X(tx_checksum) X(tx_queues) X(unverified) X(usable_cpus) \
	X(value) X(verified) X(verified_bytes) X(version) X(virtual) X(why) X(workload) X(writes) \
	X(xps) X(zcbench_version)

/* A role report: window, cpustat, workers, connections, rr, the counters,
 * a peer program's and a mode's own report, slices, profiles. */
#define ZC_KEYS_REPORT(X) \
	X(2xx) X(3xx) X(4xx) X(5xx) X(accept) X(application_protocol) X(blksize) X(bpf) \
	X(bpf_reason) X(buckets) X(buffer_numa_node) X(busy_ns) \
	X(bytes_per_s) X(bytes_received) X(bytes_sent) X(bytes_total) X(calls_total) \
	X(check) X(children) X(clamped) X(closed) X(comms) X(config) X(connect) \
	X(connection_errors) X(connections_accepted) X(connections_closed) X(connections_merged) \
	X(connections_opened) X(connections_total) X(context_switches_per_mb) X(copied_fraction) \
	X(copied_sends) X(copy) X(copy_from_iter_bytes) X(copy_iter) X(copy_iter_reason) \
	X(copy_page_to_iter_bytes) X(copy_to_iter_bytes) X(cost) X(counters_error) \
	X(counters_scope) X(counters_toggle_error) X(cpu_ns) X(cpu_numa_node) X(cpu_shared) \
	X(created) X(created_per_connection) X(cycles_per_byte) X(done) X(dropped) \
	X(duration_s) X(enobufs) X(epoll_waits) X(errored) X(errors) X(errqueue_reads) X(events) \
	X(failed) X(finished_s) X(first_after_switch) X(first_connection_error) X(headers) \
	X(highest_ns) X(host_total_pct) X(id) X(idle_pct) \
	X(iowq_pinned) X(ipc) X(k) X(late) X(latency) X(latency_why) X(libpfm4_events) \
	X(log_tail) X(loop) X(lowest_ns) X(max_ns) X(max_outstanding) X(mean_ns) X(min_ns) \
	X(mismatch_connection) X(mismatch_offset) X(missing) X(mode) X(mode_options) X(mode_report) \
	X(nbthread) X(nics) X(notifications) X(notifications_copied) \
	X(notifications_pending) X(notified_sends) X(nr) X(num_streams) X(omit_s) X(over) X(p50) \
	X(p50_ns) X(p75) X(p90) X(p90_ns) X(p99) X(p999_ns) X(p99_9) X(p99_ns) \
	X(page_faults_per_mb) X(partial) X(payload_bytes) X(perf) X(perf_reason) X(pipes) \
	X(printed_bytes_per_s) X(printed_requests_per_s) X(process) X(program) X(programs) X(read) \
	X(reasons) X(remote_total_pct) X(report) X(requests) X(requests_per_s) X(retries) \
	X(returned) X(reused) X(ring_setup_flags) \
	X(rx_copied_bytes) X(rx_copied_per_payload_byte) X(rx_copy_calls) X(rx_file_copied_bytes) \
	X(rx_pipe_copied_bytes) X(rx_skb_copied_bytes) X(sd) X(seconds_received) X(seconds_sent) \
	X(self) X(self_cost) X(self_cost_reason) X(sendfile) X(share_of_core) X(short_links) \
	X(side) X(sigfigs) X(slice_s) X(slice_setup) X(slices) \
	X(softirq) X(softirq_ns) X(softirq_resolution_s) X(splice) X(splice_pages) X(sqes) \
	X(stalled) X(started) X(stdev) X(succeeded) X(syscall_time_reason) X(syscalls) \
	X(syscalls_per_mb) X(syscalls_total) X(t_end_ns) X(t_start_ns) \
	X(tcp_sendmsg_locked) X(thread_cpu_s) X(threads) \
	X(time_for_request_us) X(time_ns) X(time_reason) X(toggle) X(total) X(traffic_bytes) \
	X(transactions_from) X(transactions_total) X(tx_copied_bytes) \
	X(tx_copied_per_payload_byte) X(tx_file_copied_bytes) X(tx_pipe_copied_bytes) \
	X(tx_skb_copied_bytes) X(tx_splice_pages_bytes) X(tx_zerocopy_bytes) X(unnotified_sends) \
	X(unsent) X(usage_reported) X(user_only) X(vectors) X(vv_head) \
	X(window) X(window_bytes) X(worker) X(write) X(zerocopy) X(zerocopy_sends)

/* The kernel fingerprint (zcbench probe) and pipebench files. */
#define ZC_KEYS_PROBE(X) \
	X(after_of) X(block_ms) X(calls_per_s) X(cpu_cores) X(detail) X(elapsed_ms) \
	X(elapsed_s) X(euid) X(kernel_release) X(label) X(mb_per_s) X(mb_per_s_per_core) X(modes) \
	X(pattern) X(probes) X(splice_file_unpriv) X(splice_needs_write) X(summary_text) \
	X(sysctl_changed_and_restored) X(user) X(verdict) X(verdicts) X(vmsplice_state) X(what)

/* kernel-ab and kernel-build: the files and summaries a guest brings back. */
#define ZC_KEYS_GUEST(X) \
	X(accel) X(accel_note) X(append) X(base) X(boot) X(boot_order) X(boot_run_s) X(boots) \
	X(boots_run) X(build) X(build_dir) X(build_note) X(compare_exit) X(compared) X(console) \
	X(dir) X(disable) X(enable) X(got) X(guest) X(image) X(image_version) \
	X(invocation_in_guest) X(jobs) X(kernel_cmdline_extra) X(localversion) X(logs) X(mem) \
	X(modules) X(not_as_requested) X(ok) X(option) X(origin) X(patches) X(pin_note) \
	X(pipebench) X(probe) X(probe_exit) X(probe_note) X(run_exit) X(series) X(set) X(sha256) \
	X(sysctls_seen) X(timeout_s) X(tool) X(tree) X(vcpus) X(vcpus_pinned) X(wall_s) X(zcbench)

/* The JSON our commands print for people and tools: compare, report,
 * before-after, trend, size and scale --json, noise files, export's BMF and
 * GAB, zcbench list and keys --json. */
#define ZC_KEYS_OUTPUT(X) \
	X(a_half_width_pct) X(after_kind) X(after_mode) X(after_mode_of) X(after_modes) \
	X(after_run) X(all) X(alpha) X(answer_words) X(available) X(b_half_width_pct) \
	X(before_mode) X(before_run) X(better) X(between) X(bootstrap_rounds) X(calls_per_mb) X(cant_tell) \
	X(change) X(change_pct) X(change_points) X(change_unit) X(choices) X(could_see_down) \
	X(could_see_down_pct) X(could_see_pct) X(could_see_up) X(could_see_up_pct) X(counts) \
	X(curves) X(default) X(denominator_chunk) X(denominator_mode) X(denominator_pipe_size) \
	X(denominator_samples) X(df) X(direction) X(estimate_pct) X(exit_code) X(extra) X(extrapolated) \
	X(figures) X(files) X(files_with_nothing_compared) X(flag) X(flags) X(floor_pct) \
	X(floor_rel) X(gate) X(gated) X(headline_vs) X(help) X(hi_pct) X(high) X(host_keys) \
	X(imitated_by) X(kernel_side) X(kind) X(left_out) X(left_out_night) X(list) X(lo_pct) X(low) \
	X(lower_value) X(metric) \
	X(metrics) X(missing_after) X(mode_cores) X(new) X(newest) X(night) X(nights) \
	X(numerator_mode) X(numerator_samples) X(on) X(p) X(paired) X(points) X(principal) \
	X(quantile) X(range) X(ratios) X(regression) X(regressions) X(required) X(result) X(rows) \
	X(run_key) X(runs_lost) X(runs_not_compared) X(same_measurements) X(saves_cores) \
	X(saves_high) X(saves_low) X(scalars) X(sizes) X(spread_pct) X(steal_frac) X(step_pct) \
	X(target_gbps) X(target_rps) X(targets_gbps) X(text) X(threshold) X(type) \
	X(unavailable_why) X(unit) X(unverified_why) X(upper_value) X(uses) X(uses_opt) X(values) \
	X(vs) X(vs_cores) X(what_changed) X(within) X(workload_keys)

/* Read from other programs' JSON: iperf3 -J, the wrk script's report. */
#define ZC_KEYS_FOREIGN(X) \
	X(cpu_utilization_percent) X(duration_us) X(end) X(host_system) X(host_total) X(host_user) \
	X(omit) X(remote_total) X(seconds) X(start) X(sum_received) X(sum_sent) X(test_start)

#define ZC_KEYS(X) ZC_KEYS_RESULTS(X) ZC_KEYS_REPORT(X) ZC_KEYS_PROBE(X) ZC_KEYS_GUEST(X) \
	ZC_KEYS_OUTPUT(X) ZC_KEYS_FOREIGN(X)

/* Is key a metric, a workload key or in ZC_KEYS? */
bool zc_key_known(const char *key);
/*
 * key, for a getter to read with. Under ZC_STRICT_KEYS=1 (the tests) a key
 * in no list is a programming error: it is printed and the program aborts.
 * Without it nothing is checked: a results file may name keys of its own
 * (a run's "dut" is looked up as a key), and an absent key reads as absent.
 */
const char *zc_key(const char *key);
/* key, when it is a metric's; else it is printed and the program aborts
 * (always: a metric getter is never asked what a file says). */
const char *zc_metric_key(const char *key);

#endif
