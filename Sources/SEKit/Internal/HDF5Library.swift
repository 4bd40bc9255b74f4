import CHDF5
import Foundation

/// Process-wide gate to libhdf5.
///
/// The serial HDF5 library is not guaranteed to be thread-safe (Debian's build happens to be
/// compiled with `H5_HAVE_THREADSAFE`, others are not), so every SEKit call into it runs
/// inside `locked`, under one recursive lock (recursive because closing a handle in `deinit`
/// may happen while the lock is already held on the same thread).
///
/// HDF5 prints its error stack to stderr by default; `locked` turns that off for the calling
/// thread (`H5Eset_auto2(H5E_DEFAULT, NULL, NULL)`; in a thread-safe build the setting is per
/// thread) and failures are reported as ``HDF5Error/callFailed(path:call:detail:)`` instead,
/// with HDF5's own description read from the error stack (`H5Ewalk2`).
enum HDF5Library {
    private static let lock = NSRecursiveLock()
    /// `H5dont_atexit` first: HDF5's exit handler closes and flushes every file still open, and
    /// a file whose flush or close already failed (a full disk) is half torn down, so the
    /// handler crashed the process (SIGSEGV) after SEKit had reported the error and removed the
    /// file. SEKit closes every file it writes itself (deinit of its handles), so nothing is lost
    /// by skipping the handler.
    private static let initialised: Bool = {
        _ = H5dont_atexit()
        return H5open() >= 0
    }()

    /// Runs `body` holding the process-wide HDF5 lock, with automatic error printing off.
    static func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        _ = initialised
        H5Eset_auto2(sekit_H5E_DEFAULT(), nil, nil)
        return try body()
    }

    /// HDF5's description of the last failure on this thread (innermost two entries of the
    /// default error stack, `H5Ewalk2`), then clears the stack (`H5Eclear2`). Call under the lock.
    static func takeErrorDescription() -> String {
        final class Collector { var messages: [String] = [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        H5Ewalk2(sekit_H5E_DEFAULT(), H5E_WALK_DOWNWARD, { _, entry, context in
            guard let entry, let context, let description = entry.pointee.desc else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            var text = String(cString: description)
            var buffer = [CChar](repeating: 0, count: 256)
            if H5Eget_msg(entry.pointee.min_num, nil, &buffer, buffer.count) > 0 {
                let minor = HDF5Library.string(fromNullTerminated: buffer)
                if !minor.isEmpty, !text.contains(minor) { text += " (\(minor))" }
            }
            collector.messages.append(text)
            return 0
        }, context)
        H5Eclear2(sekit_H5E_DEFAULT())
        return withExtendedLifetime(collector) { collector.messages.suffix(2).joined(separator: "; ") }
    }

    /// Decodes a null-terminated C buffer as UTF-8.
    static func string(fromNullTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws ``HDF5Error/callFailed(path:call:detail:)`` when `status` is negative (herr_t/htri_t). Call under the lock.
    @discardableResult
    static func check(_ status: Int32, _ call: String, path: String) throws(HDF5Error) -> Int32 {
        if status < 0 { throw .callFailed(path: path, call: call, detail: takeErrorDescription()) }
        return status
    }

    /// Throws ``HDF5Error/callFailed(path:call:detail:)`` when `id` is negative (hid_t, hssize_t). Call under the lock.
    @discardableResult
    static func check(_ id: Int64, _ call: String, path: String) throws(HDF5Error) -> Int64 {
        if id < 0 { throw .callFailed(path: path, call: call, detail: takeErrorDescription()) }
        return id
    }
}
