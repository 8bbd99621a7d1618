// {VAST ad tag} -> media file: playbin (the ad, then the movie without a gap) ! {sink}
//
// A pre-roll ad before a movie, as MPMoviePlayerController's playPrerollAd: the ad tag's VAST is
// fetched and resolved (wrappers followed), a media file chosen, the ad played through the same
// output as the movie, its tracking beacons fired; then the movie plays. Every event is printed.
// --skip skips the ad as soon as its skip offset allows; --pod plays every ad of an ad pod.
// Usage: preroll --ad-tag URL [--sink NAME] [--skip] [--pod] FILE_OR_URL
import FileSource
import Foundation
import MediaEngine
import PrerollAdSource

let usage = "usage: preroll --ad-tag URL [--sink NAME] [--skip] [--pod] FILE_OR_URL\n"
func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data(message.utf8))
    exit(status)
}
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var input: String?
var tag: URL?
var sinkName = "null"
var skips = false
var wholePod = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--ad-tag": tag = arguments.next().flatMap(URL.init(string:))
    case "--sink":
        guard let name = arguments.next() else { fail(usage) }
        sinkName = name
    case "--skip": skips = true
    case "--pod": wholePod = true
    case "--help", "-h": fail(usage, status: 0)
    default: if input == nil && !argument.hasPrefix("-") { input = argument } else { fail(usage) }
    }
}
guard let input, let tag else { fail(usage) }
let source: any MediaSource = input.contains("://") ? URISource(uri: input) : FileSource(path: input)

let sink: any VideoSink
do {
    sink = try VideoSinkRegistry.shared.makeSink(named: sinkName)
} catch {
    fail("preroll: \(error.code): \(error.message)\n", status: 1)
}
let player = MoviePlayer(source: source, videoSink: sink, audioOutput: .discard)
// An ad plays first: the movie must not start by itself (MPMoviePlayerController's rule).
player.shouldAutoplay = false

let events = player.events
let printer = Task {
    for await event in events {
        switch event {
        case .prerollAd(let ad):
            say("ad: \(ad)")
            if case .skippable = ad, skips { say("skipping: \(player.skipAd())") }
        case .playbackStateChanged(let state): say("movie: \(state)")
        case .durationAvailable(let duration): say("movie: duration \(String(format: "%.3f s", duration.inSeconds))")
        case .playbackDidFinish(let reason, let error):
            say("movie: finished \(reason)\(error.map { " (\($0.code): \($0.message))" } ?? "")")
            return
        default: break
        }
    }
}

var request = PrerollAdRequest(adTag: tag)
request.playsWholePod = wholePod
do {
    try await player.playPrerollAd(request)
} catch {
    say("ad failed: \(error.code.rawValue) (VAST \(error.vastErrorCode.map(String.init) ?? "-")): \(error.message)")
    // The movie still plays: the app chooses (here, always).
    do { try await player.play() } catch { fail("preroll: \(error.code): \(error.message)\n", status: 1) }
}
await printer.value
await player.shutdown()
