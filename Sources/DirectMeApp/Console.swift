#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Synchronization

/// Prints one line on stderr.
public func warn(_ message: String) {
  StandardError.write(message + "\n")
}

/// Ends the program with a one-line error.
public struct Failure: Error, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }

  /// "1 problem in the labels; nothing was tuned", "3 problems in ...".
  static func problems(_ count: Int, in place: String, _ outcome: String) -> Failure {
    Failure("\(count) \(count == 1 ? "problem" : "problems") in \(place); \(outcome)")
  }
}

/// Where the stage and the pipelines write what they have to say: lines for stdout, and
/// warnings for stderr. Tests collect them instead.
public struct Output: Sendable {
  public var line: @Sendable (String) -> Void
  public var warning: @Sendable (String) -> Void

  public init(line: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void) {
    self.line = line
    self.warning = warning
  }

  /// stdout, flushed a line at a time, and stderr.
  public static let standard = Output(
    line: { text in
      print(text)
      fflush(nil)
    }, warning: warn)
}

/// A progress bar on stderr when it is a terminal; otherwise a line at every tenth of the way
/// (for logs), for work that takes more than a few seconds.
public final class ProgressBar {
  public let total: Int
  public let label: String
  private let enabled = isatty(STDERR_FILENO) != 0
  private let start = Date()
  private var shown = false
  private var lastTenth = 0

  public init(total: Int, label: String) {
    self.total = total
    self.label = label
  }

  public func update(_ done: Int) {
    guard enabled else {
      let tenth = total == 0 ? 10 : done * 10 / total
      if tenth > lastTenth, Date().timeIntervalSince(start) > 5 || tenth == 10 && lastTenth > 0 {
        lastTenth = tenth
        warn("\(label): \(done)/\(total) (\(Int(Date().timeIntervalSince(start).rounded())) s)")
      }
      return
    }
    let width = 30
    let filled = total == 0 ? width : done * width / total
    let elapsed = Date().timeIntervalSince(start)
    let remaining = done == 0 ? 0 : elapsed / Double(done) * Double(total - done)
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let line = "\r\(label) [\(bar)] \(done)/\(total)  \(Int(remaining.rounded())) s left "
    StandardError.write(line)
    shown = true
  }

  /// Prints something without garbling the bar.
  public func interrupt(_ body: () -> Void) {
    if enabled && shown { StandardError.write("\r\u{1B}[K") }
    body()
  }

  public func finish() {
    if enabled && shown { StandardError.write("\r\u{1B}[K") }
  }
}

/// A progress bar updated from several threads.
public final class ConcurrentProgress: @unchecked Sendable {
  private let lock = Mutex(())
  private let bar: ProgressBar
  public init(total: Int, label: String) { bar = ProgressBar(total: total, label: label) }
  public func update(_ done: Int) { lock.withLock { _ in bar.update(done) } }
  public func finish() { lock.withLock { _ in bar.finish() } }
}

/// A progress bar with a stage name ("reading recordings", "collecting statistics"), safe to
/// update from several threads; a finished stage leaves a "done" line.
public final class StageProgress: @unchecked Sendable {
  private let lock = Mutex(())
  private var bars: [String: ProgressBar] = [:]
  private var current: String?

  public init() {}

  public func update(_ stage: String, _ done: Int, _ total: Int) {
    lock.withLock { _ in
      if current != stage {
        current.flatMap { bars[$0] }?.finish()
        if current != nil { warn("  \(current!): done") }
        current = stage
        bars[stage] = ProgressBar(total: total, label: stage)
      }
      bars[stage]?.update(done)
    }
  }

  public func finish() {
    lock.withLock { _ in
      current.flatMap { bars[$0] }?.finish()
      if let current { warn("  \(current): done") }
      current = nil
    }
  }
}
