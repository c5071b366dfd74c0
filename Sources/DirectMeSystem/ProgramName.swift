/// The running program's name as it was started, the last part of its path ("directme",
/// "directme-bench"), which begins the errors and warnings it prints: `directme-bench` runs the
/// same scoring, replay and tuning code as `directme`, and its errors read "directme: error:"
/// until 2026-12-03.
public let programName: String = {
  guard let started = CommandLine.arguments.first, let last = started.split(separator: "/").last, !last.isEmpty else {
    return "directme"
  }
  return String(last)
}()
