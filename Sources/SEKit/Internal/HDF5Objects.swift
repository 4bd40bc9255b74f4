import CHDF5

/// Files, groups, links, types and dataspaces: checked wrappers over `H5F*`, `H5G*`, `H5L*`,
/// `H5T*`, `H5S*`. Every function takes the HDF5 lock and throws
/// ``HDF5Error/callFailed(path:call:detail:)`` naming the file and the C call on failure.
extension HDF5Handle {
    // MARK: Files

    /// Creates (truncating) the file at `path` (`H5Fcreate` with `H5F_ACC_TRUNC`).
    static func createFile(path: String) throws(HDF5Error) -> HDF5Handle {
        try make(.file, "H5Fcreate", path: path) {
            H5Fcreate(path, sekit_H5F_ACC_TRUNC(), sekit_H5P_DEFAULT(), sekit_H5P_DEFAULT())
        }
    }

    /// Opens the file at `path` read-only (`H5Fopen` with `H5F_ACC_RDONLY`).
    static func openFile(path: String) throws(HDF5Error) -> HDF5Handle {
        try make(.file, "H5Fopen", path: path) {
            H5Fopen(path, sekit_H5F_ACC_RDONLY(), sekit_H5P_DEFAULT())
        }
    }

    /// Flushes the whole file to the operating system (`H5Fflush`, global scope).
    func flush() throws(HDF5Error) {
        try check("H5Fflush") { H5Fflush(id, H5F_SCOPE_GLOBAL) }
    }

    // MARK: Groups and links

    /// Creates the child group `name` without modification times, so identical content gives
    /// identical bytes (`H5Pset_obj_track_times(0)`, `H5Gcreate2`).
    func createGroup(_ name: String) throws(HDF5Error) -> HDF5Handle {
        let create = try Self.make(.propertyList, "H5Pcreate(H5P_GROUP_CREATE)", path: path) {
            H5Pcreate(sekit_H5P_GROUP_CREATE())
        }
        try create.check("H5Pset_obj_track_times") { H5Pset_obj_track_times(create.id, false) }
        return try Self.make(.group, "H5Gcreate2(\(name))", path: path) {
            H5Gcreate2(id, name, sekit_H5P_DEFAULT(), create.id, sekit_H5P_DEFAULT())
        }
    }

    /// Opens the child group `name` (`H5Gopen2`).
    func openGroup(_ name: String) throws(HDF5Error) -> HDF5Handle {
        try Self.make(.group, "H5Gopen2(\(name))", path: path) { H5Gopen2(id, name, sekit_H5P_DEFAULT()) }
    }

    /// Whether a link `name` exists in this group (`H5Lexists`; only direct children).
    func linkExists(_ name: String) throws(HDF5Error) -> Bool {
        try HDF5Library.locked { () throws(HDF5Error) -> Bool in
            try HDF5Library.check(H5Lexists(id, name, sekit_H5P_DEFAULT()), "H5Lexists(\(name))", path: path) > 0
        }
    }

    /// Names of the links in this group, in name order (`H5Gget_info`, `H5Lget_name_by_idx`).
    func childNames() throws(HDF5Error) -> [String] {
        try HDF5Library.locked { () throws(HDF5Error) -> [String] in
            var info = H5G_info_t()
            try HDF5Library.check(H5Gget_info(id, &info), "H5Gget_info", path: path)
            var names: [String] = []
            for index in 0..<info.nlinks {
                let length = try HDF5Library.check(
                    Int64(H5Lget_name_by_idx(id, ".", H5_INDEX_NAME, H5_ITER_INC, index, nil, 0, sekit_H5P_DEFAULT())),
                    "H5Lget_name_by_idx", path: path)
                var buffer = [CChar](repeating: 0, count: Int(length) + 1)
                try HDF5Library.check(
                    Int64(H5Lget_name_by_idx(id, ".", H5_INDEX_NAME, H5_ITER_INC, index, &buffer, buffer.count, sekit_H5P_DEFAULT())),
                    "H5Lget_name_by_idx", path: path)
                names.append(HDF5Library.string(fromNullTerminated: buffer))
            }
            return names
        }
    }

    /// Whether the child `name` is a dataset (`H5Oopen`, `H5Iget_type`, `H5Oclose`).
    func childIsDataset(_ name: String) throws(HDF5Error) -> Bool {
        try HDF5Library.locked { () throws(HDF5Error) -> Bool in
            let object = try HDF5Library.check(H5Oopen(id, name, sekit_H5P_DEFAULT()), "H5Oopen(\(name))", path: path)
            defer { H5Oclose(object) }
            return H5Iget_type(object) == H5I_DATASET
        }
    }

    // MARK: Types

    /// An IEEE 754 binary16 little-endian type (sign bit 15, exponent bits 10-14 with bias 15,
    /// mantissa bits 0-9), built from `H5T_IEEE_F32LE` with `H5Tset_fields`, `H5Tset_size`,
    /// `H5Tset_ebias` because HDF5 1.10 has no predefined half type. h5py reads it as `float16`.
    static func float16Type(path: String) throws(HDF5Error) -> HDF5Handle {
        let type = try make(.datatype, "H5Tcopy", path: path) { H5Tcopy(sekit_H5T_IEEE_F32LE()) }
        try type.check("H5Tset_fields") { H5Tset_fields(type.id, 15, 10, 5, 0, 10) }
        try type.check("H5Tset_size") { H5Tset_size(type.id, 2) }
        try type.check("H5Tset_ebias") { H5Tset_ebias(type.id, 15) }
        return type
    }

    /// A variable-length UTF-8 string type (`H5Tcopy(H5T_C_S1)`, `H5Tset_size(H5T_VARIABLE)`, `H5Tset_cset`).
    static func variableStringType(path: String) throws(HDF5Error) -> HDF5Handle {
        let type = try make(.datatype, "H5Tcopy", path: path) { H5Tcopy(sekit_H5T_C_S1()) }
        try type.check("H5Tset_size") { H5Tset_size(type.id, sekit_H5T_VARIABLE()) }
        try type.check("H5Tset_cset") { H5Tset_cset(type.id, H5T_CSET_UTF8) }
        return type
    }

    /// A fixed-length string type of `size` bytes, null-padded (`H5Tcopy(H5T_C_S1)`, `H5Tset_size`, `H5Tset_strpad`).
    static func fixedStringType(size: Int, path: String) throws(HDF5Error) -> HDF5Handle {
        let type = try make(.datatype, "H5Tcopy", path: path) { H5Tcopy(sekit_H5T_C_S1()) }
        try type.check("H5Tset_size") { H5Tset_size(type.id, max(size, 1)) }
        try type.check("H5Tset_strpad") { H5Tset_strpad(type.id, H5T_STR_NULLPAD) }
        return type
    }

    // MARK: Dataspaces

    /// A simple dataspace with dimensions `current`; `maximum` nil entries are unlimited (`H5Screate_simple`).
    static func simpleSpace(_ current: [Int], maximum: [Int?]? = nil, path: String) throws(HDF5Error) -> HDF5Handle {
        let dims = current.map { hsize_t($0) }
        let maxDims = maximum?.map { $0.map { hsize_t($0) } ?? sekit_H5S_UNLIMITED() }
        return try make(.dataspace, "H5Screate_simple", path: path) {
            if let maxDims { H5Screate_simple(Int32(dims.count), dims, maxDims) } else { H5Screate_simple(Int32(dims.count), dims, nil) }
        }
    }

    /// A scalar dataspace (`H5Screate(H5S_SCALAR)`).
    static func scalarSpace(path: String) throws(HDF5Error) -> HDF5Handle {
        try make(.dataspace, "H5Screate", path: path) { H5Screate(H5S_SCALAR) }
    }

    /// The dimensions of this dataspace (`H5Sget_simple_extent_ndims`, `H5Sget_simple_extent_dims`); empty for a scalar.
    func dimensions() throws(HDF5Error) -> [Int] {
        try HDF5Library.locked { () throws(HDF5Error) -> [Int] in
            let rank = try HDF5Library.check(H5Sget_simple_extent_ndims(id), "H5Sget_simple_extent_ndims", path: path)
            var dims = [hsize_t](repeating: 0, count: Int(rank))
            try HDF5Library.check(H5Sget_simple_extent_dims(id, &dims, nil), "H5Sget_simple_extent_dims", path: path)
            return dims.map { Int($0) }
        }
    }
}
