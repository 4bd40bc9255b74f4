import SEKitCatalog

extension ClipDegradationRecord {
    /// The rows of a clip's degradations (``Degradation``, in order): one per degradation and one
    /// per parameter.
    public static func rows(clipID: String, degradations: [Degradation]) -> (degradations: [ClipDegradationRecord],
                                                                             params: [ClipDegradationParamRecord]) {
        var records: [ClipDegradationRecord] = [], params: [ClipDegradationParamRecord] = []
        for (position, degradation) in degradations.enumerated() {
            records.append(ClipDegradationRecord(clipID: clipID, position: position, stage: degradation.stage.rawValue,
                                                 kind: degradation.kind))
            for parameter in degradation.parameters {
                params.append(ClipDegradationParamRecord(clipID: clipID, position: position, key: parameter.key,
                                                         valueText: parameter.text, valueNumber: parameter.number))
            }
        }
        return (records, params)
    }
}
