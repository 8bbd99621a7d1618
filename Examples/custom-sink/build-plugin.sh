#!/bin/sh
# Builds the barcode sink plugin as a shared library: build-plugin.sh OUT_DIR [BUILD_DIR] [SWIFTC_FLAGS...]
#
# The plugin is compiled against the engine's MediaEngineCore module (and the C modules it imports,
# found as SwiftPM left them in BUILD_DIR, default .build/debug) but does not link it: the host
# (mediaplay, linked with --export-dynamic) provides the engine's symbols, so plugin and host
# share one engine. Build the host first (swift build) with the same configuration.
set -eu
out=${1:?usage: build-plugin.sh OUT_DIR [BUILD_DIR] [SWIFTC_FLAGS...]}
build=${2:-.build/debug}
[ $# -ge 2 ] && shift 2 || shift 1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
cflags=$(pkg-config --cflags gstreamer-pbutils-1.0 gstreamer-app-1.0 | tr ' ' '\n' | grep '^-I' | sed 's/^/-Xcc /' | tr '\n' ' ')
# The engine's C modules (Sources/CMediaEngine*), which MediaEngineCore imports internally: their
# module maps as SwiftPM generated them, and their headers.
modules=""
for target in "$root"/Sources/CMediaEngine*; do
    name=$(basename "$target")
    [ -f "$build/$name.build/module.modulemap" ] && modules="$modules -Xcc -fmodule-map-file=$build/$name.build/module.modulemap"
    [ -d "$target/include" ] && modules="$modules -Xcc -I$target/include"
done
# shellcheck disable=SC2086
swiftc -emit-library -parse-as-library -module-name BarcodeSink -swift-version 6 \
    -I "$build/Modules" -I "$root/Sources/CMediaEngineCGStreamer" -I "$root/Sources/CMediaEngineCYUV" \
    $modules $cflags "$@" "$here/BarcodeSink.swift" -o "$out/libbarcode-sink.so"
