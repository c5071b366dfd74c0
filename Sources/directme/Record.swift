import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeCommandLine
import DirectMeCore
import Foundation

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
    let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
    guard FileManager.default.isWritableFile(atPath: folder) else { throw ValidationError("cannot write into \(folder)") }
    if FileManager.default.fileExists(atPath: out) && !force {
      throw ValidationError("\(out) exists (pass --force to replace it)")
    }
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
    if FileManager.default.fileExists(atPath: folder + "/" + EnrollJob.labelsName) {
      throw ValidationError("\(folder) already holds an enrollment (\(EnrollJob.labelsName)); choose another folder")
    }
  }

  func run() throws {
    try reportingErrors {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let microphone = try Microphone(device: device)
      let interactive = isatty(STDIN_FILENO) != 0
      let job = EnrollJob(
        source: .pulseAudio(device: device), first: microphone, folder: folder,
        plan: EnrollmentPlan(takes: takes, carriers: carriers, others: others), speaker: speaker, timeout: timeout,
        ask: interactive ? { question in
          FileHandle.standardError.write(Data(question.utf8))
          return readLine()
        } : nil)
      let outcome = try runStage(
        display: try display.makeDisplay(), settings: display.settings(listening: true), producer: job.producer)
      if outcome.failed { throw ExitCode(1) }
    }
  }
}
