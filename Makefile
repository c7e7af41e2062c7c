# storbench — plain Makefile.
#   make          build ./storbench, and ./storbench-mpi when Open MPI's mpicc is present
#   make check    unit tests (cmocka) + CLI tests
#   make run      the main job: quick suite on the default target, then the comparison
#   make asan     build with ASan+UBSan into build-asan/ and run the tests there
#   make fuzz     libFuzzer harnesses (clang) into build-fuzz/, each run FUZZ_SECONDS
#   make fuzz-quick  the same, 5 s each (check only replays the seeds, see tests/fuzz/)
#   make install  binaries, man page and bash completion under $(DESTDIR)$(PREFIX)
#   make vm-check scenario run --vm with real QEMU guests: KVM probe, fall-back after a KVM abort, md, Ctrl-C (~2 min; tests/vm/)

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
VERSION := 0.1.0
# libaio ships no pkg-config file on Debian: linked by name below.
PKGS    := jansson liburing sqlite3 libpq libxxhash libisal libcrypto fuse3 libxml-2.0 blkid zlib
# librsvg's headers only: report/svg_png.c loads the library when a PNG is asked for, so
# that its forty libraries do not weigh on the start of every command.
HDR_PKGS := librsvg-2.0
CFLAGS  ?= -O2 -g
# Project flags are kept apart from CFLAGS so that `make CFLAGS=...` (as `make asan`
# does) changes optimisation and instrumentation without losing them.
SB_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -pthread -Isrc \
           -DSTORBENCH_VERSION='"$(VERSION)"' $(shell pkg-config --cflags $(PKGS) $(HDR_PKGS) 2>/dev/null)
SB_LDLIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ljansson -luring -lsqlite3 -lpq -lxxhash -lisal -lcrypto -lfuse3 -lxml2 -lblkid -lz) -laio -lrt -lm -ldl -pthread

# src/mpi/ is built by mpicc into storbench-mpi only: plain storbench (and a machine
# without Open MPI) never needs mpi.h or libmpi (docs/mpi.md, "One binary or two").
# Every .c under src/ at any depth (a family of workload files has a folder of its own:
# src/workloads/dbench/), except main.c (the program's, not the library's) and src/mpi/.
SRCS     := $(sort $(filter-out src/mpi/% src/nbdkit/% src/main.c,$(shell find src -name '*.c')))
MPICC    ?= mpicc
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
MPI_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard src/mpi/*.c)))
MPI_BIN  := $(if $(HAVE_MPI),storbench-mpi)
# The I/O engines register themselves in a linker section (io/engine.h): an archive member
# nothing names would be left out, so their objects are linked into every program directly.
ENGINE_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard src/io/engines/*.c)))
LIB_OBJS := $(filter-out $(ENGINE_OBJS),$(SRCS:%.c=$(BUILD)/%.o))
LIB      := $(ENGINE_OBJS) $(BUILD)/libstorbench.a
MAIN_OBJ := $(BUILD)/src/main.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# Fuzz harnesses (tests/fuzz/fuzz_NAME.c). `make check` replays their seeds and regression
# inputs through them with the ordinary compiler; `make fuzz` builds them with clang's
# libFuzzer and ASan+UBSan and fuzzes each for FUZZ_SECONDS.
FUZZ_NAMES   := import resultfile scenario options dbench_loadfile iolog blktrace
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
REPLAY_BINS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)

# src/nbdkit/ is the nbdkit filter of --vm device models (a shared object nbdkit loads;
# scenario/vm_nbd.c): built where Debian's nbdkit-plugin-dev is installed, with the
# device model objects it links compiled again -fPIC; left out, with --vm device-model
# refused, where it is not.
HAVE_NBDKIT := $(shell test -f /usr/include/nbdkit-filter.h && echo yes)
NBD_SO   := $(if $(HAVE_NBDKIT),$(BUILD)/storbench-nbdkit-model.so)
NBD_OBJS := $(patsubst %.c,$(BUILD)/pic/%.o,src/nbdkit/model_filter.c $(wildcard src/devices/*.c) src/core/strutil.c)

all: storbench $(MPI_BIN) $(NBD_SO)

$(BUILD)/storbench-nbdkit-model.so: $(NBD_OBJS)
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm -pthread

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<

storbench: $(BUILD)/storbench
	cp $< $@

storbench-mpi: $(BUILD)/storbench-mpi
	cp $< $@

# main.o first, then the MPI objects, then the library: src/mpi/ranks_mpi.o defines
# sb_ranks_start(), so the archive's plain definition (cli/ranks_launch.o) is not pulled.
$(BUILD)/storbench-mpi: $(MAIN_OBJ) $(MPI_OBJS) $(LIB)
	$(MPICC) $(SB_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(SB_LDLIBS) $(LDLIBS)

$(BUILD)/src/mpi/%.o: src/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(SB_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/storbench: $(MAIN_OBJ) $(LIB)
	$(CC) $(SB_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(SB_LDLIBS) $(LDLIBS)

$(BUILD)/libstorbench.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(LIB) $(SB_LDLIBS) $(LDLIBS) -lcmocka

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(LIB) $(SB_LDLIBS) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIB) $(SB_LDLIBS) $(LDLIBS)

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang \
	    CFLAGS="-O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	    LDFLAGS="-fsanitize=address,undefined" $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz/fuzz_%)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-quick: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) 5 $(FUZZ_NAMES)

check: $(BUILD)/storbench $(if $(HAVE_MPI),$(BUILD)/storbench-mpi) $(NBD_SO) $(UNIT_BINS) $(REPLAY_BINS)
	BUILD=$(BUILD) sh tests/run-all.sh $(UNIT_BINS)

# The main job: the quick suite on a disk-backed directory and on RAM (tmpfs),
# two identifiers in one comparison, then the page. --require-all: a test that cannot
# run here (a package missing) stops the job at once with the reason, before anything
# is measured; `make run RUN_REQUIRE=` skips such a test with a warning instead.
RUN_TARGET  ?= /var/tmp
RUN_RAM     ?= /dev/shm
RUN_REQUIRE ?= --require-all
run: storbench
	./storbench run quick $(RUN_REQUIRE) --target "$(RUN_TARGET)" --result quick-demo \
	    --identifier "Disk ($(RUN_TARGET))" --replace --title "storbench quick suite" \
	    --description "The quick suite on a disk-backed directory and on tmpfs."
	./storbench run quick $(RUN_REQUIRE) --target "$(RUN_RAM)" --result quick-demo \
	    --identifier "RAM ($(RUN_RAM))" --replace
	./storbench show quick-demo

# Boots throwaway QEMU guests (scenario run --vm): minutes under TCG, so apart from check.
vm-check: $(BUILD)/storbench $(NBD_SO)
	STORBENCH_BIN=$(CURDIR)/$(BUILD)/storbench STORBENCH_SRC=$(CURDIR) nice -n 19 bash tests/vm/test_vm_boot.sh

# The pictures of docs/plot.md from the committed inputs in tests/data/plot/ (made-up
# figures in a.json, b.json, sweep.json; a real 2 x 2 sweep in sweep_run.json).
DOC_PLOT = cd tests/data/plot && $(CURDIR)/$(BUILD)/storbench plot
docs: $(BUILD)/storbench
	$(DOC_PLOT) a.json b.json -o $(CURDIR)/docs/plot/bars.svg
	$(DOC_PLOT) sweep.json --x iodepth --y iops --series numjobs -o $(CURDIR)/docs/plot/lines.svg
	$(DOC_PLOT) sweep.json --chart heatmap --x iodepth --series numjobs --y lat_p99 -o $(CURDIR)/docs/plot/heatmap.svg
	$(DOC_PLOT) sweep_run.json -o $(CURDIR)/docs/plot/sweep.svg
	$(DOC_PLOT) sweep_run.json --chart percentiles -o $(CURDIR)/docs/plot/percentiles.svg
	$(DOC_PLOT) sweep_run.json --chart series -o $(CURDIR)/docs/plot/series.svg

asan:
	$(MAKE) BUILD=build-asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
	    LDFLAGS="-fsanitize=address,undefined" check

install: storbench $(MPI_BIN) $(NBD_SO)
	install -D -m 755 storbench $(DESTDIR)$(PREFIX)/bin/storbench
	$(if $(HAVE_MPI),install -D -m 755 storbench-mpi $(DESTDIR)$(PREFIX)/bin/storbench-mpi)
	$(if $(NBD_SO),install -D -m 644 $(NBD_SO) $(DESTDIR)$(PREFIX)/lib/storbench/storbench-nbdkit-model.so)
	install -D -m 644 docs/storbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/storbench.1
	install -D -m 644 completions/storbench.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/storbench

clean:
	rm -rf build build-asan build-fuzz storbench storbench-mpi

.PHONY: all check run asan install clean storbench storbench-mpi fuzz fuzz-build fuzz-quick vm-check docs
-include $(ENGINE_OBJS:.o=.d) $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(MPI_OBJS:.o=.d) $(NBD_OBJS:.o=.d)
