import CPocketSphinx
import DirectMeCore
import Foundation

/// Where the recognizer's model, dictionary and grammar come from, and how it decodes.
public struct RecognizerConfiguration: Hashable, Sendable {
  /// Debian's US English model (package `pocketsphinx-en-us`).
  public static let defaultModelFolder = "/usr/share/pocketsphinx/model/en-us"

  /// How the final result of an utterance is decoded.
  public enum FinalPass: String, Hashable, Sendable, CaseIterable {
    /// The streaming decode's own result (cepstral mean carried over from earlier speech).
    case streaming
    /// The utterance decoded again as a whole, normalized by its own cepstral mean.
    case batch
  }

  /// The acoustic model folder (holding `mdef`, `means`, ...).
  public var acousticModel: String
  /// The pronunciation dictionary.
  public var dictionary: String
  /// The JSGF grammar.
  public var grammar: String
  /// More pronunciations for words of the grammar (`word PH PH ...` a line); by default the
  /// grammar's path with `.dict` for `.gram`, when that file exists.
  public var extraDictionary: String?
  /// How many transcriptions to give at most, the best included.
  public var maximumTranscriptions: Int
  /// More decoder options, as on pocketsphinx's command line (`-beam`: `1e-48`).
  public var decoderOptions: [String: String]
  public var finalPass: FinalPass
  /// Options of the final pass's decoder. No word insertion penalty by default: the
  /// <commands> and <others> decodes are compared, and a per-word cost would favour
  /// whichever needs fewer words; the grammar's weights price commands instead.
  public var finalDecoderOptions: [String: String] = ["-wip": "1.0", "-maxhmmpf": "3000"]
  /// Options of the streaming decoder, which gives partial results.
  public var streamingDecoderOptions: [String: String] = ["-maxhmmpf": "1000"]
  /// The grammar's words that are commands.
  public var commandWords: Set<String>
  /// A command's confidence is `1 / (1 + exp(-scale * margin))`, the margin being how much
  /// better (natural log) the commands explain the utterance than the other words do.
  public var confidenceScale: Double

  public init(
    acousticModel: String = Self.defaultModelFolder + "/en-us",
    dictionary: String = Self.defaultModelFolder + "/cmudict-en-us.dict",
    grammar: String,
    extraDictionary: String? = nil,
    maximumTranscriptions: Int = 10,
    decoderOptions: [String: String] = [:],
    finalPass: FinalPass = .batch,
    commandWords: Set<String> = Set(Vocabulary.standard.commands.keys),
    confidenceScale: Double = 0.05
  ) {
    self.acousticModel = acousticModel
    self.dictionary = dictionary
    self.grammar = grammar
    self.extraDictionary = extraDictionary ?? Self.companionDictionary(of: grammar)
    self.maximumTranscriptions = maximumTranscriptions
    self.decoderOptions = decoderOptions
    self.finalPass = finalPass
    self.commandWords = commandWords
    self.confidenceScale = confidenceScale
  }

  /// `grammar.dict` beside `grammar.gram`, if there is one.
  public static func companionDictionary(of grammar: String) -> String? {
    let url = URL(fileURLWithPath: grammar).deletingPathExtension().appendingPathExtension("dict")
    return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
  }

  /// Options for `ps_init`, without any search (the grammar is set afterwards).
  func initOptions(_ extra: [String: String] = [:]) -> [String] {
    var options: [String: String] = [
      "-hmm": acousticModel,
      "-dict": dictionary,
      "-remove_silence": "no",  // DirectMe's endpointer decides where speech is
      "-bestpath": "no",  // the lattice pass is slow on big grammars and not needed
    ]
    options.merge(extra) { _, new in new }
    options.merge(decoderOptions) { _, new in new }
    return options.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
  }
}

/// A problem with the recognizer's files, named by file.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var problem: String
  public init(file: String, problem: String) {
    self.file = file
    self.problem = problem
  }
  public var description: String { "\(file): \(problem)" }
}

/// Streams audio through PocketSphinx with a JSGF grammar and gives final results with word
/// times, scores, confidences and alternates.
///
/// One decoder follows the stream for partial results; with the batch final pass (the
/// default) a second one decodes each finished utterance again as a whole, and scores each
/// word against its rivals for confidences and alternates.
public final class PocketSphinxRecognizer: Recognizer {
  public let configuration: RecognizerConfiguration
  /// Every word the grammar can produce.
  public let grammarWords: Set<String>
  private let streaming: Decoder
  private let final: Decoder?
  private var inUtterance = false
  private var audio: [Int16] = []
  /// The grammar's rules the final pass decodes with (`commands`, `others`).
  private var finalSearches: Set<String> = []
  /// The cepstral mean the model starts from (`-cmninit`), restored by `resetAdaptation`.
  private let initialMean: [mfcc_t]?

  public init(configuration: RecognizerConfiguration) throws {
    try Self.validateFiles(of: configuration)
    self.configuration = configuration
    streaming = try Self.makeDecoder(configuration, extra: configuration.streamingDecoderOptions)
    let streamingGrammar = try streaming.setGrammar(configuration.grammar, named: Search.main, rules: [Search.commands])
    grammarWords = streamingGrammar.words
    // Partials follow the <commands> rule when there is one: a small search, cheap enough to
    // run on every frame, whose last word tells the endpointer whether a command just ended.
    // The final pass decides whether the utterance was a command at all.
    if configuration.finalPass == .batch && streamingGrammar.rules.contains(Search.commands) {
      try streaming.select(search: Search.commands)
    }
    final = configuration.finalPass == .batch ? try Self.makeDecoder(configuration, extra: configuration.finalDecoderOptions) : nil
    finalSearches = try final?.setGrammar(
      configuration.grammar, named: Search.main, rules: [Search.commands, Search.others]
    ).rules ?? []
    initialMean = streaming.cepstralMean
  }

  private static func makeDecoder(_ configuration: RecognizerConfiguration, extra: [String: String] = [:]) throws -> Decoder {
    let decoder = try Decoder(
      options: configuration.initOptions(extra),
      describing: "loading acoustic model \(configuration.acousticModel)")
    if let extra = configuration.extraDictionary {
      try decoder.addWords(from: extra)
    }
    return decoder
  }

  public func resetAdaptation() {
    streaming.cepstralMean = initialMean
  }

  // MARK: Recognizer

  public func startUtterance() throws {
    if inUtterance { _ = try endUtterance() }
    try streaming.startUtterance()
    audio.removeAll(keepingCapacity: true)
    inUtterance = true
  }

  public func process(_ samples: [Int16]) throws {
    guard inUtterance else { return }
    try streaming.process(samples)
    if final != nil { audio.append(contentsOf: samples) }
  }

  public func partialResult() -> Transcription? {
    guard inUtterance else { return nil }
    return streaming.bestTranscription()
  }

  public func resultSoFar() throws -> RecognitionResult? {
    guard inUtterance, final != nil else { return nil }
    return try finalPass()
  }

  public func endUtterance() throws -> RecognitionResult {
    guard inUtterance else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    inUtterance = false
    try streaming.endUtterance()
    guard final != nil else {
      let streamed = streaming.bestTranscription()
      return RecognitionResult(transcriptions: streamed.map { [$0] } ?? [], start: 0, end: streaming.duration)
    }
    return try finalPass()
  }

  /// Decodes the utterance's audio so far with <commands> and with <others>, and weighs them.
  private func finalPass() throws -> RecognitionResult {
    guard let final else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    // Without a <commands> rule the whole grammar stands for the commands.
    let commands = try decode(audio, search: finalSearches.contains(Search.commands) ? Search.commands : Search.main, on: final)
    let others = finalSearches.contains(Search.others) ? try decode(audio, search: Search.others, on: final) : nil
    let duration = final.duration
    let transcriptions = weigh(commands: commands, others: others)
    let spoken = transcriptions.first?.segments.filter { !$0.isFiller } ?? []
    let confidence = spoken.compactMap(\.confidence).min()
    return RecognitionResult(transcriptions: transcriptions, start: 0, end: duration, confidence: confidence)
  }

  // MARK: Final pass

  /// The searches: the grammar's public rule, and its rules `<commands>` (what counts as
  /// a command utterance) and `<others>` (everything else the grammar knows).
  enum Search {
    static let main = "directme"
    static let commands = "commands"
    static let others = "others"
  }

  private func decode(_ samples: [Int16], search: String, on decoder: Decoder) throws -> Transcription? {
    try decoder.select(search: search)
    return try decoder.decodeWhole(samples)
  }

  /// The best reading and its alternates from the two decodes of the final pass.
  ///
  /// The margin between them, `commands.score - others.score`, is how much better commands
  /// explain the utterance than anything else the grammar knows; through a logistic it is
  /// the confidence of each command word. The reading that scores better comes first, the
  /// other is the alternate (a near-miss that the interpreter may rescue).
  func weigh(commands: Transcription?, others: Transcription?) -> [Transcription] {
    var candidates: [Transcription] = []
    if var commands {
      if let others {
        let confidence = 1 / (1 + exp(-configuration.confidenceScale * (commands.score - others.score)))
        for index in commands.segments.indices where configuration.commandWords.contains(commands.segments[index].word) {
          commands.segments[index].confidence = confidence
        }
      }
      candidates.append(commands)
    }
    if let others { candidates.append(others) }
    candidates.sort { $0.score > $1.score }
    return Array(candidates.prefix(configuration.maximumTranscriptions))
  }

  // MARK: Checks

  private static func validateFiles(of configuration: RecognizerConfiguration) throws {
    let fileManager = FileManager.default
    var isFolder: ObjCBool = false
    let model = configuration.acousticModel
    guard fileManager.fileExists(atPath: model, isDirectory: &isFolder) else {
      throw ConfigurationError(file: model, problem: "acoustic model folder not found")
    }
    guard isFolder.boolValue else {
      throw ConfigurationError(file: model, problem: "the acoustic model must be a folder (holding mdef, means, ...)")
    }
    for required in ["mdef", "means", "variances", "transition_matrices"] {
      guard fileManager.isReadableFile(atPath: model + "/" + required) else {
        throw ConfigurationError(
          file: model, problem: "not an acoustic model: '\(required)' is missing or unreadable")
      }
    }
    if !fileManager.isReadableFile(atPath: model + "/sendump")
      && !fileManager.isReadableFile(atPath: model + "/mixture_weights")
    {
      throw ConfigurationError(file: model, problem: "not an acoustic model: no 'sendump' or 'mixture_weights'")
    }
    try checkReadableFile(configuration.dictionary, what: "dictionary")
    try checkReadableFile(configuration.grammar, what: "grammar")
    if let extra = configuration.extraDictionary { try checkReadableFile(extra, what: "dictionary") }
  }

  static func checkReadableFile(_ path: String, what: String) throws {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ConfigurationError(file: path, problem: "\(what) not found")
    }
    guard !isFolder.boolValue else { throw ConfigurationError(file: path, problem: "\(what) is a folder, not a file") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw ConfigurationError(file: path, problem: "\(what) is not readable (permission denied)")
    }
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let size = attributes[.size] as? Int, size > 0
    else {
      throw ConfigurationError(file: path, problem: "\(what) is empty")
    }
  }
}

