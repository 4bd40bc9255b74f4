import CKernels

/// The per-frame work of power spectral subtraction, in C (`CKernels/spectral_subtraction.c`:
/// `sekit_spectral_subtraction_sums`, `sekit_spectral_subtraction_gains`), four bins at a time;
/// the AVX2 + FMA build where `VectorKernels.hasAVX2FMA`, else the baseline build.
enum SpectralSubtractionKernel {
    /// Σ |Y|² and Σ max(λ, `minimumNoisePower`) over the bins (four running sums a lane).
    static func sums(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                     minimumNoisePower: Double) -> (power: Double, noise: Double) {
        precondition(noise.count == power.count, "SpectralSubtractionKernel.sums: buffer sizes")
        var out: (Double, Double) = (0, 0)
        withUnsafeMutableBytes(of: &out) {
            sekit_spectral_subtraction_sums(power.baseAddress, noise.baseAddress, power.count, minimumNoisePower,
                                            $0.baseAddress!.assumingMemoryBound(to: Double.self), VectorKernels.hasAVX2FMA ? 1 : 0)
        }
        return out
    }

    /// G = √(max(|Y|² − α·λ, β·λ)/|Y|²) per bin, 0 where |Y|² is 0, with λ floored at
    /// `minimumNoisePower`.
    static func gains(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                      into gain: UnsafeMutableBufferPointer<Double>, overSubtraction alpha: Double, spectralFloor beta: Double,
                      minimumNoisePower: Double) {
        precondition(noise.count == power.count && gain.count == power.count, "SpectralSubtractionKernel.gains: buffer sizes")
        sekit_spectral_subtraction_gains(power.baseAddress, noise.baseAddress, gain.baseAddress, power.count, alpha, beta,
                                         minimumNoisePower, VectorKernels.hasAVX2FMA ? 1 : 0)
    }
}
