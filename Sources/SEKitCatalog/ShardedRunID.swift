import Foundation
import SEKitSignal

extension RunID {
    /// The id of the run that folds shard runs together (`sekit catalog merge`) or consolidates
    /// their outputs (`sekit features merge --copy`): a UUID (version 8, RFC 9562) made from the
    /// SHA-256 of the shard runs' ids, sorted, so the same shards always fold into the same run,
    /// whichever tool folds them and in whatever order they are given.
    public static func folding(_ shardRuns: [RunID]) -> RunID {
        var hash = SHA256()
        hash.update(Data("sekit-shard-fold-v1\n".utf8))
        for id in shardRuns.map(\.rawValue).sorted() { hash.update(Data((id + "\n").utf8)) }
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80   // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // RFC 9562 variant
        let hex = SHA256.hexString(bytes)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return RunID(parts.joined(separator: "-"))
    }
}
