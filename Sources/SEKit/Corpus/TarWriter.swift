import Foundation

/// Writes a POSIX ustar archive, deterministically: every member a regular file with mode 0644,
/// uid and gid 0, empty owner names, mtime 0, in the order added; 512-byte blocks, and the two
/// zero blocks that end an archive. The archive is written under a temporary name and appears
/// under its final name only when ``finish()`` renames it (`AtomicFile`): a killed writer
/// leaves no archive, never a short one.
final class TarWriter {
    /// The archive's final path.
    let url: URL
    private let temporary: URL
    private let handle: FileHandle
    private var finished = false

    /// The tar block size, bytes.
    static let blockBytes = 512
    /// Longest member name a ustar header holds without a prefix, bytes.
    static let longestName = 100
    /// Largest member size the 11 octal digits of a header hold, bytes.
    static let largestMember = 0o77777777777

    /// Creates the temporary file of the archive `url`.
    init(url: URL) throws {
        self.url = url
        temporary = AtomicFile.temporaryURL(for: url)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CorpusError.outputConflict(path: url.path, reason: "cannot create its temporary file \(temporary.lastPathComponent)")
        }
        handle = try FileHandle(forWritingTo: temporary)
    }

    deinit {
        try? handle.close()
        if !finished { try? FileManager.default.removeItem(at: temporary) }
    }

    /// The archive bytes of the member `name` whose data is the concatenation of `parts` (a WAV
    /// header and its samples, say): its header, the data, and zeros to a whole block.
    static func member(name: String, parts: [UnsafeRawBufferPointer]) throws -> Data {
        let size = parts.reduce(0) { $0 + $1.count }
        var block = try header(name: name, size: size)
        block.reserveCapacity(blockBytes + padded(size))
        for part in parts { block.append(contentsOf: part) }
        block.append(contentsOf: repeatElement(0, count: padded(size) - size))
        return block
    }

    /// Appends members made by ``member(name:parts:)`` (several at once: one write).
    func append(_ members: Data) throws {
        try handle.write(contentsOf: members)
    }

    /// Ends the archive (two zero blocks), closes it and renames it onto its final name.
    func finish() throws {
        try handle.write(contentsOf: Data(count: 2 * Self.blockBytes))
        try handle.close()
        try AtomicFile.commit(temporary, to: url)
        finished = true
    }

    /// `size` rounded up to whole blocks.
    static func padded(_ size: Int) -> Int { (size + blockBytes - 1) / blockBytes * blockBytes }

    /// The 512-byte ustar header of a regular file.
    static func header(name: String, size: Int) throws -> Data {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= longestName else {
            throw CorpusError.invalidInput(name: "archive", value: name, reason: "a tar member name must be 1 to \(longestName) bytes")
        }
        guard size <= largestMember else {
            throw CorpusError.invalidInput(name: "archive", value: name, reason: "\(size) bytes is more than a tar member holds")
        }
        var block = [UInt8](repeating: 0, count: blockBytes)
        func put(_ bytes: [UInt8], at offset: Int) { for (i, b) in bytes.enumerated() { block[offset + i] = b } }
        func octal(_ value: Int, digits: Int) -> [UInt8] {
            let text = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, digits - text.count)) + text).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, digits: 7), at: 100)   // mode
        put(octal(0, digits: 7), at: 108)       // uid
        put(octal(0, digits: 7), at: 116)       // gid
        put(octal(size, digits: 11), at: 124)
        put(octal(0, digits: 11), at: 136)      // mtime
        put(Array("        ".utf8), at: 148)    // checksum field counts as spaces while summed
        block[156] = UInt8(ascii: "0")          // regular file
        put(Array("ustar".utf8) + [0] + Array("00".utf8), at: 257)
        put(octal(0, digits: 7), at: 329)       // devmajor
        put(octal(0, digits: 7), at: 337)       // devminor
        let checksum = block.reduce(0) { $0 + Int($1) }
        put(octal(checksum, digits: 6) + [UInt8(ascii: " ")], at: 148)
        return Data(block)
    }
}
