import Foundation

/// Analysis/synthesis windows.
///
/// `periodic` windows (numpy/scipy `sym=False`, librosa's default) have period `length`: the
/// right choice for STFTs, where Hann at 50% overlap sums to a constant. `symmetric` windows
/// (`sym=True`, MATLAB's `hann(N)`) have period `length − 1` and end on the same value they
/// start with: the choice for filter design.
public enum WindowKind: String, Sendable, CaseIterable, Codable {
    case hann
    case hamming
    /// Square root of the periodic Hann window: for analysis and synthesis alike, whose product
    /// is Hann (perfect reconstruction at 50% overlap).
    case sqrtHann = "sqrt-hann"
    case rectangular
}

public enum Window {
    /// Window samples in Double.
    /// - Parameters:
    ///   - length: samples, > 0.
    ///   - periodic: period `length` (true, default) or symmetric (period `length − 1`).
    public static func make(_ kind: WindowKind, length: Int, periodic: Bool = true) -> [Double] {
        precondition(length > 0, "window length must be positive")
        if length == 1 { return [1] }
        let period = Double(periodic ? length : length - 1)
        return (0..<length).map { i in
            let phase = 2 * Double.pi * Double(i) / period
            switch kind {
            case .hann: return 0.5 - 0.5 * cos(phase)
            case .hamming: return 0.54 - 0.46 * cos(phase)
            case .sqrtHann: return (0.5 - 0.5 * cos(phase)).squareRoot()
            case .rectangular: return 1
            }
        }
    }

    /// MATLAB's `hanning(length)`, in Double: `0.5·(1 − cos(2πn/(length+1)))`, n = 1...length
    /// (numpy `hanning(length+2)[1:-1]`), the window of the MATLAB objective measures (Loizou's
    /// comp_*.m, STOI). It is the symmetric Hann window of `length + 2` points without its two
    /// zero end points, computed by ``make(_:length:periodic:)`` with the same phase expression;
    /// `0.5 − 0.5·cos` and `0.5·(1 − cos)` round identically (halving is exact), so the values are
    /// bit for bit those of the MATLAB formula.
    /// - Parameter length: samples, > 0.
    public static func matlabHanning(length: Int) -> [Double] {
        precondition(length > 0, "window length must be positive")
        return Array(make(.hann, length: length + 2, periodic: false)[1...length])
    }

    /// Hann window (Float).
    public static func hann(length: Int, periodic: Bool = true) -> [Float] { make(.hann, length: length,
                                                                                  periodic: periodic).map(Float.init) }
    /// Hamming window (Float), 0.54 − 0.46·cos.
    public static func hamming(length: Int, periodic: Bool = true) -> [Float] { make(.hamming, length: length,
                                                                                     periodic: periodic).map(Float.init) }
    /// Square-root Hann window (Float).
    public static func sqrtHann(length: Int, periodic: Bool = true) -> [Float] { make(.sqrtHann, length: length,
                                                                                      periodic: periodic).map(Float.init) }
}
