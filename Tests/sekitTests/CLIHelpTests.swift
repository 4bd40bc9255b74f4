import Foundation
import Testing

@Suite struct CLIHelpTests {
    @Test func rootHelpListsVersion() throws {
        let result = try SEKitBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("0."))
    }
}
