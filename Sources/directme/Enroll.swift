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

struct Enroll: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Record your own voice saying the commands, for a personal model.",
    discussion: """
      Asks you, in the window and here, to say each command several times, a few carrier \
      phrases and sequences, and a few other phrases; each take ends when you stop speaking. \
      Takes that are too short, too quiet or clipped are asked again; at a terminal you can \
      redo any take. Writes the WAVs and labels.tsv into FOLDER as it goes (`directme score \
      FOLDER/labels.tsv` works on it); then run `directme personalize FOLDER`.
      """
  )

  @Argument(help: ArgumentHelp("The folder to write the recordings to.", valueName: "folder"))
  var folder: String

  @Option(help: "Takes of each command word.")
  var takes: Int = 3

  @Option(help: "Other (non-command) phrases to read.")
  var others: Int = 6

  @Flag(inversion: .prefixedNo, help: "Also carrier phrases and sequences (\"move left\", \"down down right\").")
  var carriers = true

  @Option(help: ArgumentHelp("PulseAudio source to record from (default: the default source).", valueName: "name"))
  var device: String?

  @Option(help: "Seconds to wait for each take to start before skipping it.")
  var timeout: Double = 30

  @Option(help: "The speaker's name in labels.tsv.")
  var speaker: String = "me"

  @OptionGroup(title: "Window")
  var display: DisplayOptions

  func validate() throws {
    guard takes >= 1 && takes <= 20 else { throw ValidationError("--takes must be between 1 and 20") }
    guard others >= 0 && others <= EnrollmentPlan.otherPhrases.count else {
      throw ValidationError("--others must be between 0 and \(EnrollmentPlan.otherPhrases.count)")
    }
    guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    if FileManager.default.fileExists(atPath: folder + "/" + LabelsFormat.fileName) {
      throw ValidationError("\(folder) already holds an enrollment (\(LabelsFormat.fileName)); choose another folder")
    }
  }

  func run() throws {
    try reportingErrors {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let microphone = try Microphone(device: device)
      let job = EnrollJob(
        source: .pulseAudio(device: device), first: microphone, folder: folder,
        plan: EnrollmentPlan(takes: takes, carriers: carriers, others: others), speaker: speaker, timeout: timeout,
        ask: EnrollJob.terminalQuestion)
      let outcome = try runStage(
        display: try display.makeDisplay(), settings: display.settings(listening: true), producer: job.producer)
      if outcome.failed { throw ExitCode(1) }
    }
  }
}
