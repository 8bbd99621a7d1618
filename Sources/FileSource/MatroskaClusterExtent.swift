/// How much of a Matroska (or WebM) movie its file holds, from its clusters.
///
/// The Segment's children are walked by their sizes, without reading the clusters that end
/// inside the file. The first element that runs past the end is where the file was cut: if it
/// is a cluster, its blocks that are whole are read, and the movie is playable up to the latest
/// block time that every track seen there reaches (the time of the last whole block of the track
/// that is furthest behind); if the cut falls after the last cluster (in the cues or tags written
/// at the end), every frame is present and the movie is not truncated for playing. A file cut
/// exactly between two clusters, whose Segment claims more, is playable up to the last cluster's
/// blocks. Cues are not needed: the clusters' own sizes say where the cut is.
///
/// Every size is hostile: sums are checked, "unknown" sizes end the walk (a live file cannot be
/// judged by its sizes), the elements walked are bounded (``elementLimit``) and so are the bytes
/// of the one cluster read (``clusterLimit``).
enum MatroskaClusterExtent {
    /// The most Segment children walked.
    static let elementLimit = 200_000
    /// The largest part of a cluster read into memory.
    static let clusterLimit: UInt64 = 64 << 20
    /// The largest Info element read.
    static let infoLimit: UInt64 = 1 << 20

    static let segmentID: UInt32 = 0x1853_8067
    static let clusterID: UInt32 = 0x1F43_B675
    static let infoID: UInt32 = 0x1549_A966
    static let timecodeScaleID: UInt32 = 0x2AD7B1
    static let durationID: UInt32 = 0x4489
    static let timecodeID: UInt32 = 0xE7
    static let simpleBlockID: UInt32 = 0xA3
    static let blockGroupID: UInt32 = 0xA0
    static let blockID: UInt32 = 0xA1

    /// The playable time and the header's duration, in nanoseconds, when the file is cut inside
    /// its clusters; nil when it is complete, not Matroska, or cannot be judged.
    static func truncation(_ source: some ByteSource) -> (playable: UInt64, duration: UInt64?)? {
        let size = source.size
        guard let head = source.read(at: 0, count: 12), head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]),
            let header = EBMLSize(head, at: 4), let headerSize = header.value
        else { return nil }
        let (segmentOffset, overflow) = UInt64(4 + header.length).addingReportingOverflow(headerSize)
        guard !overflow, let segment = element(source, at: segmentOffset), segment.id == segmentID else { return nil }
        var timecodeScale: UInt64 = 1_000_000
        var durationTicks: Double?
        var offset = segment.payload
        var lastCluster: Element?
        for _ in 0..<elementLimit {
            guard offset < size else {
                // The file ends between two elements: cut there only if the Segment says so.
                guard let segmentSize = segment.size,
                    segment.payload.addingReportingOverflow(segmentSize).partialValue > size,
                    let lastCluster, let ticks = latestCommonTime(source, lastCluster, fileSize: size)
                else { return nil }
                return result(ticks: ticks, scale: timecodeScale, duration: durationTicks)
            }
            guard let child = element(source, at: offset) else { return nil }
            guard let childSize = child.size else { return nil }  // "unknown": a live file
            let (end, endOverflow) = child.payload.addingReportingOverflow(childSize)
            guard !endOverflow else { return nil }
            if child.id == infoID, end <= size, childSize <= infoLimit,
                let body = source.read(at: child.payload, count: Int(childSize))
            {
                (timecodeScale, durationTicks) = info(body[...], scale: timecodeScale)
            }
            if end > size {
                // The cut: inside a cluster, its whole blocks tell how far each track got.
                guard child.id == clusterID else { return nil }  // after the clusters: every frame is there
                let ticks =
                    latestCommonTime(source, child, fileSize: size)
                    ?? lastCluster.flatMap { latestCommonTime(source, $0, fileSize: size) } ?? 0
                return result(ticks: ticks, scale: timecodeScale, duration: durationTicks)
            }
            if child.id == clusterID { lastCluster = child }
            offset = end
        }
        return nil
    }

    /// Ticks of the time code scale as nanoseconds, with the header's duration.
    private static func result(ticks: Int64, scale: UInt64, duration: Double?) -> (UInt64, UInt64?) {
        let playable = UInt64(clamping: max(ticks, 0)).multipliedReportingOverflow(by: scale)
        let durationNs = duration.flatMap { ticks -> UInt64? in
            let ns = ticks * Double(scale)
            return ns.isFinite && ns >= 0 && ns < 9e18 ? UInt64(ns) : nil
        }
        let time = playable.overflow ? UInt64.max : playable.partialValue
        return (durationNs.map { min(time, $0) } ?? time, durationNs)
    }

    /// An element's ID, size (nil: unknown) and where its payload starts.
    struct Element {
        let id: UInt32
        let size: UInt64?
        let offset: UInt64
        let payload: UInt64
    }

    /// The element header at `offset`, if one fits in the file.
    static func element(_ source: some ByteSource, at offset: UInt64) -> Element? {
        guard let bytes = source.read(at: offset, count: 12), let (id, idLength) = elementID(bytes[...]),
            let size = EBMLSize(bytes, at: idLength)
        else { return nil }
        let (payload, overflow) = offset.addingReportingOverflow(UInt64(idLength + size.length))
        guard !overflow else { return nil }
        return Element(id: id, size: size.value, offset: offset, payload: payload)
    }

    /// An EBML element ID (1 to 4 bytes, markers kept) at the start of `bytes`, and its length.
    static func elementID(_ bytes: ArraySlice<UInt8>) -> (UInt32, Int)? {
        guard let first = bytes.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= 4, bytes.count >= length else { return nil }
        let id = bytes.prefix(length).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return (id, length)
    }

    /// An unsigned integer element's value (up to 8 bytes).
    static func unsigned(_ body: ArraySlice<UInt8>) -> UInt64? {
        guard body.count <= 8 else { return nil }
        return body.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// TimecodeScale and Duration from an Info element's body.
    static func info(_ body: ArraySlice<UInt8>, scale: UInt64) -> (UInt64, Double?) {
        var scale = scale
        var duration: Double?
        for child in Children(body) {
            switch child.id {
            case timecodeScaleID:
                if let value = unsigned(child.body), value > 0 { scale = value }
            case durationID where child.body.count == 8:
                let value = Double(bitPattern: unsigned(child.body) ?? 0)
                if value.isFinite && value > 0 { duration = value }
            case durationID where child.body.count == 4:
                let value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned(child.body) ?? 0)))
                if value.isFinite && value > 0 { duration = value }
            default: break
            }
        }
        return (scale, duration)
    }

    /// The time (in time code ticks) every track seen in `cluster` reaches with its last whole
    /// block there: the earliest of the tracks' latest block times. Nil when no block is whole.
    static func latestCommonTime(_ source: some ByteSource, _ cluster: Element, fileSize: UInt64) -> Int64? {
        guard cluster.payload < fileSize else { return nil }
        let available = min(fileSize - cluster.payload, cluster.size ?? .max, clusterLimit)
        guard let bytes = source.read(at: cluster.payload, count: Int(available)) else { return nil }
        var clusterTime: Int64 = 0
        var latest: [UInt64: Int64] = [:]
        for child in Children(bytes[...]) {
            switch child.id {
            case timecodeID:
                clusterTime = Int64(clamping: unsigned(child.body) ?? 0)
            case simpleBlockID:
                note(block: child.body, clusterTime: clusterTime, in: &latest)
            case blockGroupID:
                for inner in Children(child.body) where inner.id == blockID {
                    note(block: inner.body, clusterTime: clusterTime, in: &latest)
                }
            default: break
            }
        }
        return latest.values.min()
    }

    /// Records a block's track and time: a track number (an EBML size), then a signed 16-bit
    /// time relative to the cluster's.
    private static func note(block: ArraySlice<UInt8>, clusterTime: Int64, in latest: inout [UInt64: Int64]) {
        let bytes = Array(block.prefix(11))
        guard let track = EBMLSize(bytes, at: 0), let number = track.value, bytes.count >= track.length + 2 else {
            return
        }
        let relative = Int16(bitPattern: UInt16(bytes[track.length]) << 8 | UInt16(bytes[track.length + 1]))
        let time = clusterTime.addingReportingOverflow(Int64(relative)).partialValue
        latest[number] = max(latest[number] ?? time, time)
    }

    /// A Matroska element inside a parent's bytes.
    struct Child {
        let id: UInt32
        let body: ArraySlice<UInt8>
    }

    /// The whole children one after another in `bytes`; ends at the first that does not fit
    /// (the cut) or has an unknown size.
    struct Children: Sequence, IteratorProtocol {
        private var rest: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) {
            rest = bytes
        }

        mutating func next() -> Child? {
            guard let (id, idLength) = MatroskaClusterExtent.elementID(rest) else { return nil }
            let header = Array(rest.prefix(idLength + 8))
            guard let size = EBMLSize(header, at: idLength), let value = size.value else { return nil }
            let start = rest.startIndex + idLength + size.length
            guard value <= UInt64(rest.endIndex - start) else { return nil }
            let end = start + Int(value)
            let child = Child(id: id, body: rest[start..<end])
            rest = rest[end...]
            return child
        }
    }
}
