import CPNG
import Foundation

/// PNG encoding and decoding of 8-bit RGBA images through libpng's simplified API
/// (`png_image_write_to_memory`, `png_image_begin_read_from_memory`).
enum PNGCodec {
    /// Why libpng failed: its own message.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { "libpng: \(message)" }
    }

    /// The PNG file of an RGBA image (`rgba.count == width · height · 4`, rows top to bottom).
    static func encode(rgba: [UInt8], width: Int, height: Int) throws(Failure) -> Data {
        precondition(rgba.count == width * height * 4, "PNGCodec.encode: buffer size")
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(sekit_png_format_rgba)
        var size: png_alloc_size_t = 0
        // First call: the size; second: the bytes.
        let sized = rgba.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        guard sized != 0, size > 0 else { throw Failure(message: message(of: image)) }
        var data = Data(count: Int(size))
        let written = data.withUnsafeMutableBytes { out in
            rgba.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        guard written != 0 else { throw Failure(message: message(of: image)) }
        return data.prefix(Int(size))
    }

    /// The RGBA pixels (rows top to bottom), width and height of a PNG file's bytes.
    static func decode(_ data: Data) throws(Failure) -> (rgba: [UInt8], width: Int, height: Int) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw Failure(message: message(of: image)) }
        image.format = png_uint_32(sekit_png_format_rgba)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { throw Failure(message: message(of: image)) }
        return (pixels, width, height)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
