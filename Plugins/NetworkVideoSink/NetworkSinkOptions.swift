import Foundation
import MediaEngine

/// Reads a network sink's `[String: String]` options (as `mediaplay --sink rtp:host=...,port=...`
/// gives them) into typed values, refusing keys the sink does not know.
struct NetworkSinkOptions {
    let sink: String
    let values: [String: String]

    /// The options every network sink takes: the encoding's.
    static let encodingKeys: Set<String> = ["bitrate", "keyframe-interval", "preset"]

    /// - Throws: `MediaError.Code.invalidArgument` naming the first unknown key and the known ones.
    init(sink: String, values: [String: String], keys: Set<String>) throws(MediaError) {
        let known = keys.union(Self.encodingKeys)
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw MediaError(
                .invalidArgument,
                "the \(sink) sink has no option '\(unknown)' (it takes \(known.sorted().joined(separator: ", ")))")
        }
        self.sink = sink
        self.values = values
    }

    func string(_ key: String) -> String? { values[key] }

    func required(_ key: String) throws(MediaError) -> String {
        guard let value = values[key] else { throw MediaError(.invalidArgument, "the \(sink) sink needs \(key)=") }
        return value
    }

    /// A decimal integer (no spaces, no fraction); the range is checked where it is used.
    func int(_ key: String) throws(MediaError) -> Int? {
        guard let text = values[key] else { return nil }
        guard let value = Int(text) else { throw MediaError(.invalidArgument, "\(key)=\(text) is not a whole number") }
        return value
    }

    func requiredInt(_ key: String) throws(MediaError) -> Int {
        guard let value = try int(key) else { throw MediaError(.invalidArgument, "the \(sink) sink needs \(key)=") }
        return value
    }

    func bool(_ key: String) throws(MediaError) -> Bool? {
        guard let text = values[key] else { return nil }
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw MediaError(.invalidArgument, "\(key)=\(text) is not true or false")
        }
    }

    /// `bitrate=`, `keyframe-interval=`, `preset=`.
    func encoding() throws(MediaError) -> H264Encoding {
        var encoding = H264Encoding()
        if let bitrate = try int("bitrate") { encoding.bitrate = bitrate }
        if let interval = try int("keyframe-interval") { encoding.keyframeInterval = interval }
        if let text = string("preset") {
            guard let preset = H264Encoding.Preset(rawValue: text) else {
                let presets = H264Encoding.Preset.allCases.map(\.rawValue).joined(separator: ", ")
                throw MediaError(.invalidArgument, "preset=\(text) is not one of \(presets)")
            }
            encoding.preset = preset
        }
        return encoding
    }
}
