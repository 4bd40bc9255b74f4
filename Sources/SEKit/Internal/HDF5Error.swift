/// A libhdf5 call that failed, thrown by the checked wrappers of `Internal/` (``HDF5Library``,
/// ``HDF5Handle``). It names the file, the C call and the object the call was about; the
/// Features layer reports it to users as ``HDF5Error/callFailed(path:call:detail:)``.
enum HDF5Error: Error, Equatable, CustomStringConvertible, Sendable {
    /// `call` returned a negative status or id (`herr_t`, `htri_t`, `hid_t`, `hssize_t`) for the
    /// file at `path`. `call` is the C function with the object's name in parentheses where the
    /// call is about a named dataset, group or attribute (`H5Dopen2(noisy)`); `detail` is HDF5's
    /// own explanation, read from its error stack (empty when it gave none).
    case callFailed(path: String, call: String, detail: String)

    /// Short machine-readable code, stable across releases.
    var code: String {
        switch self {
        case .callFailed: "call-failed"
        }
    }

    /// The file the failing call was made on.
    var path: String {
        switch self {
        case .callFailed(let path, _, _): path
        }
    }

    public var description: String {
        switch self {
        case .callFailed(let path, let call, let detail):
            "\(path): \(call) failed\(detail.isEmpty ? "" : ": \(detail)")"
        }
    }
}
