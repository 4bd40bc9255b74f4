import Foundation

/// Where a piece of audio is: a whole file, or a byte range of a file (a WAV member of a tar
/// archive, read in place). Errors about the audio name it by ``name``.
public struct AudioLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file holding the bytes.
    public let path: String
    /// The audio's bytes within the file; nil: the whole file.
    public let bytes: Range<Int>?
    /// How errors name it: the path, or `ARCHIVE:MEMBER` for a member.
    public let name: String

    /// A whole file.
    public init(_ url: URL) { path = url.path; bytes = nil; name = url.path }

    /// A whole file by path.
    public init(path: String) { self.path = path; bytes = nil; name = path }

    /// The member `member` of the archive at `archive`, its data at `bytes`.
    public init(member: String, of archive: String, bytes: Range<Int>) {
        path = archive; self.bytes = bytes; name = archive + ":" + member
    }

    public var description: String { name }
}
