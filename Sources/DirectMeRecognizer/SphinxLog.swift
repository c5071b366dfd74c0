import CPocketSphinx
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Synchronization

/// Collects sphinxbase's log so errors can carry the decoder's own words.
///
/// sphinxbase logs through one process-wide callback, on the thread that made the call; this
/// keeps each thread's last lines apart (two decoders on two threads do not get each
/// other's errors), echoes them to stderr when `DIRECTME_SPHINX_LOG=1`, and turns the
/// library's fatal errors (which call `exit`) into one clear line first.
enum SphinxLog {
  /// The lines and what is being done, per thread.
  private static let lines = Mutex<[pthread_t: [String]]>([:])
  private static let context = Mutex<[pthread_t: String]>([:])
  private static let echo = ProcessInfo.processInfo.environment["DIRECTME_SPHINX_LOG"] == "1"

  /// Routes sphinxbase's log here; idempotent.
  static func install() {
    _ = installed
  }

  private static let installed: Void = {
    directme_sphinx_set_log { level, line in
      SphinxLog.record(level: level, line: line.map { String(cString: $0) } ?? "")
    }
  }()

  private static func record(level: Int32, line: String) {
    if echo { StandardError.write(line) }
    guard level >= Int32(ERR_WARN.rawValue) else { return }
    let trimmed = String(line.trimmed())
    let thread = pthread_self()
    lines.withLock {
      $0[thread, default: []].append(trimmed)
      if $0[thread]!.count > 32 { $0[thread]!.removeFirst($0[thread]!.count - 32) }
    }
    if level == Int32(ERR_FATAL.rawValue) {
      // The library calls exit() right after this; say what was being done first.
      let doing = context.withLock { $0[thread] } ?? "pocketsphinx"
      StandardError.write("\(programName): error: \(doing): \(Self.clean(trimmed))\n")
    }
  }

  /// Runs `body` with a description of what it does, for fatal errors, and returns it with
  /// the warnings and errors it logged.
  static func capturing<T>(_ doing: String, _ body: () throws -> T) rethrows -> (T, [String]) {
    install()
    let thread = pthread_self()
    lines.withLock { $0[thread] = [] }
    context.withLock { $0[thread] = doing }
    defer {
      context.withLock { $0[thread] = nil }
      lines.withLock { $0[thread] = nil }
    }
    let value = try body()
    return (value, lines.withLock { $0[thread] ?? [] })
  }

  /// A log line without sphinxbase's `ERROR: "file.c", line 12:` prefix.
  static func clean(_ line: String) -> String {
    var text = Substring(line)
    for prefix in ["FATAL: ", "ERROR: ", "WARN: "] where text.hasPrefix(prefix) {
      text = text.dropFirst(prefix.count)
    }
    if text.hasPrefix("\""), let range = text.firstRange(of: ": ") {
      // "fsg_search.c", line 141: message
      let head = text[..<range.lowerBound]
      if head.contains(", line ") { text = text[range.upperBound...] }
    }
    return String(text.trimmed())
  }
}

/// A PocketSphinx call that failed, with the library's own explanation.
public struct PocketSphinxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C function that failed.
  public var function: String
  /// What went wrong, in words a user can act on.
  public var message: String

  public init(function: String, message: String) {
    self.function = function
    self.message = message
  }

  public var description: String { message }

  /// An error for `function` from the lines it logged (the last error line, cleaned).
  static func from(_ function: String, log: [String], fallback: String) -> PocketSphinxError {
    let errors = log.filter { $0.hasPrefix("ERROR") || $0.hasPrefix("FATAL") }
    let message = errors.last.map(SphinxLog.clean) ?? fallback
    return PocketSphinxError(function: function, message: message)
  }
}
