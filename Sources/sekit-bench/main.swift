// sekit-bench: in-process timings of library calls, for scripts/bench/*.sh. Prints one JSON line.
//   sekit-bench io-dsp FILE_48K.wav   read + resample to 16 kHz, then STFT magnitudes (512/256, no centring)
//   sekit-bench write-floor OUT N     write N x 3 four-second 16-bit WAVs (the floor of a mix)
import Foundation
import SEKit

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "write-floor", let count = Int(arguments[3]) {
    // The floor of a mix: writing count × 3 four-second 16 kHz 16-bit WAVs (noisy/clean/noise
    // folders) the way `sekit mix` writes its stems (atomically, header and codes), with nothing
    // computed: the codes of a fixed noise buffer, encoded once.
    let out = URL(fileURLWithPath: arguments[2])
    let samples = NoiseGenerator.generate(.pink, count: 64_000, sampleRate: 16000, rmsDBFS: -25, seed: 1)
    let codes = PCM16.encode(samples, scale: 1)
    do {
        for sub in ["noisy", "clean", "noise"] {
            try FileManager.default.createDirectory(at: out.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let root = out.path + "/"
        for index in 0..<count {
            for sub in ["noise", "clean", "noisy"] {
                try AudioWriter.writePCM16(codes: codes, sampleRate: 16000, toPath: root + "\(sub)/c\(index).wav")
            }
        }
    } catch {
        FileHandle.standardError.write(Data("sekit-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard arguments.count == 3, arguments[1] == "io-dsp" else {
    FileHandle.standardError.write(Data("usage: sekit-bench io-dsp FILE | sekit-bench write-floor OUT COUNT\n".utf8))
    exit(2)
}
do {
    var buffer = AudioBuffer(samples: [], sampleRate: 0)
    let readResample = try seconds { buffer = try AudioFile.read(at: URL(fileURLWithPath: arguments[2]), sampleRate: 16000) }
    var frames = 0
    var checksum = 0.0
    let config = STFTConfiguration(fftSize: 512, hopLength: 256, window: .hann, center: false)
    let stft = seconds {
        // Streamed in blocks of 8192 frames into one reused output buffer (like a feature export).
        let framesPerBlock = 8192
        let total = config.frameCount(samples: buffer.count)
        let window = config.paddedWindow()
        var scratch: [Float] = []
        var output = [Float](repeating: 0, count: framesPerBlock * config.binCount)
        buffer.samples.withUnsafeBufferPointer { signal in
            output.withUnsafeMutableBufferPointer { out in
                var first = 0
                while first < total {
                    let count = min(framesPerBlock, total - first)
                    STFT.magnitudes(signal, configuration: config, firstFrame: first, frameCount: count,
                                    window: window, scratch: &scratch, into: out)
                    checksum += Double(out[0]) + Double(out[count * config.binCount - 1])
                    frames += count
                    first += count
                }
            }
        }
    }
    print("{\"read_resample_seconds\": \(readResample), \"stft_seconds\": \(stft), "
          + "\"samples_16k\": \(buffer.count), \"frames\": \(frames)}")
} catch {
    FileHandle.standardError.write(Data("sekit-bench: \(error)\n".utf8))
    exit(1)
}
