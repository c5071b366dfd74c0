import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Replays one file into a fresh pipeline: the same listener as live, fed 10 ms chunks.
/// Gives the result and warnings (a truncated file).
public func replayFile(
  _ file: String, recognizer: Recognizer, interpreter: Interpreter = Interpreter(),
  endpointer: EndpointerSettings = .init(), recorder: SessionRecorder? = nil
) -> Result<(StreamResult, [String]), Error> {
  Result {
    let source = try AudioFileSource(path: file)
    // Each file starts afresh, so a file's result does not depend on the ones before it.
    recognizer.resetAdaptation()
    let listener = CommandListener(recognizer: recognizer, interpreter: interpreter, endpointer: endpointer)
    recorder?.beginStream()
    var recordingError: Error?
    let result = try listener.run(
      next: {
        let chunk = try source.next()
        if let chunk { recorder?.feed(chunk) }
        return chunk
      },
      onEvent: { event in
        do { try recorder?.record(event, source: file) } catch { recordingError = error }
      })
    if let recordingError { throw recordingError }
    return (result, source.warnings)
  }
}

extension AudioFileSource {
  /// What the user should know about the file once it has been read (a truncated file).
  public var warnings: [String] {
    guard let (declared, held) = reader.truncation else { return [] }
    let declares = "\(path): truncated: the header declares \(declared.formatted(digits: 2)) s of audio"
    guard held > 0 else { return [declares + ", the file holds none"] }
    return [declares + ", the file holds \(held.formatted(digits: 2)) s (the part present was processed)"]
  }
}

/// Replays files onto the stage, one after the other, each from a fresh start as in text
/// replay; `paced`: in real time (for watching the window), else as fast as decoding goes.
public struct StageReplay: @unchecked Sendable {
  public var files: [String]
  public var recognizer: Recognizer
  public var interpreter: Interpreter
  public var recorder: SessionRecorder?
  public var paced: Bool
  public var output: Output

  public init(
    files: [String], recognizer: Recognizer, interpreter: Interpreter, recorder: SessionRecorder? = nil,
    paced: Bool, output: Output = .standard
  ) {
    self.files = files
    self.recognizer = recognizer
    self.interpreter = interpreter
    self.recorder = recorder
    self.paced = paced
    self.output = output
  }

  /// The producer for `runStage`.
  public var producer: StageProducer {
    let replay = UncheckedBox(self)
    return { channel in replay.value.run(channel) }
  }

  func run(_ channel: StageChannel) {
    var failed = false
    var directions = 0
    for file in files {
      do {
        let source = try AudioFileSource(path: file)
        recognizer.resetAdaptation()
        let listener = CommandListener(recognizer: recognizer, interpreter: interpreter)
        let clock = ContinuousClock()
        let start = clock.now
        recorder?.beginStream()
        let result = try listener.run(
          next: {
            if channel.isClosed { return nil }
            if paced {
              let due = start + .milliseconds(Int(listener.time * 1000))
              if due > clock.now { sleep(seconds: (due - clock.now).seconds) }
            }
            let chunk = try source.next()
            if let chunk { recorder?.feed(chunk) }
            return chunk
          },
          onEvent: { event in
            channel.post(.listener(event))
            do { try recorder?.record(event, source: file) } catch { output.warning("\(programName): error: \(error)") }
          })
        for warning in source.warnings { output.warning("\(programName): warning: \(warning)") }
        directions += result.directions.count
        channel.post(.note("\(file): \(result.directions.map(\.rawValue).joined(separator: " "))"))
      } catch {
        output.warning("\(programName): error: \(error)")
        failed = true
      }
    }
    // The window's last frame (and screenshot) says the replay is over, not "Listening...".
    channel.post(.prompt(Self.summary(files: files.count, directions: directions, failed: failed)))
    channel.post(.finished(failed: failed))
  }

  /// What the window shows once every file is replayed.
  static func summary(files: Int, directions: Int, failed: Bool) -> String {
    let fileCount = files.counting("file")
    let directionCount = directions.counting("direction")
    return "Replayed \(fileCount): \(directionCount)" + (failed ? " (problems: see the terminal)" : "")
  }
}

extension SessionRecorder {
  /// The audio files `paths` name, in order: files as given, folders searched for audio
  /// files, and a saved session's utterances in the order they were heard.
  public static func replayFiles(_ paths: [String]) throws -> [String] {
    var files: [String] = []
    for path in paths {
      if FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent(logName).path) {
        files += try utterances(in: path).map(\.file)
      } else {
        files += AudioFileReader.expand([path])
      }
    }
    guard !files.isEmpty else { throw Failure("no audio files (.wav, .flac, .ogg, .mp3, ...) in \(paths.joined(separator: ", "))") }
    return files
  }
}
