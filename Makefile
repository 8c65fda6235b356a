# zcbench: build, dependencies, tests and benchmarks.
# `make bench` and `make check` are the only commands a new user needs;
# both run `make deps` first.

PKGS      := liburing numa hwloc jansson
TEST_PKGS := cmocka
# Debian packages behind every library and tool the build and tests use.
DEB_PKGS  := build-essential pkg-config liburing-dev libnuma-dev libhwloc-dev \
             libjansson-dev libcmocka-dev libbpf-dev iproute2 procps jq
# Optional: installed by make deps when it can, their absence never fails the
# build (peer modes then say why they are unavailable). bench/peers/.
DEB_OPT_PKGS := haproxy iperf3 wrk nginx-light nghttp2-client

CC       ?= cc
OPT      ?= -O2 -g
GIT_SHA  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY:= $(shell git diff --quiet HEAD 2>/dev/null && echo 0 || echo 1)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS   += -std=gnu11 $(OPT) -Wall -Wextra -Werror -D_GNU_SOURCE -Ibench \
            -DZC_GIT_SHA='"$(GIT_SHA)"' -DZC_GIT_DIRTY=$(GIT_DIRTY) $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# bench/ is one folder per concern (bench/README.md); sources are found by folder.
ROOMS    := lib stats modes counters profile config metrics transport wire results report rr probe export peers role compare plot run guest
SRCS     := bench/main.c $(foreach r,$(ROOMS),$(wildcard bench/$(r)/*.c))
OBJS     := $(SRCS:bench/%.c=build/obj/%.o)
SAN_OBJS := $(SRCS:bench/%.c=build/asan/%.o)
UNIT_SRCS:= $(wildcard tests/unit/test_*.c)
UNITS    := $(UNIT_SRCS:tests/unit/%.c=build/tests/%)
SAN_UNITS:= $(UNIT_SRCS:tests/unit/%.c=build/asan-tests/%)
HDRS     := $(wildcard bench/*.h) $(foreach r,$(ROOMS),$(wildcard bench/$(r)/*.h)) bench/counters/bpf/acct.h
# Rewritten only when the sha or dirty flag changes, so every object that
# embeds them is rebuilt then and one binary never mixes two shas.
VERSION_STAMP := build/version.stamp
$(shell mkdir -p build; v='$(GIT_SHA) $(GIT_DIRTY)'; [ "$$(cat $(VERSION_STAMP) 2>/dev/null)" = "$$v" ] || echo "$$v" > $(VERSION_STAMP))

BIN      := bench/zcbench
SAN_BIN  := build/asan/zcbench

.PHONY: all deps check check-unit bench bench-lean clean

all: $(BIN)

deps:
	@bash tests/deps.sh $(DEB_PKGS) --optional $(DEB_OPT_PKGS)

build/obj/%.o: bench/%.c $(HDRS) $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

build/asan/%.o: bench/%.c $(HDRS) $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(BIN): $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(SAN_BIN): $(SAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# zc_test.h (cmocka with skips counted) is a prerequisite, not an input.
build/tests/%: tests/unit/%.c tests/unit/zc_test.h $(filter-out build/obj/main.o,$(OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ibench $(shell pkg-config --cflags $(TEST_PKGS)) -o $@ $(filter-out %.h,$^) \
	      $(LDLIBS) $(shell pkg-config --libs $(TEST_PKGS))

build/asan-tests/%: tests/unit/%.c tests/unit/zc_test.h $(filter-out build/asan/main.o,$(SAN_OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -Ibench $(shell pkg-config --cflags $(TEST_PKGS)) -o $@ $(filter-out %.h,$^) \
	      $(LDLIBS) $(shell pkg-config --libs $(TEST_PKGS))

# The bare loops (make bench-lean, make bench-gate): plain C, our handicap
# (benchmarks/handicap.h) and, for the source, the payload pattern (bench/lib).
BARE_CFLAGS := -std=gnu11 $(OPT) -Wall -Wextra -Werror -D_GNU_SOURCE -Ibenchmarks -Ibench
BARE_BINS   := build/bare_proxy build/bare_source
build/bare_proxy: benchmarks/bare_proxy.c benchmarks/handicap.c benchmarks/handicap.h
	@mkdir -p $(dir $@)
	$(CC) $(BARE_CFLAGS) -o $@ $(filter %.c,$^)

build/bare_source: benchmarks/bare_source.c benchmarks/handicap.c benchmarks/handicap.h bench/lib/pattern.c
	@mkdir -p $(dir $@)
	$(CC) $(BARE_CFLAGS) -o $@ $(filter %.c,$^)

# Unit tests, integration tests (each also under ASan+UBSan), and the
# kernel A/B guest boot (a few minutes under TCG; make check-guest alone).
# The fuzz harnesses replay their regression inputs and fuzz a few seconds each
# (tests/fuzz/check.sh); make fuzz runs them longer. Built with a job per CPU,
# then run side by side (tests/run.sh: ZC_TEST_JOBS at a time, longest first,
# tests that share something host-wide one at a time); the ten slowest and
# the total at the end.
CHECK_BUILD  = $(BIN) $(DOCS) $(SAN_BIN) $(UNITS) $(SAN_UNITS) $(FUZZ_BINS) \
               build/peers_http_try build/asan/peers_http_try
CHECK_TESTS  = tests/guest/kernel_ab.sh tests/guest/guest_layout.sh tests/integration/*.sh \
               tests/fuzz/check.sh tests/static/*.sh $(UNITS) $(SAN_UNITS)
check: deps
	@$(MAKE) --no-print-directory -j$(shell nproc) $(CHECK_BUILD)
	@bash tests/run.sh $(CHECK_TESTS)

# make check with a CPU hog pinned beside it for its whole length (a CI
# machine is rarely idle): ZC_BUSY_PASSES passes (default 1), the hog on CPU
# ZC_HOG_CPU (default 0) and on the next CPU each further pass (tests/busy.sh).
.PHONY: check-busy
check-busy: deps
	@bash tests/busy.sh $(MAKE) --no-print-directory check

check-unit: $(UNITS)
	@bash tests/run.sh $(UNITS)

# --- profiles of the DUT's cores (issue 15): bench/profile/ ---
# perf record (linux-perf) samples when it is installed, else our own
# perf_event_open sampler names user frames with elfutils' libdwfl (libdw).
# promtool (prometheus) checks the Prometheus export in tests/integration/export.sh.
PKGS     += libdw
DEB_PKGS += libdw-dev linux-perf
DEB_OPT_PKGS += prometheus

# --- compare / report / export / plots (issue 5) ---
# GSL: t and normal distributions for the significance tests, MT19937 for
# the fixed-seed bootstrap. gnuplot-nox draws the plots, chromium checks the
# dashboard page in the integration test; python3 checks export shapes.
PKGS     += gsl
DEB_PKGS += libgsl-dev gnuplot-nox chromium python3
PLOT_OUT ?= plots/out
# Every results file; the stored fixtures when there are none yet.
PLOT_INPUT ?= $(or $(wildcard results/*.json),$(wildcard results/fixtures/*.json))

# `make plots` installs what drawing needs and nothing else: the binary's
# build (a compiler, pkg-config and the -dev package of each library in
# PKGS: liburing -> liburing-dev, numa -> libnuma-dev) and gnuplot; not the
# guests, peers, BPF toolchain or browser of the other targets.
BUILD_DEB_PKGS = build-essential pkg-config $(foreach p,$(PKGS),lib$(patsubst lib%,%,$(p))-dev)
PLOT_DEB_PKGS := gnuplot-nox

.PHONY: plots deps-plots
deps-plots:
	@bash tests/deps.sh $(BUILD_DEB_PKGS) $(PLOT_DEB_PKGS)

plots: deps-plots
	@$(MAKE) --no-print-directory $(BIN)
	$(BIN) plot --out $(PLOT_OUT) $(PLOT_INPUT)

# `make bench` installs what the default run needs: the build, the tools
# run calls (ip, tc, ethtool, jq, perf), the BPF accounting's toolchain
# (--counters=all), man to read the page it builds, and the peer programs
# when apt has them; not the guests' qemu, the dashboard's browser, gnuplot
# or the tests' frameworks (make check's deps installs everything).
BENCH_DEB_PKGS = $(BUILD_DEB_PKGS) iproute2 procps jq util-linux ethtool iptables kmod \
                 clang bpftool libbpf-dev libpfm4-dev linux-perf man-db groff-base
.PHONY: deps-bench
deps-bench:
	@bash tests/deps.sh $(BENCH_DEB_PKGS) --optional $(DEB_OPT_PKGS)

# The man page and the completion too, so README's man -l build/zcbench.1 works.
bench: deps-bench
	@$(MAKE) --no-print-directory $(BIN) $(DOCS)
	$(BIN) run workloads/default.ini --counters=all

.PHONY: bench-stability bench-gate
# The default workload twice, interleaved (zcbench noise): how far each
# headline ratio moves between the two (ZC_STABILITY_BASELINE=1: two
# back-to-back runs, the way it was before rounds).
bench-stability: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-stability.sh

# The position effect: four runs in balanced rounds, each place's effect on
# Gbit/s per core after the run's and the round's (ZC_POSITION_ARGS).
.PHONY: bench-position
bench-position: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-position.sh

# The gate's false alarms and power: K rounds of A/A and A against the bare
# proxy with a handicap of 5% (and 2%) of its CPU, each pair judged by compare;
# last line "bench-gate: caught C of K regressions of 5%, false alarms F of K".
# ZC_GATE_K, ZC_GATE_HANDICAPS, ZC_GATE_ARGS (benchmarks/bench-gate.sh says more).
bench-gate: deps
	@$(MAKE) --no-print-directory $(BIN) build/bare_proxy
	@bash benchmarks/bench-gate.sh

# How far whole invocations of one build move here, and what the gate makes
# of it: ZC_CAL_N (8) invocations of the copy and splice proxies, the spread
# within and between them per run, every A/A pair gated with a profile of
# the others and without, and trend over them as nights.
# ZC_CAL_N, ZC_CAL_ARGS, ZC_CAL_PCT (benchmarks/bench-calibrate.sh says more).
.PHONY: bench-calibrate
bench-calibrate: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-calibrate.sh

# How well zcbench trend finds a step (issue 31): synthetic series at a
# night-to-night noise, beside a t-test that knows the night.
# ZC_TREND_NOISE (sd of the logs, default 0.10), ZC_TREND_NIGHTS (30).
build/trend_power: benchmarks/trend_power.c bench/stats/changepoint.c bench/stats/verdict.c
	@mkdir -p $(dir $@)
	$(CC) $(BARE_CFLAGS) -o $@ $(filter %.c,$^) -lgsl -lgslcblas -lm

# Does zcbench trend find, in a short series of real runs, the run where a
# handicap of the bare proxy was switched on? ZC_TREND_N, ZC_TREND_SWITCH,
# ZC_TREND_PCT, ZC_TREND_ARGS (benchmarks/bench-trend.sh says more).
.PHONY: bench-trend
bench-trend: deps
	@$(MAKE) --no-print-directory $(BIN) build/bare_proxy
	@bash benchmarks/bench-trend.sh

.PHONY: bench-trend-power
bench-trend-power: build/trend_power
	@build/trend_power $${ZC_TREND_NOISE:-0.10} $${ZC_TREND_NIGHTS:-30} $${ZC_TREND_SERIES:-200}

# What the live intervals cost the DUT: --interval 1 against 0, paired.
.PHONY: bench-interval
bench-interval: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-interval.sh

# Harness overhead: zcbench's proxy against a bare ~30-line loop, side by side.
bench-lean: deps
	@$(MAKE) --no-print-directory $(BIN) build/bare_proxy
	@bash benchmarks/bench-lean.sh

# --- Kernel A/B in qemu guests (kernel-ab, kernel-build) ---
# qemu and an initramfs built from busybox + cpio; kmod's depmod indexes the
# modules of an unpacked kernel package; patch applies kernel-build's series,
# and kbuild needs flex, bison, bc, libelf, openssl headers and pahole (BTF).
DEB_PKGS += qemu-system-x86 busybox-static cpio kmod patch \
            flex bison bc libelf-dev libssl-dev dwarves
.PHONY: check-guest
# Boots Debian's cloud kernel under qemu (TCG without KVM): a few minutes.
check-guest: deps
	@$(MAKE) --no-print-directory $(BIN)
	@ZC_NO_ASAN=1 ZC_TEST_TIMEOUT=900 bash tests/run.sh tests/guest/kernel_ab.sh tests/guest/guest_layout.sh

# Patched guest kernels (issue 16). `make kernels`: stock, Safin's and
# Falcato's 6.12 (hosts/patches/6.12/SERIES) as KERNELS/NAME-bzImage with
# NAME-bzImage.json (what went in) beside each; Debian's linux-source-6.12 is
# installed with apt and unpacked once under KERNELS/src, each kernel gets its
# own hard-linked tree and build folder. Cached: an image is rebuilt
# (incrementally) only when its series, kernel-build's option lists or the
# source package changed. Long (see hosts/guests.md); not part of make check.
KERNELS        ?= build/kernels
KERNEL_SERIES_DIR := hosts/patches/6.12
KERNEL_SERIES  := safin-v1 falcato-v1
KERNEL_IMAGES  := $(KERNELS)/stock-bzImage $(KERNEL_SERIES:%=$(KERNELS)/%-bzImage)
KERNEL_INPUTS  := bench/guest/kernel_build.c tests/guest/build-kernel.sh \
                  $(wildcard /usr/src/linux-source-6.12.tar.xz)
# kernel-ab stock vs Safin, stock vs Falcato with fs.splice_needs_write 0 and 1,
# then before-after on each pair; results under KERNEL_AB_OUT.
KERNEL_AB_OUT  ?= results/kernel-ab-seeds-$(shell date +%Y%m%dT%H%M%S)
.PHONY: kernels kernel-ab-seeds

kernels: deps
	@$(MAKE) --no-print-directory $(BIN)
	@$(MAKE) --no-print-directory $(KERNEL_IMAGES)

$(KERNELS)/stock-bzImage: $(KERNEL_INPUTS) | $(BIN)
	@bash tests/guest/build-kernel.sh $(KERNELS) stock

define kernel_series_rule
$(KERNELS)/$(1)-bzImage: $(wildcard $(KERNEL_SERIES_DIR)/$(1)/*) $(KERNEL_INPUTS) | $(BIN)
	@bash tests/guest/build-kernel.sh $(KERNELS) $(1) $(KERNEL_SERIES_DIR)/$(1)
endef
$(foreach s,$(KERNEL_SERIES),$(eval $(call kernel_series_rule,$(s))))

kernel-ab-seeds: kernels
	@bash tests/guest/kernel-ab-seeds.sh $(KERNELS) $(KERNEL_AB_OUT)

clean:
	rm -rf build $(BIN)

# ---- kernel fingerprint and before/after (issue 3) ----
# jq reads results files in tests; setpriv (util-linux) runs the probe as nobody.
DEB_PKGS += jq util-linux
BA_STAMP := $(shell date +%Y%m%dT%H%M%S)
BA_OUT ?= results/before-after-$(BA_STAMP)
.PHONY: probe before-after

probe: $(BIN)
	$(BIN) probe

# Each patched path against its emulated after-mode (~4 min), the pipe-only
# regression patterns (~30 s), then the table, even when a run failed (its
# row is missing and the run table above says why). Results stay in $(BA_OUT).
before-after: deps
	@$(MAKE) --no-print-directory $(BIN)
	-$(BIN) run workloads/before-after.ini --out $(BA_OUT)
	-$(BIN) pipebench --out $(BA_OUT)
	@echo
	$(BIN) before-after $(BA_OUT)/*.json

# --- hosts beyond loopback (issue 6): namespaces, ssh, NIC metadata ---
# ethtool: veth offloads; openssh: the ssh transport and its test's
# throwaway sshd; jq: the tests and the side-by-side headline; iptables:
# netem_loss where the kernel has no sch_netem.
DEB_PKGS += ethtool openssh-client openssh-server jq iptables
.PHONY: bench-peers
# workloads/peers.ini: zcbench's copy and splice proxies against HAProxy
# (nosplice / splice), send and sendfile against iperf3 (and -Z), same source,
# sink and accounting, interleaved; then the ratios with their spread. haproxy
# and iperf3 are optional packages: without one, its runs are skipped with why.
bench-peers: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-peers.sh

.PHONY: bench-sweep
# workloads/splice-sweep.ini: copy against splice, zcbench and HAProxy, over
# pipe sizes 64k..4M and chunks 4k..1M (about 10 minutes), then the pictures
# sweep_pipe and sweep_chunk in plots/out/sweep/ (issue 21).
bench-sweep: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-sweep.sh

.PHONY: bench-rr
# workloads/rr.ini: request/response (traffic = rr) over object sizes 1k..16M,
# keep-alive and a connection per request, through the copy and splice
# proxies (splice with a pipe per connection and with a pool), HAProxy copy and
# splice (TCP mode keep-alive and churn, HTTP mode keep-alive) and against the
# server alone; tps, latency percentiles and Gbit/s per core in the table,
# then each program's splice/copy ratio by object size and its crossover
# (about 17 minutes here). Extra zcbench run arguments in RR_ARGS (e.g.
# RR_ARGS="--repetitions=1"), the results folder in OUT (default results/).
bench-rr: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-rr.sh $(RR_ARGS)

.PHONY: bench-headcheck
# What rr_check = exact (every head byte, marked bodies) costs against http:
# workloads/headcheck.ini, both in one invocation, interleaved; compare's
# change of tps per DUT core, paired by round (about 1 minute).
bench-headcheck: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-headcheck.sh

.PHONY: bench-precision
# workloads/precision.ini: the default headline pairs in ABBA slices of one
# window, each slice ratio's half-width against PRECISION_TARGET (3%).
bench-precision: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-precision.sh

.PHONY: bench-netns
# workloads/netns.ini on loopback and across network namespaces (root),
# headline ratios side by side.
bench-netns: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-netns.sh

# ---- counters (issue 4): BPF accounting program, skeleton, overhead bench ----
# CO-RE: vmlinux.h comes from the build machine's kernel BTF; the object
# relocates against the target kernel's BTF at load time. Without clang,
# bpftool or kernel BTF the harness builds without BPF and says so at run time.
DEB_PKGS += clang bpftool libbpf-dev libpfm4-dev jq
PKGS     += libbpf
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || ls /usr/sbin/bpftool 2>/dev/null)
BPF_CLANG?= clang
BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' \
		-e 's/riscv64/riscv/' -e 's/s390x/s390/')
BPF_OK   := $(if $(BPFTOOL),$(if $(shell command -v $(BPF_CLANG) 2>/dev/null),$(wildcard /sys/kernel/btf/vmlinux)))
ifneq ($(BPF_OK),)
CFLAGS   += -Ibuild/bpf -DZC_HAVE_BPF_SKEL=1
build/obj/counters/counters_bpf.o build/asan/counters/counters_bpf.o: build/bpf/acct.skel.h
endif

# libpfm4 names CPU-specific events where the kernel's generic ones do not map.
ifneq ($(wildcard /usr/include/perfmon/pfmlib_perf_event.h),)
CFLAGS   += -DZC_HAVE_LIBPFM=1
LDLIBS   += -lpfm
endif

build/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

build/bpf/acct.bpf.o: bench/counters/bpf/acct.bpf.c bench/counters/bpf/acct.h build/bpf/vmlinux.h
	$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Ibuild/bpf -Ibench/counters/bpf \
		-c -o $@ $<

build/bpf/acct.skel.h: build/bpf/acct.bpf.o
	$(BPFTOOL) gen skeleton $< name zc_acct_bpf > $@.tmp && mv $@.tmp $@

# Many connections on many cores (issue 11): workloads/scale.ini on loopback
# and across namespaces, then each one's scaling table and its sizing table
# for 10, 40 and 100 Gbit/s (zcbench scale, zcbench size).
.PHONY: bench-scale
bench-scale: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash benchmarks/bench-scale.sh

.PHONY: bench-overhead
# Counters' cost: splice and copy proxies with counters none vs all, alternating.
bench-overhead: deps
	@$(MAKE) --no-print-directory $(BIN) build/ctr_syscall_cost
	@bash benchmarks/bench-overhead.sh

# A tight syscall loop with 0, 1 and 3 accounting programs loaded.
build/ctr_syscall_cost: benchmarks/ctr_syscall_cost.c $(filter-out build/obj/main.o,$(OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ibench -o $@ $^ $(LDLIBS)

# The HTTP peers (issue 23) driven end to end by tests/integration/peers_http.sh:
# nginx (sendfile on/off), HAProxy in HTTP mode, wrk and h2load, through bench/peers/.
build/peers_http_try: tests/peers_http_try.c $(filter-out build/obj/main.o,$(OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ibench -o $@ $^ $(LDLIBS)

build/asan/peers_http_try: tests/peers_http_try.c $(filter-out build/asan/main.o,$(SAN_OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -Ibench -o $@ $^ $(LDLIBS)

# ---- fuzzing (issue 13): libFuzzer harnesses, ASan+UBSan ----
# clang's libFuzzer (-fsanitize=fuzzer) comes with libclang-rt-dev on Debian.
# Each harness (tests/fuzz/fuzz_NAME.c) feeds its input to one loader the way
# a user's file reaches it. Corpus: tests/fuzz/corpus/NAME (seeds from the
# shipped files and fixtures, written by tests/fuzz/seed.sh) plus what the
# fuzzer finds (build/fuzz/corpus/NAME, not kept); inputs that once crashed
# are kept in tests/fuzz/regressions/NAME and replayed by make check.
DEB_PKGS += clang libclang-rt-dev
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := workload host role_report report compare export plot before_after trend results http outpath
# clang warns about `{ 0 }`-style partial initialisers that gcc (the build) accepts.
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
                -Wno-missing-field-initializers -Wno-unknown-warning-option -DZC_BOOT_ROUNDS=100
FUZZ_OBJS    := $(filter-out build/fuzz/obj/main.o,$(SRCS:bench/%.c=build/fuzz/obj/%.o))
FUZZ_BINS    := $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

build/fuzz/obj/%.o: bench/%.c $(HDRS) $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<

ifneq ($(BPF_OK),)
build/fuzz/obj/counters/counters_bpf.o: build/bpf/acct.skel.h
endif

# plot's harness replaces the gnuplot call (zc_run_argv) with a stub.
build/fuzz/fuzz_plot: FUZZ_LDFLAGS = -Wl,--wrap=zc_run_argv
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h tests/fuzz/fuzz_reader.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -Itests/fuzz \
		-DZC_FIXTURES='"$(abspath results/fixtures)"' -DZC_PLOTS='"$(abspath plots)"' \
		-o $@ $< $(FUZZ_OBJS) $(FUZZ_LDFLAGS) $(LDLIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

# Every harness for FUZZ_SECONDS (default 60) on its corpus; a crash stops
# with the input saved as build/fuzz/crash-* (copy it to tests/fuzz/regressions/NAME).
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/fuzz.sh $(FUZZ_TARGETS)

# The long run (not make check): FUZZ_LONG_SECONDS (an hour) for each of
# FUZZ_LONG_TARGETS, a line each: executions, rate, corpus, and any crash
# kept as build/fuzz/artifacts/NAME-crash-*. By default the light harnesses,
# inputs cut at FUZZ_LONG_MAX_LEN bytes (the small seed is 18 KB): here the
# results loader ran 3,900 inputs/s (14 M an hour), the head checker 73,000,
# the output paths 18,000 (60 s each); the readers' own harnesses (make fuzz)
# take 3-300 inputs/s.
FUZZ_LONG_SECONDS ?= 3600
FUZZ_LONG_TARGETS ?= results http outpath
FUZZ_LONG_MAX_LEN ?= 20000
.PHONY: fuzz-long
fuzz-long: deps
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_MAX_LEN=$(FUZZ_LONG_MAX_LEN) \
		bash tests/fuzz/fuzz.sh $(FUZZ_LONG_TARGETS)

# ---- the manual page, bash completion and make install (issue 24) ----
# Both are printed by the binary from its option tables and the mode list
# (zcbench man, zcbench completion bash; lib/optdoc.c), so they cannot drift
# from what it parses. man-db renders the page in tests/integration/docs.sh.
DEB_PKGS += man-db groff-base
PREFIX  ?= /usr/local
DESTDIR ?=
DOCS    := build/zcbench.1 build/zcbench.bash-completion
SHARE   := $(DESTDIR)$(PREFIX)/share
.PHONY: install

all: $(DOCS)

build/zcbench.1: $(BIN)
	$(BIN) man > $@.tmp && mv $@.tmp $@

build/zcbench.bash-completion: $(BIN)
	$(BIN) completion bash > $@.tmp && mv $@.tmp $@

# The binary, its page and completion, the workloads and the plot scripts
# (zcbench plot finds them in PREFIX/share/zcbench/plots) under PREFIX.
install: $(BIN) $(DOCS)
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/man/man1 $(SHARE)/bash-completion/completions \
		$(SHARE)/zcbench/workloads $(SHARE)/zcbench/plots
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/zcbench
	install -m 644 build/zcbench.1 $(SHARE)/man/man1/zcbench.1
	install -m 644 build/zcbench.bash-completion $(SHARE)/bash-completion/completions/zcbench
	install -m 644 workloads/*.ini $(SHARE)/zcbench/workloads
	install -m 644 plots/*.gp plots/README.md $(SHARE)/zcbench/plots
