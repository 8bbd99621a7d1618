import Foundation

extension ImageFileSink {
    /// The sink from registry options: `folder=PATH`, `every=N` or `times=S,S,...` (seconds,
    /// separated by commas, semicolons or spaces),
    /// `format=png|jpeg`, `quality=1-100`, `width=` with `height=`.
    init(options: SinkOptions) throws(MediaError) {
        guard let folder = options.string("folder") else {
            throw MediaError(.invalidArgument, "the images sink needs folder=PATH")
        }
        let selection: Selection
        if let every = try options.int("every") {
            selection = .everyNthFrame(every)
        } else if let times = options.string("times") {
            selection = .times(try Self.seconds(in: times))
        } else {
            selection = .everyNthFrame(30)
        }
        let format: Format
        switch options.string("format")?.lowercased() ?? "png" {
        case "png": format = .png
        case "jpeg", "jpg": format = .jpeg(quality: try options.int("quality") ?? 85)
        case let other: throw MediaError(.invalidArgument, "format=\(other): the images sink writes png or jpeg")
        }
        self.init(folder: URL(fileURLWithPath: folder), format: format, selection: selection, size: try options.size())
    }

    /// Positions in seconds (`1.5,3;10 20`): each one a finite, non-negative decimal number.
    /// - Throws: ``MediaError/Code/invalidArgument`` naming the first entry that is not one, or
    ///   when there is none.
    static func seconds(in text: String) throws(MediaError) -> [Duration] {
        let entries = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " })
        guard !entries.isEmpty else { throw MediaError(.invalidArgument, "times=\(text) holds no seconds") }
        var times: [Duration] = []
        for entry in entries {
            guard let seconds = Double(entry), let time = Duration(checkedSeconds: seconds), time >= .zero else {
                throw MediaError(
                    .invalidArgument, "times=\(text): '\(entry)' is not a number of seconds from 0 to \(maximumTime)")
            }
            times.append(time)
        }
        return times
    }

    /// The latest image time: what a GStreamer clock time can hold.
    static var maximumTime: String { Duration.latestClockTime.formattedSeconds }
}
