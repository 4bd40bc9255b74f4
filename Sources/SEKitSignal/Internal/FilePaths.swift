import Foundation

/// Path comparisons for refusing outputs that overlap inputs.
package enum FilePaths {
    /// `path` made absolute, standardised and with symbolic links resolved (as far as it exists).
    package static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether `path` is `folder` or lies below it (both resolved).
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The description of `error` for a message that already names `path`: without a leading
    /// `PATH: ` (errors name their file, and `X: X: cannot read` says it twice).
    package static func reason(_ error: Error, at path: String) -> String {
        let text = "\(error)"
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
