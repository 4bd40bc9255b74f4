/// Why `sekit enhance --model` cannot use a model file: found before any clip. Every case names the file.
public enum ModelError: Error, Equatable, CustomStringConvertible, Sendable {
    /// ONNX Runtime cannot load the file (corrupt, or not ONNX).
    case unreadable(path: String, reason: String)
    /// A metadata property is missing or holds an unusable value (its key, what is wrong).
    case metadata(path: String, key: String, reason: String)
    /// An input or output of the graph does not have the contract's name or shape.
    case shape(path: String, reason: String)
    /// The model does not fit the clips (their sample rate, a setting of the command).
    case mismatch(path: String, reason: String)
    /// The Python environment cannot run ONNX models (what is wrong, what to do).
    case environment(interpreter: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): \(reason)"
        case let .metadata(path, key, reason): "\(path): metadata \(key): \(reason) (docs/enhancement.md lists the model contract)"
        case let .shape(path, reason): "\(path): \(reason) (docs/enhancement.md lists the model contract)"
        case let .mismatch(path, reason): "\(path): \(reason)"
        case let .environment(interpreter, reason):
            "sekit enhance --model runs the model with ONNX Runtime in the project's Python environment, but \(interpreter) \(reason); "
                + "add it with `\(interpreter) -m pip install onnxruntime onnx` (or run scripts/python-env.sh in SEKit's source tree, "
                + "or set SEKIT_PYTHON to an interpreter that has them)"
        }
    }
}
