internal import CMediaEngineWorkarounds

/// The PMT rewrite that makes GStreamer 1.22's tsdemux expose an ID3 timed-metadata stream
/// (`me_ts_rewrite_id3_pmt` in `timedmetadata.c`, which the probe on tsdemux's input calls on
/// every PMT packet). Here for tests and the fuzz target (`package`: `ParserFuzzing`), which feed it
/// valid and hostile packets.
package enum TransportStreamPMT {
    /// Rewrites `packet` (188 bytes) in place when it is a whole PMT declaring an ID3 stream;
    /// returns the rewritten streams' PIDs. Anything that is not exactly 188 bytes is left alone.
    package static func rewriteID3Streams(in packet: inout [UInt8]) -> [UInt16] {
        guard packet.count == 188 else { return [] }
        var pids = [UInt16](repeating: 0, count: 8)
        let count = packet.withUnsafeMutableBufferPointer { bytes in
            pids.withUnsafeMutableBufferPointer { me_ts_rewrite_id3_pmt(bytes.baseAddress, $0.baseAddress, 8) }
        }
        return Array(pids.prefix(Int(max(0, count))))
    }
}
