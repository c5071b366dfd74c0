import DirectMeAudio
import DirectMeCore
import Foundation

/// Runs outside programs (sox, espeak-ng, flite, pocketsphinx_continuous).
public enum Tools {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs a program to the end; returns its stdout, throws with its stderr on failure.
  @discardableResult
  public static func run(_ arguments: [String], allowFailure: Bool = false) throws -> String {
    try runReading(arguments, allowFailure: allowFailure).stdout
  }

  /// Runs a program to the end, with `environment` added to this one's; returns its stdout
  /// and stderr, throws with its stderr on failure.
  public static func runReading(
    _ arguments: [String], environment: [String: String] = [:], allowFailure: Bool = false
  ) throws -> (stdout: String, stderr: String) {
    guard let path = arguments[0].hasPrefix("/") ? arguments[0] : which(arguments[0]) else {
      throw Failure(description: "\(arguments[0]) is not installed (scripts/setup.sh installs it)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = Array(arguments.dropFirst())
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
    }
    // stderr goes to a file, so neither pipe can fill up and stall the program.
    let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("directme-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorsFile) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorsFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let stderr = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 || allowFailure else {
      throw Failure(description: "\(arguments.joined(separator: " ")): \(stderr)")
    }
    return (String(decoding: stdout, as: UTF8.self), stderr)
  }

  /// `source` as a narrowband link gives it (a telephone, a Bluetooth headset): sox down to
  /// 8 kHz and back to 16 kHz (`-R`: the same input gives the same copy), written to `target`
  /// (the 8 kHz file between, `target` + ".8k.wav", is removed). The benchmark's narrowband
  /// microphone; `scripts/narrowband-copies.py` runs the same two commands.
  public static func throughNarrowbandLink(_ source: String, to target: String) throws {
    let low = target + ".8k.wav"
    defer { try? FileManager.default.removeItem(atPath: low) }
    try run(["sox", "-R", source, "-r", "8000", low])
    try run(["sox", "-R", low, "-r", "16000", target])
  }

  /// Reads a WAV file as 16 kHz mono samples.
  public static func samples(_ path: String) throws -> [Int16] {
    try AudioFileSource.readAll(path: path)
  }

  /// `seconds` of six people talking at once (`Signal.babble`) from 400 of the recordings at
  /// `paths`, drawn with `random` (repeats allowed; all of them when fewer).
  public static func babble(fromFiles paths: [String], seconds: Double, random: inout Signal.Random) throws -> [Int16] {
    let picked = (0..<min(400, paths.count)).map { _ in paths[Int.random(in: 0..<paths.count, using: &random)] }
    let clips = try picked.map { try samples($0) }
    return Signal.babble(from: clips, seconds: seconds, random: &random)
  }

  /// Writes 16 kHz mono samples as a WAV file.
  public static func write(_ samples: [Int16], to path: String) throws {
    try AudioFileWriter.write(samples: samples, to: path)
  }
}
