# zcbench: build, dependencies, tests and benchmarks.
# `make bench` and `make check` are the only commands a new user needs;
# both run `make deps` first.

PKGS      := liburing numa hwloc jansson inih
TEST_PKGS := cmocka
# Debian packages behind every library and tool the build and tests use.
DEB_PKGS  := build-essential pkg-config liburing-dev libnuma-dev libhwloc-dev \
             libjansson-dev libinih-dev libcmocka-dev libbpf-dev iproute2 procps jq

CC       ?= cc
OPT      ?= -O2 -g
GIT_SHA  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY:= $(shell git diff --quiet HEAD 2>/dev/null && echo 0 || echo 1)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS   += -std=gnu11 $(OPT) -Wall -Wextra -Werror -D_GNU_SOURCE \
            -DZC_GIT_SHA='"$(GIT_SHA)"' -DZC_GIT_DIRTY=$(GIT_DIRTY) $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SRCS     := $(wildcard bench/*.c)
LIB_SRCS := $(filter-out bench/main.c,$(SRCS))
OBJS     := $(SRCS:bench/%.c=build/obj/%.o)
SAN_OBJS := $(SRCS:bench/%.c=build/asan/%.o)
UNIT_SRCS:= $(wildcard tests/unit/test_*.c)
UNITS    := $(UNIT_SRCS:tests/unit/%.c=build/tests/%)
SAN_UNITS:= $(UNIT_SRCS:tests/unit/%.c=build/asan-tests/%)
HDRS     := $(wildcard bench/*.h)

BIN      := bench/zcbench
SAN_BIN  := build/asan/zcbench

.PHONY: all deps check check-unit check-integration check-asan bench bench-lean clean distclean

all: $(BIN)

deps:
	@bash tests/deps.sh $(DEB_PKGS)

build/obj/%.o: bench/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

build/asan/%.o: bench/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(BIN): $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(SAN_BIN): $(SAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

build/tests/%: tests/unit/%.c $(filter-out build/obj/main.o,$(OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ibench $(shell pkg-config --cflags $(TEST_PKGS)) -o $@ $^ \
	      $(LDLIBS) $(shell pkg-config --libs $(TEST_PKGS))

build/asan-tests/%: tests/unit/%.c $(filter-out build/asan/main.o,$(SAN_OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -Ibench $(shell pkg-config --cflags $(TEST_PKGS)) -o $@ $^ \
	      $(LDLIBS) $(shell pkg-config --libs $(TEST_PKGS))

build/bare_proxy: tests/bare_proxy.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(OPT) -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<

# Unit tests, integration tests, then both again under ASan+UBSan.
check: deps
	@$(MAKE) --no-print-directory $(BIN) $(SAN_BIN) $(UNITS) $(SAN_UNITS)
	@bash tests/run.sh $(UNITS) $(SAN_UNITS) tests/integration/*.sh

check-unit: $(UNITS)
	@bash tests/run.sh $(UNITS)

# --- compare / report / export / plots (issue 5) ---
# GSL: t and normal distributions for the significance tests, MT19937 for
# the fixed-seed bootstrap. gnuplot-nox draws the plots, chromium checks the
# dashboard page in the integration test; python3 checks export shapes.
PKGS     += gsl
DEB_PKGS += libgsl-dev gnuplot-nox chromium python3
PLOT_OUT ?= plots/out
# Every results file; the stored fixtures when there are none yet.
PLOT_INPUT ?= $(or $(wildcard results/*.json),$(wildcard results/fixtures/*.json))

.PHONY: plots
plots: deps
	@$(MAKE) --no-print-directory $(BIN)
	$(BIN) plot --out $(PLOT_OUT) $(PLOT_INPUT)

bench: deps
	@$(MAKE) --no-print-directory $(BIN)
	$(BIN) run workloads/default.ini

# Harness overhead: zcbench's proxy against a bare ~30-line loop, side by side.
bench-lean: deps
	@$(MAKE) --no-print-directory $(BIN) build/bare_proxy
	@bash tests/bench-lean.sh

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
	@ZC_NO_ASAN=1 ZC_TEST_TIMEOUT=900 bash tests/run.sh tests/guest/kernel_ab.sh

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
.PHONY: bench-netns
# workloads/netns.ini on loopback and across network namespaces (root),
# headline ratios side by side.
bench-netns: deps
	@$(MAKE) --no-print-directory $(BIN)
	@bash tests/bench-netns.sh
