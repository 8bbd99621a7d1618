#!/bin/bash
# Writes the fuzzers' seed corpora under $1 (one folder per parser): valid inputs each parser
# accepts, so libFuzzer starts from real structure. Movies are tiny (64x48, 5 frames) so the
# mutations land in the headers. Movies already made are kept. VAST documents, HLS playlists,
# DASH manifests, ID3 frames and a PMT are written here; the PMT's CRC by python3.
set -euo pipefail
out=${1:?usage: make-seeds.sh FOLDER}
mkdir -p "$out/ContainerInspector" "$out/Subtitles" "$out/SinkOptions" "$out/VAST" "$out/Manifests" "$out/TimedMetadata" \
    "$out/Captions"

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

cd ../VAST
cat > inline.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<VAST version="3.0">
  <Error><![CDATA[http://ads.example/error?code=[ERRORCODE]&t=[TIMESTAMP]]]></Error>
  <Ad id="a1">
    <InLine>
      <AdSystem>fuzz</AdSystem><AdTitle>Bars</AdTitle>
      <Impression><![CDATA[http://ads.example/imp?cb=[CACHEBUSTING]&asset=[ASSETURI]]]></Impression>
      <Creatives>
        <Creative id="c1" sequence="1" adId="x">
          <Linear skipoffset="00:00:05.250">
            <Duration>00:00:15.000</Duration>
            <TrackingEvents>
              <Tracking event="start">http://ads.example/start?p=[ADPLAYHEAD]</Tracking>
              <Tracking event="progress" offset="25%">http://ads.example/p25</Tracking>
              <Tracking event="progress" offset="00:00:10.5">http://ads.example/p10?c=[CONTENTPLAYHEAD]</Tracking>
              <Tracking event="complete">http://ads.example/complete</Tracking>
            </TrackingEvents>
            <VideoClicks>
              <ClickThrough>http://advertiser.example/</ClickThrough>
              <ClickTracking>http://ads.example/click?[UNKNOWN]&amp;x=%zz</ClickTracking>
            </VideoClicks>
            <MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="2000">http://cdn.example/ad-720.mp4</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4; codecs=&quot;avc1&quot;" width="640" height="360" minBitrate="400" maxBitrate="900">http://cdn.example/ad-360.mp4</MediaFile>
              <MediaFile delivery="streaming" type="application/x-mpegURL">http://cdn.example/ad.m3u8</MediaFile>
              <MediaFile type="video/webm" width="320" height="180">file:///tmp/ad.webm</MediaFile>
            </MediaFiles>
          </Linear>
        </Creative>
        <Creative><CompanionAds/></Creative>
      </Creatives>
    </InLine>
  </Ad>
</VAST>
XML
cat > wrapper.xml <<'XML'
<VAST version="2.0">
  <Ad id="w1" sequence="1">
    <Wrapper followAdditionalWrappers="false" allowMultipleAds="1" fallbackOnNoAd="true">
      <AdSystem>wrapper</AdSystem>
      <VASTAdTagURI><![CDATA[ ../next/tag.xml?a=[CACHEBUSTING] ]]></VASTAdTagURI>
      <Impression>http://wrap.example/imp</Impression>
      <Error>http://wrap.example/err?e=[ERRORCODE]</Error>
      <Creatives><Creative><Linear><TrackingEvents>
        <Tracking event="firstQuartile">http://wrap.example/q1</Tracking>
        <Tracking event="progress" offset="99.5%">http://wrap.example/late</Tracking>
      </TrackingEvents><VideoClicks><ClickTracking>http://wrap.example/click</ClickTracking></VideoClicks></Linear></Creative></Creatives>
    </Wrapper>
  </Ad>
  <Ad id="i2" sequence="2">
    <InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>https://[::1]:8080/imp</Impression>
      <Creatives><Creative><Linear skipoffset="10%"><Duration>00:00:30</Duration>
        <MediaFiles><MediaFile type="video/mp4" bitrate="500" width="160" height="120"> http://cdn.example/a.mp4 </MediaFile></MediaFiles>
      </Linear></Creative></Creatives></InLine>
  </Ad>
  <Ad id="fallback"><InLine><Creatives><Creative><Linear><Duration>01:00:00.1234</Duration><MediaFiles>
    <MediaFile type="video/webm" delivery="progressive">https://cdn.example/b.webm</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>
</VAST>
XML
cat > vast4-namespaced.xml <<'XML'
<?xml version="1.0"?>
<v:VAST xmlns:v="http://www.iab.com/VAST" version="4.2">
  <v:Ad><v:Wrapper><v:VASTAdTagURI>http://ads.example/vast4.xml</v:VASTAdTagURI></v:Wrapper></v:Ad>
  <v:Ad sequence="3"><v:InLine><v:Creatives><v:Creative><v:Linear>
    <v:Duration>00:00:06</v:Duration>
    <v:MediaFiles><v:Mezzanine>http://cdn.example/mezz.mp4</v:Mezzanine>
      <v:MediaFile type="video/mp4" width="1920" height="1080" bitrate="8000">http://cdn.example/1080.mp4</v:MediaFile>
    </v:MediaFiles></v:Linear></v:Creative></v:Creatives></v:InLine></v:Ad>
</v:VAST>
XML
printf '<VAST version="3.0"><Error>http://ads.example/noad?e=[ERRORCODE]</Error></VAST>' > no-ad.xml
# What libxml2 is asked to refuse or convert (MediaEngineXML): a DTD with an external entity, an
# entity expansion, processing instructions, a document in ISO-8859-1 and one in UTF-16.
printf '<?xml version="1.0"?>\n<!DOCTYPE VAST [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<VAST version="3.0"><Error>&e;</Error></VAST>' > dtd-external-entity.xml
printf '<!DOCTYPE VAST [<!ENTITY a "aa"><!ENTITY b "&a;&a;&a;&a;">]><VAST version="3.0"><Error>&b;</Error></VAST>' > dtd-expansion.xml
printf '<?pi?><VAST version="3.0"><?pi data?><Ad id="a"><InLine><AdTitle>t<?pi?></AdTitle></InLine></Ad></VAST>' > processing-instructions.xml
printf '<?xml version="1.0" encoding="ISO-8859-1"?><VAST version="3.0"><Ad id="caf\xe9"><InLine/></Ad></VAST>' > latin1.xml
printf '\xff\xfe<\0V\0A\0S\0T\0 \0v\0e\0r\0s\0i\0o\0n\0=\0"\0\x33\0"\0/\0>\0' > utf16.xml

cd ../Manifests
cat > master.m3u8 <<'M3U8'
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x240,CODECS="avc1.42e01e,mp4a.40.2"
low/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x480
http://stream.example/high/index.m3u8
M3U8
cat > media.m3u8 <<'M3U8'
#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXTINF:2.000,
segment00000.ts
#EXTINF:2.000,
segment00001.ts
#EXT-X-ENDLIST
M3U8
cat > template.mpd <<'MPD'
<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S" minBufferTime="PT2S">
  <BaseURL>http://stream.example/dash/</BaseURL>
  <Period>
    <AdaptationSet mimeType="video/mp4" segmentAlignment="true">
      <SegmentTemplate media="video_$RepresentationID$/seg-$Number%05d$.m4s" initialization="video_$RepresentationID$/init.mp4" startNumber="1" duration="2" timescale="1"/>
      <Representation id="low" bandwidth="300000" width="320" height="240"/>
      <Representation id="high" bandwidth="900000" width="640" height="480"><BaseURL>hi/</BaseURL></Representation>
    </AdaptationSet>
    <AdaptationSet contentType="audio"><Representation id="a" bandwidth="64000"><SegmentTemplate media="a/$Time$-$Bandwidth$.m4s"/></Representation></AdaptationSet>
  </Period>
</MPD>
MPD
cat > list.mpd <<'MPD'
<MPD><Period><AdaptationSet contentType="video">
  <Representation id="v1" bandwidth="1000"><SegmentList><SegmentURL media="v1/1.m4s"/><SegmentURL media="v1/2.m4s"/></SegmentList></Representation>
  <Representation id="v2" bandwidth="2000"><BaseURL>/abs/v2.mp4</BaseURL></Representation>
  <Representation id="v3" bandwidth="x"><SegmentTemplate media="$$v3$$/$Number$$Time$.m4s"/></Representation>
</AdaptationSet></Period></MPD>
MPD
printf '<?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY b "v/">]><MPD><Period><AdaptationSet contentType="video"><Representation id="v" bandwidth="1"><BaseURL>&b;</BaseURL></Representation></AdaptationSet></Period></MPD>' > dtd.mpd
printf '<MPD><?pi?><Period><!-- c --><AdaptationSet contentType="video"><Representation id="v" bandwidth="1"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>' > processing-instructions.mpd

cd ../TimedMetadata
# ID3v2.4 TXXX (UTF-8, description and value), v2.3 TIT2 in UTF-16 with a byte order mark,
# v2.4 with grouping, data length and unsynchronisation flags, v2.2 TT2, a PRIV frame.
printf 'TXXX\x00\x00\x00\x0f\x00\x00\x03com.apple\x00value' > txxx-v4
printf 'TIT2\x00\x00\x00\x09\x00\x00\x01\xff\xfeH\x00i\x00\x00\x00' > tit2-utf16-v3
printf 'TXXX\x00\x00\x00\x10\x00\x43\x07\x00\x00\x00\x08\x00k\x00\xff\x00v' > txxx-flags-v4
printf 'TT2\x00\x00\x05\x00abc\x00' > tt2-v2
printf 'PRIV\x00\x00\x00\x08\x00\x00owner\x00\x01\x02' > priv
python3 - <<'PY'
def crc32(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc
def pmt(metadata_type, descriptors):
    section = [0x02, 0, 0, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00]
    section += [0x1B, 0xE1, 0x00, 0xF0, 0x00]
    section += [metadata_type, 0xE1, 0xF0, 0xF0, len(descriptors)] + descriptors
    length = len(section) - 3 + 4
    section[1] = 0xB0 | (length >> 8)
    section[2] = length & 0xFF
    crc = crc32(section)
    section += [crc >> 24, (crc >> 16) & 0xFF, (crc >> 8) & 0xFF, crc & 0xFF]
    packet = [0x47, 0x50, 0x00, 0x10, 0x00] + section
    return bytes(packet + [0xFF] * (188 - len(packet)))
id3 = [0x26, 13, 0xFF, 0xFF] + list(b"ID3 ") + [0xFF] + list(b"ID3 ") + [0, 0x0F]
open("pmt-id3", "wb").write(pmt(0x15, id3))
open("pmt-klv", "wb").write(pmt(0x15, [0x26, 13, 0xFF, 0xFF] + list(b"KLV ") + [0xFF] + list(b"KLVA") + [0, 0x0F]))
PY

cd ../Captions
# Closed captions (ParserFuzzing.closedCaptions: carriage byte, bytes per frame, then the
# frames): a pop-on caption, a roll-up line and a paint-on one as CEA-608 pairs with parity, the
# same pop-on in cc_data triplets (a DTVCC triplet among them) and in a caption distribution
# packet with a time code.
python3 - <<'PY'
def p(b):
    b &= 0x7F
    return b | (0x80 if bin(b).count("1") % 2 == 0 else 0)
def ctrl(a, b):
    return [p(a), p(b)] * 2
def text(s):
    s = [ord(c) for c in s] + ([0] if len(s) % 2 else [])
    return [p(c) if c else 0x80 for c in s]
pop = ctrl(0x14, 0x20) + ctrl(0x14, 0x70) + text("HELLO, WORLD") + ctrl(0x14, 0x2F) + ctrl(0x14, 0x2C)
roll = ctrl(0x14, 0x25) + ctrl(0x14, 0x2D) + ctrl(0x14, 0x60) + text("ROLL UP") + ctrl(0x11, 0x37)
paint = ctrl(0x14, 0x29) + ctrl(0x13, 0x50) + text("PAINT") + ctrl(0x12, 0x21) + ctrl(0x14, 0x21)
open("pop-on-pairs", "wb").write(bytes([0, 1] + pop))
open("roll-up-pairs", "wb").write(bytes([0, 1] + roll))
open("paint-on-pairs", "wb").write(bytes([0, 1] + paint))
triplets = []
for i in range(0, len(pop), 2):
    triplets += [0xFC, pop[i], pop[i + 1], 0xFE, 0x02, 0x21]
open("pop-on-cc-data", "wb").write(bytes([2, 5] + triplets))
cdp = [0x96, 0x69, 0, 0x4F, 0xC3, 0x00, 0x01, 0x71, 0, 0, 0, 0, 0x72, 0xE2] + triplets[:6] + [0x74, 0x00, 0x01, 0x00]
cdp[2] = len(cdp)
open("cdp", "wb").write(bytes([3, len(cdp) - 1] + cdp * 3))
PY
