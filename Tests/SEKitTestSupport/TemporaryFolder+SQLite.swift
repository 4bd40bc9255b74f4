import Foundation

extension TemporaryFolder {
    /// Runs `sqlite3` on a catalogue and returns its output (trimmed).
    public func sqlite(_ database: String, _ sql: String) throws -> String { try Self.sqlite(database, sql) }

    /// Runs `sqlite3` on a catalogue and returns its output (trimmed).
    public static func sqlite(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
