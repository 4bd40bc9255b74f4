import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift, streaming: feed bytes with `update(_:)`, then ``finalize()``.
///
/// Swift on Linux has no CryptoKit; the catalogue hashes source files with this to detect changed content.
/// Checked against `sha256sum` and the FIPS 180-4 examples in the tests.
package struct SHA256 {
    /// Round constants K (FIPS 180-4, section 4.2.2): first 32 bits of the fractional parts
    /// of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Initial hash value H(0) (section 5.3.3).
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    package init() { pending.reserveCapacity(64) }

    /// Feeds `bytes` into the hash.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        totalBytes &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            index = take
            if pending.count == 64 {
                pending.withUnsafeBytes { compress(block: $0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - index >= 64 {
            compress(block: bytes.baseAddress! + index)
            index += 64
        }
        if index < bytes.count { pending.append(contentsOf: bytes[index...]) }
    }

    /// Feeds `data` into the hash.
    package mutating func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// Pads the message (section 5.1.1) and returns the 32-byte digest.
    package mutating func finalize() -> [UInt8] {
        let bitLength = totalBytes &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 64) { compress(block: raw.baseAddress! + offset) }
        }
        pending.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// Lower-case hexadecimal digest of `data`.
    package static func hex(of data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hexString(hasher.finalize())
    }

    /// Lower-case hexadecimal digest of the file at `url`, read in 1 MiB chunks.
    /// - Throws: the Foundation error from opening or reading the file.
    package static func hex(ofFileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return hexString(hasher.finalize())
    }

    package static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](); out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// The compression function on one 512-bit block (section 6.2.2); the message schedule lives on the stack.
    private mutating func compress(block: UnsafeRawPointer) {
        state = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                // Big-endian 32-bit words of the block.
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
            }
            for t in 16..<64 {
                let s0 = Self.rotr(w[t - 15], 7) ^ Self.rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)   // σ0, eq. 4.6
                let s1 = Self.rotr(w[t - 2], 17) ^ Self.rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)    // σ1, eq. 4.7
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            let current = state
            var (a, b, c, d, e, f, g, h) = current
            for t in 0..<64 {
                let bigS1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)   // Σ1, eq. 4.5
                let ch = (e & f) ^ (~e & g)                                          // Ch, eq. 4.2
                let t1 = h &+ bigS1 &+ ch &+ Self.k[t] &+ w[t]
                let bigS0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)   // Σ0, eq. 4.4
                let maj = (a & b) ^ (a & c) ^ (b & c)                               // Maj, eq. 4.3
                let t2 = bigS0 &+ maj
                h = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
            }
            return (current.0 &+ a, current.1 &+ b, current.2 &+ c, current.3 &+ d,
                    current.4 &+ e, current.5 &+ f, current.6 &+ g, current.7 &+ h)
        }
    }
}
