import ArgumentParser
import DirectMeApp
import DirectMeCommandLine
import DirectMeRecognizer
import DirectMeTraining
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct Adapt: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Adapt the acoustic model to labelled recordings (sphinxtrain's MAP or MLLR).",
    discussion: """
      LABELS are labels files (path<TAB>directions[<TAB>transcript[<TAB>speaker]]) or folders \
      holding a labels.tsv. A recording's words are its transcript column, or its directions for \
      a command without one; non-commands without a transcript are left out. The new model \
      loads with --model OUT.
      """
  )

  @Argument(help: ArgumentHelp("Labels files, or folders holding a labels.tsv.", valueName: "labels"))
  var labels: [String]

  @Option(help: ArgumentHelp("The folder to write the adapted model to.", valueName: "folder"))
  var out: String

  @Option(help: ArgumentHelp("The model to start from (default: Debian's stock en-us model).", valueName: "folder"))
  var base: String = RecognizerConfiguration.defaultModelFolder + "/en-us"

  @Option(help: ArgumentHelp("Pronunciation dictionary for the transcripts.", valueName: "file"))
  var dict: String = RecognizerConfiguration.defaultModelFolder + "/cmudict-en-us.dict"

  @Option(help: ArgumentHelp("More pronunciations (word PH PH ...), for words the dictionary lacks.", valueName: "file"))
  var extraDict: String?

  @Option(help: "map, mllr, or auto (MLLR below \(Int(AdaptationOptions.minutesForMAP)) minutes of audio, MAP above).")
  var method: Method = .auto

  @Option(help: ArgumentHelp("Noise recordings (audio files) to mix into a copy of each recording.", valueName: "folder"))
  var noise: String?

  @Option(help: ArgumentHelp("Signal-to-noise ratios of the noisy copies, in dB.", valueName: "low:high"))
  var snr: SNRRange = SNRRange(argument: "5:20")!

  @Option(help: ArgumentHelp("Noisy copies of each recording, each with its own noise and SNR (with --noise).", valueName: "N"))
  var noisyCopies: Int = 1

  @Option(
    help: ArgumentHelp(
      "Also adapt on a copy of every N-th recording as heard in a reverberant room (synthetic, RT60 0.3-0.9 s); 0: none.",
      valueName: "N"))
  var reverbEvery: Int = 0

  @Option(
    help: ArgumentHelp(
      "Also adapt on a copy of every N-th recording in a shifted voice (played 6-12% slower and lower or faster and higher, as a longer or shorter vocal tract says it); 0: none.",
      valueName: "N"))
  var voiceShiftEvery: Int = 0

  @Option(
    help: ArgumentHelp(
      "Also adapt on a copy of every N-th recording through an overdriven microphone (its peak driven 3-12 dB past full scale, clipped flat); 0: none.",
      valueName: "N"))
  var clipEvery: Int = 0

  @Option(
    help: ArgumentHelp(
      "MAP only: how many frames of evidence the base model's variances count as against the recordings' (sphinxtrain's tau; DirectMe's model uses 1000), its mixture weights 128 times as many (one tau per codeword); default: estimated from the data.",
      valueName: "frames"))
  var priorWeight: Double?

  @Option(
    help: ArgumentHelp(
      "Adapt only these phones (comma-separated, e.g. +SPN+, the model's non-speech filler, for recordings transcribed with a word pronounced +SPN+), keeping the base model's parameters for every other phone; MAP only.",
      valueName: "phones"))
  var onlyPhones: String?

  @Option(help: "Parallel jobs.")
  var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

  @Flag(help: "Replace the output folder if it exists.")
  var force = false

  @Flag(help: "Keep the intermediate files (features, statistics, logs) in OUT.work.")
  var keepWork = false

  private func phones(_ list: String) -> [String] {
    list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
  }

  enum Method: String, ExpressibleByArgument, CaseIterable {
    case map, mllr, auto
  }

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
    guard noisyCopies >= 1 else { throw ValidationError("--noisy-copies must be 1 or more") }
    guard reverbEvery >= 0 else { throw ValidationError("--reverb-every must be 0 or more") }
    guard voiceShiftEvery >= 0 else { throw ValidationError("--voice-shift-every must be 0 or more") }
    guard clipEvery >= 0 else { throw ValidationError("--clip-every must be 0 or more") }
    if let priorWeight {
      guard priorWeight > 0, priorWeight.isFinite else { throw ValidationError("--prior-weight must be a number above 0") }
      guard method != .mllr else { throw ValidationError("--prior-weight is for MAP; MLLR has no prior weight") }
    }
    if let onlyPhones {
      guard !phones(onlyPhones).isEmpty else { throw ValidationError("--only-phones needs at least one phone") }
      guard method != .mllr else { throw ValidationError("--only-phones is for MAP; MLLR moves every mean at once") }
    }
  }

  func run() throws {
    try reportingErrors {
      var options = AdaptationOptions(baseModel: base, dictionary: dict)
      options.extraDictionary = extraDict
      options.method = AdaptationOptions.Method(rawValue: method.rawValue) ?? .auto
      options.noiseFolder = noise
      options.snr = snr.range
      options.noisyCopies = noisyCopies
      options.reverbEvery = reverbEvery
      options.voiceShiftEvery = voiceShiftEvery
      options.clipEvery = clipEvery
      options.priorWeight = priorWeight
      options.onlyPhones = onlyPhones.map(phones) ?? []
      options.jobs = jobs
      try AdaptJob(labels: labels, out: out, options: options, force: force, keepWork: keepWork).run()
    }
  }
}
