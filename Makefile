# ncqsim — plain Makefile.
#
#   make            build ./ncqsim
#   make run        build and run the seed experiment
#   make test       build and run every test under test/
#   make check      the same tests built with ASan + UBSan
#   make bench      benchmarks (speed, memory, fidelity); not part of test
#   make fuzz       build the libFuzzer targets (clang) and run each FUZZ_SECONDS (60)
#   make man        the man pages (build/man) and bash completion (build/ncqsim.bash)
#   make install    install under PREFIX (default /usr/local), staged in DESTDIR
#   make uninstall  remove exactly what 'make install' put there (same PREFIX, DESTDIR)
#   V=1             show the commands; WERROR=1 adds -Werror (CI does)

CC      ?= cc
# The first rule below is a generated-header dependency; 'make' alone builds ncqsim.
.DEFAULT_GOAL := all
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(WERROR),1)
WARN    += -Werror
endif
CPPFLAGS += -Isrc -Itest/lib -Ibuild/gen -D_GNU_SOURCE
# -ffp-contract=off: no a*b+c fused into one rounding where the target has
# FMA (aarch64, x86-64 with -march=native), so every target gives x86-64's
# bits (the statistics' Welford sums would differ in their last digits).
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -ffp-contract=off -MMD -MP
LDLIBS  := -lm -lpthread
SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Everything but main.c goes into the library, so tests can reach any part.
MAIN_SRC := src/cli/main.c
LIB_SRC  := $(sort $(filter-out $(MAIN_SRC),$(wildcard src/*/*.c)))
TEST_SRC := $(sort $(wildcard test/t_*.c))
TEST_LIB := $(sort $(wildcard test/lib/*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))

# Two build trees: the normal one and the sanitizer one.
B   := build/$(notdir $(CC))
BS  := build/$(notdir $(CC))-san

# Each tree remembers the flags its objects were built with (TREE/.flags,
# rewritten only when they change), so 'make WERROR=1' after a plain 'make',
# or a new CFLAGS, rebuilds everything rather than linking stale objects.
define tree
$(1)/.flags: FORCE
	@mkdir -p $(1)
	@echo '$$(CC) $$(CPPFLAGS) $$(ALL_CFLAGS) $(2)' | cmp -s - $$@ || \
		echo '$$(CC) $$(CPPFLAGS) $$(ALL_CFLAGS) $(2)' >$$@
$(1)/%.o: %.c $(1)/.flags
	@mkdir -p $$(dir $$@)
	@$(if $(Q),echo "  CC      $$<  [$(1)]")
	$(Q)$$(CC) $$(CPPFLAGS) $$(ALL_CFLAGS) $(2) -c -o $$@ $$<
endef
$(eval $(call tree,$(B),))
$(eval $(call tree,$(BS),$(SAN)))

lib_objs   = $(patsubst %.c,$(1)/%.o,$(LIB_SRC))

# Built-in drive models: drives/NAME.drive, compiled in as C strings.
DRIVE_FILES := $(sort $(wildcard drives/*.drive))
DRIVE_INCS  := $(DRIVE_FILES:drives/%.drive=build/gen/%.inc)
build/gen/%.inc: drives/%.drive
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@
$(B)/src/disk/model.o $(BS)/src/disk/model.o: $(DRIVE_INCS)
# Built-in CDL descriptor pages: drives/NAME.cdl, the same way.
CDL_FILES := $(sort $(wildcard drives/*.cdl))
CDL_INCS  := $(CDL_FILES:drives/%.cdl=build/gen/%.cdl.inc)
build/gen/%.cdl.inc: drives/%.cdl
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@
$(B)/src/disk/cdlpage.o $(BS)/src/disk/cdlpage.o: $(CDL_INCS)

# Where an installed ncqsim finds its shared files: compiled in from PREFIX
# (rewritten only when it changes, so a plain 'make' rebuilds nothing), and
# overridden at run time by $NCQSIM_DATADIR.
PREFIX  ?= /usr/local
BINDIR  := $(PREFIX)/bin
DATADIR := $(PREFIX)/share/ncqsim
MANDIR  := $(PREFIX)/share/man
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
PATHS_H := build/gen/ncqsim_paths.h
$(PATHS_H): FORCE
	@mkdir -p $(dir $@)
	@printf '#define NCQSIM_DATADIR "%s"\n' '$(DATADIR)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
$(B)/src/cli/datadir.o $(BS)/src/cli/datadir.o: $(PATHS_H)

$(B)/libncqsim.a: $(call lib_objs,$(B))
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^
$(BS)/libncqsim.a: $(call lib_objs,$(BS))
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

ncqsim: $(MAIN_SRC:%.c=$(B)/%.o) $(B)/libncqsim.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
$(BS)/ncqsim: $(MAIN_SRC:%.c=$(BS)/%.o) $(BS)/libncqsim.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

# Test programs: one per test/t_*.c, linked with test/lib and the library.
$(B)/test/%: $(B)/test/%.o $(TEST_LIB:%.c=$(B)/%.o) $(B)/libncqsim.a
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
$(BS)/test/%: $(BS)/test/%.o $(TEST_LIB:%.c=$(BS)/%.o) $(BS)/libncqsim.a
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

TESTS     := $(TEST_SRC:test/%.c=$(B)/test/%)
SAN_TESTS := $(TEST_SRC:test/%.c=$(BS)/test/%)

# Build on every CPU unless the command line says otherwise (make -jN).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

.PHONY: all run test test-fio check bench fuzz fuzz-built clean tests-built san-built symbols man install uninstall FORCE
.SECONDARY:

all: ncqsim

tests-built: ncqsim $(TESTS)
san-built: $(BS)/ncqsim $(SAN_TESTS)

test: tests-built
	@test/run-tests $(B)/test ./ncqsim

# The same tests, the fio-parity ones re-checked against a live fio 3.33:
# one at a time, as fio's own figures (flow, start times) move with the
# machine's load.
test-fio: tests-built
	@FIO=fio TEST_JOBS=1 test/run-tests $(B)/test ./ncqsim

check: san-built
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		test/run-tests $(BS)/test $(BS)/ncqsim

run: ncqsim
	./ncqsim compare examples/seed.fio --system examples/seed.system \
		--vary device/ncq_prio_enable=0,1 --repeat 8 --plot seed.svg

$(B)/bench/%: $(B)/bench/%.o $(TEST_LIB:%.c=$(B)/%.o) $(B)/libncqsim.a
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

BENCHES := $(BENCH_SRC:bench/%.c=$(B)/bench/%)
bench: ncqsim $(BENCHES)
	@bench/run-bench $(B)/bench ./ncqsim

FUZZ_SRC := $(sort $(wildcard test/fuzz/fuzz_*.c))
# libFuzzer targets, stopping at the first sanitizer report; `make fuzz`
# builds and runs each for FUZZ_SECONDS (test/fuzz/run-fuzz).
fuzz-built: $(DRIVE_INCS) $(CDL_INCS) $(PATHS_H)
	@mkdir -p build/fuzz
	@for f in $(FUZZ_SRC); do n=$$(basename $$f .c); \
		echo "  FUZZ    build/fuzz/$$n"; \
		clang -std=gnu11 -g -O1 $(CPPFLAGS) -fsanitize=fuzzer,address,undefined,float-cast-overflow \
			-fno-sanitize-recover=all \
			-o build/fuzz/$$n $$f $(LIB_SRC) $(LDLIBS) || exit 1; done

fuzz: fuzz-built
	@test/fuzz/run-fuzz

# Every exported symbol carries its module's prefix (SQLite's checksymbols).
symbols: $(B)/libncqsim.a
	@test/check-symbols $(B)/libncqsim.a
	@test/check-ioprio

# Man pages and bash completion, printed by the binary from the same tables
# as its --help (src/cli/cmd_doc.c).
man: build/man/.stamp build/ncqsim.bash
build/man/.stamp: ncqsim
	@echo "  GEN     build/man"
	$(Q)rm -rf build/man && ./ncqsim help --man build/man && touch $@
build/ncqsim.bash: ncqsim
	@echo "  GEN     $@"
	$(Q)./ncqsim help --bash-completion >$@.new && mv $@.new $@

# install writes the list of what it installed to DATADIR/installed-files;
# uninstall removes exactly those files, then the list and DATADIR's own
# (now empty) folders. Standard folders (bin, man1, ...) are left in place.
INSTALL ?= install
# examples/sweep/ (batch-system recipes) runs from a checkout: not installed.
EXAMPLE_FILES := $(filter-out examples/sweep,$(sort $(wildcard examples/*)))
MANIFEST = $(DESTDIR)$(DATADIR)/installed-files
install: ncqsim man
	$(Q)set -e; list=$$(mktemp); trap 'rm -f "$$list"' EXIT; \
	put() { $(INSTALL) -d "$(DESTDIR)$$3"; \
		$(INSTALL) -m "$$1" "$$2" "$(DESTDIR)$$3/$${4:-$$(basename "$$2")}"; \
		echo "$$3/$${4:-$$(basename "$$2")}" >>"$$list"; \
		echo "  INSTALL $(DESTDIR)$$3/$${4:-$$(basename "$$2")}"; }; \
	put 755 ncqsim "$(BINDIR)"; \
	for f in $(DRIVE_FILES); do put 644 "$$f" "$(DATADIR)/drives"; done; \
	for f in $(EXAMPLE_FILES); do put 644 "$$f" "$(DATADIR)/examples"; done; \
	for f in build/man/*.1; do put 644 "$$f" "$(MANDIR)/man1"; done; \
	for f in build/man/*.5; do put 644 "$$f" "$(MANDIR)/man5"; done; \
	put 644 build/ncqsim.bash "$(BASHCOMPDIR)" ncqsim; \
	echo "$(DATADIR)/installed-files" >>"$$list"; \
	$(INSTALL) -m 644 "$$list" "$(MANIFEST)"

uninstall:
	$(Q)set -e; m="$(MANIFEST)"; \
	if [ ! -f "$$m" ]; then \
		echo "make uninstall: no $$m: nothing installed with PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)" >&2; \
		exit 1; fi; \
	while read -r f; do \
		[ "$$f" = "$(DATADIR)/installed-files" ] && continue; \
		echo "  RM      $(DESTDIR)$$f"; rm -f "$(DESTDIR)$$f"; \
	done <"$$m"; \
	rm -f "$$m"; \
	for d in drives examples ""; do rmdir "$(DESTDIR)$(DATADIR)/$$d" 2>/dev/null || true; done

clean:
	rm -rf build ncqsim seed.svg

-include $(shell find build -name '*.d' 2>/dev/null)
