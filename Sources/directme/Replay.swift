import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeCommandLine
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

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

  @Flag(help: "Print one JSON object per file per line (the results only: not with --window, --headless or --screenshot).")
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
    // The stage prints the ninja's positions, not JSON: --json would be silently ignored.
    if json && (window || display.headless || display.screenshot != nil) {
      throw ValidationError("--json prints one object per file without the stage: leave out --window, --headless and --screenshot")
    }
  }

  func run() throws {
    try reportingErrors {
      let files = try SessionRecorder.replayFiles(paths)
      let recorder = try saveSession.map { try SessionRecorder(folder: $0) }
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      if window || display.headless || display.screenshot != nil {
        let replay = StageReplay(
          files: files, recognizer: recognizer, interpreter: interpreter, recorder: recorder,
          paced: window && !display.headless)
        let outcome = try runStage(
          display: try display.makeDisplay(), settings: display.settings(listening: true), producer: replay.producer)
        if outcome.failed { throw ExitCode(1) }
      } else {
        let failures = replayToText(files, recognizer: recognizer, interpreter: interpreter, recorder: recorder, json: json)
        if !failures.isEmpty {
          if files.count > 1 { warn("directme: \(failures.count) of \(files.count) files had problems: \(failures.joined(separator: ", "))") }
          throw ExitCode(1)
        }
      }
    }
  }
}
