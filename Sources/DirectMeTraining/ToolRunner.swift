#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// A program of sphinxtrain or sphinxbase that failed or is missing, in one line.
public struct ToolError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Finds and runs the outside programs adaptation needs: sphinxtrain's `bw`, `map_adapt`,
/// `mllr_solve`, `mk_s2sendump` (in /usr/lib/sphinxtrain, Debian package `sphinxtrain`),
/// `sphinx_fe` (`sphinxbase-utils`) and `pocketsphinx_mdef_convert` (`pocketsphinx`).
public struct ToolRunner: Sendable {
  /// Where sphinxtrain's programs are (`DIRECTME_SPHINXTRAIN` overrides).
  public var sphinxtrainFolder: String

  public init(sphinxtrainFolder: String? = nil) {
    self.sphinxtrainFolder =
      sphinxtrainFolder ?? ProcessInfo.processInfo.environment["DIRECTME_SPHINXTRAIN"] ?? "/usr/lib/sphinxtrain"
  }

  /// The path of a program, or an error saying which package provides it.
  public func locate(_ program: String) throws -> String {
    let sphinxtrainPrograms: Set<String> = ["bw", "map_adapt", "mllr_solve", "mk_s2sendump"]
    if sphinxtrainPrograms.contains(program) {
      let path = sphinxtrainFolder + "/" + program
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ToolError(
          "sphinxtrain is missing: \(path) not found (install the Debian package sphinxtrain, e.g. scripts/setup.sh, or set DIRECTME_SPHINXTRAIN)")
      }
      return path
    }
    let packages = ["sphinx_fe": "sphinxbase-utils", "pocketsphinx_mdef_convert": "pocketsphinx"]
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    if let found = searchPath.split(separator: ":").map({ "\($0)/\(program)" }).first(where: {
      FileManager.default.isExecutableFile(atPath: $0)
    }) {
      return found
    }
    throw ToolError("\(program) not found (install the Debian package \(packages[program] ?? program), e.g. scripts/setup.sh)")
  }

  /// Checks that every program adaptation needs is there, before any work starts.
  public func checkAll() throws {
    for program in ["sphinx_fe", "pocketsphinx_mdef_convert", "bw", "map_adapt", "mllr_solve", "mk_s2sendump"] {
      _ = try locate(program)
    }
  }

  /// Runs a program to its end; its output (stdout and stderr) goes to `log`, and each line
  /// to `onLine`. A failure names the program and quotes its last error line.
  public func run(_ program: String, _ arguments: [String], log: URL, onLine: (Substring) -> Void = { _ in }) throws {
    let path = try locate(program)
    let logFile: OutputFile
    do {
      logFile = try OutputFile(path: log.path, mode: .truncate)
    } catch {
      throw ToolError("\(log.path): cannot write \(program)'s log (\(error))")
    }
    var pending: [UInt8] = []
    var lastErrors: [String] = []
    let status: Int32
    do {
      status = try runProgram(path, arguments: arguments) { chunk in
        try logFile.write(chunk)
        pending.append(contentsOf: chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          if line.hasPrefix("ERROR") || line.hasPrefix("FATAL") {
            lastErrors.append(line)
            if lastErrors.count > 3 { lastErrors.removeFirst() }
          }
          onLine(Substring(line))
        }
      }
    } catch let error as SystemError {
      throw ToolError("\(program): \(error)")
    }
    guard status == 0 else {
      let reason = lastErrors.last.map { ": " + Self.clean($0) } ?? " (exit status \(status))"
      throw ToolError("\(program) failed\(reason); its log is \(log.path)")
    }
  }

  /// `ERROR: "file.c", line 12: message` is `message`.
  static func clean(_ line: String) -> String {
    var text = Substring(line)
    for prefix in ["FATAL_ERROR: ", "FATAL: ", "ERROR: "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
    if text.hasPrefix("\""), let range = text.firstRange(of: ": "), text[..<range.lowerBound].contains(", line ") {
      text = text[range.upperBound...]
    }
    return String(text.trimmed())
  }
}
