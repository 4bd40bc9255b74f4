import CHDF5
import Foundation

/// Virtual datasets: checked wrappers over `H5Pset_virtual`.
extension HDF5Handle {
    /// One block of rows of a virtual 2-D dataset: rows `firstRow ..< firstRow + rows` come from
    /// the whole 2-D dataset `dataset` (`[rows, columns]`) of the file `file` (a path relative to
    /// the virtual dataset's file, or absolute; taken literally: `%`, which HDF5 reads as a
    /// format character in these names, is escaped).
    struct VirtualRows {
        var file: String
        var dataset: String
        var firstRow: Int
        var rows: Int
    }

    /// Creates the virtual 2-D dataset `name` `[rows, columns]` (fixed size) of file type `type`
    /// whose rows map, block after block, onto other files' datasets: one mapping per source
    /// (`H5Pcreate(H5P_DATASET_CREATE)`, `H5Pset_obj_track_times(0)`, `H5Sselect_hyperslab`,
    /// `H5Pset_virtual`, `H5Dcreate2`). Nothing of the sources is read or copied; HDF5 opens them
    /// when the rows are read. O(sources).
    func createVirtualMatrix(_ name: String, rows: Int, columns: Int, type: hid_t, sources: [VirtualRows]) throws(HDF5Error) -> HDF5Handle {
        let create = try Self.datasetCreation(path: path)
        let virtualSpace = try Self.simpleSpace([rows, columns], path: path)
        for source in sources {
            let start: [hsize_t] = [hsize_t(source.firstRow), 0]
            let count: [hsize_t] = [hsize_t(source.rows), hsize_t(columns)]
            try virtualSpace.check("H5Sselect_hyperslab") {
                H5Sselect_hyperslab(virtualSpace.id, H5S_SELECT_SET, start, nil, count, nil)
            }
            let sourceSpace = try Self.simpleSpace([source.rows, columns], path: path)
            try create.check("H5Pset_virtual(\(source.file))") {
                H5Pset_virtual(create.id, virtualSpace.id, source.file.replacingOccurrences(of: "%", with: "%%"),
                               source.dataset.replacingOccurrences(of: "%", with: "%%"), sourceSpace.id)
            }
        }
        let space = try Self.simpleSpace([rows, columns], path: path)
        return try Self.make(.dataset, "H5Dcreate2(\(name))", path: path) {
            H5Dcreate2(id, name, type, space.id, sekit_H5P_DEFAULT(), create.id, sekit_H5P_DEFAULT())
        }
    }

    /// The mappings of this virtual 2-D dataset, in order, or nil for a dataset of another layout
    /// (`H5Dget_create_plist`, `H5Pget_layout`, `H5Pget_virtual_count`, `H5Pget_virtual_filename`,
    /// `H5Pget_virtual_dsetname`, `H5Pget_virtual_vspace`, `H5Sget_select_bounds`). File and
    /// dataset names are returned as written (`%%` read back as `%`). O(mappings).
    func virtualSources() throws(HDF5Error) -> [VirtualRows]? {
        let create = try Self.make(.propertyList, "H5Dget_create_plist", path: path) { H5Dget_create_plist(id) }
        let path = path
        return try HDF5Library.locked { () throws(HDF5Error) -> [VirtualRows]? in
            guard H5Pget_layout(create.id) == H5D_VIRTUAL else { return nil }
            var count = 0
            try create.check("H5Pget_virtual_count") { H5Pget_virtual_count(create.id, &count) }
            func name(_ call: String, _ get: (UnsafeMutablePointer<CChar>?, Int) -> Int) throws(HDF5Error) -> String {
                let length = try HDF5Library.check(Int64(get(nil, 0)), call, path: path)
                var buffer = [CChar](repeating: 0, count: Int(length) + 1)
                _ = get(&buffer, buffer.count)
                return HDF5Library.string(fromNullTerminated: buffer).replacingOccurrences(of: "%%", with: "%")
            }
            var mappings: [VirtualRows] = []
            for index in 0..<count {
                let file = try name("H5Pget_virtual_filename") { H5Pget_virtual_filename(create.id, index, $0, $1) }
                let dataset = try name("H5Pget_virtual_dsetname") { H5Pget_virtual_dsetname(create.id, index, $0, $1) }
                let space = try Self.make(.dataspace, "H5Pget_virtual_vspace", path: path) { H5Pget_virtual_vspace(create.id, index) }
                var start = [hsize_t](repeating: 0, count: 2), end = [hsize_t](repeating: 0, count: 2)
                try space.check("H5Sget_select_bounds") { H5Sget_select_bounds(space.id, &start, &end) }
                mappings.append(VirtualRows(file: file, dataset: dataset, firstRow: Int(start[0]), rows: Int(end[0]) - Int(start[0]) + 1))
            }
            return mappings
        }
    }
}
