// swift-tools-version:6.1
import PackageDescription

/// SEKit: the data side of speech-enhancement research.
/// System libraries are found through pkg-config; on Debian/Ubuntu the `providers`
/// name the packages `scripts/setup.sh` installs.
let package = Package(
    name: "SEKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SEKit", targets: ["SEKit"]),
        .executable(name: "sekit", targets: ["sekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CHDF5", pkgConfig: "hdf5", providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Hand-vectorised AVX2/FMA kernels with run-time dispatch (the rest is built for baseline x86-64).
        .target(name: "CKernels", path: "Sources/CKernels"),
        // The signal layer: audio in and out, DSP, the native metrics, statistics and the shared
        // vocabulary (Base). It knows nothing of files' meaning, the catalogue or HDF5 (no GRDB, no
        // Yams), which the compiler now checks; SEKit re-exports it (ARCHITECTURE.md, "Layers").
        .target(
            name: "SEKitSignal",
            dependencies: ["CSndfile", "CFFTW", "CSoxr", "CEbur128", "COpus", "CKernels"]
        ),
        .target(
            name: "SEKitCatalog",
            dependencies: ["SEKitSignal", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "SEKit",
            dependencies: [
                "SEKitSignal", "SEKitCatalog", "CHDF5", "CPNG", "CKernels", "CZlib",
                .product(name: "Yams", package: "Yams"),
            ],
            // The Python metric worker and its requirements are compiled into the library, so that a
            // `sekit` binary copied anywhere runs PESQ and DNSMOS (docs/installing.md).
            resources: [
                .embedInCode("Resources/sekit_metric_worker.py"),
                .embedInCode("Resources/metric-worker-requirements.txt"),
                .embedInCode("Resources/listening-page.js"),
                .embedInCode("Resources/listening-page.css"),
            ]
        ),
        .executableTarget(
            name: "sekit",
            dependencies: [
                "SEKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "sekit-bench", dependencies: ["SEKit"], path: "Sources/sekit-bench"),
        // What both test targets share: the project and fixture folders, temporary folders, a WAV
        // writer independent of SEKit's, the binary runner (as swift-argument-parser's test helpers).
        .target(name: "SEKitTestSupport", path: "Tests/SEKitTestSupport"),
        .testTarget(
            name: "SEKitTests",
            dependencies: ["SEKit", "SEKitSignal", "SEKitCatalog", "SEKitTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "sekitTests", dependencies: ["sekit", "SEKitTestSupport"], exclude: ["HelpSnapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
