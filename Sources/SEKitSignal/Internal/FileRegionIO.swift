import CSndfile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A byte range of a file behind libsndfile's `SF_VIRTUAL_IO` callbacks (read through `pread`,
/// never past the range): a member of an archive read in place. Read-only; one handle on one
/// thread at a time.
final class FileRegionIO {
    let descriptor: Int32
    let start: Int
    let length: Int
    var position = 0

    /// Opens `path` and checks that `bytes` lies inside it.
    init(path: String, bytes: Range<Int>, name: String) throws(AudioError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .fileNotFound(path: path) }
            throw .unreadable(path: name, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : -1
        guard bytes.lowerBound >= 0, bytes.upperBound <= size else {
            close(fd)
            let range = "\(bytes.lowerBound)..<\(bytes.upperBound)"
            throw .unreadable(path: name, reason: "its bytes \(range) are past the end of \(path) (\(size) bytes)")
        }
        descriptor = fd
        start = bytes.lowerBound
        length = bytes.count
    }

    deinit { close(descriptor) }

    static func from(_ user: UnsafeMutableRawPointer?) -> FileRegionIO {
        Unmanaged<FileRegionIO>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Where a virtual-I/O seek lands: `offset` from the start (`SEEK_SET`), the position
    /// (`SEEK_CUR`) or the end (`SEEK_END`); nil before the start.
    static func seekTarget(_ offset: sf_count_t, _ whence: Int32, position: Int, length: Int) -> Int? {
        let base = whence == SEEK_CUR ? position : whence == SEEK_END ? length : 0
        let target = base + Int(offset)
        return target >= 0 ? target : nil
    }

    /// The callbacks; each finds its region through the user-data pointer.
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in sf_count_t(FileRegionIO.from(user).length) },
            seek: { offset, whence, user in
                let region = FileRegionIO.from(user)
                let target = FileRegionIO.seekTarget(offset, whence, position: region.position, length: region.length)
                guard let target else { return -1 }
                region.position = target
                return sf_count_t(target)
            },
            read: { pointer, count, user in
                let region = FileRegionIO.from(user)
                let wanted = max(0, min(Int(count), region.length - region.position))
                guard wanted > 0, let pointer else { return 0 }
                var done = 0
                while done < wanted {
                    let got = pread(region.descriptor, pointer + done, wanted - done, off_t(region.start + region.position + done))
                    if got <= 0 { break }
                    done += got
                }
                region.position += done
                return sf_count_t(done)
            },
            write: { _, _, _ in 0 },
            tell: { user in sf_count_t(FileRegionIO.from(user).position) })
    }
}
