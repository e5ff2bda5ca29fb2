# gpusplit: `make run` builds and prints the lesson's report; `make test` runs every test.
# Each first installs what is missing (scripts/install-deps.sh).

CC ?= cc
# Recipes run quietly; `make V=1 ...` shows each command.
V ?= 0
Q = $(if $(filter 1,$(V)),,@)
CFLAGS ?= -O2
# No -ffast-math and no -march: the native build and the wasm must agree bit for bit,
# and a fused multiply-add on one side only would break that.
WARN = -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wdouble-promotion -Wshadow \
       -Wstrict-prototypes -Wmissing-prototypes -Werror -ffp-contract=off
SAN = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# A model family is one file in csrc/read/families/ (and one line in its families.c).
FAMILIES = $(sort $(wildcard csrc/read/families/*.c))
# The library: core/ is the arithmetic, read/ turns text into its structs. Listed in a fixed
# order because the link order sets the bytes of the committed pages' modules.
LIB = csrc/core/primitives.c csrc/core/checks.c csrc/core/split.c csrc/core/step.c csrc/core/nccl.c csrc/core/prefill.c csrc/core/experts.c csrc/core/plan.c csrc/core/plan_counts.c csrc/core/explain.c csrc/read/measured.c csrc/read/calibrate.c csrc/read/runs.c \
      csrc/read/config.c csrc/read/tally.c csrc/read/json.c csrc/core/utf8.c csrc/read/hardware.c \
      csrc/core/format.c csrc/core/view.c csrc/read/data.c csrc/core/error.c csrc/core/price.c csrc/read/resolve.c $(FAMILIES) \
       csrc/core/figure.c csrc/core/lesson_figures.c csrc/read/number.c csrc/emit/launch.c csrc/emit/plan_chart.c csrc/read/efficiency.c csrc/core/mixed_step.c csrc/serve/engine.c \
       csrc/serve/load.c csrc/serve/draw.c csrc/serve/stats.c csrc/serve/scheduler.c csrc/serve/pipeline.c csrc/serve/serve.c csrc/read/lengths.c csrc/serve/plan_served.c \
       csrc/read/serving.c csrc/read/serving_runs.c csrc/core/mixed_spread.c csrc/serve/bench_limits.c csrc/serve/disagg.c csrc/read/max_len.c csrc/core/mxfp4_peak.c
CLI = $(sort $(wildcard csrc/cli/*.c))
# The command line's own reader (csrc/read/flags.h) and the JSON writer (csrc/emit/json.h):
# native only, they read strtod's spellings and write printf's %.17g, which the modules leave out.
ARGS = csrc/read/flags.c csrc/emit/json.c csrc/emit/serve_json.c csrc/emit/random_setting.c
# The efficiency fit: a layer of the library the command line alone links (csrc/fit/fit.h).
FIT = $(sort $(wildcard csrc/fit/*.c))
HEADERS = csrc/gpusplit.h csrc/internal.h csrc/read/efficiency.h csrc/core/fields.h csrc/wasm/abi.h csrc/cli/cli.h csrc/cli/fit_work.h csrc/fit/fit.h csrc/emit/json.h csrc/emit/random_setting.h csrc/read/flags.h csrc/read/families/families.h
DATA = data/gpus.json data/links.json data/widget.json data/efficiency.json data/serving.json
CATALOGUE = data/models/catalogue.json $(wildcard data/models/*.json)
C_TESTS = model config families format view machines measured figure bounds efficiency runs experts launch serve allreduce plan_chart draw serve_spread serve_pipeline bench_limits serve_disagg
TEST_LIB = tests/c/test_support.c

comma := ,
space := $(subst ,, )
# The buffers both modules share (csrc/wasm/abi.c), then each module's own calls.
ABI_EXPORTS = setting_u64 setting_f64 setting_text chart_f64 chart_text timeline_f64 timeline_text summary_f64 explain_buffer error_buffer
WASM_EXPORTS = $(ABI_EXPORTS) text_in_buffer text_in_capacity offered_count offered_words use_builtin use_custom machine_in machine show explain \
               kept_busy slices_beside
# A standalone module: no Emscripten JavaScript, no imports, a fixed 1 MiB memory. Bulk memory
# (memory.fill, memory.copy: every current browser) for memset and memcpy, which were byte loops:
# the 16 KB gs_setting resolve clears each key press was 9% of the wasm sweep (make bench).
EMFLAGS_BASE = -Oz -mbulk-memory --no-entry -sSTANDALONE_WASM -sINITIAL_MEMORY=1048576 -sTOTAL_STACK=262144 -sALLOW_MEMORY_GROWTH=0
EMFLAGS = $(EMFLAGS_BASE) -sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(WASM_EXPORTS:%=_%))
EMCC = NODE_PATH=/usr/share/nodejs emcc
WEB = web/src/widget.html web/src/widget.css web/src/widget.js web/src/widget_bars.js web/src/fragment_delay.js web/src/widget_start.js web/src/widget_first.css web/src/lesson_module.js web/src/module_memory.js web/src/fields.js scripts/embed_widget.mjs scripts/single_page.mjs

# A recipe that fails leaves no half-written target behind (a generated table cut short
# would otherwise look up to date).
.DELETE_ON_ERROR:

.PHONY: validate efficiency serving all deps help figures run test test-deps fields test-c test-san test-fuzz test-reference test-js test-browser wasm widget explorer bench fuzz clean

all: build/gpusplit

# `make help`: the targets, one line each.
help:
	@echo "make                build/gpusplit, the command line"
	@echo "make run            build, print the 70B report on 1-16 GPUs, and name the widget and the explorer"
	@echo "make test           every suite: C, sanitizers, fuzz (briefly), reference, deps, Node, browser"
	@echo "make test-c         the C tests (cmocka) and the command line's shell tests"
	@echo "make test-san       the same under ASan and UBSan"
	@echo "make test-fuzz      each libFuzzer harness for 10 s"
	@echo "make test-reference the report and the figures against the lesson's Python"
	@echo "make test-deps      scripts/install-deps.sh against stubbed apt-get, dpkg, node and npm"
	@echo "make test-js        the Node tests: the modules against the native build, the committed pages"
	@echo "make test-browser   the Chromium tests of the widget, the explorer and the embedding"
	@echo "make widget         build web/widget.html (committed) from the C and web/src/"
	@echo "make explorer       build web/explorer.html (committed)"
	@echo "make figures        write the lesson's four figures into web/figures/ (committed)"
	@echo "make wasm           build both WebAssembly modules into build/"
	@echo "make validate       the model against NVIDIA's measured all-reduces"
	@echo "make bench          speed and size against the browser's floors"
	@echo "make fuzz           each fuzz harness for FUZZ_SECONDS (60)"
	@echo "make deps           install what is missing (scripts/install-deps.sh)"
	@echo "make clean          remove build/"
	@echo "V=1 shows each command as it runs."

deps:
	@scripts/install-deps.sh

build/data_files.c: scripts/embed_data.sh $(DATA)
	@mkdir -p build
	$(Q)scripts/embed_data.sh $(DATA) > $@

# ShareGPT's length table (serve --lengths sharegpt): the command line's text, not the modules'.
build/sharegpt_lengths.c: scripts/embed_data.sh data/sharegpt_lengths.csv
	@mkdir -p build
	$(Q)scripts/embed_data.sh data/sharegpt_lengths.csv > $@

# data/models/ as a C table: every model for the program, the lesson's three for the module.
build/catalogue.c: scripts/catalogue.mjs $(CATALOGUE)
	@mkdir -p build
	$(Q)node scripts/catalogue.mjs data/models/catalogue.json > $@

build/catalogue_tables.c: scripts/catalogue.mjs $(CATALOGUE)
	@mkdir -p build
	$(Q)node scripts/catalogue.mjs --tables data/models/catalogue.json > $@

# The fitted efficiency (gpusplit fit --json on the shared runs; `make efficiency` writes
# it) as a typed table: the command line's and the explorer's module's; the widget's prices
# at the peaks and carries none.
build/efficiency_table.c: build/tables data/allreduce.json $(wildcard tests/measured/*_nccl.csv)
	$(Q)build/tables --efficiency > $@

# A built-in efficiency table without the pooled figures, for a build that shows report's
# exit status after a failure that is not bad input (tests/c/failure_test.sh).
build/broken/efficiency_table.c: Makefile
	@mkdir -p $(@D)
	$(Q)printf '#include "read/efficiency.h"\nconst fit_result GS_EFFICIENCY_TABLE = {.count = 0};\nconst gs_allreduce_table GS_ALLREDUCE_TABLE[1];\nconst size_t GS_ALLREDUCE_TABLE_COUNT = 0;\nconst gs_serving_table GS_SERVING_TABLE = {.count = 0};\n' > $@

# The command line and the C tests are built natively in build/, and under ASan and UBSan
# in build/asan/: the same recipe with other flags.
OPT = $(CFLAGS)
build/asan/%: OPT = $(SAN)
PROGRAM = $(LIB) $(ARGS) $(FIT) $(CLI) build/tables.c build/catalogue.c build/sharegpt_lengths.c

build/gpusplit build/asan/gpusplit: $(PROGRAM) build/efficiency_table.c $(HEADERS)
build/broken/gpusplit: $(PROGRAM) build/broken/efficiency_table.c $(HEADERS)
build/gpusplit build/asan/gpusplit build/broken/gpusplit:
	@mkdir -p $(@D)
	$(Q)$(CC) $(OPT) $(WARN) -Icsrc -o $@ $(filter %.c,$^) -lm

# The tests link data/'s text too (build/data_files.c), to read it with the readers.
TEST_LINK = $(TEST_LIB) $(LIB) build/tables.c build/efficiency_table.c build/data_files.c build/catalogue.c build/sharegpt_lengths.c
TEST_DEPS = tests/c/test_support.h $(TEST_LINK) $(HEADERS)
TEST_CC = $(CC) $(OPT) $(WARN) -Icsrc -Itests/c

build/test_%: tests/c/test_%.c $(TEST_DEPS)
	$(Q)$(TEST_CC) -o $@ $< $(TEST_LINK) -lcmocka -lm

build/asan/test_%: tests/c/test_%.c $(TEST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(TEST_CC) -o $@ $< $(TEST_LINK) -lcmocka -lm

# data/ as typed tables (scripts/tables.c): the tool reads the JSON with the library's own
# readers (its data.c built with -DGS_DATA_FROM_JSON); every other build links a table.
build/tables: scripts/tables.c $(LIB) $(HEADERS) build/data_files.c build/catalogue.c
	$(Q)$(CC) $(CFLAGS) $(WARN) -DGS_DATA_FROM_JSON -Icsrc -o $@ $< $(LIB) build/data_files.c build/catalogue.c -lm

build/tables.c: build/tables
	$(Q)build/tables --full > $@

build/tables_module.c: build/tables
	$(Q)build/tables --module > $@

build/tables_lesson.c: build/tables
	$(Q)build/tables --lesson > $@

build/wasm-include/jsmn.h: /usr/include/jsmn.h
	@mkdir -p build/wasm-include
	$(Q)cp $< $@

# Only jsmn comes from /usr/include: the module must see Emscripten's libc headers, not glibc's.
build/gpusplit.wasm: $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c $(HEADERS) build/tables_module.c build/efficiency_table.c build/catalogue.c build/wasm-include/jsmn.h
	$(Q)$(EMCC) $(WARN) $(EMFLAGS) -Icsrc -isystem build/wasm-include -o $@ \
	  $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c build/tables_module.c build/efficiency_table.c build/catalogue.c

# The lesson's widget: the cost model without a reader. Its three models, its GPU and two
# links are derived at build time by the native reader and compiled in as tables
# (scripts/tables.c --lesson), and it keeps the lesson's all-reduce rule (no --nccl auto).
# The parity tests hold both modules against the native build.

LESSON_LIB = csrc/core/primitives.c csrc/core/checks.c csrc/core/split.c csrc/core/step.c csrc/core/nccl.c csrc/core/explain.c csrc/core/format.c csrc/core/view.c \
             csrc/core/error.c csrc/core/price.c csrc/read/resolve.c csrc/core/utf8.c csrc/read/data.c
LESSON_EXPORTS = $(filter-out text_in_buffer text_in_capacity use_custom machine_in machine,$(WASM_EXPORTS))
LESSON_EMFLAGS = $(EMFLAGS_BASE) -sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(LESSON_EXPORTS:%=_%))
build/lesson.wasm: $(LESSON_LIB) csrc/wasm/lesson.c csrc/wasm/abi.c $(HEADERS) build/tables_lesson.c build/catalogue_tables.c build/wasm-include/jsmn.h
	$(Q)$(EMCC) $(WARN) $(LESSON_EMFLAGS) -DGS_LESSON_ONLY -DGS_LESSON_TABLES -Icsrc -isystem build/wasm-include -o $@ \
	  $(LESSON_LIB) csrc/wasm/lesson.c csrc/wasm/abi.c build/tables_lesson.c build/catalogue_tables.c

wasm: build/gpusplit.wasm build/lesson.wasm

# web/src/fields.js names each figure the modules hand over (csrc/core/fields.h). It is
# committed, an input of both pages, and made here from fields.h, so an edit to fields.h
# rebuilds it before any page; tests/js/fields.test.mjs keeps it equal to this build.
build/fields_js: scripts/fields_js.c csrc/core/fields.h csrc/gpusplit.h
	$(Q)$(CC) $(CFLAGS) $(WARN) -Icsrc -o $@ $<

build/fields.js: build/fields_js
	$(Q)build/fields_js > $@

web/src/fields.js: build/fields.js
	$(Q)cp build/fields.js $@

fields: web/src/fields.js

build/widget.html: build/lesson.wasm build/gpusplit $(WEB)
	$(Q)node scripts/embed_widget.mjs build/lesson.wasm build/widget.html

# The committed widget is this build; tests/js/widget.test.mjs keeps them equal, byte for
# byte when this machine's Emscripten and zlib are the ones web/BUILT_WITH records.
widget: build/widget.html
	$(Q)cp build/widget.html web/widget.html
	$(Q)scripts/built_with.sh widget.html

# ---- The explorer (web/explorer.html): a person's own model, GPU and link. ----
# build/explorer.wasm is the full library with csrc/wasm/explorer.c.s exports (and abi.c.s buffers), every
# catalogue model (build/catalogue.c) and the full hardware data, minified. Its memory
# is 4 MiB, not 1, to hold a pasted nccl-tests log of up to GS_MEASURED_MAX_BYTES (1 MiB).
# scripts/embed_explorer.mjs inlines it into one page; `make explorer` copies that page to
# web/explorer.html, which is committed, and tests/js/explorer.test.mjs keeps the two equal.
EXPLORER_EXPORTS = $(ABI_EXPORTS) text_in_buffer text_in_capacity key_in_buffer key_in_capacity list_buffer \
                   $(foreach r,gpu link log planned rules,$(r)_u64 $(r)_f64 $(r)_text) \
                   max_gpus list use_model use_config \
                   use_gpu_key use_gpu use_link_key use_link use_log use_between_key use_rules use_engine plan price sweep explain \
                   frontier layout frontier_f64 frontier_text ticks_f64 ticks_text
EXPLORER_EMFLAGS = -Oz --no-entry -sSTANDALONE_WASM -sINITIAL_MEMORY=4194304 -sTOTAL_STACK=262144 -sALLOW_MEMORY_GROWTH=0 \
                   -sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(EXPLORER_EXPORTS:%=_%))
EXPLORER_WEB = web/src/explorer.html web/src/explorer.css web/src/explorer.js web/src/explorer_rules.js web/src/explorer_chart.js web/src/explorer_module.js web/src/fragment_delay.js web/src/module_memory.js web/src/fields.js scripts/embed_explorer.mjs scripts/single_page.mjs

build/explorer.wasm: $(LIB) csrc/wasm/explorer.c csrc/wasm/abi.c $(HEADERS) build/tables_module.c build/efficiency_table.c build/catalogue.c build/wasm-include/jsmn.h
	$(Q)$(EMCC) $(WARN) $(EXPLORER_EMFLAGS) -Icsrc -isystem build/wasm-include -o $@ \
	  $(LIB) csrc/wasm/explorer.c csrc/wasm/abi.c build/tables_module.c build/efficiency_table.c build/catalogue.c

build/explorer.html: build/explorer.wasm $(EXPLORER_WEB)
	$(Q)node scripts/embed_explorer.mjs build/explorer.wasm build/explorer.html

explorer: build/explorer.html
	$(Q)cp build/explorer.html web/explorer.html
	$(Q)scripts/built_with.sh explorer.html
# ---- end of the explorer ----

# ---- The lesson's four figures (web/figures/), drawn by the C library: `gpusplit figure NAME`.
# Committed; tests/reference/check_figures_svg.py holds them equal to a fresh build.
FIGURES = weights-split time-per-word stops-helping slices-vs-groups

figures: build/gpusplit
	@mkdir -p web/figures
	$(Q)for f in $(FIGURES); do build/gpusplit figure $$f > web/figures/$$f.svg.tmp && mv web/figures/$$f.svg.tmp web/figures/$$f.svg || \
	  { rm -f web/figures/$$f.svg.tmp; exit 1; }; done

# The pages are copied into web/ only when this machine builds the committed pages' bytes
# (the Emscripten and zlib web/BUILT_WITH records); elsewhere (Debian 13's emscripten, say)
# the tree is left as it is and the fresh pages in build/ are named instead.
run: deps build/gpusplit build/widget.html build/explorer.html
	$(Q)build/gpusplit report --model 70b --counts 1,2,4,8,16
	@echo
	$(Q)if scripts/built_with.sh --matches widget.html explorer.html; then \
	  cp build/widget.html web/widget.html; cp build/explorer.html web/explorer.html; dir=web; \
	else \
	  echo "This machine's $$(scripts/built_with.sh --version) is not what built the committed pages (web/BUILT_WITH),"; \
	  echo "so web/ is left as it is and the pages built here are in build/."; dir=build; \
	fi; \
	echo "The widget:   $$dir/widget.html. Open it in a browser: file://$(CURDIR)/$$dir/widget.html"; \
	echo "The explorer: $$dir/explorer.html, for your own model, GPU and link: file://$(CURDIR)/$$dir/explorer.html"

# Each suite prints one line, "NAME: N passed, N failed", and its whole log (kept in
# build/test-logs/) only when it fails; `make test` runs every suite, even after a failure,
# and ends with the plain line "N passed, N failed" over all of them.
SUITE = scripts/run-suite.sh

test: deps
	$(Q)rm -rf build/test-logs
	$(Q)status=0; \
	$(MAKE) --no-print-directory -k test-c test-san test-fuzz test-reference test-deps test-js test-browser || status=$$?; \
	$(SUITE) --total $$status

test-c: $(C_TESTS:%=build/test_%) build/gpusplit build/broken/gpusplit
	$(Q)status=0; \
	for t in $(C_TESTS); do $(SUITE) "c: $$t" cmocka build/test_$$t || status=1; done; \
	$(SUITE) "c: cli" plain tests/c/cli_test.sh build/gpusplit || status=1; \
	$(SUITE) "c: bad input" plain tests/c/bad_input.sh build/gpusplit || status=1; \
	$(SUITE) "c: plan served" plain tests/c/plan_served_test.sh build/gpusplit || status=1; \
	$(SUITE) "c: output" plain tests/c/output_test.sh build/gpusplit || status=1; \
	$(SUITE) "c: fit" plain tests/c/fit_test.sh build/gpusplit || status=1; \
	$(SUITE) "c: failure" plain tests/c/failure_test.sh build/broken/gpusplit || status=1; \
	$(SUITE) "c: emit" plain tests/c/emit_test.sh build/gpusplit || status=1; \
	exit $$status

test-san: $(C_TESTS:%=build/asan/test_%) build/asan/gpusplit
	$(Q)status=0; \
	for t in $(C_TESTS); do $(SUITE) "san: $$t" cmocka build/asan/test_$$t || status=1; done; \
	$(SUITE) "san: bad input" plain tests/c/bad_input.sh build/asan/gpusplit || status=1; \
	$(SUITE) "san: cli" plain tests/c/cli_test.sh build/asan/gpusplit || status=1; \
	$(SUITE) "san: output" plain tests/c/output_test.sh build/asan/gpusplit || status=1; \
	$(SUITE) "san: fit" plain tests/c/fit_test.sh build/asan/gpusplit || status=1; \
	$(SUITE) "san: emit" plain tests/c/emit_test.sh build/asan/gpusplit || status=1; \
	exit $$status

test-reference: build/gpusplit
	$(Q)status=0; \
	PYTHONDONTWRITEBYTECODE=1 $(SUITE) "reference: report" plain python3 tests/reference/check_report.py build/gpusplit || status=1; \
	$(SUITE) "reference: lesson figures" plain tests/lesson/check_figures.sh build/gpusplit || status=1; \
	PYTHONDONTWRITEBYTECODE=1 $(SUITE) "reference: figure svgs" plain python3 tests/reference/check_figures_svg.py build/gpusplit web/figures README.md || status=1; \
	PYTHONDONTWRITEBYTECODE=1 $(SUITE) "reference: readme examples" plain python3 tests/reference/check_readme_examples.py build/gpusplit README.md docs/*.md || status=1; \
	PYTHONDONTWRITEBYTECODE=1 $(SUITE) "reference: serving fit" plain python3 tests/reference/check_serve_fit.py build/gpusplit || status=1; \
	exit $$status

# scripts/install-deps.sh on a bare Debian 12 and a Debian 13, played by stubbed apt-get,
# dpkg-query, node and npm (nothing is installed).
test-deps:
	$(Q)$(SUITE) "deps: install-deps.sh, stubbed" plain tests/deps/deps_test.sh

# The Node tests need the native build (it writes their fixtures), the module, and a
# fresh widget to hold the committed one against.
test-js: build/gpusplit build/gpusplit.wasm build/lesson.wasm build/widget.html build/explorer.html build/fields.js
	$(Q)$(SUITE) "js: node" uvu node_modules/.bin/uvu tests/js '.test.mjs$$'

# Headless Debian Chromium through playwright-core; the harness starts and stops the
# browser and a static server on 127.0.0.1 itself.
test-browser: build/gpusplit build/widget.html build/explorer.html
	$(Q)$(SUITE) "browser: chromium" uvu node_modules/.bin/uvu tests/browser '.test.mjs$$'

# Speed and size, reported, never asserted: input-to-figures and load time in Chromium,
# a sweep of a million settings in the wasm against the native build, and byte sizes.
# Paired: the native sweep and the wasm one, both by clang at -O2 (emcc is clang).
build/bench_native_clang: tests/bench/bench_native.c $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c $(HEADERS) build/tables.c build/efficiency_table.c build/catalogue.c
	$(Q)clang -O2 $(WARN) -Icsrc -o $@ $< $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c build/tables.c build/efficiency_table.c build/catalogue.c -lm

build/bench.wasm: $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c $(HEADERS) build/tables_module.c build/efficiency_table.c build/catalogue.c build/wasm-include/jsmn.h
	$(Q)$(EMCC) $(WARN) $(subst -Oz,-O2,$(EMFLAGS)) -Icsrc -isystem build/wasm-include -o $@ \
	  $(LIB) csrc/wasm/lesson.c csrc/wasm/abi.c build/tables_module.c build/efficiency_table.c build/catalogue.c

bench: deps build/bench_native_clang build/bench.wasm build/widget.html
	$(Q)node tests/bench/run.mjs

# Coverage-guided fuzzing with clang's libFuzzer: the config reader with hardware figures
# at their extremes, the command line, the data readers, and the measured all-reduce
# readers with the fit, the measured-runs reader, the plan's search over its inputs (budgets
# to 65,536), the efficiency fit with what fit and validate print of it (fuzz_fit,
# bounded to 24 runs an input), serve's lengths reader (fuzz_lengths), and the serving runs'
# reader with their mapping and the serving fit's table (fuzz_serving). `make fuzz`
# runs each for FUZZ_SECONDS; `make test` runs each briefly (test-fuzz).
FUZZ = config cli data measured runs plan fit lengths serving
FUZZ_SECONDS ?= 60
FUZZ_CC = clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Icsrc -Icsrc/cli -Itests/fuzz

# tests/fuzz/fuzz_NAME.c linked with the library; FUZZ_DEFS: its own -D flags.
build/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_check.h $(LIB) build/tables.c build/efficiency_table.c build/catalogue.c $(HEADERS)
	$(Q)$(FUZZ_CC) $(FUZZ_DEFS) -o $@ $(filter %.c,$^) -lm

# The command line's harness calls cli_run itself: it links the commands, without main().
build/fuzz_cli: FUZZ_DEFS = -DGS_NO_MAIN
build/fuzz_cli: $(ARGS) $(FIT) $(CLI) build/sharegpt_lengths.c

# So does the fit's: fit and validate over a runs text, through cli_run.
build/fuzz_fit: FUZZ_DEFS = -DGS_NO_MAIN
build/fuzz_fit: $(ARGS) $(FIT) $(CLI) build/sharegpt_lengths.c

# The serving runs' harness maps rows as validate --serving does: it links the fit.
build/fuzz_serving: $(ARGS) $(FIT) build/sharegpt_lengths.c

fuzz: deps $(FUZZ:%=build/fuzz_%)
	$(Q)scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ)

test-fuzz: $(FUZZ:%=build/fuzz_%)
	$(Q)$(SUITE) "fuzz: $(FUZZ) for 10 s each" plain scripts/fuzz.sh 10 $(FUZZ)

# The model against NVIDIA's measured all-reduces (tests/measured, a copy of the shared reference
# from ai-dynamo/aiconfigurator): one line a system and GPU count. The folder each system's
# YAML selects is its source_dir (see that README); (b) needs the system's GPU and link in
# the catalogue, and PCIe systems are held to the lesson's slow link.
MEASURED ?= tests/measured
VALIDATE = a100_sxm:nccl/2.27.3:fast:a100-80gb-sxm:nvlink3 h100_sxm:nccl/2.27.3:fast:h100-sxm:nvlink4 \
           h200_sxm:nccl/2.26.2:fast:h200:nvlink4 b200_sxm:nccl/2.27.3:fast:b200:nvlink5 b300_sxm:nccl/2.27:fast:: \
           gb200:nccl/2.23:fast:: gb300:nccl/2.27:fast:: l40s:nccl/2.27.3:slow:l40s:pcie4 \
           rtx_pro_6000_server:nccl/2.29.2:slow::
# Then the decode table: the shared measured runs (which data/efficiency.json is fitted on),
# runs the fit has never seen (tests/measured/decode-heldout-README.md), and each shared
# source priced with a fit to the others only; then the serving runs (the fitted sources P1
# and P2 with the held-out rest, and the runs gathered for the fit, F1 and F3 to F6:
# tests/measured/serving-fit-gathered-README.md), and the gathered serving runs, every one held
# out (tests/measured/serving-gathered-README.md).
validate: deps build/gpusplit
	$(Q)scripts/validate.sh build/gpusplit $(MEASURED) $(VALIDATE)
	@echo
	$(Q)build/gpusplit validate --runs $(MEASURED)/decode-runs.csv
	@echo
	$(Q)build/gpusplit validate --runs $(MEASURED)/decode-heldout.csv
	@echo
	$(Q)build/gpusplit validate --runs $(MEASURED)/decode-runs.csv --leave-source-out
	@echo
	$(Q)build/gpusplit validate --serving $(MEASURED)/serving-runs.csv --more $(MEASURED)/serving-fit-gathered.csv --leave-source-out
	@echo
	$(Q)build/gpusplit validate --serving $(MEASURED)/serving-gathered.csv

# data/efficiency.json: the fit to the shared runs (run it again when the catalogue grows).
efficiency: build/gpusplit
	$(Q)build/gpusplit fit --json --leave-source-out $(MEASURED)/decode-runs.csv > build/efficiency.json
	$(Q)mv build/efficiency.json data/efficiency.json

# data/serving.json: the serving fit to the fitted sources of the serving runs (issue 29);
# make test-reference holds the committed file to it.
serving: build/gpusplit
	$(Q)build/gpusplit fit --serving $(MEASURED)/serving-runs.csv --more $(MEASURED)/serving-fit-gathered.csv --held-out $(MEASURED)/serving-gathered.csv --json > build/serving.json
	$(Q)mv build/serving.json data/serving.json

clean:
	rm -rf build
