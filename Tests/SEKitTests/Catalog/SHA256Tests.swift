import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct SHA256Tests {
    /// FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the empty string.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hex(of: Data(message.utf8)) == digest)
    }

    @Test func millionAsAndChunkBoundaries() {
        // One million 'a' (FIPS 180-4 example), fed in uneven pieces to exercise the buffering.
        var hasher = SHA256()
        let block = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        var offset = 0
        for size in [1, 63, 64, 65, 127, 1000, 55, 56, 57] {
            block[offset..<offset + size].withUnsafeBytes { hasher.update($0) }
            offset += size
        }
        block[offset...].withUnsafeBytes { hasher.update($0) }
        #expect(SHA256.hexString(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func matchesSha256sumOnFiles() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var files = [folder.file("a.wav")]
        try CatalogTestSupport.writeWAV(files[0], seconds: 0.37)
        files.append(Fixtures.url("speech/arctic_a0007.wav"))
        for file in files {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let expected = String(output.prefix(64))
            #expect(expected.count == 64)
            #expect(try SHA256.hex(ofFileAt: file) == expected, "\(file.path)")
        }
    }
}
