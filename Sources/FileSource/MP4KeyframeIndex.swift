import Foundation

/// The presentation times of an MP4 (or MOV) movie's video keyframes, read from its first video
/// track's sample tables (`stts`, `ctts`, `stss`) and edit list (`elst`).
///
/// GStreamer's qtdemux snaps a keyframe seek to the earliest of every stream's "keyframe" before
/// the target, and every audio frame is one: a keyframe seek then lands on an audio frame's start
/// and decodes the video from the keyframe before that. With these times the engine seeks
/// accurately to the video keyframe itself.
///
/// The times are those qtdemux gives the keyframes: sample time `t` in the track's time scale
/// `s` is `floor(t * 10^9 / s)` ns, moved by the first edit (`- media_time + empty edits`).
///
/// Every byte is hostile: sizes and counts are checked against what the file holds, sums and
/// products are checked for overflow, and the work is bounded (``sampleLimit``, ``moovLimit``).
/// Anything unexpected gives nil (the caller falls back to the demuxer's own keyframe seek).
package enum MP4KeyframeIndex {
    /// The most samples a track may have (about 92 hours at 60 frames a second).
    static let sampleLimit: UInt64 = 20_000_000
    /// The most samples listed when a track has no `stss` (every sample a keyframe).
    static let allKeyframesLimit: UInt64 = 1_000_000
    /// The largest `moov` box read into memory.
    static let moovLimit: UInt64 = 256 << 20
    /// The most top-level boxes walked looking for `moov`.
    private static let boxLimit = 10_000

    /// The keyframe times of the file at `path`, ascending, in nanoseconds.
    /// - Parameter path: A local file.
    /// - Returns: Nil when the file is not an MP4 with a video track and sample tables.
    package static func keyframeTimes(path: String) -> [Int64]? {
        guard let file = FileByteSource(path: path) else { return nil }
        return keyframeTimes(file)
    }

    /// The keyframe times of a whole file's bytes (tests and the fuzzer).
    /// - Parameter bytes: A whole file.
    /// - Returns: Nil when the bytes are not an MP4 with a video track and sample tables.
    package static func keyframeTimes(bytes: [UInt8]) -> [Int64]? {
        keyframeTimes(MemoryByteSource(bytes: bytes))
    }

    static func keyframeTimes(_ source: some ByteSource) -> [Int64]? {
        guard let moov = readMoov(source) else { return nil }
        var movieTimescale: UInt64?
        var video: ArraySlice<UInt8>?
        for box in Boxes(moov) {
            switch box.type {
            case "mvhd": movieTimescale = timescale(ofHeader: box.body)
            case "trak" where video == nil && handler(ofTrack: box.body) == "vide": video = box.body
            default: break
            }
        }
        guard let movieTimescale, let video else { return nil }
        return keyframeTimes(track: video, movieTimescale: movieTimescale)
    }

    // MARK: Boxes

    /// A box: its four-character type and its contents.
    struct Box {
        let type: String
        let body: ArraySlice<UInt8>
    }

    /// The boxes one after another in `bytes`; ends at the first that does not fit.
    struct Boxes: Sequence, IteratorProtocol {
        private var rest: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) {
            rest = bytes
        }

        mutating func next() -> Box? {
            guard rest.count >= 8 else { return nil }
            let start = rest.startIndex
            var size = UInt64(rest.uint32(at: start))
            var header = 8
            if size == 1 {
                guard rest.count >= 16 else { return nil }
                size = rest.uint64(at: start + 8)
                header = 16
            } else if size == 0 {
                size = UInt64(rest.count)
            }
            guard size >= UInt64(header), size <= UInt64(rest.count) else { return nil }
            let type = String(decoding: rest[start + 4..<start + 8], as: UTF8.self)
            let end = start + Int(size)
            let box = Box(type: type, body: rest[(start + header)..<end])
            rest = rest[end...]
            return box
        }
    }

    /// The body of the first `type` box in `bytes`, if any.
    static func child(_ type: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        Boxes(bytes).first { $0.type == type }?.body
    }

    /// The body of the box at `path` (each a child of the one before).
    static func descendant(_ path: [String], in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var current = bytes
        for type in path {
            guard let next = child(type, in: current) else { return nil }
            current = next
        }
        return current
    }

    /// The `moov` box's contents, from wherever it is among the top-level boxes.
    static func readMoov(_ source: some ByteSource) -> ArraySlice<UInt8>? {
        let size = source.size
        var offset: UInt64 = 0
        for _ in 0..<boxLimit {
            guard size >= 8, offset <= size - 8, let header = source.read(at: offset, count: 16), header.count >= 8
            else { return nil }
            var boxSize = UInt64(header[...].uint32(at: 0))
            var headerSize: UInt64 = 8
            if boxSize == 1 {
                guard header.count == 16 else { return nil }
                boxSize = header[...].uint64(at: 8)
                headerSize = 16
            } else if boxSize == 0 {
                boxSize = size - offset
            }
            guard boxSize >= headerSize else { return nil }
            let (end, overflow) = offset.addingReportingOverflow(boxSize)
            guard !overflow, end <= size else { return nil }
            if header[4..<8].elementsEqual("moov".utf8) {
                let bodySize = boxSize - headerSize
                guard bodySize <= moovLimit, let body = source.read(at: offset + headerSize, count: Int(bodySize)),
                    body.count == Int(bodySize)
                else { return nil }
                return body[...]
            }
            offset = end
        }
        return nil
    }

    // MARK: Tables

    /// The time scale of an `mvhd` or `mdhd` box (after version, flags and two dates of 32 or 64 bits).
    static func timescale(ofHeader body: ArraySlice<UInt8>) -> UInt64? {
        guard let version = body.first else { return nil }
        let at = body.startIndex + (version == 1 ? 20 : 12)
        guard body.count >= (at - body.startIndex) + 4 else { return nil }
        let scale = UInt64(body.uint32(at: at))
        return scale > 0 ? scale : nil
    }

    /// A track's handler type (`vide`, `soun`, ...), from `mdia/hdlr`.
    static func handler(ofTrack track: ArraySlice<UInt8>) -> String? {
        guard let hdlr = descendant(["mdia", "hdlr"], in: track), hdlr.count >= 12 else { return nil }
        let at = hdlr.startIndex + 8
        return String(decoding: hdlr[at..<at + 4], as: UTF8.self)
    }

    /// A full box's entries after version, flags and the entry count: (version, count, entries),
    /// with `count * entrySize` checked against the bytes there are.
    static func table(_ body: ArraySlice<UInt8>, entrySize: Int) -> (
        version: UInt8, count: Int, entries: ArraySlice<UInt8>
    )? {
        guard body.count >= 8 else { return nil }
        let count = UInt64(body.uint32(at: body.startIndex + 4))
        let entries = body[(body.startIndex + 8)...]
        let (bytes, overflow) = count.multipliedReportingOverflow(by: UInt64(entrySize))
        guard !overflow, bytes <= UInt64(entries.count) else { return nil }
        return (body[body.startIndex], Int(count), entries)
    }

    /// The keyframe times of one video track.
    static func keyframeTimes(track: ArraySlice<UInt8>, movieTimescale: UInt64) -> [Int64]? {
        guard let mdhd = descendant(["mdia", "mdhd"], in: track), let timescale = timescale(ofHeader: mdhd),
            let stbl = descendant(["mdia", "minf", "stbl"], in: track),
            let stts = child("stts", in: stbl).flatMap({ table($0, entrySize: 8) })
        else { return nil }
        let ctts = child("ctts", in: stbl).flatMap { table($0, entrySize: 8) }
        let stss = child("stss", in: stbl).flatMap { table($0, entrySize: 4) }
        if child("ctts", in: stbl) != nil && ctts == nil { return nil }
        if child("stss", in: stbl) != nil && stss == nil { return nil }
        guard let edit = firstEdit(track: track, movieTimescale: movieTimescale) else { return nil }

        // Total samples, bounded before anything is allocated.
        var samples: UInt64 = 0
        for index in 0..<stts.count {
            samples += UInt64(stts.entries.uint32(at: stts.entries.startIndex + index * 8))
            guard samples <= sampleLimit else { return nil }
        }
        guard samples > 0 else { return nil }
        // Keyframe sample numbers (1-based, ascending); every sample without `stss`.
        var keyframes: [UInt64] = []
        if let stss {
            keyframes.reserveCapacity(stss.count)
            for index in 0..<stss.count {
                let number = UInt64(stss.entries.uint32(at: stss.entries.startIndex + index * 4))
                guard number >= 1, number <= samples, number > (keyframes.last ?? 0) else { return nil }
                keyframes.append(number)
            }
        } else {
            // Every sample is a keyframe (intra-only video); one time each, within reason.
            guard samples <= allKeyframesLimit else { return nil }
            keyframes = Array(1...samples)
        }
        guard !keyframes.isEmpty else { return nil }

        var decode = RunCursor(table: stts.entries, count: stts.count)
        var composition = ctts.map { RunCursor(table: $0.entries, count: $0.count) }
        var times: [Int64] = []
        times.reserveCapacity(keyframes.count)
        var dts: UInt64 = 0
        var sample: UInt64 = 1
        for keyframe in keyframes {
            // Decode time: the durations of every sample before this one.
            while sample < keyframe {
                guard let (delta, run) = decode.value(skipping: keyframe - sample) else { return nil }
                let (span, overflow1) = delta.multipliedReportingOverflow(by: run)
                let (next, overflow2) = dts.addingReportingOverflow(span)
                guard !overflow1, !overflow2 else { return nil }
                dts = next
                sample += run
            }
            var pts = Int64(clamping: dts)
            if composition != nil {
                // A ctts shorter than the samples leaves the rest without an offset (as qtdemux).
                if let offset = composition!.offset(ofSample: keyframe) {
                    pts = pts.addingReportingOverflow(Int64(Int32(bitPattern: offset))).partialValue
                }
            }
            guard pts >= 0, let time = presentationTime(pts: UInt64(pts), timescale: timescale, edit: edit) else {
                continue  // before the edit: never shown
            }
            times.append(time)
        }
        // Composition offsets may reorder nothing among keyframes in a valid file; sort anyway.
        times.sort()
        return times.isEmpty ? nil : times
    }

    /// The first edit that shows media: where it starts in the media (in the track's time scale;
    /// nil for no edit list) and how long the empty edits before it last (in the movie's).
    struct Edit {
        var mediaTime: UInt64?
        var emptyBefore: UInt64 = 0
        var movieTimescale: UInt64 = 1
    }

    static func firstEdit(track: ArraySlice<UInt8>, movieTimescale: UInt64) -> Edit? {
        guard let elst = descendant(["edts", "elst"], in: track) else { return Edit(movieTimescale: movieTimescale) }
        guard let version = elst.first else { return nil }
        let entrySize = version == 1 ? 20 : 12
        guard let list = table(elst, entrySize: entrySize) else { return nil }
        var edit = Edit(movieTimescale: movieTimescale)
        for index in 0..<list.count {
            let at = list.entries.startIndex + index * entrySize
            let duration = version == 1 ? list.entries.uint64(at: at) : UInt64(list.entries.uint32(at: at))
            let mediaTime =
                version == 1
                ? Int64(bitPattern: list.entries.uint64(at: at + 8))
                : Int64(Int32(bitPattern: list.entries.uint32(at: at + 4)))
            if mediaTime == -1 {
                let (sum, overflow) = edit.emptyBefore.addingReportingOverflow(duration)
                guard !overflow else { return nil }
                edit.emptyBefore = sum
                continue
            }
            guard mediaTime >= 0 else { return nil }
            edit.mediaTime = UInt64(mediaTime)
            return edit
        }
        return Edit(movieTimescale: movieTimescale)
    }

    /// `pts` (track time scale) as a time in the movie, as qtdemux computes it; nil before the edit.
    static func presentationTime(pts: UInt64, timescale: UInt64, edit: Edit) -> Int64? {
        let media = nanoseconds(pts, timescale)
        let mediaStart = nanoseconds(edit.mediaTime ?? 0, timescale)
        guard media >= mediaStart else { return nil }
        let (time, overflow) = (media - mediaStart).addingReportingOverflow(
            nanoseconds(edit.emptyBefore, edit.movieTimescale))
        guard !overflow, time <= UInt64(Int64.max) else { return nil }
        return Int64(time)
    }

    /// `value` units of `1/scale` s in nanoseconds, rounded down (`gst_util_uint64_scale`).
    static func nanoseconds(_ value: UInt64, _ scale: UInt64) -> UInt64 {
        let (high, low) = value.multipliedFullWidth(by: 1_000_000_000)
        guard high < scale else { return UInt64.max }
        return scale.dividingFullWidth((high, low)).quotient
    }

    /// Walks a run-length table (`stts`, `ctts`: count, value pairs) sample by sample.
    struct RunCursor {
        let table: ArraySlice<UInt8>
        let count: Int
        private var entry = 0
        /// Samples of the current entry already passed.
        private var used: UInt64 = 0
        /// The 1-based number of the first sample of the current entry.
        private var first: UInt64 = 1

        init(table: ArraySlice<UInt8>, count: Int) {
            self.table = table
            self.count = count
        }

        private func entryAt(_ index: Int) -> (count: UInt64, value: UInt32) {
            let at = table.startIndex + index * 8
            return (UInt64(table.uint32(at: at)), table.uint32(at: at + 4))
        }

        /// The value of the next samples and how many of them (at most `limit`) share it; those
        /// samples are passed.
        mutating func value(skipping limit: UInt64) -> (value: UInt64, run: UInt64)? {
            while entry < count {
                let (runCount, value) = entryAt(entry)
                if used < runCount {
                    let run = min(runCount - used, limit)
                    used += run
                    return (UInt64(value), run)
                }
                entry += 1
                used = 0
            }
            return nil
        }

        /// The value for sample `number` (1-based); samples must be asked for in ascending order.
        mutating func offset(ofSample number: UInt64) -> UInt32? {
            while entry < count {
                let (runCount, value) = entryAt(entry)
                let (end, overflow) = first.addingReportingOverflow(runCount)
                if overflow || number < end { return value }
                first = end
                entry += 1
            }
            return nil
        }
    }
}

extension ArraySlice<UInt8> {
    /// The big-endian 32-bit value at `index` (the caller has checked that 4 bytes are there).
    func uint32(at index: Int) -> UInt32 {
        self[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The big-endian 64-bit value at `index` (the caller has checked that 8 bytes are there).
    func uint64(at index: Int) -> UInt64 {
        self[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
