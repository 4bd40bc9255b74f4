import CHDF5

/// Scalar attributes: checked wrappers over `H5A*`. Integers are stored as `H5T_STD_I64LE`,
/// doubles as `H5T_IEEE_F64LE`, strings as variable-length UTF-8 (h5py reads them as
/// `numpy.int64`, `numpy.float64` and `str`).
extension HDF5Handle {
    /// Writes the scalar attribute `name` on this object (`H5Acreate2`, `H5Awrite`); it must not exist yet.
    func writeAttribute(_ name: String, _ value: AttributeValue) throws(HDF5Error) {
        let space = try Self.scalarSpace(path: path)
        let stringType = try Self.variableStringType(path: path)
        let fileType: hid_t, memoryType: hid_t
        switch value {
        case .int: (fileType, memoryType) = (sekit_H5T_STD_I64LE(), sekit_H5T_NATIVE_INT64())
        case .double: (fileType, memoryType) = (sekit_H5T_IEEE_F64LE(), sekit_H5T_NATIVE_DOUBLE())
        case .string: (fileType, memoryType) = (stringType.id, stringType.id)
        }
        let attribute = try Self.make(.attribute, "H5Acreate2(\(name))", path: path) {
            H5Acreate2(id, name, fileType, space.id, sekit_H5P_DEFAULT(), sekit_H5P_DEFAULT())
        }
        try attribute.check("H5Awrite(\(name))") {
            switch value {
            case .int(let integer):
                var stored = Int64(integer)
                return H5Awrite(attribute.id, memoryType, &stored)
            case .double(let real):
                var stored = real
                return H5Awrite(attribute.id, memoryType, &stored)
            case .string(let text):
                return text.withCString { pointer in
                    var stored: UnsafePointer<CChar>? = pointer
                    return H5Awrite(attribute.id, memoryType, &stored)
                }
            }
        }
    }

    /// Reads every scalar integer, float and string attribute of this object (`H5Aiterate2`,
    /// `H5Aopen`, `H5Aread`). Attributes of other classes or with more than one element are skipped.
    func readAttributes() throws(HDF5Error) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for name in try attributeNames() {
            let attribute = try Self.make(.attribute, "H5Aopen(\(name))", path: path) { H5Aopen(id, name, sekit_H5P_DEFAULT()) }
            let space = try Self.make(.dataspace, "H5Aget_space", path: path) { H5Aget_space(attribute.id) }
            guard try space.dimensions().reduce(1, *) == 1 else { continue }
            let stored = try attribute.storedType()
            switch try stored.typeClassAndSize().typeClass {
            case H5T_INTEGER:
                var value: Int64 = 0
                try attribute.check("H5Aread(\(name))") { H5Aread(attribute.id, sekit_H5T_NATIVE_INT64(), &value) }
                result[name] = .int(Int(value))
            case H5T_FLOAT:
                var value: Double = 0
                try attribute.check("H5Aread(\(name))") { H5Aread(attribute.id, sekit_H5T_NATIVE_DOUBLE(), &value) }
                result[name] = .double(value)
            case H5T_STRING:
                result[name] = .string(try attribute.readStrings().first ?? "")
            default:
                continue
            }
        }
        return result
    }

    /// Names of this object's attributes in creation-independent name order (`H5Aiterate2`).
    private func attributeNames() throws(HDF5Error) -> [String] {
        final class Names { var values: [String] = [] }
        let names = Names()
        try HDF5Library.locked { () throws(HDF5Error) in
            var index: hsize_t = 0
            let status = H5Aiterate2(id, H5_INDEX_NAME, H5_ITER_INC, &index, { _, name, _, context in
                guard let name, let context else { return 0 }
                Unmanaged<Names>.fromOpaque(context).takeUnretainedValue().values.append(String(cString: name))
                return 0
            }, Unmanaged.passUnretained(names).toOpaque())
            try HDF5Library.check(status, "H5Aiterate2", path: path)
        }
        return withExtendedLifetime(names) { names.values }
    }
}
