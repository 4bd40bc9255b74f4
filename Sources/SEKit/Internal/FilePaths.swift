import Foundation

/// Path comparisons for refusing outputs that overlap inputs.
enum FilePaths {
    /// `path` made absolute, standardised and with symbolic links resolved (as far as it exists).
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether `path` is `folder` or lies below it (both resolved).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
