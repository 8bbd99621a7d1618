// engine-workaround-check: one workaround's scenario in a process of its own, for
// WorkaroundReproductionTests, which runs each with the workaround forced off and then on
// (MEDIA_ENGINE_WORKAROUNDS=NAME=off or =on; the registry reads it once per process). Several
// scenarios deadlock the process when their workaround is off: a watchdog reports what was
// measured by the scenario's limit, marked hung, and ends the process.
//
//   engine-workaround-check SCENARIO [ARGUMENT...]   the scenario named after its workaround
//                                                    (gapless-eos, ...); the arguments are the
//                                                    inputs the test made (movies, addresses)
//   engine-workaround-check list                     every scenario and its arguments
//
// Prints one JSON line (WorkaroundCheckReport): the scenario, whether the registry had its
// workaround on, whether it hung, how long it took, and what it measured. Exits 0 whenever it
// wrote the line, 2 on a usage error.
import Foundation
import MediaEngineCore

let scenarios: [Scenario] =
    Scenario.playback + Scenario.loops + Scenario.decoding + Scenario.streaming + Scenario.machine

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "list" {
    for scenario in scenarios {
        print(([scenario.workaround.name] + scenario.arguments).joined(separator: " "))
    }
    exit(0)
}
guard arguments.count >= 2, let scenario = scenarios.first(where: { $0.workaround.name == arguments[1] }) else {
    FileHandle.standardError.write(Data("usage: engine-workaround-check SCENARIO [ARGUMENT...] | list\n".utf8))
    exit(2)
}
let given = Array(arguments.dropFirst(2))
guard given.count == scenario.arguments.count else {
    let usage = ([scenario.workaround.name] + scenario.arguments).joined(separator: " ")
    FileHandle.standardError.write(Data("usage: engine-workaround-check \(usage)\n".utf8))
    exit(2)
}
let report = Measurements(scenario.workaround)
report.armWatchdog(after: scenario.limit)
do {
    try await scenario.run(given, report)
} catch {
    report.set("error", "\(error)")
}
report.finish()
