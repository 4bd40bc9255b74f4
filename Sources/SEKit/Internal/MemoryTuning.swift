/// glibc's `int mallopt(int param, int value)` (declared in <malloc.h>, which the Glibc module does not export).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// Process-wide allocator settings for batch work.
public enum MemoryTuning {
    /// glibc's `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` parameter numbers (<malloc.h>).
    private static let trimThreshold: Int32 = -1
    private static let mmapThreshold: Int32 = -3

    /// Keeps large freed blocks in the heap for reuse instead of returning them to the kernel.
    ///
    /// Mixing and scoring allocate and free arrays of a few hundred kilobytes for every clip. By
    /// default glibc serves each from a fresh `mmap` and unmaps it when freed, so every clip pays
    /// page faults for memory it just gave back. Raising the mmap threshold to 64 MiB and the trim
    /// threshold to 128 MiB makes those blocks reusable; peak memory is unchanged. Call once at
    /// start-up (glibc on Linux).
    public static func keepFreedMemoryForReuse() {
        #if os(Linux)
        _ = glibcMallopt(mmapThreshold, 64 << 20)
        _ = glibcMallopt(trimThreshold, 128 << 20)
        #endif
    }
}
