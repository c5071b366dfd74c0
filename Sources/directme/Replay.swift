import ArgumentParser
import DirectMeAudio
import DirectMeCore
import DirectMeRecognizer
import Foundation

struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run recorded command files through the same pipeline as the microphone.",
    discussion: """
      Each audio file (WAV in any encoding, A-law and mu-law included, FLAC, OGG/Vorbis, Opus, \
      MP3, AIFF; any rate and channels) is fed to the recognizer in 10 ms chunks as if spoken \
      live. Folders are searched for such files.
      """
  )

  @Argument(help: ArgumentHelp("Audio files or folders of them.", valueName: "path"))
  var paths: [String]

  @Flag(help: "Print one JSON object per file per line.")
  var json = false

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  @OptionGroup(title: "Window")
  var display: DisplayOptions

  @Flag(help: "Animate the ninja in the window while replaying, in real time.")
  var window = false

  @Option(help: ArgumentHelp("Save each utterance's audio and a JSON Lines log of the session here (0600 files in a 0700 folder).", valueName: "folder"))
  var saveSession: String?

  func validate() throws {
    guard !paths.isEmpty else { throw ValidationError("give at least one audio file or folder") }
  }

  func run() throws {
    try reportingErrors {
      var files: [String] = []
      for path in paths {
        // A saved session replays its utterances in the order they were heard.
        if FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent(SessionRecorder.logName).path) {
          files += try SessionRecorder.utterances(in: path).map(\.file)
        } else {
          files += AudioFileReader.expand([path])
        }
      }
      guard !files.isEmpty else { throw Failure("no audio files (.wav, .flac, .ogg, .mp3, ...) in \(paths.joined(separator: ", "))") }
      let recorder = try saveSession.map { try SessionRecorder(folder: $0) }
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      if window || display.headless || display.screenshot != nil {
        try replayOnStage(files, recognizer: recognizer, interpreter: interpreter, recorder: recorder)
      } else {
        try replayToText(files, recognizer: recognizer, interpreter: interpreter, recorder: recorder)
      }
    }
  }

  /// Replays each file and prints what came of it.
  private func replayToText(_ files: [String], recognizer: PocketSphinxRecognizer, interpreter: Interpreter, recorder: SessionRecorder?) throws {
    var failures: [String] = []
    for file in files {
      switch replayFile(file, recognizer: recognizer, interpreter: interpreter, recorder: recorder) {
      case .success(let (result, warnings)):
        if json {
          print(FileReport(file: file, result: result, warnings: warnings).jsonLine())
        } else {
          printText(file: file, result: result)
        }
        for warning in warnings { warn("directme: warning: \(warning)") }
        if !warnings.isEmpty { failures.append(file) }
      case .failure(let error):
        warn("directme: error: \(error)")
        if json { print(FileReport(file: file, error: "\(error)").jsonLine()) }
        failures.append(file)
      }
      fflush(nil)
    }
    if !failures.isEmpty {
      if files.count > 1 { warn("directme: \(failures.count) of \(files.count) files had problems: \(failures.joined(separator: ", "))") }
      throw ExitCode(1)
    }
  }

  private func printText(file: String, result: StreamResult) {
    print("\(file) (\(result.duration.formatted(digits: 2)) s)")
    if result.utterances.isEmpty { print("  no speech") }
    for utterance in result.utterances {
      TextReport.lines(for: utterance).forEach { print($0) }
    }
    let directions = result.directions.map(\.rawValue).joined(separator: " ")
    print("  => \(directions.isEmpty ? "(no instructions)" : directions)")
  }

  /// Replays the files into the window (or headless stage), paced in real time with a window.
  private func replayOnStage(_ files: [String], recognizer: PocketSphinxRecognizer, interpreter: Interpreter, recorder: SessionRecorder?) throws {
    let paced = window && !display.headless
    let box = UncheckedBox((recognizer, recorder))
    let producer: StageProducer = { channel in
      let (recognizer, recorder) = box.value
      var failed = false
      for file in files {
        do {
          let source = try AudioFileSource(path: file)
          // Each file starts afresh, as in text replay, so both give the same instructions.
          recognizer.resetAdaptation()
          let listener = CommandListener(recognizer: recognizer, interpreter: interpreter)
          let clock = ContinuousClock()
          let start = clock.now
          recorder?.beginStream()
          let result = try listener.run(next: {
            if channel.isClosed { return nil }
            if paced {
              let due = start + .milliseconds(Int(listener.time * 1000))
              if due > clock.now { Thread.sleep(forTimeInterval: (due - clock.now).seconds) }
            }
            let chunk = try source.next()
            if let chunk { recorder?.feed(chunk) }
            return chunk
          }, onEvent: { event in
            channel.post(.listener(event))
            do { try recorder?.record(event, source: file) } catch { warn("directme: error: \(error)") }
          })
          if source.reader.truncation != nil { warn("directme: warning: \(file): the header declares more audio than the file holds") }
          channel.post(.note("\(file): \(result.directions.map(\.rawValue).joined(separator: " "))"))
        } catch {
          warn("directme: error: \(error)")
          failed = true
        }
      }
      channel.post(.finished(failed: failed))
    }
    let outcome = try runStage(display: display, listening: true, producer: producer)
    if outcome.failed { throw ExitCode(1) }
  }
}

/// Replays one file into a fresh pipeline.
func replayFile(
  _ file: String, recognizer: PocketSphinxRecognizer, interpreter: Interpreter = Interpreter(),
  endpointer: EndpointerSettings = .init(), recorder: SessionRecorder? = nil
) -> Result<(StreamResult, [String]), Error> {
  Result {
    let source = try AudioFileSource(path: file)
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
    var warnings: [String] = []
    if let (declared, held) = source.reader.truncation {
      warnings.append(
        "\(file): truncated: the header declares \(declared.formatted(digits: 2)) s of audio, the file holds \(held.formatted(digits: 2)) s (the part present was processed)"
      )
    }
    return (result, warnings)
  }
}
