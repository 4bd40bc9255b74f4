import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way SEKit lists the files below a folder (inputs of `mix`, `enhance`, `score` and
/// `catalog import`): recursively, in sorted order, following symbolic links to files and to
/// folders (the folder given may itself be a link). A link back to a folder being walked (a loop),
/// a link that leads nowhere and a folder that cannot be listed are reported, never followed or
/// dropped without a word.
enum FolderWalk {
    /// A file found: its path as reached (below the folder given, through links) and relative to that folder.
    struct File: Sendable, Equatable {
        var path: String
        var relative: String
    }

    /// Something below the folder that could not be walked, and why.
    struct Problem: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// A folder whose entries cannot be read (permissions).
            case unlistable
            /// A symbolic link to nothing.
            case danglingLink
            /// A symbolic link that leads back to itself or to a folder that holds it (following it would never end).
            case loop
        }
        var path: String
        var kind: Kind
        var reason: String {
            switch kind {
            case .unlistable: "cannot list this folder (permission denied)"
            case .danglingLink: "symbolic link to nothing"
            case .loop: "symbolic link loop (it leads back to itself or to a folder that holds it); not followed"
            }
        }
    }

    /// Every file below `root` (links followed), sorted by relative path.
    /// - Parameter skipsHidden: leave out entries whose name starts with `.` (files and folders).
    static func files(in root: String, skipsHidden: Bool = false) -> (files: [File], problems: [Problem]) {
        var files: [File] = [], problems: [Problem] = []
        var ancestors: Set<String> = []
        func walk(_ folder: String, relative: String) {
            let real = realPath(folder) ?? folder
            guard ancestors.insert(real).inserted else {
                problems.append(Problem(path: folder, kind: .loop))
                return
            }
            defer { ancestors.remove(real) }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                problems.append(Problem(path: folder, kind: .unlistable))
                return
            }
            for name in names.sorted() where !(skipsHidden && name.hasPrefix(".")) {
                let path = folder + "/" + name, inside = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard stat(path, &status) == 0 else {
                    let failure = errno
                    var link = stat()
                    if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                        problems.append(Problem(path: path, kind: failure == ELOOP ? .loop : .danglingLink))
                    }
                    continue
                }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: walk(path, relative: inside)
                case S_IFREG: files.append(File(path: path, relative: inside))
                default: continue  // devices, pipes, sockets: never audio files
                }
            }
        }
        walk(root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root, relative: "")
        files.sort { $0.relative < $1.relative }
        return (files, problems)
    }

    /// `realpath(3)` of `path`, nil when it cannot be resolved.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
