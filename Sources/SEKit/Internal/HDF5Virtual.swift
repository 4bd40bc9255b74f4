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
}
