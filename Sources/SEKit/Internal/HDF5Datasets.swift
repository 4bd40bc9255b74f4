import CHDF5
import Foundation

/// Datasets: checked wrappers over `H5D*` and the dataset creation/access property lists
/// (`H5P*`). Every function takes the HDF5 lock and throws
/// ``HDF5Error/callFailed(path:call:detail:)`` naming the file and the C call on failure.
extension HDF5Handle {
    /// Creates an extendible 2-D dataset `[0, columns]` (rows unlimited) of file type `type`,
    /// chunked `[chunkRows, columns]`, with shuffle + deflate at `deflateLevel` when given
    /// (`H5Pset_chunk`, `H5Pset_shuffle`, `H5Pset_deflate`, `H5Dcreate2`). The dataset's chunk
    /// cache holds `cacheBytes` (`H5Pset_chunk_cache`, preemption weight 1: fully written chunks
    /// leave first) so appends never re-read and re-compress a partial chunk.
    func createExtendibleMatrix(_ name: String, columns: Int, type: hid_t, chunkRows: Int, deflateLevel: Int?,
                                cacheBytes: Int) throws(HDF5Error) -> HDF5Handle {
        let space = try Self.simpleSpace([0, columns], maximum: [nil, columns], path: path)
        let create = try Self.datasetCreation(path: path)
        let chunk: [hsize_t] = [hsize_t(chunkRows), hsize_t(columns)]
        try create.check("H5Pset_chunk") { H5Pset_chunk(create.id, 2, chunk) }
        if let deflateLevel {
            try create.check("H5Pset_shuffle") { H5Pset_shuffle(create.id) }
            try create.check("H5Pset_deflate") { H5Pset_deflate(create.id, UInt32(deflateLevel)) }
        }
        let access = try Self.datasetAccess(cacheBytes: cacheBytes, path: path)
        return try Self.make(.dataset, "H5Dcreate2(\(name))", path: path) {
            H5Dcreate2(id, name, type, space.id, sekit_H5P_DEFAULT(), create.id, access.id)
        }
    }

    /// Creates a contiguous dataset `name` of file type `type` over `space` (`H5Dcreate2`).
    func createDataset(_ name: String, type: hid_t, space: HDF5Handle) throws(HDF5Error) -> HDF5Handle {
        let create = try Self.datasetCreation(path: path)
        return try Self.make(.dataset, "H5Dcreate2(\(name))", path: path) {
            H5Dcreate2(id, name, type, space.id, sekit_H5P_DEFAULT(), create.id, sekit_H5P_DEFAULT())
        }
    }

    /// Dataset creation properties without modification times, so identical content gives
    /// identical bytes (`H5Pcreate(H5P_DATASET_CREATE)`, `H5Pset_obj_track_times(0)`).
    static func datasetCreation(path: String) throws(HDF5Error) -> HDF5Handle {
        let create = try make(.propertyList, "H5Pcreate(H5P_DATASET_CREATE)", path: path) {
            H5Pcreate(sekit_H5P_DATASET_CREATE())
        }
        try create.check("H5Pset_obj_track_times") { H5Pset_obj_track_times(create.id, false) }
        return create
    }

    /// Opens the dataset `name`, with a chunk cache of `cacheBytes` when given (`H5Dopen2`).
    func openDataset(_ name: String, cacheBytes: Int? = nil) throws(HDF5Error) -> HDF5Handle {
        let access = try cacheBytes.map { bytes throws(HDF5Error) in try Self.datasetAccess(cacheBytes: bytes, path: path) }
        return try Self.make(.dataset, "H5Dopen2(\(name))", path: path) {
            H5Dopen2(id, name, access?.id ?? sekit_H5P_DEFAULT())
        }
    }

    private static func datasetAccess(cacheBytes: Int, path: String) throws(HDF5Error) -> HDF5Handle {
        let access = try make(.propertyList, "H5Pcreate(H5P_DATASET_ACCESS)", path: path) {
            H5Pcreate(sekit_H5P_DATASET_ACCESS())
        }
        // 521 hash slots (a prime, HDF5's default) is plenty for the few chunks a cache of this size holds.
        try access.check("H5Pset_chunk_cache") { H5Pset_chunk_cache(access.id, 521, cacheBytes, 1.0) }
        return access
    }

    /// This dataset's dataspace (`H5Dget_space`).
    func datasetSpace() throws(HDF5Error) -> HDF5Handle {
        try Self.make(.dataspace, "H5Dget_space", path: path) { H5Dget_space(id) }
    }

    /// This dataset's (or attribute's) file type (`H5Dget_type` / `H5Aget_type`).
    func storedType() throws(HDF5Error) -> HDF5Handle {
        let kind = kind
        return try Self.make(.datatype, kind == .attribute ? "H5Aget_type" : "H5Dget_type", path: path) {
            kind == .attribute ? H5Aget_type(id) : H5Dget_type(id)
        }
    }

    /// The class and size in bytes of a datatype (`H5Tget_class`, `H5Tget_size`).
    func typeClassAndSize() throws(HDF5Error) -> (typeClass: H5T_class_t, size: Int) {
        try HDF5Library.locked { () throws(HDF5Error) -> (typeClass: H5T_class_t, size: Int) in
            let typeClass = H5Tget_class(id)
            try HDF5Library.check(typeClass.rawValue, "H5Tget_class", path: path)
            let size = H5Tget_size(id)
            if size == 0 { try HDF5Library.check(Int32(-1), "H5Tget_size", path: path) }
            return (typeClass, size)
        }
    }

    /// Whether a string datatype is variable-length (`H5Tis_variable_str`).
    func isVariableString() throws(HDF5Error) -> Bool {
        try HDF5Library.locked { () throws(HDF5Error) -> Bool in
            try HDF5Library.check(H5Tis_variable_str(id), "H5Tis_variable_str", path: path) > 0
        }
    }

    /// The dataset's chunk dimensions, or nil if it is not chunked (`H5Dget_create_plist`, `H5Pget_layout`, `H5Pget_chunk`).
    func chunkDimensions() throws(HDF5Error) -> [Int]? {
        let create = try Self.make(.propertyList, "H5Dget_create_plist", path: path) { H5Dget_create_plist(id) }
        return try HDF5Library.locked { () throws(HDF5Error) -> [Int]? in
            guard H5Pget_layout(create.id) == H5D_CHUNKED else { return nil }
            var dims = [hsize_t](repeating: 0, count: 8)
            let rank = try HDF5Library.check(H5Pget_chunk(create.id, 8, &dims), "H5Pget_chunk", path: path)
            return dims.prefix(Int(rank)).map { Int($0) }
        }
    }

    /// The dataset's filter pipeline as (filter id, client values) pairs
    /// (`H5Dget_create_plist`, `H5Pget_nfilters`, `H5Pget_filter2`).
    func filters() throws(HDF5Error) -> [(id: Int32, values: [UInt32])] {
        let create = try Self.make(.propertyList, "H5Dget_create_plist", path: path) { H5Dget_create_plist(id) }
        return try HDF5Library.locked { () throws(HDF5Error) -> [(id: Int32, values: [UInt32])] in
            let count = try HDF5Library.check(H5Pget_nfilters(create.id), "H5Pget_nfilters", path: path)
            var result: [(id: Int32, values: [UInt32])] = []
            for index in 0..<UInt32(count) {
                var flags: UInt32 = 0, valueCount = 8, config: UInt32 = 0
                var values = [UInt32](repeating: 0, count: 8)
                let filter = H5Pget_filter2(create.id, index, &flags, &valueCount, &values, 0, nil, &config)
                try HDF5Library.check(filter, "H5Pget_filter2", path: path)
                result.append((filter, Array(values.prefix(min(valueCount, 8)))))
            }
            return result
        }
    }

    /// Sets the dataset's current dimensions (`H5Dset_extent`).
    func setExtent(_ dimensions: [Int]) throws(HDF5Error) {
        let dims = dimensions.map { hsize_t($0) }
        try check("H5Dset_extent") { H5Dset_extent(id, dims) }
    }

    /// Selects rows `firstRow..<firstRow+rows` (all `columns`) of this 2-D dataset and a matching
    /// memory space (`H5Dget_space`, `H5Sselect_hyperslab`, `H5Screate_simple`).
    private func rowSelection(firstRow: Int, rows: Int, columns: Int) throws(HDF5Error) -> (file: HDF5Handle, memory: HDF5Handle) {
        let fileSpace = try datasetSpace()
        let start: [hsize_t] = [hsize_t(firstRow), 0]
        let count: [hsize_t] = [hsize_t(rows), hsize_t(columns)]
        try fileSpace.check("H5Sselect_hyperslab") { H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, start, nil, count, nil) }
        return (fileSpace, try Self.simpleSpace([rows, columns], path: path))
    }

    /// Writes `rows × columns` row-major elements of `memoryType` from `buffer` at row `firstRow` (`H5Dwrite`).
    func writeRows(firstRow: Int, rows: Int, columns: Int, memoryType: hid_t, buffer: UnsafeRawPointer) throws(HDF5Error) {
        let selection = try rowSelection(firstRow: firstRow, rows: rows, columns: columns)
        try check("H5Dwrite") { H5Dwrite(id, memoryType, selection.memory.id, selection.file.id, sekit_H5P_DEFAULT(), buffer) }
    }

    /// Reads `rows × columns` row-major elements of `memoryType` at row `firstRow` into `buffer` (`H5Dread`; HDF5 converts the file type).
    func readRows(firstRow: Int, rows: Int, columns: Int, memoryType: hid_t, into buffer: UnsafeMutableRawPointer) throws(HDF5Error) {
        let selection = try rowSelection(firstRow: firstRow, rows: rows, columns: columns)
        try check("H5Dread") { H5Dread(id, memoryType, selection.memory.id, selection.file.id, sekit_H5P_DEFAULT(), buffer) }
    }

    // MARK: Whole 1-D datasets

    /// Creates a contiguous 1-D dataset `name` holding `values` (`H5Dcreate2`, `H5Dwrite`).
    func writeVector<T: BitwiseCopyable>(_ name: String, _ values: [T], fileType: hid_t, memoryType: hid_t) throws(HDF5Error) {
        let dataset = try createDataset(name, type: fileType, space: try Self.simpleSpace([values.count], path: path))
        try dataset.check("H5Dwrite(\(name))") {
            values.withUnsafeBytes { H5Dwrite(dataset.id, memoryType, sekit_H5S_ALL(), sekit_H5S_ALL(), sekit_H5P_DEFAULT(),
                                              $0.baseAddress) }
        }
    }

    /// Creates a 1-D dataset `name` of variable-length UTF-8 strings (`H5Dcreate2`, `H5Dwrite`).
    func writeStrings(_ name: String, _ values: [String]) throws(HDF5Error) {
        let type = try Self.variableStringType(path: path)
        let dataset = try createDataset(name, type: type.id, space: try Self.simpleSpace([values.count], path: path))
        let cStrings = values.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        try dataset.check("H5Dwrite(\(name))") {
            cStrings.withUnsafeBytes { H5Dwrite(dataset.id, type.id, sekit_H5S_ALL(), sekit_H5S_ALL(), sekit_H5P_DEFAULT(),
                                                $0.baseAddress) }
        }
    }

    /// Reads this whole 1-D dataset converted to `memoryType` (`H5Dread`).
    func readVector<T: BitwiseCopyable>(of _: T.Type, memoryType: hid_t, zero: T) throws(HDF5Error) -> [T] {
        let count = try datasetSpace().dimensions().reduce(1, *)
        var values = [T](repeating: zero, count: count)
        try check("H5Dread") {
            values.withUnsafeMutableBytes { H5Dread(id, memoryType, sekit_H5S_ALL(), sekit_H5S_ALL(), sekit_H5P_DEFAULT(), $0.baseAddress) }
        }
        return values
    }

    /// Reads this whole 1-D dataset (or scalar attribute) of variable- or fixed-length strings
    /// (`H5Dread`/`H5Aread` with a copy of the stored type, `H5free_memory` for variable-length ones).
    func readStrings() throws(HDF5Error) -> [String] {
        let isAttribute = kind == .attribute
        let space = try Self.make(.dataspace, isAttribute ? "H5Aget_space" : "H5Dget_space", path: path) {
            isAttribute ? H5Aget_space(id) : H5Dget_space(id)
        }
        let count = try space.dimensions().reduce(1, *)
        let stored = try storedType()
        let memory = try Self.make(.datatype, "H5Tcopy", path: path) { H5Tcopy(stored.id) }
        let call = isAttribute ? "H5Aread" : "H5Dread"
        let read = { [id] (buffer: UnsafeMutableRawPointer?) -> herr_t in
            isAttribute ? H5Aread(id, memory.id, buffer)
                : H5Dread(id, memory.id, sekit_H5S_ALL(), sekit_H5S_ALL(), sekit_H5P_DEFAULT(), buffer)
        }
        if try stored.isVariableString() {
            var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
            try check(call) { pointers.withUnsafeMutableBytes { read($0.baseAddress) } }
            defer { HDF5Library.locked { pointers.forEach { if let pointer = $0 { H5free_memory(pointer) } } } }
            return pointers.map { $0.map { String(cString: $0) } ?? "" }
        }
        let size = try stored.typeClassAndSize().size
        var bytes = [UInt8](repeating: 0, count: count * size)
        try check(call) { bytes.withUnsafeMutableBytes { read($0.baseAddress) } }
        return (0..<count).map { index in
            let field = bytes[index * size..<(index + 1) * size]
            let text = field.prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self).trimmingSuffix(" ")
        }
    }
}

private extension String {
    /// Drops trailing `character`s (space-padded fixed-length strings).
    func trimmingSuffix(_ character: Character) -> String {
        var result = self
        while result.last == character { result.removeLast() }
        return result
    }
}
