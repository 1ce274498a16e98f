# Luma build. `make` builds everything into build/; see README.md.
# Targets: all run test check fuzz bench bench-quick bench-baseline docs plots install clean.  `make -j2` is safe.
# SPDX-License-Identifier: MIT

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
LUA     ?= lua5.4

PKG_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null)
# BLAS and LAPACK through Debian's alternatives (libblas.so.3 and
# liblapack.so.3: OpenBLAS by default, the reference BLAS or another when
# the machine selects it); cblas.h is the alternative's header.  OpenBLAS's
# own functions are looked up at run time (src/ml/core/blas.h).
BLAS_LIBS  = -lblas -llapack
LUA_LIBS   = $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4)
EDIT_LIBS  = $(shell pkg-config --libs libedit 2>/dev/null || echo -ledit)

# Open MPI, for the "mpi" backend of luma.parallel (src/vm/mpi.c): built in
# when pkg-config finds it (scripts/setup-deps installs it); MPI=no leaves
# it out.  Its headers are system headers, so their warnings are not ours.
# Nothing links it: mpi.c loads libmpi (by the soname read here) with
# dlopen when a script first uses MPI (docs/ARCHITECTURE.md).
MPI ?= auto
ifneq ($(MPI),no)
MPI_SONAME := $(shell pkg-config --exists ompi 2>/dev/null && \
	objdump -p $$(pkg-config --variable=libdir ompi)/libmpi.so 2>/dev/null | sed -n 's/^ *SONAME *//p')
MPI_CFLAGS := $(if $(MPI_SONAME),-DLUMA_HAVE_MPI -DLUMA_LIBMPI='"$(MPI_SONAME)"' \
	$(shell pkg-config --cflags ompi | sed 's/-I/-isystem /g'))
endif

# FreeType and zlib, for luma.plot's in-process PNG renderer (src/ml/plot):
# built in when pkg-config finds both (scripts/setup-deps installs them);
# PNG=no leaves them out and PNG goes through rsvg-convert.
PNG ?= auto
ifneq ($(PNG),no)
PNG_CFLAGS := $(shell pkg-config --exists freetype2 zlib 2>/dev/null && \
	echo -DLUMA_HAVE_PNG $$(pkg-config --cflags freetype2 zlib | sed 's/-I/-isystem /g'))
PNG_LIBS   := $(if $(PNG_CFLAGS),$(shell pkg-config --libs freetype2 zlib))
endif

OPT      ?= -O2
SANITIZE ?=
CFLAGS_BASE = -std=c11 $(OPT) -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -fPIC -fvisibility=hidden \
	-Isrc/vm -Isrc/ml -I$(BUILD)/gen $(PKG_CFLAGS) $(SANITIZE)
LDFLAGS_BASE = $(SANITIZE)

VERSION := $(shell sed -n 's/^#define LUMA_VERSION "\(.*\)"/\1/p' src/vm/luma.h)

# A family is a folder: every src/ml/<family>/*.c is part of the library.
LIB_SRCS  := $(wildcard src/vm/*.c src/ml/*/*.c)
LIB_SRCS  := $(filter-out src/vm/main.c src/vm/repl.c,$(LIB_SRCS))
LUA_SRCS  := $(sort $(wildcard lua/luma/*.lua lua/luma/*/*.lua))
DATA_SRCS := $(sort $(wildcard data/datasets/*.csv))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/embedded_lua.o
BIN_OBJS  := $(BUILD)/obj/src/vm/main.o $(BUILD)/obj/src/vm/repl.o
TOOL_BINS := $(BUILD)/test_embed $(BUILD)/embed_host $(BUILD)/ptydrive $(BUILD)/benchtool \
	$(BUILD)/api_fuzz $(BUILD)/test_threads $(BUILD)/attack_probe $(BUILD)/test_kernels

.PHONY: install-docs lua-module install-rock all run test check bench bench-ready bench-quick bench-baseline install uninstall clean deps lint fuzz fuzz-build fuzz-bins docs plots host-libs FORCE
all: $(BUILD)/luma $(BUILD)/libluma.a $(BUILD)/libluma.so $(BUILD)/libluma.so.0 $(BUILD)/luma.so \
	$(BUILD)/luma.pc $(BUILD)/stubs/.done $(TOOL_BINS)

deps:
	@scripts/setup-deps

$(BUILD)/obj/%.o: %.c src/vm/luma.h $(wildcard src/vm/*.h src/ml/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -c $< -o $@

# mpi.c alone sees the MPI headers; it is rebuilt when the MPI choice
# changes (the flags are recorded in a stamp file).
$(BUILD)/obj/src/vm/mpi.o: CFLAGS_BASE += $(MPI_CFLAGS)
$(BUILD)/obj/src/vm/mpi.o: $(BUILD)/gen/mpi.flags
$(BUILD)/gen/mpi.flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(MPI_CFLAGS)' | cmp -s - $@ || echo '$(MPI_CFLAGS)' > $@
FORCE:

# The fused element-wise kernels of luma.nn (optimizer steps, backward
# passes) are vectorized; they never read errno, so sqrt needs no error
# branch (which would keep every loop scalar).  Vectorizing reorders no
# arithmetic: results are bit-identical.
NN_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/ml/nn/*.c))
$(NN_OBJS): CFLAGS_BASE += -ftree-vectorize -fno-math-errno

# likewise the plot family alone sees FreeType and zlib
PLOT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/ml/plot/*.c))
$(PLOT_OBJS): CFLAGS_BASE += $(PNG_CFLAGS)
$(PLOT_OBJS): $(BUILD)/gen/png.flags
# the sparse family deflates and inflates .npz members with the same zlib
SPARSE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/ml/sparse/*.c))
$(SPARSE_OBJS): CFLAGS_BASE += $(if $(PNG_CFLAGS),-DLUMA_HAVE_ZLIB)
$(SPARSE_OBJS): $(BUILD)/gen/png.flags
$(BUILD)/gen/png.flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PNG_CFLAGS) $(PNG_LIBS)' | cmp -s - $@ || echo '$(PNG_CFLAGS) $(PNG_LIBS)' > $@

$(BUILD)/gen/embedded_lua.c: scripts/gen-embedded.lua $(LUA_SRCS) $(DATA_SRCS)
	@mkdir -p $(dir $@)
	$(LUA) scripts/gen-embedded.lua $@ $(LUA_SRCS) $(DATA_SRCS)

$(BUILD)/obj/gen/embedded_lua.o: $(BUILD)/gen/embedded_lua.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -c $< -o $@

$(BUILD)/libluma.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# The shared library for embedding hosts links Lua; the C module for stock
# Lua must not (its host already has Lua), so the same objects link twice.
$(BUILD)/libluma.so: $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,libluma.so.0 $(LDFLAGS_BASE) -o $@ $^ $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm

# Hosts linked with -L$(BUILD) -lluma ask the loader for the soname, so
# the build directory holds it too, as a link (install makes the usual
# libluma.so.VERSION, .so.0 and .so).
$(BUILD)/libluma.so.0: $(BUILD)/libluma.so
	ln -sf libluma.so $@

$(BUILD)/luma.so: $(LIB_OBJS)
	$(CC) -shared $(LDFLAGS_BASE) -o $@ $^ $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm

# Lua files for the modules that live in the C module, so that stock Lua
# can require each of them first (scripts/gen-stubs.lua); installed with
# the Lua modules.
$(BUILD)/stubs/.done: scripts/gen-stubs.lua $(BUILD)/luma
	rm -rf $(BUILD)/stubs
	$(BUILD)/luma scripts/gen-stubs.lua $(BUILD)/stubs
	touch $@

$(BUILD)/luma: $(BIN_OBJS) $(BUILD)/libluma.a
	$(CC) $(LDFLAGS_BASE) -o $@ $(BIN_OBJS) $(BUILD)/libluma.a $(LUA_LIBS) $(EDIT_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm

$(BUILD)/test_embed: tests/c/test_embed.c $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm -lpthread

$(BUILD)/test_threads: tests/c/test_threads.c $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm -lpthread

# The kernels' vector paths each against a direct computation (the test
# includes their source, so it reaches the paths this CPU would not choose).
$(BUILD)/test_kernels: tests/c/test_kernels.c src/ml/core/smalldots.c src/ml/core/smalldots.h \
		src/ml/core/narrow.c src/ml/core/narrow.h
	$(CC) $(CFLAGS_BASE) -o $@ $< -lm

$(BUILD)/api_fuzz: tests/c/api_fuzz.c $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm

$(BUILD)/attack_probe: tests/c/attack_probe.c $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm -lpthread

$(BUILD)/embed_host: scripts/embed_host.c $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm

$(BUILD)/ptydrive: tests/c/ptydrive.c
	$(CC) $(CFLAGS_BASE) -o $@ $< -lutil

$(BUILD)/benchtool: scripts/bench/benchtool.c
	$(CC) $(CFLAGS_BASE) -pthread -o $@ $< -lutil

# luma.pc records PREFIX, so it is rebuilt whenever PREFIX differs from the
# last build's (`make` then `make install PREFIX=/opt/luma` installs a .pc
# that says /opt/luma).
# LIBDIR and INCLUDEDIR default under PREFIX; Debian's multiarch layout
# is LIBDIR=/usr/lib/x86_64-linux-gnu.  luma.pc names them relative to
# ${prefix} when they are under it.
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
$(BUILD)/gen/prefix: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' | cmp -s - $@ || echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' > $@

$(BUILD)/luma.pc: scripts/luma.pc.in src/vm/luma.h $(BUILD)/gen/png.flags \
		$(BUILD)/gen/prefix
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
		-e 's|^Libs.private: .*|& $(PNG_LIBS)|' $< > $@

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/luma scripts/demo.lua

# The builds `make test` and `make check` start use every core (the
# Makefile is safe in parallel); BUILD_JOBS= builds one file at a time.
BUILD_JOBS ?= -j$(shell nproc 2>/dev/null || echo 1)

# `make test FAMILY=linear` (or FAMILY=<path of a spec or folder>) runs only
# those specs, skipping the fuzz build and the C tests.
test: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all
	@if [ -z "$(FAMILY)" ]; then $(MAKE) --no-print-directory fuzz-build; fi
	@BUILD=$(BUILD) FUZZ_BUILD=$(FUZZ_BUILD) FAMILY=$(FAMILY) scripts/run-tests

# AddressSanitizer + UBSan (LeakSanitizer on) over the whole suite, the
# example host under valgrind, a clang -Werror build, and two threads with
# a state each under ThreadSanitizer (build-tsan; BLAS pinned to 1 thread).
# ASan must let an impossible allocation fail (as malloc does) so the tests
# of Lua memory errors run instead of aborting.
check: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all BUILD=build-asan OPT=-O1 CC=clang \
		SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
	@BUILD=build-asan LUMA_SANITIZED=1 ASAN_OPTIONS=allocator_may_return_null=1 scripts/run-tests
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all BUILD=build-clang CC=clang
	@$(MAKE) --no-print-directory $(BUILD_JOBS) build-tsan/test_threads BUILD=build-tsan CC=clang OPT=-O1 \
		SANITIZE="-fsanitize=thread -fno-omit-frame-pointer"
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" OPENBLAS_NUM_THREADS=1 \
		build-tsan/test_threads
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite -q $(BUILD)/embed_host > /dev/null
	@echo "make check: clean"

# libFuzzer targets (tests/fuzz, docs/RELIABILITY.md): the library built
# with clang -fsanitize=fuzzer-no-link,address,undefined in its own build
# directory, each target linked with -fsanitize=fuzzer.  `make fuzz` runs
# each for FUZZ_SECONDS; `make test` runs a short fixed-seed pass.
FUZZ_BUILD    ?= build-fuzz
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  := load csv npy libsvm chunk
FUZZ_SANITIZE := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

fuzz-build:
	@$(MAKE) --no-print-directory $(BUILD_JOBS) fuzz-bins BUILD=$(FUZZ_BUILD) CC=clang OPT=-O1 \
		SANITIZE="$(FUZZ_SANITIZE)"

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(BUILD)/libluma.a
	$(CC) $(CFLAGS_BASE) -fsanitize=fuzzer -o $@ $< $(BUILD)/libluma.a $(LUA_LIBS) $(BLAS_LIBS) \
		$(PNG_LIBS) -lmvec -lm

fuzz: deps fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) scripts/run-fuzz --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# What a host linking $(BUILD)/libluma.a statically needs after it (the
# specs that compile small hosts ask here, so they follow the build's
# choices: PNG or not).
host-libs:
	@echo $(LUA_LIBS) $(BLAS_LIBS) $(PNG_LIBS) -lmvec -lm -lpthread

# The documentation site (scripts/make-docs.lua): build/docs/index.html,
# the reference (one page per module), the narrative docs (cmark-gfm,
# KaTeX) and the gallery (every scripts/examples/*.lua run, cached in
# build/gallery-cache).  A failing example or a broken link fails it.
docs: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/luma scripts/make-docs.lua $(BUILD)/docs

# The notes' figures (scripts/make-plots.lua) into build/plots.
plots: all
	$(BUILD)/luma scripts/make-plots.lua $(BUILD)/plots

# bench: every row (BENCH=pattern for some), each compared with
# scripts/bench/baseline.lua; bench-quick: the short list in
# scripts/bench/quick.lua; bench-baseline: runs the rows and writes their
# ratios to scripts/bench/baseline.lua (see scripts/bench/README.md).
bench-ready: deps
	@scripts/setup-deps --bench
	@$(MAKE) --no-print-directory all

bench: bench-ready
	$(BUILD)/luma scripts/bench/run.lua $(BENCH)

bench-quick: bench-ready
	$(BUILD)/luma scripts/bench/run.lua --quick $(BENCH)

bench-baseline: bench-ready
	$(BUILD)/luma scripts/bench/run.lua --write-baseline $(BENCH)

# Where stock Lua looks: Debian's lua5.4 also searches
# CMODDIR=/usr/lib/x86_64-linux-gnu/lua/5.4 (the Debian package's choice).
CMODDIR ?= $(PREFIX)/lib/lua/5.4
LMODDIR ?= $(PREFIX)/share/lua/5.4
MANDIR  ?= $(PREFIX)/share/man
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(CMODDIR) $(DESTDIR)$(LMODDIR)/luma $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/luma $(DESTDIR)$(PREFIX)/bin/luma
	install -m 644 man/luma.1 $(DESTDIR)$(MANDIR)/man1/luma.1
	install -m 644 $(BUILD)/libluma.a $(DESTDIR)$(LIBDIR)/libluma.a
	install -m 755 $(BUILD)/libluma.so $(DESTDIR)$(LIBDIR)/libluma.so.$(VERSION)
	ln -sf libluma.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libluma.so.0
	ln -sf libluma.so.0 $(DESTDIR)$(LIBDIR)/libluma.so
	install -m 644 src/vm/luma.h $(DESTDIR)$(INCLUDEDIR)/luma.h
	install -m 644 $(BUILD)/luma.pc $(DESTDIR)$(LIBDIR)/pkgconfig/luma.pc
	install -m 755 $(BUILD)/luma.so $(DESTDIR)$(CMODDIR)/luma.so
	for f in $(LUA_SRCS); do install -D -m 644 $$f $(DESTDIR)$(LMODDIR)/$${f#lua/}; done
	for f in $$(cd $(BUILD)/stubs && find luma -name '*.lua'); do \
		install -D -m 644 $(BUILD)/stubs/$$f $(DESTDIR)$(LMODDIR)/$$f; done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi
	@if [ "$(DOCS)" != no ]; then $(MAKE) --no-print-directory install-docs; fi

# The documentation under DOCDIR: the Markdown sources as in the
# repository (README.md beside docs/, so their links work) and the HTML
# site of `make docs` in html/.  `make install DOCS=no` leaves them out.
DOCDIR ?= $(PREFIX)/share/doc/luma
DOCS   ?= yes
install-docs: docs
	install -d $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)/html
	install -m 644 README.md CHANGELOG.md LICENSE $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	cp -R $(BUILD)/docs/. $(DESTDIR)$(DOCDIR)/html/

# What `luarocks make` installs (luma-VERSION.rockspec): the C module
# into the rock's C module folder, the Lua modules beside the rock's Lua
# files (so `require "luma.svm"` works before `require "luma"`), and the
# luma command; LuaRocks passes the three folders.
ROCK_LIBDIR ?= $(CMODDIR)
ROCK_LUADIR ?= $(LMODDIR)
ROCK_BINDIR ?= $(PREFIX)/bin
lua-module: $(BUILD)/luma.so $(BUILD)/luma $(BUILD)/stubs/.done
install-rock: lua-module
	install -d $(ROCK_LIBDIR) $(ROCK_LUADIR)/luma $(ROCK_BINDIR)
	install -m 755 $(BUILD)/luma.so $(ROCK_LIBDIR)/luma.so
	for f in $(LUA_SRCS); do install -D -m 644 $$f $(ROCK_LUADIR)/$${f#lua/}; done
	for f in $$(cd $(BUILD)/stubs && find luma -name '*.lua'); do \
		install -D -m 644 $(BUILD)/stubs/$$f $(ROCK_LUADIR)/$$f; done
	install -m 755 $(BUILD)/luma $(ROCK_BINDIR)/luma

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/luma $(DESTDIR)$(MANDIR)/man1/luma.1 \
		$(DESTDIR)$(LIBDIR)/libluma.* $(DESTDIR)$(INCLUDEDIR)/luma.h \
		$(DESTDIR)$(LIBDIR)/pkgconfig/luma.pc $(DESTDIR)$(CMODDIR)/luma.so
	rm -rf $(DESTDIR)$(LMODDIR)/luma $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-asan build-clang build-fuzz build-tsan
