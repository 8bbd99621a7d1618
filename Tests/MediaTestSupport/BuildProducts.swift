import Foundation

/// The executables the package builds, found next to the running test bundle.
public enum BuildProducts {
    /// The folder that holds the build's products (`.build/debug`, say).
    public static var directory: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        // On Linux the test runner is `<products>/<package>PackageTests.xctest`.
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("mediaprobe").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.path == "/" ? runner.deletingLastPathComponent() : folder
    }

    /// The path of an executable product.
    /// - Parameter name: The product's name, for example `mediaprobe`.
    public static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
