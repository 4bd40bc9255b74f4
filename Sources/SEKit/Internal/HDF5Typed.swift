import CHDF5

/// Typed reads and writes over ``HDF5Handle`` so that code outside `Internal/` never names an
/// HDF5 type id or constant.
extension HDF5Handle {
    /// Little-endian IEEE binary32, the file type of float32 feature streams.
    static var float32FileType: Int64 { sekit_H5T_IEEE_F32LE() }

    func writeInt64Vector(_ name: String, _ values: [Int64]) throws(HDF5Error) {
        try writeVector(name, values, fileType: sekit_H5T_STD_I64LE(), memoryType: sekit_H5T_NATIVE_INT64())
    }

    func writeDoubleVector(_ name: String, _ values: [Double]) throws(HDF5Error) {
        try writeVector(name, values, fileType: sekit_H5T_IEEE_F64LE(), memoryType: sekit_H5T_NATIVE_DOUBLE())
    }

    func readInt64Vector() throws(HDF5Error) -> [Int64] {
        try readVector(of: Int64.self, memoryType: sekit_H5T_NATIVE_INT64(), zero: 0)
    }

    func readDoubleVector() throws(HDF5Error) -> [Double] {
        try readVector(of: Double.self, memoryType: sekit_H5T_NATIVE_DOUBLE(), zero: 0)
    }

    /// Rows of this 2-D dataset as Float (HDF5 converts float16/float64).
    func readFloatRows(firstRow: Int, rows: Int, columns: Int, into buffer: UnsafeMutablePointer<Float>) throws(HDF5Error) {
        try readRows(firstRow: firstRow, rows: rows, columns: columns, memoryType: sekit_H5T_NATIVE_FLOAT(), into: buffer)
    }

    /// Writes Float rows into this 2-D dataset (stored in its own type).
    func writeFloatRows(firstRow: Int, rows: Int, columns: Int, buffer: UnsafePointer<Float>) throws(HDF5Error) {
        try writeRows(firstRow: firstRow, rows: rows, columns: columns, memoryType: sekit_H5T_NATIVE_FLOAT(), buffer: buffer)
    }

    /// Bytes per value when this dataset stores floating-point values, else nil.
    func storedFloatSize() throws(HDF5Error) -> Int? {
        let type = try storedType().typeClassAndSize()
        return type.typeClass == H5T_FLOAT ? type.size : nil
    }

    /// The gzip level of this dataset's deflate filter (nil without one) and whether it is shuffled.
    func compressionFilters() throws(HDF5Error) -> (deflateLevel: Int?, shuffle: Bool) {
        let filters = try filters()
        let deflate = filters.first { $0.id == H5Z_FILTER_DEFLATE }
        return (deflate.map { Int($0.values.first ?? 0) }, filters.contains { $0.id == H5Z_FILTER_SHUFFLE })
    }
}
