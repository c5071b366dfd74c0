import ArgumentParser
import DirectMeApp
import DirectMeCore
import DirectMeRecognizer
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Where the recognizer's files come from and how it decides.
public struct RecognizerOptions: ParsableArguments {
  public init() {}

  @Option(
    help: ArgumentHelp(
      "Acoustic model folder (default: DirectMe's adapted model, models/en-us-directme; the stock one is \(RecognizerConfiguration.defaultModelFolder)/en-us).",
      valueName: "folder"))
  public var model: String?

  @Option(help: ArgumentHelp("Pronunciation dictionary.", valueName: "file"))
  public var dict: String = RecognizerConfiguration.defaultModelFolder + "/cmudict-en-us.dict"

  @Option(help: ArgumentHelp("JSGF grammar (default: grammars/directme.gram).", valueName: "file"))
  public var grammar: String?

  @Option(
    help: ArgumentHelp(
      "Detector settings learned by 'directme tune' (default: detector.json in the model folder).", valueName: "file"))
  public var detector: String?

  @Option(
    help: """
      Readings kept per utterance, the best included: 2 (the commands reading and the \
      other-words reading, each word with its time and score) or 1 (the best only, which \
      turns off the near-miss rescue).
      """)
  public var alternates: Int = 2

  @Option(
    help: ArgumentHelp(
      "The confidence (0-1) a command needs to move the ninja (default: the detector's operating point).",
      valueName: "confidence"))
  public var threshold: Double?

  @Option(
    name: .customLong("final-decoder-option"),
    help: ArgumentHelp("A PocketSphinx option for the final pass's decoder, as -name=value (for experiments).", visibility: .hidden))
  public var finalDecoderOptions: [String] = []

  @Option(
    name: .customLong("streaming-decoder-option"),
    help: ArgumentHelp("A PocketSphinx option for the streaming decoder, as -name=value (for experiments).", visibility: .hidden))
  public var streamingDecoderOptions: [String] = []

  @Flag(
    help: ArgumentHelp(
      "Act on the streaming decoder's own readings, without the final pass: nothing is checked against other words, any speech may move the ninja (for measuring what the final pass costs).",
      visibility: .hidden))
  public var streamingOnly = false

  public func validate() throws {
    for (flag, options) in [("--final-decoder-option", finalDecoderOptions), ("--streaming-decoder-option", streamingDecoderOptions)] {
      for option in options where !(option.hasPrefix("-") && option.contains("=")) {
        throw ValidationError("\(flag) takes -name=value (got \(option))")
      }
    }
    guard alternates == 1 || alternates == 2 else {
      throw ValidationError(
        "--alternates must be 1 or 2 (got \(alternates)): the final pass gives the commands reading and the other-words reading")
    }
    if let threshold, !(threshold > 0 && threshold < 1) {
      throw ValidationError("--threshold must be a confidence between 0 and 1 (got \(threshold))")
    }
    // Without DirectMe's own folder its grammar and model are not there: say where they were
    // looked for, rather than fail on a missing grammar or quietly hear with Debian's stock model
    // and no detector (the checking speakers' commands 94.9% -> 74.4% right).
    if Resources.home == nil, grammar == nil || (model == nil && savedPersonalModel == nil) {
      throw ValidationError(Resources.notFoundMessage)
    }
  }

  @Flag(help: "Ignore the personal model saved by 'directme personalize': use DirectMe's shipped model.")
  public var noPersonalModel = false

  /// The acoustic model folder in use: --model, else the personal model saved by
  /// `directme personalize`, else DirectMe's shipped model.
  public var modelFolder: String {
    model ?? savedPersonalModel ?? Resources.defaultModel
  }

  /// The personal model `directme personalize` saved, unless --no-personal-model (nil: none,
  /// or the settings unreadable; `checkPersonalModel` says which).
  private var savedPersonalModel: String? {
    noPersonalModel ? nil : (try? UserSettings.load())?.model
  }

  public var configuration: RecognizerConfiguration {
    var configuration = RecognizerConfiguration(
      acousticModel: modelFolder, dictionary: dict, grammar: grammar ?? Resources.defaultGrammar,
      maximumTranscriptions: alternates)
    Self.add(finalDecoderOptions, to: &configuration.finalDecoderOptions)
    Self.add(streamingDecoderOptions, to: &configuration.streamingDecoderOptions)
    if streamingOnly { configuration.finalPass = .streaming }
    return configuration
  }

  /// Adds `-name=value` options (checked by `validate`) to a decoder's options.
  private static func add(_ options: [String], to decoderOptions: inout [String: String]) {
    for option in options {
      let parts = option.split(separator: "=", maxSplits: 1)
      decoderOptions[String(parts[0])] = String(parts[1])
    }
  }

  /// The detector file in use, if any.
  public var detectorFile: String? {
    if let detector { return detector }
    let beside = modelFolder + "/detector.json"
    return FileManager.default.fileExists(atPath: beside) ? beside : nil
  }

  public func loadDetector() throws -> Detector {
    try detectorFile.map { try Detector.load($0) } ?? .untrained
  }

  public func makeInterpreter() throws -> Interpreter {
    Interpreter(
      settings: InterpreterSettings(
        detector: try loadDetector(), minimumConfidence: threshold, otherVoices: try Detector.otherVoices(ofModel: modelFolder)))
  }

  /// The settings in one line, for reports.
  public var summary: String {
    "model \(modelFolder), grammar \(URL(fileURLWithPath: grammar ?? Resources.defaultGrammar).lastPathComponent), detector \(detectorFile ?? "untrained")"
      + (threshold.map { ", threshold \($0)" } ?? "")
  }

  /// A saved personal model that has gone is one clear line, not a missing-file error.
  public func checkPersonalModel() throws {
    guard model == nil && !noPersonalModel, let personal = try UserSettings.load().model else { return }
    if !FileManager.default.fileExists(atPath: personal + "/means") {
      throw Failure(
        "your personal model \(personal) (saved in \(UserSettings.path)) is missing: run 'directme personalize --reset', or pass --no-personal-model")
    }
  }

  public func makeRecognizer() throws -> PocketSphinxRecognizer {
    try checkPersonalModel()
    return try PocketSphinxRecognizer(configuration: decidingConfiguration())
  }

  /// `count` recognizers, for as many threads (each keeps to one thread of its own when there
  /// are several: `PocketSphinxRecognizer.scoringThreads`).
  public func makeRecognizers(_ count: Int) throws -> [PocketSphinxRecognizer] {
    if count > 1 { PocketSphinxRecognizer.scoringThreads = 1 }
    return try (0..<count).map { _ in try makeRecognizer() }
  }

  /// `configuration` with what the detector asks of the final pass: its second opinions and
  /// the margins below which a command word counts in no way.
  public func decidingConfiguration() throws -> RecognizerConfiguration {
    var configuration = configuration
    let detector = try loadDetector()
    configuration.secondOpinion = try secondOpinion(of: detector)
    // A personal model's voice check gives other voices to the model it was made from: they
    // are asked about as that model's detector asks.
    if let profile = try VoiceProfile.load(modelFolder: modelFolder), let others = try Detector.otherVoices(ofModel: modelFolder) {
      configuration.otherVoicesSecondOpinion = try secondOpinion(of: others, model: profile.otherVoicesModel)
    }
    configuration.partingMargins = detector.actingMargins(of: Vocabulary.standard.commands.keys, threshold: threshold)
    return configuration
  }

  /// What the recognizer asks the model `detector`'s model was adapted from (see
  /// `Detector.SecondOpinion`): command words whose margins give a confidence from the
  /// lowest that can act (the operating point, or a companion's) to the opinion's bound.
  /// `model`: the detector's model (the one in use unless said).
  public func secondOpinion(of detector: Detector, model: String? = nil) throws -> RecognizerConfiguration.SecondOpinionRequest? {
    guard let second = detector.secondOpinion else { return nil }
    let model = model ?? modelFolder
    guard let base = AcousticModelFiles.baseModel(of: model) else {
      throw Failure("\(model == modelFolder ? detectorFile ?? model : model + "/detector.json"): asks for second opinions, but \(model) names no model it was adapted from (adaptation.json)")
    }
    let lowest = detector.lowestActing(threshold: threshold)
    let words = Set(Vocabulary.standard.commands.keys)
    return RecognizerConfiguration.SecondOpinionRequest(
      model: base, asked: Dictionary(uniqueKeysWithValues: words.map { ($0, second.askedMargins(for: $0, of: detector, lowest: lowest)) }))
  }
}

extension ParsableCommand {
  /// Runs `body`; a failure becomes one line on stderr and exit status 1.
  public func reportingErrors(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as ExitCode {
      throw error
    } catch let error as CleanExit {
      throw error
    } catch {
      warn("\(programName): error: \(error)")
      throw ExitCode(1)
    }
  }
}

