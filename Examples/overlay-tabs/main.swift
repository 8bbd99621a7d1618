// {file} ! playbin ! mescaler (scaling + one overlay composition) ! {window | frames | null}
//
// The seed's portrait-video trick: an app's tab bar drawn over the movie, on the view (so it
// stays put whatever the scaling mode does to the movie), a text banner at the top, and the
// tab a click lands on. Click the window, or pass --click X,Y (the output's pixels) for outputs
// without one.
// Usage: overlay-tabs [--sink NAME[:key=value,...]] [--tabs N] [--banner TEXT] [--click X,Y]... FILE
import FileSource
import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

struct Arguments {
    var sink = VideoSinkSpecification(name: VideoSinkRegistry.shared.defaultSinkName)
    var tabs = 4
    var banner = "swift-media-engine"
    var clicks: [(x: Double, y: Double)] = []
    var file: String?

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--sink":
                guard let value = iterator.next() else { throw UsageError("--sink needs a name") }
                do {
                    sink = try VideoSinkSpecification(parsing: value)
                } catch {
                    throw UsageError(error.message)
                }
            case "--tabs":
                guard let value = iterator.next().flatMap({ Int($0) }), (1...8).contains(value) else {
                    throw UsageError("--tabs needs a number from 1 to 8")
                }
                tabs = value
            case "--banner":
                guard let value = iterator.next() else { throw UsageError("--banner needs a text") }
                banner = value
            case "--click":
                // Pixels of the output: finite, and no further out than any output reaches.
                let parts = iterator.next()?.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
                guard let parts, parts.count == 2, let x = parts[0], let y = parts[1], abs(x) <= 1e6, abs(y) <= 1e6
                else { throw UsageError("--click needs X,Y: two numbers of pixels (at most 1000000 each)") }
                clicks.append((x, y))
            case "--help", "-h":
                throw UsageError(nil)
            default:
                guard !argument.hasPrefix("--"), file == nil else { throw UsageError("unexpected '\(argument)'") }
                file = argument
            }
        }
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}

let usage = "usage: overlay-tabs [--sink NAME[:key=value,...]] [--tabs N] [--banner TEXT] [--click X,Y]... FILE"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// The app's tab bar as one picture (an app would load its own PNG with
/// `ImageOverlay(contentsOf:)`), across the bottom of the view, a hit region per tab.
func makeTabBar(tabs: Int) throws(MediaError) -> ImageOverlay {
    let tabWidth = 120
    let height = 36
    var canvas = OverlayCanvas(width: tabWidth * tabs, height: height)
    canvas.clear(to: RGBAColor(red: 24, green: 24, blue: 28, alpha: 230))
    var regions: [OverlayHitRegion] = []
    for index in 0..<tabs {
        let area = ViewRect(x: index * tabWidth, y: 0, width: tabWidth, height: height)
        let label = try tabLabel("Tab \(index + 1)")
        canvas.draw(label, atX: area.x + (tabWidth - label.width) / 2, y: (height - label.height) / 2)
        if index > 0 { canvas.fill(ViewRect(x: area.x, y: 6, width: 1, height: height - 12), with: .white) }
        regions.append(OverlayHitRegion(id: "tab-\(index + 1)", rect: area))
    }
    // Stretched across the view's width, kept in proportion: on the view, not the movie.
    return ImageOverlay(
        image: canvas.makeBitmap(), placement: OverlayPlacement(anchor: .bottom, width: .fraction(1), in: .view),
        zOrder: 10, hitRegions: regions)
}

/// A tab's label, drawn by a text overlay.
func tabLabel(_ text: String) throws(MediaError) -> OverlayBitmap {
    let overlay = try TextOverlay(
        text: text, style: TextStyle(font: "Sans Bold 14", color: .white, outline: nil, padding: 0))
    guard
        let bitmap = try overlay.bitmap(for: OverlayRenderRequest(frameSize: VideoSize(width: 1, height: 1), time: nil))
    else { throw MediaError(.overlayFailed, "the label '\(text)' drew nothing") }
    return bitmap
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    fail((error.message.map { "overlay-tabs: \($0)\n" } ?? "") + usage)
}
guard let file = arguments.file else { fail(usage) }

let player: MoviePlayer
do {
    let sink = try VideoSinkRegistry.shared.makeSink(named: arguments.sink.name, options: arguments.sink.options)
    player = MoviePlayer(source: FileSource(path: file), videoSink: sink)
    player.scalingMode = .aspectFit
    let tabBar = player.overlays.add(try makeTabBar(tabs: arguments.tabs))
    let banner = try TextOverlay(
        text: arguments.banner,
        style: TextStyle(font: "Sans Bold 16", color: .white, shadow: TextStyle.Shadow()),
        placement: OverlayPlacement(anchor: .top, y: .pixels(8), in: .view))
    player.overlays.add(banner)
    print("overlays: tab bar (\(tabBar)) with \(arguments.tabs) tabs, banner '\(arguments.banner)'")
} catch {
    fail("overlay-tabs: \(error.code): \(error.message)")
}

let events = player.events
do {
    player.shouldAutoplay = arguments.clicks.isEmpty
    try await player.prepareToPlay()
    print("playing \(file) (\(player.naturalSize)) to '\(arguments.sink.name)'; click a tab")
    for click in arguments.clicks {
        if player.sendPointer(x: click.x, y: click.y) == nil {
            print("click at (\(Int(click.x.rounded())), \(Int(click.y.rounded()))): no tab there")
        }
    }
    if !arguments.clicks.isEmpty { try await player.play() }
} catch {
    fail("overlay-tabs: \(error.code): \(error.message)")
}

for await event in events {
    switch event {
    case .overlayRegionActivated(_, let region, let point):
        print("clicked \(region) at (\(Int(point.x)), \(Int(point.y))) in the tab bar")
    case .overlayFailed(let id, let error):
        print("overlay \(id) failed: \(error.message)")
    case .playbackDidFinish(let reason, let error):
        if let error { fail("overlay-tabs: \(error.code): \(error.message)") }
        print("finished: \(reason)")
        exit(0)
    default:
        break
    }
}
