import Foundation
import Testing

/// `sekit score` with the quality predictors, end to end with networking disabled for the process:
/// under `unshare -n` (no network namespace but loopback) and with a `sitecustomize` that makes
/// every Python socket connection and name lookup fail and writes it to a log. The scores must
/// arrive, the log stay empty, a clip too short for ViSQOL and LSD be recorded as failed for those
/// metrics only, and the run record each model file's SHA-256.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct ScorePredictorsCommandTests {
    static let predictors = "wada_snr,lsd,plcmos,dnsmos_personalized,visqol_speech,visqol_audio,distillmos"

    /// Loaded by every Python process started with this folder on PYTHONPATH (the metric workers).
    static let sitecustomize = """
    import os, socket

    def _refuse(what, address):
        with open(os.environ["SEKIT_TEST_NETWORK_LOG"], "a") as log:
            log.write(f"{what} {address!r}\\n")
        raise OSError(f"networking is disabled for this process ({what} {address!r})")

    _connect = socket.socket.connect

    def connect(self, address):
        if self.family == socket.AF_UNIX:
            return _connect(self, address)
        _refuse("connect", address)

    socket.socket.connect = connect
    socket.socket.connect_ex = lambda self, address: connect(self, address)
    socket.getaddrinfo = lambda host, *rest, **kw: _refuse("getaddrinfo", host)
    socket.create_connection = lambda address, *rest, **kw: _refuse("create_connection", address)
    """

    /// `unshare -n` when this machine lets the test make a network namespace (as root, or with user
    /// namespaces); under CI it must.
    static var withoutNetwork: [String] {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-rn", "true"]
        guard (try? probe.run()) != nil else { return [] }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? ["/usr/bin/unshare", "-rn"] : []
    }

    @Test func predictorsScoreOfflineAndRecordTheirModels() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures
        for side in ["reference", "enhanced"] {
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent(side), withIntermediateDirectories: true)
        }
        let fm = FileManager.default
        for (fixture, copy) in [("speech/vctk_p287_002.wav", "reference/a.wav"), ("noisy/vctk_p287_002.wav", "enhanced/a.wav"),
                                ("speech/vctk_p287_003.wav", "reference/b.wav"), ("noisy/vctk_p287_003.wav", "enhanced/b.wav")] {
            try fm.copyItem(at: fixtures.appendingPathComponent(fixture), to: folder.url.appendingPathComponent(copy))
        }
        // 0.05 s: too short for ViSQOL's spectrogram, for one LSD frame and for PLCMOS's model.
        let short = (0..<800).map { Float(sin(Double($0) * 0.07)) * 0.3 }
        for side in ["reference", "enhanced"] {
            try TestWAV.writeFloat32(short, sampleRate: 16000, to: folder.url.appendingPathComponent("\(side)/c.wav"))
        }
        let site = folder.url.appendingPathComponent("site")
        try fm.createDirectory(at: site, withIntermediateDirectories: true)
        try Self.sitecustomize.write(to: site.appendingPathComponent("sitecustomize.py"), atomically: true, encoding: .utf8)
        let log = folder.path("network.log")
        let launcher = Self.withoutNetwork
        if launcher.isEmpty && TestEnvironment.isCI { Issue.record("unshare -rn cannot make a network namespace here") }
        // The guard is live: Python started the same way cannot look up a name, and the attempt is logged.
        let python = try #require(ProcessInfo.processInfo.environment["SEKIT_PYTHON"], "SEKIT_PYTHON is not set")
        let probe = try SEKitBinary.run(["-c", "import socket; socket.create_connection(('pypi.org', 443), timeout=5)"],
                                        environment: ["PYTHONPATH": site.path, "SEKIT_TEST_NETWORK_LOG": log], launcher: launcher,
                                        executable: URL(fileURLWithPath: python))
        #expect(probe.status != 0 && probe.stderr.contains("networking is disabled"), "\(probe.stderr)")
        #expect((try? String(contentsOfFile: log, encoding: .utf8))?.contains("pypi.org") == true)
        try fm.removeItem(atPath: log)
        let catalog = folder.path("catalog.sqlite")
        let scored = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                                          "--metrics", Self.predictors, "--jobs", "2", "--allow-failures", "--format", "json",
                                          "--checkpoint", "offline", "--catalog", catalog],
                                         environment: ["PYTHONPATH": site.path, "SEKIT_TEST_NETWORK_LOG": log], launcher: launcher)
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(!fm.fileExists(atPath: log), "network calls: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any], "\(scored.stdout)")
        let clips = try #require(document["clips"] as? [[String: Any]])
        #expect(clips.count == 3)
        let outputs = ["wada_snr", "lsd", "plcmos", "dnsmos_personalized_sig", "dnsmos_personalized_bak", "dnsmos_personalized_ovrl",
                       "visqol_speech", "visqol_audio", "distillmos"]
        for clip in clips {
            let id = clip["clip_id"] as? String ?? "?"
            let metrics = clip["metrics"] as? [String: Any] ?? [:]
            let errors = clip["metric_errors"] as? [String: String] ?? [:]
            let failing = id.hasPrefix("c") ? ["lsd", "plcmos", "visqol_speech", "visqol_audio"] : []
            for output in outputs where !failing.contains(output) {
                #expect(metrics[output] is Double, "\(id): no \(output): \(clip)")
            }
            for output in failing { #expect(errors[output] != nil, "\(id): \(output) should have failed: \(clip)") }
            if id.hasPrefix("c") {
                #expect(errors["visqol_speech"]?.contains("Too few samples") == true, "\(errors)")
                #expect(errors["plcmos"]?.hasPrefix("plcmos: the model cannot take this clip of 800 samples") == true, "\(errors)")
            }
        }
        let params = try folder.sqlite(catalog, "SELECT key || '=' || value_text FROM params WHERE key LIKE '%model_sha256' ORDER BY key")
        let keys = params.split(separator: "\n").map { String($0.prefix { $0 != "=" }) }
        #expect(keys == ["distillmos_model_sha256", "dnsmos_personalized_model_sha256", "plcmos_model_sha256", "visqol_audio_model_sha256",
                         "visqol_speech_model_sha256"], "\(params)")
        let failed = try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores WHERE error IS NOT NULL")
        #expect(failed == "4", "\(failed)")
    }
}
