import CHDF5

/// One open HDF5 identifier (file, group, dataset, dataspace, datatype, property list or
/// attribute) of the file at `path`, closed in `deinit` with the matching `H5?close`
/// (`H5Fclose`, `H5Gclose`, `H5Dclose`, `H5Sclose`, `H5Tclose`, `H5Pclose`, `H5Aclose`),
/// under the HDF5 lock, unless ``close()`` closed it first.
///
/// Create one only from a checked id we own (never from a predefined type such as
/// `H5T_NATIVE_FLOAT`), so `id` is always valid until closed.
final class HDF5Handle: @unchecked Sendable {
    enum Kind: Sendable { case file, group, dataset, dataspace, datatype, propertyList, attribute }

    let id: hid_t
    let kind: Kind
    /// The file this identifier belongs to, named in every error.
    let path: String
    private var isOpen = true

    private init(_ id: hid_t, _ kind: Kind, path: String) {
        self.id = id
        self.kind = kind
        self.path = path
    }

    /// Runs `open` (the C call named `call`) under the lock, checks the id, wraps it.
    static func make(_ kind: Kind, _ call: String, path: String, _ open: () -> hid_t) throws(HDF5Error) -> HDF5Handle {
        try HDF5Library.locked { () throws(HDF5Error) -> HDF5Handle in
            HDF5Handle(try HDF5Library.check(open(), call, path: path), kind, path: path)
        }
    }

    /// Closes now and reports failure (for a file, this is where buffered data reaches the disk).
    func close() throws(HDF5Error) {
        try HDF5Library.locked { () throws(HDF5Error) in
            guard isOpen else { return }
            isOpen = false
            try HDF5Library.check(Self.closeFunction(kind)(id), Self.closeName(kind), path: path)
        }
    }

    deinit {
        guard isOpen else { return }
        let id = id, kind = kind
        _ = HDF5Library.locked { Self.closeFunction(kind)(id) }
    }

    private static func closeFunction(_ kind: Kind) -> (hid_t) -> herr_t {
        switch kind {
        case .file: H5Fclose
        case .group: H5Gclose
        case .dataset: H5Dclose
        case .dataspace: H5Sclose
        case .datatype: H5Tclose
        case .propertyList: H5Pclose
        case .attribute: H5Aclose
        }
    }

    private static func closeName(_ kind: Kind) -> String {
        switch kind {
        case .file: "H5Fclose"
        case .group: "H5Gclose"
        case .dataset: "H5Dclose"
        case .dataspace: "H5Sclose"
        case .datatype: "H5Tclose"
        case .propertyList: "H5Pclose"
        case .attribute: "H5Aclose"
        }
    }

    /// Runs the C call named `call` under the lock and throws if it returns a negative status.
    func check(_ call: String, _ body: () -> herr_t) throws(HDF5Error) {
        try HDF5Library.locked { () throws(HDF5Error) in
            _ = try HDF5Library.check(body(), call, path: path)
        }
    }
}
