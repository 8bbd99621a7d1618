import Foundation

/// The process's environment variables.
enum ProcessEnvironment {
    static var current: [String: String] { ProcessInfo.processInfo.environment }
}
