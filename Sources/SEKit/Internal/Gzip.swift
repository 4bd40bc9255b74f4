import CZlib
import Foundation

/// gzip compression through zlib (`deflateInit2` with a gzip wrapper, `deflate`, `deflateEnd`).
/// The output is deterministic: zlib writes the gzip header with mtime 0, no file name, and its
/// build's OS byte, so the same input gives the same bytes.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `data` as one gzip member, compressed at `level` (0-9).
    static func compress(_ data: Data, level: Int32 = 6) throws -> Data {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer rather than a zlib one.
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(description: "zlib: deflateInit2 failed (\(status))") }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(data.count))) + 64
        var output = Data(count: capacity)
        var input = data
        let result: Int32 = input.withUnsafeMutableBytes { source in
            output.withUnsafeMutableBytes { target in
                stream.next_in = source.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw Failure(description: "zlib: deflate did not finish (\(result))") }
        output.count = Int(stream.total_out)
        return output
    }
}
