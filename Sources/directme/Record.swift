import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeCommandLine
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct Record: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Record one utterance from the microphone to a WAV file.",
    discussion: """
      Starts when you speak and stops when you stop (the same end-of-speech detection as \
      live), with the level meter and the recording indicator in the window. Writes 16 kHz \
      mono 16-bit WAV.
      """
  )

  @Argument(help: ArgumentHelp("The WAV file to write.", valueName: "out.wav"))
  var out: String

  @Option(help: ArgumentHelp("PulseAudio source to record from (default: the default source).", valueName: "name"))
  var device: String?

  @Option(help: "Seconds to wait for speech before giving up.")
  var timeout: Double = 30

  @Flag(help: "Replace the file if it exists.")
  var force = false

  @OptionGroup(title: "Window")
  var display: DisplayOptions

  func validate() throws {
    guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    if let problem = RecordJob.problem(writing: out, replacing: force) { throw ValidationError(problem) }
  }

  func run() throws {
    try reportingErrors {
      let microphone = try Microphone(device: device)
      let job = RecordJob(source: .pulseAudio(device: device), first: microphone, path: out, timeout: timeout)
      let outcome = try runStage(
        display: try display.makeDisplay(), settings: display.settings(listening: true), producer: job.producer)
      if outcome.failed || outcome.quit { throw ExitCode(1) }
    }
  }
}
