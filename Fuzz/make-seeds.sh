#!/bin/bash
# Writes the fuzzers' seed corpora under $1 (one folder per parser): valid inputs each parser
# accepts, so libFuzzer starts from real structure. Movies are tiny (64x48, 5 frames) so the
# mutations land in the headers. Movies already made are kept.
set -euo pipefail
out=${1:?usage: make-seeds.sh FOLDER}
mkdir -p "$out/ContainerInspector" "$out/Subtitles" "$out/SinkOptions"

movie() { # movie NAME MUXER...: five frames of bars into NAME
    local file="$out/ContainerInspector/$1"
    shift
    [ -s "$file" ] && return
    gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte ! \
        video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "$@" ! filesink location="$file"
}
movie fast-start.mp4 x264enc speed-preset=ultrafast ! h264parse ! mp4mux faststart=true
movie moov-at-end.mp4 x264enc speed-preset=ultrafast ! h264parse ! mp4mux
movie fragmented.mp4 x264enc speed-preset=ultrafast ! h264parse ! mp4mux fragment-duration=50
movie bars.webm vp8enc deadline=1 ! webmmux
movie live.webm vp8enc deadline=1 ! webmmux streamable=true
movie bars.mkv x264enc speed-preset=ultrafast ! h264parse ! matroskamux
# Cut short: what the inspector is for.
for name in fast-start.mp4 moov-at-end.mp4 bars.webm; do
    file="$out/ContainerInspector/$name"
    head -c $(($(stat -c %s "$file") / 2)) "$file" > "$out/ContainerInspector/half-$name"
done

cd "$out/Subtitles"
printf '1\n00:00:01,000 --> 00:00:02,500\nHello <i>world</i>\n\n2\n00:00:03,000 --> 00:00:04,000\nA &amp; B &lt;3\nline two\n' > plain.srt
printf '\xef\xbb\xbf1\r\n00:00:00,500 --> 00:00:01,000\r\nBOM and CRLF\r\n\r\n2\r\n01:02:03,004 --> 01:02:04,005\r\n<b>bold</b>\r\n' > bom-crlf.srt
printf 'WEBVTT - a title\n\nNOTE a comment\nover two lines\n\nSTYLE\n::cue { color: red }\n\ncue-1\n00:01.000 --> 00:02.000 align:start line:0\n<v Ann>Hi</v> &nbsp;there\n\n00:00:03.000 --> 00:00:04.500\n<c.red>red</c>\n' > cues.vtt
printf 'WEBVTT\n\nREGION\nid:r\n\n00:00.000 --> 00:00.001\nshort\n\n2562046:59:58.000 --> 2562046:59:59.999\nlate\n' > edges.vtt

cd ../SinkOptions
printf 'images:folder=/tmp,every=10' > images-every
printf 'images:times=1,2.5;4 5,format=jpeg,quality=90,width=320,height=240' > images-times
printf 'images:folder=/tmp/%%s%%n,times=0,format=png' > images-printf
printf 'frames:format=rgba,sync=false,width=64,height=48' > frames
printf 'frames:format=i420,sync=on' > frames-i420
printf 'null:sync=no' > null
printf 'null' > name-only
