import Foundation
@testable import SEKit
@testable import SEKitSignal

/// Deterministic samples for the statistics tests, from SEKit's SplitMix64.
struct SampleSource {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Uniform in [0, 1), 53 bits.
    mutating func uniform() -> Double { Double(rng.next() >> 11) * 0x1p-53 }

    /// Standard normal (Box–Muller, one value per pair of uniforms).
    mutating func normal() -> Double {
        let u = 1 - uniform(), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// `n` values from N(`mean`, `sd`²), rounded to multiples of `step` when given (to make ties
    /// and zeros, as scores printed to a few decimals do).
    mutating func normals(_ n: Int, mean: Double = 0, sd: Double = 1, step: Double? = nil) -> [Double] {
        (0..<n).map { _ in
            let value = mean + sd * normal()
            guard let step else { return value }
            return (value / step).rounded() * step
        }
    }
}

/// Runs a Python reference over JSON: `script` reads the cases from the file named by
/// `sys.argv[1]` and prints one JSON document, which is decoded as `Output`.
enum JSONReference {
    static func run<Input: Encodable, Output: Decodable>(_ script: String, input: Input, encoder: JSONEncoder = JSONEncoder(),
                                                         as: Output.Type) throws -> Output {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let file = folder.file("cases.json")
        try encoder.encode(input).write(to: file)
        let out = try PythonReference.run(script, arguments: [file.path])
        return try JSONDecoder().decode(Output.self, from: Data(out.utf8))
    }
}
