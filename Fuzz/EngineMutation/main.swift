// engine-mutation-fuzz: the whole engine on mutated inputs (`make fuzz-engine`).
//
//   engine-mutation-fuzz run [--inputs N] [--seed S] [--folder DIR] [--jobs J] [--timeout SECONDS] [--only I]
//       makes valid inputs (MP4 fast-start and moov-at-end, WebM, MPEG-TS, ADTS AAC, PNG, SRT,
//       WebVTT) in DIR/valid, mutates them (bit flips, size fields, truncations, duplications,
//       splices) and runs each in a child, J at a time; findings (signals, other exit statuses,
//       hangs past the timeout) go to DIR/findings with their seed and index. Exits 1 on a finding.
//   engine-mutation-fuzz one movie|subtitles|picture FILE MOVIE
//       the child: one input through the engine (see EngineChild); MOVIE is a valid movie the
//       overlays are shown on. Also the way to replay a kept finding.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            ("usage: engine-mutation-fuzz run [--inputs N] [--seed S] [--folder DIR] [--jobs J] [--timeout S] [--only I]\n"
                + "       engine-mutation-fuzz one movie|subtitles|picture FILE MOVIE\n").utf8))
    exit(2)
}

switch arguments.first {
case "one":
    guard arguments.count == 4, let use = InputFormat.Use(rawValue: arguments[1]) else { usage() }
    await EngineChild.run(use, file: arguments[2], movie: arguments[3])
    exit(0)
case "run":
    var options = MutationRun.Options()
    var rest = arguments.dropFirst()[...]
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { usage() }
        switch flag {
        case "--inputs": options.inputs = Int(value) ?? options.inputs
        case "--seed": options.seed = UInt64(value) ?? options.seed
        case "--folder": options.folder = value
        case "--jobs": options.jobs = Int(value) ?? options.jobs
        case "--timeout": options.timeout = .seconds(Int(value) ?? 20)
        case "--only": options.only = Int(value)
        default: usage()
        }
    }
    do {
        let run = try MutationRun(options: options)
        exit(run.run() ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("engine-mutation-fuzz: \(error)\n".utf8))
        exit(2)
    }
default:
    usage()
}
