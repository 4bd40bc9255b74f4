import Foundation

/// A clip that could not be made, with the reason.
struct MixClipFailure: Error {
    var index: Int
    var reason: String
}
