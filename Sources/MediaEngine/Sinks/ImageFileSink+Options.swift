import Foundation

extension ImageFileSink {
    /// The sink from registry options: `folder=PATH`, `every=N` or `times=S,S,...` (seconds),
    /// `format=png|jpeg`, `quality=1-100`, `width=` with `height=`.
    init(options: SinkOptions) throws(MediaError) {
        guard let folder = options.string("folder") else {
            throw MediaError(.invalidArgument, "the images sink needs folder=PATH")
        }
        let selection: Selection
        if let every = try options.int("every") {
            selection = .everyNthFrame(every)
        } else if let times = options.string("times") {
            let seconds = times.split(separator: ";").flatMap { $0.split(separator: " ") }.compactMap { Double($0) }
            guard !seconds.isEmpty else { throw MediaError(.invalidArgument, "times=\(times) holds no seconds") }
            selection = .times(seconds.map { .nanoseconds(Int64($0 * 1e9)) })
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
}
