import Foundation

/// The ideal masks `sekit enhance` applies (`oracle-irm`, `oracle-ibm`, `oracle-psm`): computed
/// from a mixed corpus's clean and noise stems, multiplied into the noisy STFT (the noisy phase is
/// kept), resynthesised by weighted overlap-add. They bound what a mask-estimating model with the
/// same STFT can reach; they need the stems, so only a corpus made by `sekit mix` has them.
public enum OracleMask: String, Sendable, CaseIterable, Codable {
    /// Ideal ratio mask √(|S|² / (|S|² + |N|²)) (Wang et al. 2014).
    case irm
    /// Ideal binary mask: 1 where the local SNR |S|²/|N|² exceeds the local criterion LC (dB).
    case ibm
    /// Phase-sensitive mask Re(S·conj(Y)) / |Y|², clipped to [0, 1] (Erdogan et al. 2015).
    case psm
}

/// Applies an ``OracleMask`` to one clip.
public struct OracleMaskEnhancer: Sendable {
    public var mask: OracleMask
    /// The IBM's local criterion, dB.
    public var lcDB: Double
    /// Analysis and synthesis (the features command's default: 512-point Hann, hop 256, centred).
    public var stft: STFTConfiguration

    public init(mask: OracleMask, lcDB: Double = 0, stft: STFTConfiguration = FeatureExportOptions().stft) {
        self.mask = mask; self.lcDB = lcDB; self.stft = stft
    }

    /// The masked noisy signal, as long as `noisy`.
    /// - Throws: ``EnhancementError`` when the stems' lengths differ from the noisy signal's.
    public func enhance(noisy: [Float], clean: [Float], noise: [Float]) throws -> [Float] {
        guard clean.count == noisy.count, noise.count == noisy.count else {
            throw EnhancementError.invalidParameter(name: "corpus", value: "",
                                                    reason: "stems of \(clean.count) and \(noise.count) samples "
                                                        + "for a noisy signal of \(noisy.count)")
        }
        var Y = try STFT.forward(noisy, configuration: stft)
        let S = try STFT.forward(clean, configuration: stft)
        let N = try STFT.forward(noise, configuration: stft)
        let threshold = Float(pow(10, lcDB / 10))
        let bins = Y.frames * stft.binCount
        Y.values.withUnsafeMutableBufferPointer { y in
            S.values.withUnsafeBufferPointer { s in
                N.values.withUnsafeBufferPointer { n in
                    for i in 0..<bins {
                        let gain: Float
                        switch mask {
                        case .irm: gain = IdealMask.ratio(speech: Self.magnitude(s, i), noise: Self.magnitude(n, i))
                        case .ibm: gain = IdealMask.binary(speech: Self.magnitude(s, i), noise: Self.magnitude(n, i), threshold: threshold)
                        case .psm: gain = IdealMask.phaseSensitive(speechReal: s[2 * i], speechImaginary: s[2 * i + 1],
                                                                  noisyReal: y[2 * i], noisyImaginary: y[2 * i + 1])
                        }
                        y[2 * i] *= gain
                        y[2 * i + 1] *= gain
                    }
                }
            }
        }
        return try STFT.inverse(Y, length: noisy.count)
    }

    @inline(__always)
    static func magnitude(_ values: UnsafeBufferPointer<Float>, _ i: Int) -> Float {
        (values[2 * i] * values[2 * i] + values[2 * i + 1] * values[2 * i + 1]).squareRoot()
    }
}

/// A method of `sekit enhance`: a blind enhancer or an oracle mask.
public enum EnhanceMethod: Sendable, Equatable, CustomStringConvertible {
    case blind(BlindMethod)
    case oracle(OracleMask)
    /// An ONNX model file (``ONNXModel``): `sekit enhance --model FILE.onnx`.
    case model(URL)

    /// Every method, as the command line names them.
    public static let all: [EnhanceMethod] = BlindMethod.allCases.map { .blind($0) } + OracleMask.allCases.map { .oracle($0) }

    /// `specsub`, `mmse-stsa`, `logmmse`, `wiener`, `oracle-irm`, `oracle-ibm`, `oracle-psm`; a
    /// model's file name without `.onnx`.
    public var description: String {
        switch self {
        case .blind(let method): method.rawValue
        case .oracle(let mask): "oracle-" + mask.rawValue
        case .model(let file): file.deletingPathExtension().lastPathComponent
        }
    }

    /// The model file of a `.model` method.
    public var modelFile: URL? { if case .model(let file) = self { file } else { nil } }

    public init?(_ name: String) {
        guard let method = Self.all.first(where: { $0.description == name }) else { return nil }
        self = method
    }

    /// Whether the method reads the corpus's clean and noise stems.
    public var needsStems: Bool { if case .oracle = self { true } else { false } }
}
