import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct CatalogExportTests {
    /// CSV, JSON and table listings carry the same values; CSV quotes per RFC 4180; noises keep their order.
    @Test func formatsAgree() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for name in ["n0", "n1", "n2"] { try CatalogTestSupport.writeWAV(folder.file("noise/\(name).wav")) }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        _ = try ImportJob.run(ImportJob.Request(paths: [folder.file("noise")], kind: .noise, corpus: "n"),
                context: RunContext(catalog: catalog, commandLine: ["import"])).result
        let run = try catalog.beginRun(kind: .mix, commandLine: ["mix"])
        var odd = CatalogTestSupport.clip(run, index: 0, snrDB: -2.5)
        odd.noisyPath = "with, comma and \"quote\"/é.wav"
        odd.levelDBFS = nil
        let plain = CatalogTestSupport.clip(run, index: 1, snrDB: 10)
        try catalog.insertClips([plain, odd], noises: [
            ClipNoiseRecord(clipID: odd.id, position: 2, sourceID: "n:n0.wav", offsetSeconds: 0),
            ClipNoiseRecord(clipID: odd.id, position: 0, sourceID: "n:n2.wav", offsetSeconds: 1),
            ClipNoiseRecord(clipID: odd.id, position: 1, sourceID: "n:n1.wav", offsetSeconds: 2),
        ])
        var csv = ""
        #expect(try catalog.exportClips(filter: nil, format: .csv) { csv += $0 } == 2)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == Catalog.clipListingColumns.joined(separator: ","))
        #expect(lines[1] == "\(odd.id),\(run),0,train,,,n:n2.wav;n:n1.wav;n:n0.wav,,-2.5,-2.49,,1,0.3,1,0,16000,4,"
                + "\"with, comma and \"\"quote\"\"/é.wav\",,")
        #expect(lines[2].hasPrefix("\(plain.id),\(run),1,train,,,,,10,10.01,-26,1,0.3,1,7919,16000,4,noisy/1.wav"))
        var json = ""
        try catalog.exportClips(filter: "snr_requested_db < 0", format: .json) { json += $0 }
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects[0]["noisy_path"] as? String == odd.noisyPath)
        #expect(objects[0]["level_dbfs"] is NSNull)
        #expect(objects[0]["snr_realised_db"] as? Double == -2.49)
        var table = ""
        try catalog.exportClips(filter: nil, format: .table, limit: 1) { table += $0 }
        #expect(table.split(separator: "\n").count == 3 && table.contains(odd.id))
        var empty = ""
        #expect(try catalog.exportClips(filter: "split = 'none'", format: .json) { empty += $0 } == 0)
        #expect(empty == "[]\n")
    }
}
