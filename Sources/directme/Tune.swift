import ArgumentParser
import DirectMeApp
import DirectMeCommandLine
import DirectMeTraining
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct Tune: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Learn the detector (calibration, gate, operating point) from labelled recordings.",
    discussion: """
      Every recording goes through the same pipeline as the microphone. Speakers are split: \
      the detector is learned on most of them and checked on the rest (--check-share), and both \
      are reported. A speaker comes from the labels' fourth column, else from a Speech Commands \
      file name (<speaker>_nohash_<n>.wav), else each file is its own. Writes the detector as \
      JSON (default: detector.json in the model folder, which the app loads by default).
      """
  )

  @Argument(help: ArgumentHelp("Labels files, or folders holding a labels.tsv.", valueName: "labels"))
  var labels: [String]

  @Option(help: ArgumentHelp("Where to write the detector (default: detector.json in the model folder).", valueName: "file"))
  var out: String?

  @Option(help: "Share of the speakers held out to check the detector on.")
  var checkShare: Double = 0.25

  @Option(
    help: """
      Most other-speech false alarms allowed on the tuning speakers (0-1, each kind of word \
      weighing the same). Below the 5% wanted: new speakers say words the tuning set has \
      few of (off, yes, no, stop); 5% on tuning speakers was 10% on the dev set, 3.8% was 8.1%.
      """)
  var maxFalseAlarms: Double = TuningOptions().maximumFalseAlarms

  @Option(help: "Most noise-only false alarms allowed (0-1), with --noise.")
  var maxNoiseFalseAlarms: Double = 0.01

  @Option(help: ArgumentHelp("Noise recordings (audio files): stretches of them must move nothing, and noisy copies of commands should.", valueName: "folder"))
  var noise: String?

  @Option(
    help: ArgumentHelp(
      "Also tune on a copy of every N-th recording as heard in a reverberant room (synthetic, RT60 0.3-0.9 s); 0: none.",
      valueName: "N"))
  var reverbEvery: Int = 0

  @Option(help: ArgumentHelp("Keep the decoded results here and reuse them when the model, grammar and recordings are the same.", valueName: "file"))
  var cache: String?

  @Option(help: ArgumentHelp("Also write the full report (JSON) here.", valueName: "file"))
  var report: String?

  @Option(help: "Parallel decoders.")
  var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard checkShare >= 0, checkShare < 1 else { throw ValidationError("--check-share must be in 0..<1") }
    guard maxFalseAlarms > 0, maxFalseAlarms < 1 else { throw ValidationError("--max-false-alarms must be in 0...1") }
    guard reverbEvery >= 0 else { throw ValidationError("--reverb-every must be 0 or more") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  func run() throws {
    try reportingErrors {
      var options = TuningOptions()
      options.maximumFalseAlarms = maxFalseAlarms
      options.maximumNoiseFalseAlarms = maxNoiseFalseAlarms
      var job = TuningJob(
        labels: labels, out: out ?? recognizer.modelFolder + "/detector.json", checkShare: checkShare, options: options,
        noise: noise, cache: cache, report: report, jobs: jobs, configuration: recognizer.configuration)
      job.reverbEvery = reverbEvery
      try job.run()
    }
  }
}
