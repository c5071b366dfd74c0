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

struct Live: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Direct the ninja live from the microphone (the default).",
    discussion: """
      Press Space or click the button to start and stop listening (push-to-talk), or pass \
      --hands-free to listen all the time. Esc, q or closing the window quits.
      """
  )

  @Option(help: ArgumentHelp("PulseAudio source to record from (default: the default source).", valueName: "name"))
  var device: String?

  @Flag(help: "Listen all the time instead of push-to-talk.")
  var handsFree = false

  @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
  var duration: Double?

  @Option(help: ArgumentHelp("Save each utterance's audio and a JSON Lines log of the session here (0600 files in a 0700 folder).", valueName: "folder"))
  var saveSession: String?

  @Option(help: .hidden)
  var timingLog: String?

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  @OptionGroup(title: "Window")
  var display: DisplayOptions

  func validate() throws {
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError("--duration must be a positive number of seconds")
    }
  }

  func run() throws {
    try reportingErrors {
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      // Connect before the window opens: no server is one clear line, not a window that waits.
      let microphone = try Microphone(device: device)
      let pipeline = LivePipeline(
        recognizer: recognizer, interpreter: interpreter, source: .pulseAudio(device: device), first: microphone,
        recorder: try saveSession.map { try SessionRecorder(folder: $0) }, timings: timingLog != nil,
        sourceName: device)
      let settings = display.settings(
        listening: handsFree || display.headless, pushToTalk: !display.headless, duration: duration,
        timingLog: try timingLog.map(TimingLog.init(path:)))
      // The window (and its sprite) before "listening": a missing sprite is an error, not a
      // session that said it was listening and then stopped.
      let stage = try display.makeDisplay()
      print("listening: \(device ?? "the default source")")
      fflush(nil)
      // Before the pipeline's threads start (the recognizer is theirs from then on).
      recognizer.preloadLaterModels()
      let outcome = try runStage(display: stage, settings: settings, producer: pipeline.producer)
      if outcome.failed { throw ExitCode(1) }
    }
  }
}
