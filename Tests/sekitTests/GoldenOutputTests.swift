import Foundation
import Testing

/// Pins the bytes SEKit produces for a small corpus made from the real fixtures: the mixed WAVs
/// and manifests (two mixes covering reverberation, low-pass, several noises, splits, float32,
/// full utterances, active SNR, LUFS level and clipping rejection), the HDF5 feature file, the
/// oracle resynthesis, `score --format json` and `--per-clip`, `catalog clips --format csv` and
/// a generated noise. A refactoring must leave every one of them byte-identical; a change that
/// is meant to alter an output updates `expected` below in the same commit and says why.
///
/// The work happens in a folder of this test run's own, removed when the outputs match; its path is
/// replaced by the folder the pins were made in, and in text outputs the fixtures' location and catalogue run ids are replaced
/// by `$FIXTURES` and a zero UUID (also inside the feature files' `mix_run_id`) so that the hashes do not depend on where the clone is.
@Suite(.serialized, .needsFixtures)
struct GoldenOutputTests {
    @Test func outputsAreByteIdenticalToThePinnedHashes() throws {
        let golden = try GoldenCorpus.make()
        let actual = try golden.hashes()
        let expected = GoldenCorpus.expected
        for (name, hash) in actual where expected[name] != hash {
            Issue.record("\(name): \(hash), pinned \(expected[name] ?? "nothing")")
        }
        for name in expected.keys where actual[name] == nil { Issue.record("\(name): missing") }
        if actual != expected {
            let listing = actual.sorted { $0.key < $1.key }.map { "        \"\($0.key)\": \"\($0.value)\"," }.joined(separator: "\n")
            try Data((listing + "\n").utf8).write(to: GoldenCorpus.root.appendingPathComponent("hashes-now.txt"))
            Issue.record("the hashes now are in \(GoldenCorpus.root.path)/hashes-now.txt")
        } else {
            try? FileManager.default.removeItem(at: GoldenCorpus.root)
        }
    }
}

enum GoldenCorpus {
    /// The working folder, unique to this test run (two runs on one machine never share it), as long
    /// as ``pinnedRoot``, which replaces it in every output before hashing (the feature files record
    /// the corpus's absolute path; a replacement of the same length keeps their layout).
    static let root = URL(fileURLWithPath: "/tmp/sg-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())
    /// The folder the pinned hashes were made in.
    static let pinnedRoot = "/tmp/sekit-golden-v1"
    static var projectRoot: URL { TestProject.root }
    static var fixtures: URL { TestProject.fixtures }

    struct Made { let folder: URL }

    static func run(_ arguments: [String]) throws -> SEKitBinary.Result {
        let result = try SEKitBinary.run(arguments, currentDirectory: root)
        if result.status != 0 { Issue.record("sekit \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
        return result
    }

    static func make() throws -> Made {
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let f = fixtures.path
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        // A: PCM16, reverberation with early-reflection targets, low-pass, 1-2 noises, two splits.
        _ = try run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--rir", f + "/rir/small_room.wav",
                     "--rir", f + "/rir/rir_clap.wav", "--count", "12", "--seconds", "1.5", "--snr-db=-5:20",
                     "--rir-probability", "0.5", "--target", "early", "--lowpass-hz", "3000:7000", "--lowpass-probability", "0.5",
                     "--noises-per-clip", "1:2", "--split", "train=0.75,test=0.25", "--seed", "11", "--jobs", "2",
                     "--out", root.appendingPathComponent("a").path, "--catalog", catalog, "--name", "golden-a"])
        // B: float32, full utterances, active-level SNR, LUFS level, clipping rejection, concatenation off.
        _ = try run(["mix", "--speech", f + "/speech/vctk_p287_001.wav", "--speech", f + "/speech/arctic_a0007.wav",
                     "--speech", f + "/speech/cmu_arctic_us_axb_a0004.wav", "--noise", f + "/noise/running_tap.wav",
                     "--count", "4", "--length-mode", "full-utterance", "--snr-db", "0,5", "--snr-mode", "active",
                     "--level-mode", "lufs", "--level-dbfs=-30:-5", "--clipping", "reject", "--format", "float32", "--seed", "5",
                     "--out", root.appendingPathComponent("b").path, "--no-catalog"])
        _ = try run(["features", "--corpus", "a", "--out", "a-features.h5", "--targets", "clean,noise,irm,ibm,psm,noisy_phase",
                     "--compression", "gzip:4", "--jobs", "2", "--no-catalog"])
        _ = try run(["features", "--corpus", "a", "--out", "a-features-f16.h5", "--feature", "compressed", "--dtype", "float16",
                     "--n-fft", "256", "--hop-length", "100", "--window", "sqrt-hann", "--targets", "irm", "--no-catalog"])
        _ = try run(["synthesize", "--features", "a-features.h5", "--dataset", "irm", "--kind", "mask", "--out", "oracle",
                     "--format", "pcm16", "--no-catalog"])
        let scores = try run(["score", "--corpus", "a", "--enhanced", "oracle", "--metrics",
                              "snr,segsnr,sisdr,sisnr,stoi,estoi,fwsegsnr,llr,wss,cd", "--format", "json",
                              "--per-clip", "scores.csv", "--catalog", catalog, "--checkpoint", "oracle"])
        try Data(scores.stdout.utf8).write(to: root.appendingPathComponent("score.json"))
        let clips = try run(["catalog", "clips", "--format", "csv", "--catalog", catalog])
        try Data(clips.stdout.utf8).write(to: root.appendingPathComponent("clips.csv"))
        _ = try run(["noise", "pink.wav", "--color", "pink", "--seconds", "1", "--rms-dbfs=-30", "--seed", "3"])
        return Made(folder: root)
    }

    /// The outputs to hash: every WAV and manifest of both corpora, the two feature files, the
    /// oracle WAVs, the score JSON and CSV, the catalogue's clip CSV and the noise.
    static let textFiles: Set<String> = ["a/manifest.jsonl", "b/manifest.jsonl", "score.json", "scores.csv", "clips.csv"]

    static func listed() throws -> [String] {
        let fm = FileManager.default
        var names: [String] = []
        for folder in ["a/noisy", "a/clean", "a/noise", "b/noisy", "b/clean", "b/noise", "oracle"] {
            let files = try fm.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            names += files.filter { $0.hasSuffix(".wav") }.map { folder + "/" + $0 }
        }
        names += ["a-features.h5", "a-features-f16.h5", "pink.wav"] + textFiles
        return names.sorted()
    }

    /// SHA-256 (`sha256sum`) of every output, text outputs normalised first.
    static func hashesOf(_ names: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        let uuid = try NSRegularExpression(pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
        for name in names {
            // Latin-1 maps bytes one to one, so binary files (the HDF5 `mix_run_id` attribute)
            // get the same-length replacement and keep their layout.
            var text = String(data: try Data(contentsOf: root.appendingPathComponent(name)), encoding: .isoLatin1)!
            text = text.replacingOccurrences(of: root.path, with: pinnedRoot)
            if textFiles.contains(name) { text = text.replacingOccurrences(of: fixtures.path, with: "$FIXTURES") }
            text = uuid.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                 withTemplate: "00000000-0000-0000-0000-000000000000")
            let data = text.data(using: .isoLatin1)!
            result[name] = sha256(data)
        }
        return result
    }

    static func sha256(_ data: Data) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }

    /// Recorded at 24674f0 (before the groundwork refactoring), debug build. Corpus A's reverberated
    /// clips (0, 5-8, 10, 11) and what is computed from them (features, oracle, scores, clips.csv)
    /// changed when stems came to be aligned on the RIR's first arrival instead of its largest sample
    /// (issue 29). Every corpus output changed again when the fixtures moved into the repository
    /// (issue 39): the three Speech Commands noises are trimmed to their first 30 s there, so noise
    /// offsets and files drawn differ (and `datasets/fixtures` holds `noisy/`, which no mix reads);
    /// the generated noise (`pink.wav`) reads no fixture and is unchanged.
    static let expected: [String: String] = [
        "a-features-f16.h5": "28c037d3586607653b35e7490f98d85f69fc5a008797c247358a8efb8e3c46f1",
        "a-features.h5": "9eedc709e3e35183605841795878c5c7ceaa9a82efcfcc8888b820372d0195d6",
        "a/clean/s11-0000000.wav": "7e1c313515b8007d925ad011b46204c5a7c46581e14872f73bafd9ce41251ffe",
        "a/clean/s11-0000001.wav": "526156b1d0c414d1d302da8509b0a1cc3c8034934b52927157e2fb2ba903237e",
        "a/clean/s11-0000002.wav": "acee4b875725566c77e14feebea88503db3c4d0fd28dffea226a6ea9ac91d88e",
        "a/clean/s11-0000003.wav": "b49adecb4417d03d7a6a9ad0f377271f07b2b974ebea5ed469a97e7e66f99e08",
        "a/clean/s11-0000004.wav": "5d8df4351d7e3572ff3b9b71b77172c15b0e363e1c3d59fb6799e33671d6031a",
        "a/clean/s11-0000005.wav": "c9d51b02b8e00a30dbef4b4d6f228d22df282d27db96f2f571d5a8151ef6bb03",
        "a/clean/s11-0000006.wav": "ef275d9fd790cb9a39a7f54ff239b3f388f67f6e6b8567ab6deac0529aefa0a5",
        "a/clean/s11-0000007.wav": "9d21f8e94263b2b33b1d91dc8bf32d328f56c1fb2bd52e45055d060e33aae2f5",
        "a/clean/s11-0000008.wav": "7559dbb244adb34b6e9f0d2609485db86c10f24d11cec84aafc41a58ff7db773",
        "a/clean/s11-0000009.wav": "80130e744c675c8182fa9f2b91739efc40e19b42203b435ee9bd5537cc72c54c",
        "a/clean/s11-0000010.wav": "94ee228762ce1379f75cd1fa577094d4b40375f1b4ec770bc08c1399cb369e88",
        "a/clean/s11-0000011.wav": "5fde01a6874df89abc8082937f33d2216c5fb141d0f4ef2e31c11b921b423d31",
        "a/manifest.jsonl": "c61ade207d69017afe26342a90481fd52242acfb902a8b14d7710785343d9256",
        "a/noise/s11-0000000.wav": "9bd87f30bba105fdcb147ebcaef67f0c7c129b97294739744f44d8d052b2bca8",
        "a/noise/s11-0000001.wav": "77a9b48e0681c38e7a707af4fb6ff38a342333243473479c59b7283849766e29",
        "a/noise/s11-0000002.wav": "457117c4ac1392ed482f681e7aebe023cd0ad98638c792c65d5aeb26a166adeb",
        "a/noise/s11-0000003.wav": "dad2b7effa982907265e1dcdcd4a5f0d71074fc648d6f97e6eda64f05956e670",
        "a/noise/s11-0000004.wav": "9fc14bca5d1e1ecf7e43013602c0ae4a16e16d487bb561b8ee87019f43663211",
        "a/noise/s11-0000005.wav": "38c77d3640966960d6745071504d345cbd82b1b099d79f287741ca0f12b90e29",
        "a/noise/s11-0000006.wav": "7be9eb13f0710f7a5137cf7523c7216dfb0f5f8885c47b585ef24a36cff01922",
        "a/noise/s11-0000007.wav": "6886994ce59049529ba0640e8a72738b6b3e2b04167d350305fe73aea535999c",
        "a/noise/s11-0000008.wav": "8b9ddcfc41646edd855f98f9ec695438cac73c1206a35a5924bb5711af7094b1",
        "a/noise/s11-0000009.wav": "748bb5424f7c56548dfe675f041ac106cefcfac0fec5813c50728c82e5abb52b",
        "a/noise/s11-0000010.wav": "1dbc47064210a21e5ec7219b37882c7ffe49531657e578d1b7d1170713f4906d",
        "a/noise/s11-0000011.wav": "30f7a211a2ff26660885cc205bcaf945b59a985bbea5cd9f2baa2dd44c71b457",
        "a/noisy/s11-0000000.wav": "de282e8503aeb53557723d55279ae0152e215a222929ca2c385a1ca6a4e252b7",
        "a/noisy/s11-0000001.wav": "28339f02a6752559f7081f02d7a7407e359c58d42fc1064b1e0b3ceb07b3afb1",
        "a/noisy/s11-0000002.wav": "80f9c3c901601b695e8adf7f5d03f8b9534fa297b4b7c42b39f503e0a0a987bc",
        "a/noisy/s11-0000003.wav": "576d0b5bb8a315d1ed8d939a1ab8c0fc3ccb65f4d9e5d49ab6b98751ed4fbbe6",
        "a/noisy/s11-0000004.wav": "219d32c0ef327e7822795f1c709c02b6fc06f42e6eb7825c7715ac39102680bb",
        "a/noisy/s11-0000005.wav": "e0a076ece643b12266e6dd503c56d1e2a8d976a78acd6a70d4afe9af29d8fe57",
        "a/noisy/s11-0000006.wav": "0f758e35b015b3ee20fb2d92e41570980f65a6cc1d5f095e23eb0d183d0d15a7",
        "a/noisy/s11-0000007.wav": "fdd71be10ef7a99db07b1a631e1431303e99f44655c71e215c92d8b78cf2d156",
        "a/noisy/s11-0000008.wav": "e3bcdf8bee51ce7cdb20c0bb5527332d1907338c752113a7e78c14f25dea28e1",
        "a/noisy/s11-0000009.wav": "86c1c04c7ca05a9357e887086182bad28f99d289091121796df1cd36485a3186",
        "a/noisy/s11-0000010.wav": "357077cad09419d79a65b94333911c5737bf22507bf3646f0c11ac6bee4e3d8c",
        "a/noisy/s11-0000011.wav": "ad31078caa3066cb641fc0ca5f82d88f022c6b1eeb362d89a65067285186be60",
        "b/clean/s5-0000000.wav": "39edd8597c7db8f254a9b7ba21abf1328ca9e8412ed45e920949eb555c0f3e6a",
        "b/clean/s5-0000001.wav": "905d62cc256caf89a92cf6f9611311e46a0d472a95f274002bdac82761a5f1a1",
        "b/clean/s5-0000002.wav": "055a9169b815f5f07219695a7021dc602db172aca44f680b72691e7a7888b98b",
        "b/clean/s5-0000003.wav": "c10b9c24903dd053e1cd18b75d68e05e3193c5cd2ea203ca21d676fae710ef33",
        "b/manifest.jsonl": "373efb0ea0bc52d64c47f091aecfd7566c6ca711a230cfd1c826f8a44116d3f2",
        "b/noise/s5-0000000.wav": "4a258a4c35734245e165c6081595bc7fd743be82909c3e664b03e183794d071d",
        "b/noise/s5-0000001.wav": "4f0956a72c46b990e48a5f26d7908ef2be848c3442495a2f72385416dddf00a3",
        "b/noise/s5-0000002.wav": "748d2132769d21f03a5f9d9d5c5fdfa1717fcb60ebe93c9b77b2d5fe34680401",
        "b/noise/s5-0000003.wav": "327c68fac40b38e624191b177b303be6dbddd1fc56461d14999be47ceb171d4c",
        "b/noisy/s5-0000000.wav": "1c57a8adc63925f7cec92b34400408d311efa1b9b5f0c6df7e8dd4cb0fca15d2",
        "b/noisy/s5-0000001.wav": "2176d46e163f8f6cf60424dd54c126b5ddf3a22d2d4fff71ecf3b8eebd8ac2ee",
        "b/noisy/s5-0000002.wav": "d7226d2dfbe51d3ef9838d1204b5f8ba930bc28f7b2d604e1b37729e00e13938",
        "b/noisy/s5-0000003.wav": "7e2f9d028f57b16bddababf676e88fb534ea232f25edb0cc4b5dc3dd7668859b",
        "clips.csv": "55c4a432d74a7b2b249373e67d9de952a75023d1696c13b02ec5314ee5adee92",
        "oracle/s11-0000000.wav": "50a8031c7c25fb49345bddfed674be6db9256fb57842b2db34ee57ea0a6937bc",
        "oracle/s11-0000001.wav": "9b328739f87e5299861334746781a6b70f0fc1cb87b40a4b1b0a2067d26d954b",
        "oracle/s11-0000002.wav": "ab0d0fba523c54d2c2519ca8b950599b47e57918b0cc52c3ee2592a917a274f5",
        "oracle/s11-0000003.wav": "5d7cf5bea1fc467048e8cc87073b61c3ef496e42bf5396e050073aadb67c7b81",
        "oracle/s11-0000004.wav": "1eeff517b43d15d6dcc0cf0c85bb37ce0443f83549771175d8cab6238311ceea",
        "oracle/s11-0000005.wav": "37adff29efa99a3b6e91dc71212de3503111b8aa7fb18b326591764b6d988f47",
        "oracle/s11-0000006.wav": "53a36c4c5bb0b8644abd5cd8990547cec095bbae10a4303ded7f79dbafd9c9d6",
        "oracle/s11-0000007.wav": "92da98f33f7c0cef6066722a9ba4c2c1b42d991f81d5aa46ad84d7cbde872496",
        "oracle/s11-0000008.wav": "51858083fd80b3c48121021741ebf1c4244ddd2d2e2996973c4286ff74a659a7",
        "oracle/s11-0000009.wav": "049e7a1ac226009d013f1ef5253c71d573c85be46c4bdeee310be196e51065b3",
        "oracle/s11-0000010.wav": "6e1428c26f7701f958118f82b1e8c9f9ffe23d7d910bfacf5c675f078c1ef848",
        "oracle/s11-0000011.wav": "2f4f445af7ccbe6c34f9d52d80be9e8bb81203e0d933ab5e2407bbd78fbd5e6c",
        "pink.wav": "cd4f4ff7c49ffd7cf9448b2eddabb34e4e3e3437aa0b55a767b7871a8c1b9918",
        "score.json": "79fcb7884ae07493309c1fe778907badee33f71c8ffa04c8f302387f005d06d5",
        "scores.csv": "0ad0ed55cc5389d341ef312e5d9f84450ab57d9f7406bf7319a45bfd142149dc",
    ]
}

extension GoldenCorpus.Made {
    func hashes() throws -> [String: String] { try GoldenCorpus.hashesOf(try GoldenCorpus.listed()) }
}
