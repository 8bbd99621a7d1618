import Foundation

extension ImageFileSink {
    /// The options ``init(options:)`` reads.
    static let optionKeys = ["folder", "every", "times", "format", "quality", "width", "height"]

    /// The sink from registry options: `folder=PATH` (required), `every=N` (1 to ``largestEvery``)
    /// or `times=S,S,...` (seconds, separated by commas, semicolons or spaces; not both), `format=png|jpeg`,
    /// `quality=1-100` (JPEG), `width=` with `height=`.
    init(options: VideoSinkOptions) throws(MediaError) {
        try options.rejectUnknownKeys(allowed: Self.optionKeys)
        let folder = try options.requiredPath("folder", isDirectory: true)
        let selection: Selection
        switch (try options.int("every", in: 1...Self.largestEvery), try options.string("times")) {
        case (let every?, nil): selection = .everyNthFrame(every)
        case (nil, let times?): selection = .times(try Self.seconds(in: times))
        case (nil, nil): selection = .everyNthFrame(30)
        case (.some, .some): throw MediaError(.invalidArgument, "the images sink takes every= or times=, not both")
        }
        let quality = try options.int("quality", in: 1...100)
        let isJPEG = try options.choice("format", among: ["png": false, "jpeg": true, "jpg": true]) ?? false
        let format: Format = isJPEG ? .jpeg(quality: quality ?? 85) : .png
        self.init(folder: folder, format: format, selection: selection, size: try options.size())
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
