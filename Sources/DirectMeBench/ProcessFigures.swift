import Foundation

/// Plays audio into the virtual microphone on a thread of its own until stopped.
public final class Feeder: @unchecked Sendable {
  private let pulse: PulseAudioServer
  private let lock = NSLock()
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  public init(pulse: PulseAudioServer) { self.pulse = pulse }

  public func start(_ samples: [Int16]) {
    Thread {
      var index = 0
      while !self.isStopped && index < samples.count {
        let end = min(index + 1600, samples.count)
        // Nothing reading the microphone any more: stop (see `PulseAudioServer.play`).
        guard (try? self.pulse.play(Array(samples[index..<end]), patience: 10)) != nil else { break }
        index = end
      }
      self.done.signal()
    }.start()
  }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Stops the feeding and waits for it to end; stopping again does nothing.
  public func stop() {
    lock.lock()
    let wasStopped = stopped
    stopped = true
    lock.unlock()
    if !wasStopped { done.wait() }
  }
}

/// Figures of another process, from /proc.
public enum ProcessFigures {
  /// User plus system CPU seconds the process has used.
  public static func cpuSeconds(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command: state(0) ppid(1) ... utime(11) stime(12).
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The share of one core the process used while `body` ran.
  public static func cpuShare(_ pid: Int32, during body: () throws -> Void) rethrows -> Double {
    let cpuBefore = cpuSeconds(pid)
    let start = Date()
    try body()
    return (cpuSeconds(pid) - cpuBefore) / Date().timeIntervalSince(start)
  }

  public static func residentMegabytes(_ pid: Int32) -> Double { status(pid, "VmRSS") }
  public static func peakResidentMegabytes(_ pid: Int32) -> Double { status(pid, "VmHWM") }

  private static func status(_ pid: Int32, _ key: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
      let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
      return kilobytes / 1024
    }
    return 0
  }
}
