/// How much of an MP4 (or MOV) movie its file holds, from the sample tables of every track.
///
/// Each track's samples are walked in decode order, chunk by chunk (`stco`/`co64` offsets,
/// `stsc` samples per chunk, `stsz` sizes); the first sample whose bytes end past the end of the
/// file is where that track stops, at its decode time (`stts`, moved by the first edit as
/// qtdemux moves it). The movie is playable up to the earliest such time over its tracks; a
/// track whose every sample is present does not limit it. This holds whatever the layout: moov
/// first or last, interleaved or not, and whichever element would complain.
///
/// Every byte is hostile: counts are checked against the bytes the tables hold, sums of offsets
/// and sizes are checked for overflow, the samples walked are bounded by
/// `MP4KeyframeIndex.sampleLimit` and the `moov` read by `MP4KeyframeIndex.moovLimit`. A
/// track whose tables cannot be read (compact `stz2` sizes, inconsistent counts) is left out;
/// a fragmented file's tracks have no samples in `moov` and are left out too.
enum MP4SampleExtent {
    /// What a track's tables say about the file.
    enum TrackExtent: Equatable {
        /// Every sample is present.
        case complete
        /// The first missing sample starts at this time (nanoseconds).
        case cut(at: UInt64)
        /// The tables cannot tell (none, unreadable, or inconsistent).
        case unknown
    }

    /// The playable time and the header's duration, in nanoseconds, when a track is cut; nil
    /// when every sample of every readable track is present, or when the file has no readable
    /// `moov`.
    static func truncation(_ source: some ByteSource) -> (playable: UInt64, duration: UInt64?)? {
        guard let moov = MP4KeyframeIndex.readMoov(source) else { return nil }
        var header: (timescale: UInt64, duration: UInt64?)?
        var tracks: [ArraySlice<UInt8>] = []
        for box in MP4KeyframeIndex.Boxes(moov) {
            switch box.type {
            case "mvhd": header = movieHeader(box.body)
            case "trak": tracks.append(box.body)
            default: break
            }
        }
        guard let header else { return nil }
        var playable: UInt64?
        for track in tracks {
            if case .cut(let time) = extent(ofTrack: track, movieTimescale: header.timescale, fileSize: source.size) {
                playable = min(playable ?? time, time)
            }
        }
        guard let playable else { return nil }
        let duration = header.duration.map { MP4KeyframeIndex.nanoseconds($0, header.timescale) }
        return (duration.map { min(playable, $0) } ?? playable, duration)
    }

    /// `mvhd`'s time scale and duration (nil when all ones: unknown).
    static func movieHeader(_ body: ArraySlice<UInt8>) -> (timescale: UInt64, duration: UInt64?)? {
        guard let version = body.first, let timescale = MP4KeyframeIndex.timescale(ofHeader: body) else { return nil }
        let at = body.startIndex + (version == 1 ? 24 : 16)
        let width = version == 1 ? 8 : 4
        guard body.count >= (at - body.startIndex) + width else { return (timescale, nil) }
        let duration = version == 1 ? body.uint64(at: at) : UInt64(body.uint32(at: at))
        let unknown = version == 1 ? UInt64.max : UInt64(UInt32.max)
        return (timescale, duration == unknown ? nil : duration)
    }

    /// Where one track's samples stop being present in a file of `fileSize` bytes.
    static func extent(ofTrack track: ArraySlice<UInt8>, movieTimescale: UInt64, fileSize: UInt64) -> TrackExtent {
        guard let mdhd = MP4KeyframeIndex.descendant(["mdia", "mdhd"], in: track),
            let timescale = MP4KeyframeIndex.timescale(ofHeader: mdhd),
            let stbl = MP4KeyframeIndex.descendant(["mdia", "minf", "stbl"], in: track),
            let sizes = SampleSizes(stbl), let stsc = MP4KeyframeIndex.child("stsc", in: stbl),
            let chunks = MP4KeyframeIndex.table(stsc, entrySize: 12),
            let offsets = ChunkOffsets(stbl),
            let stts = MP4KeyframeIndex.child("stts", in: stbl).flatMap({ MP4KeyframeIndex.table($0, entrySize: 8) }),
            let edit = MP4KeyframeIndex.firstEdit(track: track, movieTimescale: movieTimescale)
        else { return .unknown }
        guard sizes.count > 0 else { return .unknown }  // a fragmented file's track, or an empty one
        guard sizes.count <= MP4KeyframeIndex.sampleLimit, chunks.count > 0 else { return .unknown }

        // Decode order: chunk after chunk, each chunk's samples one after another from its offset.
        var sample: UInt64 = 0
        var entry = 0
        var missing: UInt64?
        chunkLoop: for chunk in 0..<offsets.count {
            // The stsc entry that covers this chunk (first chunks are 1-based and ascending).
            while entry + 1 < chunks.count, UInt64(chunk) + 1 >= firstChunk(chunks.entries, entry + 1) {
                entry += 1
            }
            guard UInt64(chunk) + 1 >= firstChunk(chunks.entries, entry) else { return .unknown }
            let perChunk = UInt64(chunks.entries.uint32(at: chunks.entries.startIndex + entry * 12 + 4))
            var offset = offsets[chunk]
            var inChunk: UInt64 = 0
            while inChunk < perChunk, sample < sizes.count {
                let (end, overflow) = offset.addingReportingOverflow(UInt64(sizes[sample]))
                if overflow || end > fileSize {
                    missing = sample
                    break chunkLoop
                }
                offset = end
                inChunk += 1
                sample += 1
            }
            if sample == sizes.count { break }
        }
        guard let missing else {
            // Chunks that run out before the samples do: the tables disagree.
            return sample == sizes.count ? .complete : .unknown
        }
        guard let dts = decodeTime(ofSample: missing, stts: stts.entries, count: stts.count) else { return .unknown }
        // A sample before the edit's start is never shown: nothing of this track plays.
        let time = MP4KeyframeIndex.presentationTime(pts: dts, timescale: timescale, edit: edit) ?? 0
        return .cut(at: UInt64(time))
    }

    /// The 1-based first chunk of `stsc` entry `index`.
    private static func firstChunk(_ entries: ArraySlice<UInt8>, _ index: Int) -> UInt64 {
        UInt64(entries.uint32(at: entries.startIndex + index * 12))
    }

    /// The decode time of sample `number` (0-based): the durations of the samples before it;
    /// nil when `stts` lists fewer samples or the sum overflows.
    static func decodeTime(ofSample number: UInt64, stts: ArraySlice<UInt8>, count: Int) -> UInt64? {
        var cursor = MP4KeyframeIndex.RunCursor(table: stts, count: count)
        var time: UInt64 = 0
        var passed: UInt64 = 0
        while passed < number {
            guard let (delta, run) = cursor.value(skipping: number - passed) else { return nil }
            let (span, overflow1) = delta.multipliedReportingOverflow(by: run)
            let (sum, overflow2) = time.addingReportingOverflow(span)
            guard !overflow1, !overflow2 else { return nil }
            time = sum
            passed += run
        }
        return time
    }

    /// `stsz`: one size for every sample, or a size each (checked against the bytes there are).
    struct SampleSizes {
        private let fixed: UInt32
        private let table: ArraySlice<UInt8>
        let count: UInt64

        init?(_ stbl: ArraySlice<UInt8>) {
            guard let stsz = MP4KeyframeIndex.child("stsz", in: stbl), stsz.count >= 12 else { return nil }
            fixed = stsz.uint32(at: stsz.startIndex + 4)
            count = UInt64(stsz.uint32(at: stsz.startIndex + 8))
            table = stsz[(stsz.startIndex + 12)...]
            if fixed == 0 && count * 4 > UInt64(table.count) { return nil }
        }

        /// The size of sample `index` (0-based, below ``count``).
        subscript(index: UInt64) -> UInt32 {
            fixed != 0 ? fixed : table.uint32(at: table.startIndex + Int(index) * 4)
        }
    }

    /// `stco` (32-bit) or `co64` (64-bit) chunk offsets.
    struct ChunkOffsets {
        private let entries: ArraySlice<UInt8>
        private let wide: Bool
        let count: Int

        init?(_ stbl: ArraySlice<UInt8>) {
            if let stco = MP4KeyframeIndex.child("stco", in: stbl) {
                guard let table = MP4KeyframeIndex.table(stco, entrySize: 4) else { return nil }
                (entries, count, wide) = (table.entries, table.count, false)
            } else if let co64 = MP4KeyframeIndex.child("co64", in: stbl) {
                guard let table = MP4KeyframeIndex.table(co64, entrySize: 8) else { return nil }
                (entries, count, wide) = (table.entries, table.count, true)
            } else {
                return nil
            }
        }

        /// The offset of chunk `index` (0-based, below ``count``).
        subscript(index: Int) -> UInt64 {
            wide
                ? entries.uint64(at: entries.startIndex + index * 8)
                : UInt64(entries.uint32(at: entries.startIndex + index * 4))
        }
    }
}
