import DirectMeCore
import Foundation

/// When each instruction went through each stage of the live pipeline, as wall-clock times
/// (seconds since 1970, the clock another process on the machine reads too), written as JSON
/// Lines by `--timing-log` for `directme bench live`.
struct InstructionTiming: Codable, Sendable {
  var direction: String
  /// Stream time (s) at which the command word ended, and at which its final was emitted.
  var wordEnd: Double
  var emittedStream: Double
  /// When the audio chunk holding the word's end came out of PulseAudio.
  var capturedWall: Double?
  /// When the pipeline emitted the final result holding the instruction.
  var emittedWall: Double
  /// Processor time of the final pass and of the interpreter for that utterance.
  var decodeSeconds: Double
  var interpretSeconds: Double
  /// When the stage took the instruction, and when the first frame with the sprite moved
  /// by it was drawn (headless: when its position was printed).
  var appliedWall: Double?
  var renderedWall: Double?
  /// The sprite was still busy with earlier keyframes when this one was queued.
  var queued: Bool?

  enum CodingKeys: String, CodingKey {
    case direction
    case wordEnd = "word_end"
    case emittedStream = "emitted_stream"
    case capturedWall = "captured_wall"
    case emittedWall = "emitted_wall"
    case decodeSeconds = "decode_s"
    case interpretSeconds = "interpret_s"
    case appliedWall = "applied_wall"
    case renderedWall = "rendered_wall"
    case queued
  }

  static func now() -> Double { Date().timeIntervalSince1970 }
}

/// Remembers when recent chunks of audio arrived, to tell when a given stream time was captured.
struct CaptureTimes {
  private var entries: [(streamEnd: Double, wall: Double)] = []

  mutating func record(streamEnd: Double, wall: Double) {
    entries.append((streamEnd, wall))
    if entries.count > 3000 { entries.removeFirst(1000) }
  }

  /// The arrival of the chunk that holds stream time `time`.
  func wall(at time: Double) -> Double? {
    entries.first(where: { $0.streamEnd >= time })?.wall
  }
}

/// Appends timing records to a file, one JSON object a line, flushed as it goes.
final class TimingLog: @unchecked Sendable {
  private let handle: FileHandle
  private let encoder = JSONEncoder()

  init(path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw Failure("\(path): cannot create the timing log")
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    encoder.outputFormatting = [.sortedKeys]
  }

  func write(_ timing: InstructionTiming) {
    guard var data = try? encoder.encode(timing) else { return }
    data.append(0x0A)
    handle.write(data)
  }

  deinit { try? handle.close() }
}
