import ArgumentParser
import Foundation
import SEKit

/// An error message in the command line's own terms.
struct CommandLineMessage: Error, CustomStringConvertible {
    let description: String
    /// A usage error (exit 64): what was asked for needs another flag or value.
    var isUsageError = false
}

/// Turns library errors into command-line messages: the library names parameters (`snr-db`,
/// `overwrite`); the command line names the flags that set them (`--snr-db`, `--overwrite`).
enum ErrorPresentation {
    /// `error` as the user of `command` should read it.
    static func present(_ error: Error, command: ParsableCommand.Type) -> Error {
        let help = command.helpMessage(includeHidden: true, columns: 10_000)
        func isFlag(_ name: String) -> Bool {
            help.range(of: "--\(name)(?![A-Za-z0-9-])", options: .regularExpression) != nil
        }
        if let parameterError = error as? ParameterError, let (name, value, reason) = parameterError.invalidParameter, isFlag(name) {
            return CommandLineMessage(description: value.isEmpty ? "--\(name): \(reason)" : "--\(name) \(value): \(reason)")
        }
        switch error {
        case FeatureFileError.outputExists(let path) where isFlag("overwrite"):
            return CommandLineMessage(description: "\(path): output exists (pass --overwrite to replace it)")
        case MixError.outputConflict(let path, let reason) where isFlag("overwrite"),
             CorpusError.outputConflict(let path, let reason) where isFlag("overwrite"):
            return CommandLineMessage(description: "\(path): \(reason) (--overwrite replaces it)")
        case CorpusError.incompleteCorpus where isFlag("allow-incomplete"):
            return CommandLineMessage(description: "\(error)".replacingOccurrences(of: "(allow-incomplete)", with: "(--allow-incomplete)"))
        case _ where catalogError(in: error)?.code == "not-found" && isFlag("catalog"):
            return CommandLineMessage(description: "\(error); choose another with --catalog or SEKIT_CATALOG")
        default:
            return error
        }
    }

    /// The exit status of a command that failed with `error`: 64 (EX_USAGE) for a usage error, a flag's
    /// value that cannot be used (the library's ``ParameterError`` naming a flag of `command`: not a number,
    /// out of range, a path that does not exist, a subset or metric the catalogue does not have) or a
    /// filter, ordering or column list that does not parse; 1 for everything else (the work failed).
    /// Argument parsing errors (an unknown or missing flag) are ArgumentParser's, also 64; a run
    /// reference that names no run or several is 2 (``SEKitCommand/main()``).
    static func exitCode(for error: Error, command: ParsableCommand.Type) -> Int32 {
        if let parameterError = error as? ParameterError, let name = parameterError.invalidParameter?.name {
            let help = command.helpMessage(includeHidden: true, columns: 10_000)
            if help.range(of: "--\(name)(?![A-Za-z0-9-])", options: .regularExpression) != nil { return 64 }
        }
        if catalogError(in: error)?.code == "filter" { return 64 }
        if let message = error as? CommandLineMessage, message.isUsageError { return 64 }
        return 1
    }

    /// The catalogue's error that `error` is, or carries (the comparison and run folders throw their
    /// own errors, which carry the catalogue's unchanged).
    static func catalogError(in error: Error) -> CatalogError? {
        switch error {
        case let error as CatalogError: error
        case ComparisonError.catalog(let error): error
        case RunsError.catalog(let error): error
        default: nil
        }
    }
}
