#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// When each instruction went through each stage of the live pipeline, as wall-clock times
/// (seconds since 1970, the clock another process on the machine reads too), written as JSON
/// Lines by `--timing-log` for `directme-bench live`.
public struct InstructionTiming: Codable, Sendable {
  public var direction: String
  /// Stream time (s) at which the command word ended, and at which its final was emitted.
  public var wordEnd: Double
  public var emittedStream: Double
  /// When the audio chunk holding the word's end came out of PulseAudio.
  public var capturedWall: Double?
  /// When the pipeline emitted the final result holding the instruction.
  public var emittedWall: Double
  /// Processor time of the final pass and of the interpreter for that utterance.
  public var decodeSeconds: Double
  public var interpretSeconds: Double
  /// When the stage took the instruction, and when the first frame with the sprite moved
  /// by it was drawn (headless: when its position was printed).
  public var appliedWall: Double?
  public var renderedWall: Double?
  /// The sprite was still busy with earlier keyframes when this one was queued.
  public var queued: Bool?

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

  public init(
    direction: String, wordEnd: Double, emittedStream: Double, capturedWall: Double?, emittedWall: Double,
    decodeSeconds: Double, interpretSeconds: Double
  ) {
    self.direction = direction
    self.wordEnd = wordEnd
    self.emittedStream = emittedStream
    self.capturedWall = capturedWall
    self.emittedWall = emittedWall
    self.decodeSeconds = decodeSeconds
    self.interpretSeconds = interpretSeconds
  }

  public static func now() -> Double { Date().timeIntervalSince1970 }
}

/// Remembers when recent chunks of audio arrived, to tell when a given stream time was captured.
public struct CaptureTimes {
  private var entries: [(streamEnd: Double, wall: Double)] = []

  public init() {}

  public mutating func record(streamEnd: Double, wall: Double) {
    entries.append((streamEnd, wall))
    if entries.count > 3000 { entries.removeFirst(1000) }
  }

  /// The arrival of the chunk that holds stream time `time`.
  public func wall(at time: Double) -> Double? {
    entries.first(where: { $0.streamEnd >= time })?.wall
  }
}

/// Appends timing records to a file, one JSON object a line, flushed as it goes.
public final class TimingLog: @unchecked Sendable {
  private let handle: OutputFile
  private let encoder = JSONEncoder()

  public init(path: String) throws {
    do {
      handle = try OutputFile(path: path, mode: .truncate)
    } catch {
      throw Failure("\(path): cannot create the timing log")
    }
    encoder.outputFormatting = [.sortedKeys]
  }

  public func write(_ timing: InstructionTiming) {
    guard var data = try? encoder.encode(timing) else { return }
    data.append(0x0A)
    try? handle.write(data)
  }
}
