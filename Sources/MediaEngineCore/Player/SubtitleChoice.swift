/// What the subtitle overlay draws: one of the movie's subtitle streams (playbin's text track
/// `index`), or a channel of the closed captions its video carries.
enum SubtitleChoice: Sendable, Hashable, CustomStringConvertible {
    case stream(Int)
    case closedCaptions(ClosedCaptionChannel)

    var description: String {
        switch self {
        case .stream(let index): "\(index)"
        case .closedCaptions(let channel): channel.description
        }
    }
}
