# swift-media-engine: two commands from a fresh Debian 12 machine with Swift to green.
#   make demo   installs what is missing, builds, and plays the built-in sample movie
#   make test   installs what is missing, checks formatting and doc comments (lint), runs every test
# Other targets: build, release, bench, leaks, fuzz, fuzz-engine, stress, tsan, asan, format, docs, clean.
#   make docs   DocC archives of the public modules, with their guides, in .build/docs; fails on a
#               symbol without a doc comment that lint cannot see (a protocol requirement, an enum
#               case) and on any docc warning; not part of test
#   make stress  50 players at once under random commands, then the whole suite STRESS_RUNS (10)
#                times, each with one core kept busy by another process; not part of test
#   make fuzz   runs libFuzzer on each of the engine's parsers, FUZZ_SECONDS (60) each, then
#               make fuzz-engine: the whole engine on 2,000 mutated inputs; not part of test
#   make tsan   the whole suite under ThreadSanitizer (make asan: AddressSanitizer); not part of test

SHELL := /bin/bash
SWIFT ?= swift
SAMPLE ?= .build/sample/sample.mp4
SINK ?=

# Debian packages the engine builds and runs against (GStreamer 1.22), the tools its tests
# use (gst-launch-1.0 makes test media, and ffmpeg the seed's formats GStreamer's own encoders
# cannot make on Debian 12; Xvfb and xdotool drive window tests, nginx serves streams, openssl
# makes the HTTPS tests' CA and certificates), and ffmpeg, the benchmark's peer. Pango and cairo
# draw text overlays. libxml2 reads VAST answers and DASH manifests (its headers: libxml2-dev).
PACKAGES := libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base \
	gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav \
	gstreamer1.0-tools gstreamer1.0-x pkg-config libyuv-dev libx11-dev libpango1.0-dev libcairo2-dev \
	fonts-dejavu-core libavcodec-dev libxml2-dev
TEST_PACKAGES := xvfb xdotool x11-apps x11-utils nginx openssl gdb ffmpeg
BENCH_PACKAGES := ffmpeg nginx

# Fuzzing: one target per parser (Fuzz/Fuzz<Parser>), built with libFuzzer and AddressSanitizer
# into its own build folder. The C targets are instrumented too (-Xcc): the PMT rewrite on
# tsdemux's input (Sources/CMediaEngineWorkarounds/tsdemuxid3.c) is a parser of hostile bytes. A
# parser's kept regressions are in the test folder of its target:
# Tests/<Target>Tests/FuzzRegressions/Inputs/<Parser>/.
FUZZ_PARSERS := ContainerInspector Subtitles SinkOptions VAST Manifests TimedMetadata Captions
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
FUZZ_BUILD := .build/fuzz
FUZZ_BUILD_FLAGS := -c release --build-path $(FUZZ_BUILD) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	-Xcc -fsanitize=fuzzer-no-link,address
FUZZ_REGRESSIONS := Tests/*/FuzzRegressions/Inputs

# The whole engine on mutated inputs (`make fuzz-engine`, run by `make fuzz` after the parsers):
# FUZZ_ENGINE_INPUTS inputs made from valid ones by seed FUZZ_ENGINE_SEED, each in a child process
# with a timeout of FUZZ_ENGINE_TIMEOUT seconds, FUZZ_ENGINE_JOBS children at a time. Findings
# (signals, hangs) go to $(FUZZ_ENGINE_FOLDER)/findings/ with their seed and index; one reproduces
# with `engine-mutation-fuzz run --seed S --only INDEX` or `engine-mutation-fuzz one KIND FILE MOVIE`.
# `make fuzz FUZZ_ENGINE_INPUTS=0` runs the parsers' fuzzers alone.
FUZZ_ENGINE_INPUTS ?= 2000
FUZZ_ENGINE_SEED ?= 1
FUZZ_ENGINE_JOBS ?= 2
FUZZ_ENGINE_TIMEOUT ?= 20
FUZZ_ENGINE_FOLDER := .build/fuzz-engine
# FUZZ_ENGINE_SANITIZE=address: the driver and its children built with AddressSanitizer (into
# .build/fuzz-engine-address; leak check off; Sanitizers/fuzz-engine-asan.supp says why the one
# suppression). Finds memory errors in the engine's Swift and C that do not crash.
FUZZ_ENGINE_SANITIZE ?=
FUZZ_ENGINE_BUILD := $(if $(FUZZ_ENGINE_SANITIZE),--sanitize=$(FUZZ_ENGINE_SANITIZE) --build-path .build/fuzz-engine-$(FUZZ_ENGINE_SANITIZE))
FUZZ_ENGINE_BIN := $(if $(FUZZ_ENGINE_SANITIZE),.build/fuzz-engine-$(FUZZ_ENGINE_SANITIZE),.build)/debug/engine-mutation-fuzz

.PHONY: all deps test-deps bench-deps build release demo test lint format bench leaks soak fuzz fuzz-engine stress tsan asan docs plugins clean

all: build

# Installs the packages that are missing (as root, or through sudo when there is one).
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))

bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

$(SAMPLE): deps
	@mkdir -p $(dir $(SAMPLE))
	gst-launch-1.0 -q videotestsrc num-buffers=150 pattern=smpte ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! \
		timeoverlay font-desc="Sans 24" ! x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! \
		mp4mux name=mux faststart=true ! filesink location=$(SAMPLE) \
		audiotestsrc num-buffers=216 wave=sine ! audioconvert ! avenc_aac ! mux.

# Without SINK, mediaplay's default sink (a window) when a display is reachable, otherwise the
# movie plays in this terminal (the terminal sink): reachable is a WAYLAND_DISPLAY whose socket
# exists, or a DISPLAY whose X server xdpyinfo opens (when xdpyinfo, from x11-utils, is not
# installed, a DISPLAY that is set is taken as reachable).
demo: build $(SAMPLE)
	$(SWIFT) run mediaprobe $(SAMPLE)
	@sink="$(SINK)"; \
	if [ -z "$$sink" ]; then \
		reachable=no; \
		case "$$WAYLAND_DISPLAY" in \
			"") ;; \
			/*) [ -S "$$WAYLAND_DISPLAY" ] && reachable=yes ;; \
			*) [ -S "$${XDG_RUNTIME_DIR:-/nonexistent}/$$WAYLAND_DISPLAY" ] && reachable=yes ;; \
		esac; \
		if [ $$reachable = no ] && [ -n "$$DISPLAY" ]; then \
			if ! command -v xdpyinfo > /dev/null || timeout 5 xdpyinfo > /dev/null 2>&1; then reachable=yes; fi; \
		fi; \
		if [ $$reachable = no ]; then echo "No display reachable: playing in the terminal."; sink=terminal; fi; \
	fi; \
	echo "$(SWIFT) run mediaplay $${sink:+--sink $$sink }$(SAMPLE)"; \
	$(SWIFT) run mediaplay $${sink:+--sink $$sink} $(SAMPLE)

lint:
	$(SWIFT) format lint --strict -r Sources Tests Examples Plugins Benchmarks Fuzz Tools Package.swift

format:
	$(SWIFT) format format -i -r Sources Tests Examples Plugins Benchmarks Fuzz Tools Package.swift

# make test runs the tests in steps, each a parallel `swift test` of its own, so that work that
# loads the two cores does not fall on the timing bounds of another test:
# 1. TestMediaWarmUp makes the test clips (their encoders beside the first timed tests made
#    those fail on a fresh machine);
# 2. the core's tests, but for the suites below, in two halves by suite name (A-O, P-Z): all at
#    once, some 100 players on two cores held a test's task up for 2-3 s at a time on a slow
#    day (a 2 s movie ended before the test read what a source switch posted; controls faded
#    between two clicks), about one run in three;
# 3. TIMED_SUITES: the suites that bound how late a frame or a sound may be (output swaps, rates,
#    time observers, overlays changed while playing, a window destroyed while playing, an audio
#    track switched while playing: heard 0.21 s after the call in 23 runs beside other suites, but
#    0.6 s once in step 2, where the player's thread waits among some 380 tests' threads; and
#    the looping movie paused at its end, three players at once, beside which a bad input's
#    5 s bound and a pre-roll's positions failed once in step 2), and the HTTP source's network
#    bounds (a silent server's deadline of 4 s reported at 6.5 s among step 4's 170 tests);
# 4. the other targets (the HTTP source against servers on loopback, the examples as processes);
# 4b. the pre-roll ads and the sink plugins (more servers and processes on loopback: run beside
#     step 4, their timing bounds did not hold on 2 cores);
# 4c. SWAP_KIT_TESTS: the sink conformance kit, on its own (13 s). Beside step 4 on a slow day,
#     its live swap into the window sink failed about one run in three: a known race in the
#     swap (swap.c), not yet fixed. The scaler's output pad can be idle while the scaler is
#     still transforming a buffer in the old output's format (I420 for a frames sink); relinked
#     then, the scaler pushes that buffer, with its old caps, to ximagesink, which refuses
#     them: not-negotiated, playback stops (GST_DEBUG: ximagesink's sink pad got the old caps
#     from the streaming thread 90 ms after the relink). An idle probe on the scaler's input
#     instead broke every live swap back at the movie's end; the fix is still to be found.
# 5. HEAVY_SUITES: the core's suites that load the CPU for seconds on purpose (hostile subtitle
#    files, huge pictures, full disks), and the closed-caption movies (four more players in
#    step 2 made the audio tests' events late: TrackTests and VolumeTests failed about one run
#    in three of that step).
# 6. WORKAROUND_TESTS: each GStreamer workaround's bug with the workaround forced off and fixed
#    with it on, every scenario in two child processes (engine-workaround-check), four children
#    at a time; five of them deadlock when off and wait out their 5 s watchdog. 12-17 s, both
#    cores busy: on its own, after the rest, so that it delays no other step's frames.
# 7. SYNC_TESTS: playback groups in processes (a leader and followers, each a player of its own,
#    about 20 s), whose frames' spread across processes is bounded: run in step 4 beside the
#    servers and examples, its 95th percentile was 13.6 ms (bound 10 ms), and its five processes
#    pushed NetworkBoundsTests' 503 deadline to 4.3 s (bound 4 s). On its own, last.
TIMED_SUITES := OutputSwapTests|RateTests|TimeObserverTests|OverlayCompositingTests|WindowErrorTests|TrackTests|RepeatAndRangeTests|TeardownIsolationTests|NetworkBoundsTests
HEAVY_SUITES := SubtitleBoundsTests|BoundedResourceTests|ImageWriteFailureTests|ClosedCaptionTests
LATER_TARGETS := PrerollAdSourceTests|TerminalVideoSinkTests|NetworkVideoSinkTests
WORKAROUND_TESTS := WorkaroundReproductionTests
SWAP_KIT_TESTS := SinkConformanceTests
SYNC_TESTS := PlaybackSyncTests
STEP := Tools/test-step
TEST_STEPS = $(STEP) $(SWIFT) test --skip-build --filter TestMediaWarmUp && \
	$(STEP) $(SWIFT) test --skip-build --filter '^MediaEngineTests\.[A-O]' --skip '$(TIMED_SUITES)|$(HEAVY_SUITES)|TestMediaWarmUp' && \
	$(STEP) $(SWIFT) test --skip-build --filter '^MediaEngineTests\.[P-Z]' --skip '$(TIMED_SUITES)|$(HEAVY_SUITES)|TestMediaWarmUp' && \
	$(STEP) $(SWIFT) test --skip-build --filter '$(TIMED_SUITES)' && \
	$(STEP) $(SWIFT) test --skip-build --skip '^(MediaEngineTests|$(LATER_TARGETS)|$(SWAP_KIT_TESTS)|$(WORKAROUND_TESTS)|$(SYNC_TESTS))\.|NetworkBoundsTests' && \
	$(STEP) $(SWIFT) test --skip-build --filter '^($(LATER_TARGETS))\.' && \
	$(STEP) $(SWIFT) test --skip-build --filter '^$(SWAP_KIT_TESTS)\.' && \
	$(STEP) $(SWIFT) test --skip-build --filter '$(HEAVY_SUITES)' && \
	$(STEP) $(SWIFT) test --skip-build --filter '^$(WORKAROUND_TESTS)\.' && \
	$(STEP) $(SWIFT) test --skip-build --filter '^$(SYNC_TESTS)\.'
# SWIFT_BACKTRACE=unwind=precise: a crash inside a C library built without frame pointers
# (libsoup, seen once in CI) is unwound with its DWARF tables, so the report shows who called it.
test: test-deps lint
	$(SWIFT) build --build-tests
	export SWIFT_BACKTRACE=unwind=precise && $(TEST_STEPS)

# The barcode sink plugin (Examples/custom-sink) as a shared library in .build/plugins, for
# `swift run mediaplay --plugin-dir .build/plugins --sink barcode:file=OUT.png MOVIE`.
plugins: build
	Examples/custom-sink/build-plugin.sh .build/plugins .build/debug

bench: bench-deps
	$(SWIFT) build -c release --product engine-bench
	$(SWIFT) build -c release --product gstmediaengine  # the qos benchmark loads it into gst-launch-1.0
	$(SWIFT) build -c release --product engine-sync-member  # the sync benchmark's members
	.build/release/engine-bench $(BENCH_ARGS)

# Sanitizers: the whole suite, the examples and engine-leak-check it runs included, built with
# ThreadSanitizer (tsan) or AddressSanitizer (asan) into a build folder of their own. Both fail
# on any report. The suite's deadlines and time bounds are multiplied by SANITIZER_TIME_SCALE
# (MEDIA_ENGINE_TEST_TIME_SCALE, read by Tests/MediaTestSupport/Deadline.swift): everything runs
# several times slower. TSan's suppressions (none needed today, and why) are in
# Sanitizers/tsan.supp.
#   tsan: GLib's locks are annotated for TSan by Sources/CMediaEngineTSan/tsan.c (compiled only in
#         this build); G_SLICE=always-malloc, or GLib 2.74 recycles GObjects' and buffers'
#         memory without free(), and TSan would take a slice's new owner for racing its old one.
#         The test servers' own tests (HTTPTestServerTests: nginx, openssl and the fault
#         injector, no engine code) are skipped: in most runs the TSan runtime itself dies in
#         them ("CHECK failed: tsan_interceptors_posix.cpp:2184 ((thr->slot)) != (0)", or a SEGV
#         in its handler), a signal (most likely the child processes' SIGCHLD) reaching a thread that is
#         freeing its TLS on exit: google/sanitizers#1541, open. Seen on the code of 2026-11-30
#         too (b0901c3). The servers still run under TSan in every network test.
#         Also skipped under TSan: mediaplay's window-sink keys test, whose mediaplay (built with
#         TSan) dies at exit in GStreamer's ximagesink closing its X display (a NULL mutex in
#         libXext's XextRemoveDisplay, under libXi's close hook), 3 runs of 3 alone, never without
#         TSan (make test, make stress); not understood, RELIABILITY.md.
#   asan: no leak check at exit (detect_leaks=0): it reports XCTest's own objects and a 16 KB
#         buffer GLib allocates once per process, with stacks that end in g_malloc (GLib has no
#         frame pointers), so an engine leak could not be told from them; `make leaks` checks
#         the engine's GStreamer objects instead.
#   both: the GStreamer plugin's tests are skipped: a plugin built with a sanitizer cannot be
#         loaded by gst-inspect-1.0 and gst-launch-1.0, which are not ("undefined symbol:
#         __tsan_func_entry").
#         The tests run one at a time (SANITIZER_TEST_FLAGS; `make tsan
#         SANITIZER_TEST_FLAGS=--parallel` runs them in parallel). In parallel, tests lose
#         seconds at a time (not pinned down; likely the CPU going to the instrumented child
#         processes some tests run, engine-leak-check's stress and the examples, on 2 cores):
#         2-second clips ended before the tests
#         looked at them (three tests failing within 0.3 s of each other under ASan), and in each
#         of five parallel TSan runs the sound stopped for 0.7-12 s in 'the sound plays on
#         without a break while the video moves between sinks', which passes alone and serially.
#         Deadlines scale; a clip's length does not.
#         SWIFT_BACKTRACE=enable=no: Swift's crash backtracer reads memory the sanitizers guard,
#         and under ASan it hung the run after a test's fatal error instead of ending it.
SANITIZER_TIME_SCALE ?= 4
SANITIZER_TEST_FLAGS ?= --no-parallel
SANITIZER_ENV := MEDIA_ENGINE_TEST_TIME_SCALE=$(SANITIZER_TIME_SCALE) SWIFT_BACKTRACE=enable=no

tsan: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	$(SANITIZER_ENV) G_SLICE=always-malloc TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$(CURDIR)/Sanitizers/tsan.supp" \
		$(SWIFT) test --skip-build --sanitize=thread --build-path .build/tsan $(SANITIZER_TEST_FLAGS) \
		--skip 'HTTPTestServerTests|GStreamerPluginTests|MediaplayKeysTests/window\('

asan: test-deps
	$(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	$(SANITIZER_ENV) ASAN_OPTIONS="detect_leaks=0" \
		$(SWIFT) test --skip-build --sanitize=address --build-path .build/asan $(SANITIZER_TEST_FLAGS) \
		--skip GStreamerPluginTests

STRESS_PLAYERS ?= 50
STRESS_SEED ?= 1
STRESS_RUNS ?= 10
STRESS_WEBM := .build/sample/stress.webm

$(STRESS_WEBM): deps
	@mkdir -p $(dir $(STRESS_WEBM))
	gst-launch-1.0 -q videotestsrc num-buffers=60 pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 ! \
		vp8enc deadline=1 ! webmmux ! filesink location=$(STRESS_WEBM)

# One core kept busy by `yes` throughout. The player stress fails on any hung command, any
# descriptor or player/bus thread left behind (after GLib's idle streaming threads have timed
# out, 16 s); the suite must pass every run.
stress: test-deps $(SAMPLE) $(STRESS_WEBM)
	$(SWIFT) build --build-tests
	@yes > /dev/null & busy=$$!; trap "kill $$busy" EXIT; \
	STRESS_SETTLE_SECONDS=16 .build/debug/engine-leak-check stress $(STRESS_PLAYERS) $(STRESS_SEED) $(SAMPLE) \
		$(STRESS_WEBM) > .build/stress.log || exit 1; \
	summary=$$(tail -1 .build/stress.log); echo "$$summary"; \
	echo "$$summary" | grep -q '"hung":0,' || { echo "stress: a command hung"; exit 1; }; \
	echo "$$summary" | grep -q '"newDescriptors":\[\]' || { echo "stress: descriptors left open"; exit 1; }; \
	echo "$$summary" | grep -q '"busThreads":0,' || { echo "stress: bus threads left"; exit 1; }; \
	passed=0; for run in $$(seq 1 $(STRESS_RUNS)); do \
		if ( $(TEST_STEPS) ) > .build/stress-run-$$run.log 2>&1; then passed=$$((passed + 1)); \
		else echo "run $$run failed: .build/stress-run-$$run.log"; grep "✘ Test" .build/stress-run-$$run.log | head -5; fi; \
	done; echo "stress: $$passed passed, $$(($(STRESS_RUNS) - passed)) failed"; [ $$passed -eq $(STRESS_RUNS) ]

leaks: build $(SAMPLE)
	$(SWIFT) build --product engine-leak-check
	GST_TRACERS=leaks GST_DEBUG=GST_TRACER:7 GST_DEBUG_NO_COLOR=1 .build/debug/engine-leak-check cycles 10 $(SAMPLE) \
		2> .build/leaks.log; status=$$?; echo "GStreamer leak tracer log: .build/leaks.log"; \
		if grep "object-alive, type-name=(string)" .build/leaks.log | grep -v "%s"; then exit 1; fi; \
		exit $$status

# Soak: SOAK_CYCLES players (after SOAK_SETTLE that fill malloc's arenas and GStreamer's caches),
# each prepared, played, its output swapped, overlays added and one removed, sought, stopped and
# released, in one process under GStreamer's leak tracer. Fails when a GstObject outlives them, a
# descriptor, bus thread or any other thread is left, or resident memory grew by more than
# SOAK_MAX_GROWTH_KB. The process runs as the README tells a long-lived app to run on glibc
# (SOAK_MALLOC: a fixed mmap threshold). With glibc's defaults (`make soak SOAK_MALLOC=`), the
# arenas keep free tops of up to twice the largest block freed so far (libavcodec's 0.5-1 MB):
# the resident figure then lands anywhere in a band of several megabytes from run to run while
# malloc's live data stays flat; the summary shows both (BENCHMARKS.md, "Soak").
SOAK_CYCLES ?= 500
SOAK_SETTLE ?= 50
SOAK_MAX_GROWTH_KB ?= 5120
SOAK_MALLOC ?= MALLOC_MMAP_THRESHOLD_=262144
soak: build $(SAMPLE)
	$(SWIFT) build --product engine-leak-check
	$(SOAK_MALLOC) GST_TRACERS=leaks GST_DEBUG=GST_TRACER:7 GST_DEBUG_NO_COLOR=1 .build/debug/engine-leak-check soak \
		$(SOAK_CYCLES) $(SOAK_SETTLE) $(SAMPLE) 2> .build/soak-leaks.log > .build/soak.log || exit 1; \
	summary=$$(tail -1 .build/soak.log); echo "$$summary"; \
	if grep "object-alive, type-name=(string)" .build/soak-leaks.log | grep -v "%s"; then echo "soak: objects left alive"; exit 1; fi; \
	echo "$$summary" | grep -q '"busThreads":0,' || { echo "soak: bus threads left"; exit 1; }; \
	field() { echo "$$summary" | sed "s/.*\"$$1\":\(-*[0-9]*\).*/\1/"; }; \
	[ "$$(field fdsBefore)" = "$$(field fdsAfter)" ] || { echo "soak: $$(field fdsBefore) descriptors before, $$(field fdsAfter) after"; exit 1; }; \
	[ "$$(field threadsAfter)" -le "$$(field threadsBefore)" ] || { echo "soak: $$(field threadsBefore) threads before, $$(field threadsAfter) after"; exit 1; }; \
	growth=$$(field growthKB); \
	[ "$$growth" -le $(SOAK_MAX_GROWTH_KB) ] || { echo "soak: resident memory grew by $$growth KB (goal: at most $(SOAK_MAX_GROWTH_KB))"; exit 1; }; \
	echo "soak: passed, resident growth $$growth KB, malloc's live data $$(field mallocInUseKBBefore) to $$(field mallocInUseKBAfter) KB"

# Each fuzzer starts from the seeds (valid movies, subtitles, sink specs, VAST documents, playlists
# and manifests, ID3 frames and PMTs) and the kept regressions,
# with a fresh corpus so a run with the same FUZZ_SEED repeats; findings (crashes, timeouts over
# 5 s, more than 2 GB, leaks) go to $(FUZZ_BUILD)/crashes/Fuzz<Parser>/, emptied at each run, and
# fail the target after every parser has had its turn. Leaks are checked per input by libFuzzer,
# for every parser (the XML ones too, since they call libxml2 directly instead of FoundationXML,
# which leaked about 400 bytes per malformed document); the check at exit is off, as it reports
# 16 KB GLib's constructor allocates once GStreamer is initialized (by the sink-options fuzzer),
# whatever the inputs. SWIFT_BACKTRACE=enable=no: Swift's
# crash backtracer reads memory AddressSanitizer guards, and turned every trap into an ASan
# report of its own (heap-buffer-overflow in memserver_read).
fuzz: deps
	for parser in $(FUZZ_PARSERS); do $(SWIFT) build $(FUZZ_BUILD_FLAGS) --product Fuzz$$parser || exit 1; done
	Fuzz/make-seeds.sh $(FUZZ_BUILD)/seeds
	@status=0; for parser in $(FUZZ_PARSERS); do \
		target=Fuzz$$parser; corpus=$(FUZZ_BUILD)/corpus/$$target; crashes=$(FUZZ_BUILD)/crashes/$$target; \
		kept=$$(ls -d $(FUZZ_REGRESSIONS)/$$parser 2>/dev/null); \
		rm -rf $$corpus $$crashes; mkdir -p $$corpus $$crashes; \
		echo "== $$target: $(FUZZ_SECONDS) s, seed $(FUZZ_SEED), log $(FUZZ_BUILD)/$$target.log"; \
		SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=leak_check_at_exit=0 \
			$(FUZZ_BUILD)/release/$$target $$corpus $(FUZZ_BUILD)/seeds/$$parser $$kept \
			-max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=5 -rss_limit_mb=2048 -detect_leaks=1 \
			-artifact_prefix=$$crashes/ -print_final_stats=1 > $(FUZZ_BUILD)/$$target.log 2>&1 || status=1; \
		grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)" $(FUZZ_BUILD)/$$target.log; \
		echo "corpus: $$(ls $$corpus | wc -l) inputs kept; findings: $$(ls $$crashes | wc -l) in $$crashes"; \
		if [ -n "$$(ls $$crashes)" ]; then status=1; fi; \
	done; if [ "$(FUZZ_ENGINE_INPUTS)" != 0 ]; then $(MAKE) fuzz-engine || status=1; fi; exit $$status

fuzz-engine: deps
	$(SWIFT) build --product engine-mutation-fuzz $(FUZZ_ENGINE_BUILD)
	@mkdir -p $(FUZZ_ENGINE_FOLDER)
	ASAN_OPTIONS=detect_leaks=0:suppressions=$(CURDIR)/Sanitizers/fuzz-engine-asan.supp \
		$(FUZZ_ENGINE_BIN) run --inputs $(FUZZ_ENGINE_INPUTS) --seed $(FUZZ_ENGINE_SEED) \
		--jobs $(FUZZ_ENGINE_JOBS) --timeout $(FUZZ_ENGINE_TIMEOUT) --folder $(FUZZ_ENGINE_FOLDER) \
		| tee $(FUZZ_ENGINE_FOLDER)/run.log; exit $${PIPESTATUS[0]}

# Documentation: a DocC archive per public module in $(DOCS_OUTPUT)/<Module>.doccarchive, made by
# the toolchain's own docc (no package plugin). The modules are built in a build folder of their own
# (DOCS_BUILD, so .build/debug is not rebuilt with other flags), the compiler writing each one's
# public symbols as symbol graphs; then docc converts each module. A module's graphs are written
# when it compiles (not when it is up to date), so they are kept between runs. docc's warnings are
# errors (a symbol link that leads nowhere, say). Documentation is checked in two places:
# swift-format's AllPublicDeclarationsHaveDocumentation (`make lint`, part of `make test`) lists
# each declaration written `public` without a `///` comment, file:line; what it cannot see, as it
# reads one declaration's syntax, docc's coverage of each module does (DOCS_UNDOCUMENTED below):
# protocol requirements (no `public` of their own), enum cases, `open` declarations, associated
# types, and comments whose summary renders empty (`/// 0.` is an empty numbered list). The
# target fails, naming each such symbol by its documentation path. Links from one module's
# comments to another's symbols are not resolved by docc 6.3's --dependency (its leading-slash
# links say "Can't resolve"), so those name the symbol in code voice (`MediaError.Code.x`) instead
# of linking it; extension blocks are emitted so that an extension of another module's type
# (FileSource's MoviePlayer.contentURL) has a page. A module's guide, its articles and landing page,
# is a DocC catalogue in its source folder (Sources/<Module>/<Module>.docc, or under Plugins/), given
# to docc as its first argument when there is one; SwiftPM leaves .docc folders out of the build by
# itself. Links inside one catalogue and module (``Symbol``, <doc:Article>) must resolve, like the
# comments' own. From nothing about a minute of CPU (2 min 20 s on two cores busy with other
# builds); 20-30 s when little changed.
DOCS_MODULES := MediaEngineCore FileSource HTTPStreamSource PrerollAdSource PlaybackSync TerminalVideoSink NetworkVideoSink MediaEngineTesting
DOCS_BUILD := .build/docs-build
DOCS_CATALOG_FOLDERS := Sources Plugins
DOCS_GRAPHS := $(DOCS_BUILD)/symbol-graphs
DOCS_OUTPUT := .build/docs
DOCS_BUILD_FLAGS := --build-path $(DOCS_BUILD) -Xswiftc -emit-symbol-graph \
	-Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS_GRAPHS) \
	-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -symbol-graph-skip-synthesized-members \
	-Xswiftc -emit-extension-block-symbols
DOCC ?= docc
# The rows of docc's detailed coverage table (`--coverage-summary-level detailed`: name | kind |
# abstract? | curated? | ... | path) of symbols with no summary. Not symbols of ours: the module,
# articles, groups, extension blocks of other modules' types (their members are rows of their own)
# and the compiler's init(rawValue:) of an enum with raw values (one written by hand is `public`,
# so swift-format checks it).
DOCS_UNDOCUMENTED = awk -F'|' '{ for (i = 1; i <= NF; i++) gsub(/^ +| +$$/, "", $$i) } \
	$$3 == "false" && $$2 !~ /^(Module|Article|CollectionGroup|Extended )/ && $$1 != "init(rawValue:)" \
	{ sub(/^doc:[/][/][^/]*[/]documentation[/]/, "", $$NF); print "  " $$NF " (" $$2 ")" }'

docs: deps
	@command -v $(DOCC) > /dev/null || { echo "docs: no $(DOCC) (it comes with the Swift toolchain, beside swift)"; exit 1; }
	@mkdir -p $(DOCS_GRAPHS) $(DOCS_OUTPUT)
	for module in $(DOCS_MODULES); do $(SWIFT) build $(DOCS_BUILD_FLAGS) --target $$module || exit 1; done
	@# Each module's graphs from its last compile, by module (docc documents every module it is
	@# given): a graph of extensions (Module@Other) written more than a minute before the module's
	@# own is from an older compile, its extensions since removed.
	@rm -rf $(DOCS_BUILD)/graphs $(DOCS_BUILD)/coverage; mkdir -p $(DOCS_BUILD)/graphs $(DOCS_BUILD)/coverage; \
	for module in $(DOCS_MODULES); do \
		main=$(DOCS_GRAPHS)/$$module.symbols.json; mkdir -p $(DOCS_BUILD)/graphs/$$module; \
		[ -e $$main ] || { echo "docs: no $$main: rm -rf $(DOCS_BUILD) and run make docs again"; exit 1; }; \
		since=$$(( $$(stat -c %Y $$main) - 60 )); \
		for file in $$main $(DOCS_GRAPHS)/$$module@*.symbols.json; do \
			if [ -e "$$file" ] && [ $$(stat -c %Y "$$file") -ge $$since ]; then \
				cp "$$file" $(DOCS_BUILD)/graphs/$$module/ || exit 1; \
			fi; \
		done; \
	done
	@for module in $(DOCS_MODULES); do \
		archive=$(DOCS_OUTPUT)/$$module.doccarchive; rm -rf $$archive; \
		catalog=; for dir in $(DOCS_CATALOG_FOLDERS); do \
			if [ -d $$dir/$$module/$$module.docc ]; then catalog=$$dir/$$module/$$module.docc; fi; \
		done; \
		echo "docc convert $$module $${catalog:+($$catalog) }-> $$archive"; \
		$(DOCC) convert $$catalog --additional-symbol-graph-dir $(DOCS_BUILD)/graphs/$$module --fallback-display-name $$module \
			--fallback-bundle-identifier org.swift-media-engine.$$module --warnings-as-errors \
			--experimental-documentation-coverage --coverage-summary-level detailed \
			--output-path $$archive > $(DOCS_BUILD)/coverage/$$module.txt || exit 1; \
		undocumented=$$($(DOCS_UNDOCUMENTED) $(DOCS_BUILD)/coverage/$$module.txt); \
		if [ -n "$$undocumented" ]; then \
			echo "docs: $$module: symbols without a doc comment, or whose summary renders empty:"; \
			echo "$$undocumented"; failed=yes; \
		fi; \
	done; [ -z "$$failed" ]
	@echo "Documentation: $(DOCS_OUTPUT)/<Module>.doccarchive for $(DOCS_MODULES)"

clean:
	$(SWIFT) package clean
	rm -rf .build/sample
