/// An error about one parameter of a library call: its name (the name SEKit uses for it
/// everywhere: recipe keys, catalogue params, HDF5 attributes; `snr-db`, `hop-length`), the value
/// given and what is wrong. Library messages name the parameter as such; a command line that
/// exposes the parameter as a flag (`--snr-db`) presents it in its own terms.
public protocol ParameterError: Error, CustomStringConvertible {
    /// The parameter at fault, or nil when the error is not about a parameter.
    var invalidParameter: (name: String, value: String, reason: String)? { get }
}
