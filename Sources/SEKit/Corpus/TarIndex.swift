import Foundation

/// The members of a tar archive and where their bytes are, read from its headers (ustar, and the
/// GNU and POSIX forms of plain files; other entry kinds are listed but carry no audio). Every
/// header's checksum is checked, and the archive must end with its end-of-archive block: a tar
/// cut short (a copy interrupted) or overwritten in the middle is refused, naming the archive and
/// the member where it goes wrong.
struct TarIndex: Sendable {
    /// A member: its name and the byte range of its data in the archive.
    struct Member: Sendable, Equatable {
        var name: String
        var bytes: Range<Int>
    }

    let path: String
    /// The members, in archive order.
    let members: [Member]
    /// Members by name (each name once: a repeated name is refused).
    let byName: [String: Member]

    /// Reads the headers of the archive at `path`.
    /// - Throws: `AudioError/fileNotFound(path:)` when it does not exist, `AudioError/unreadable(path:reason:)`
    ///   naming the archive and what is wrong (truncated, a bad header, no end-of-archive block).
    init(path: String) throws(AudioError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw .unreadable(path: path, reason: "cannot open the archive") }
            throw .fileNotFound(path: path)
        }
        defer { try? handle.close() }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        let block = TarWriter.blockBytes
        var members: [Member] = []
        var offset = 0
        var longName: String?
        while true {
            let last = members.last.map { " (after member \($0.name))" } ?? ""
            guard offset + block <= size else {
                throw .unreadable(path: path, reason: "truncated tar: it ends at byte \(size) without an end-of-archive block\(last)")
            }
            let header = Self.read(handle, at: offset, count: block)
            guard header.count == block else { throw .unreadable(path: path, reason: "cannot read the header at byte \(offset)") }
            if header.allSatisfy({ $0 == 0 }) { break }
            guard let stored = Self.number(header[148..<156]), stored == Self.checksum(header) else {
                throw .unreadable(path: path, reason: "corrupt tar: the header at byte \(offset) fails its checksum\(last)")
            }
            guard let memberSize = Self.number(header[124..<136]) else {
                throw .unreadable(path: path, reason: "corrupt tar: the header at byte \(offset) has no size\(last)")
            }
            let data = offset + block
            guard data + memberSize <= size else {
                let name = Self.text(header[0..<100])
                let left = max(0, size - data)
                throw .unreadable(path: path, reason: "truncated tar: member \(name) holds \(memberSize) bytes, \(left) are left")
            }
            let type = header[156]
            let prefix = Self.text(header[345..<500])
            var name = Self.text(header[0..<100])
            if !prefix.isEmpty && header[257..<262].elementsEqual("ustar".utf8) { name = prefix + "/" + name }
            switch type {
            case UInt8(ascii: "L"):   // GNU long name: the next header's name
                longName = Self.text(Self.read(handle, at: data, count: memberSize)[...])
            case UInt8(ascii: "0"), 0:
                members.append(Member(name: longName ?? name, bytes: data..<(data + memberSize)))
                longName = nil
            default:
                longName = nil
            }
            offset = data + TarWriter.padded(memberSize)
        }
        var byName: [String: Member] = [:]
        for member in members {
            // A member written twice would be read as one copy here and another elsewhere (Python's
            // streaming reader takes the first): refused, as SEKitArchiveDataset refuses it.
            if let earlier = byName.updateValue(member, forKey: member.name) {
                throw .unreadable(path: path, reason: "member \(member.name) appears twice (at bytes \(earlier.bytes.lowerBound) and "
                                  + "\(member.bytes.lowerBound)); a shard holds each member once")
            }
        }
        self.members = members
        self.byName = byName
    }

    private static func read(_ handle: FileHandle, at offset: Int, count: Int) -> [UInt8] {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return [] }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// A NUL- or space-terminated octal field.
    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        let digits = field.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: 8)
    }

    private static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The header's checksum: the sum of its bytes with the checksum field taken as spaces.
    private static func checksum(_ header: [UInt8]) -> Int {
        header.enumerated().reduce(0) { sum, entry in sum + ((148..<156).contains(entry.offset) ? 32 : Int(entry.element)) }
    }
}
