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
  /// The words that are commands (scored against every other word of the grammar).
  public var commandWords: Set<String>
  /// Confidence is `1 / (1 + exp(-scale * margin))`, margin being a word's score (natural
  /// log) above its best rival's on the same audio.
  public var confidenceScale: Double
  /// Seconds of audio around a word when it is scored again on its own.
  public var scoringPadding: Double

  public init(
    acousticModel: String = Self.defaultModelFolder + "/en-us",
    dictionary: String = Self.defaultModelFolder + "/cmudict-en-us.dict",
    grammar: String,
    extraDictionary: String? = nil,
    maximumTranscriptions: Int = 10,
    decoderOptions: [String: String] = [:],
    finalPass: FinalPass = .batch,
    commandWords: Set<String> = Set(Direction.allCases.map(\.rawValue)),
    confidenceScale: Double = 0.1,
    scoringPadding: Double = 0.05
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
    self.scoringPadding = scoringPadding
  }

  /// `grammar.dict` beside `grammar.gram`, if there is one.
  public static func companionDictionary(of grammar: String) -> String? {
    let url = URL(fileURLWithPath: grammar).deletingPathExtension().appendingPathExtension("dict")
    return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
  }

  /// Options for `ps_init`, without any search (the grammar is set afterwards).
  var initOptions: [String] {
    var options: [String: String] = [
      "-hmm": acousticModel,
      "-dict": dictionary,
      "-remove_silence": "no",  // DirectMe's endpointer decides where speech is
      "-bestpath": "no",  // the lattice pass is slow on big grammars and not needed
    ]
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
  private var wordSearches: Set<String> = []
  /// The cepstral mean the model starts from (`-cmninit`), restored by `resetAdaptation`.
  private let initialMean: [mfcc_t]?

  public init(configuration: RecognizerConfiguration) throws {
    try Self.validateFiles(of: configuration)
    self.configuration = configuration
    streaming = try Self.makeDecoder(configuration)
    grammarWords = try streaming.setGrammar(configuration.grammar, named: Search.main)
    final = configuration.finalPass == .batch ? try Self.makeDecoder(configuration) : nil
    if let final {
      try final.setGrammar(configuration.grammar, named: Search.main)
      try Self.addScoringSearches(to: final, grammarWords: grammarWords, commands: configuration.commandWords)
      try final.select(search: Search.main)
    }
    initialMean = streaming.cepstralMean
  }

  private static func makeDecoder(_ configuration: RecognizerConfiguration) throws -> Decoder {
    let decoder = try Decoder(
      options: configuration.initOptions,
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

  public func endUtterance() throws -> RecognitionResult {
    guard inUtterance else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    inUtterance = false
    try streaming.endUtterance()
    guard let final else {
      let best = streaming.bestTranscription()
      return RecognitionResult(transcriptions: best.map { [$0] } ?? [], start: 0, end: streaming.duration)
    }
    try final.select(search: Search.main)
    guard let best = try final.decodeWhole(audio) else {
      return RecognitionResult(transcriptions: [], start: 0, end: final.duration)
    }
    let duration = final.duration
    let transcriptions = try rescore(best, decoder: final)
    let spoken = transcriptions[0].segments.filter { !$0.isFiller }
    let confidence = spoken.isEmpty ? nil : spoken.compactMap(\.confidence).min()
    return RecognitionResult(transcriptions: transcriptions, start: 0, end: duration, confidence: confidence)
  }

  // MARK: Alternates and confidence

  enum Search {
    static let main = "directme"
    static let commands = "commands"
    static let rivals = "rivals"
    static func word(_ word: String) -> String { "word:" + word }
  }

  /// Builds the searches that score single words: each command against the grammar's other
  /// words, and the other words against the commands.
  private static func addScoringSearches(to decoder: Decoder, grammarWords: Set<String>, commands: Set<String>) throws {
    let commandWords = grammarWords.intersection(commands).sorted()
    let rivalWords = grammarWords.subtracting(commands).sorted()
    if !commandWords.isEmpty {
      try decoder.addSearch(named: Search.commands, jsgf: singleWordGrammar(commandWords))
    }
    if !rivalWords.isEmpty {
      try decoder.addSearch(named: Search.rivals, jsgf: singleWordGrammar(rivalWords))
    }
  }

  /// JSGF for exactly one of `words` (silence and noise around it are allowed by the decoder).
  static func singleWordGrammar(_ words: [String]) -> String {
    "#JSGF V1.0;\ngrammar scoring;\npublic <word> = " + words.joined(separator: " | ") + ";\n"
  }

  /// The best transcription with each word's confidence, followed by the alternates.
  ///
  /// Every word of the best reading is decoded again on its own stretch of audio, twice:
  /// alone, and against its rivals (the commands for any other word, every other word for a
  /// command). The score difference is the alternate's gap and, through a logistic, the
  /// word's confidence. This is a word-level n-best: each alternate is the best reading with
  /// one word swapped for its closest rival.
  private func rescore(_ best: Transcription, decoder: Decoder) throws -> [Transcription] {
    var annotated = best
    var alternates: [Transcription] = []
    let pad = configuration.scoringPadding
    let rate = Double(AudioRate.samplesPerSecond)
    for (index, segment) in best.segments.enumerated() where !segment.isFiller {
      let first = max(0, Int(((segment.start - pad) * rate).rounded()))
      let last = min(audio.count, Int(((segment.end + pad) * rate).rounded()))
      guard last - first >= Int(rate * 0.05) else { continue }
      let samples = Array(audio[first..<last])
      let isCommand = configuration.commandWords.contains(segment.word)
      let rivalSearch = isCommand ? Search.rivals : Search.commands
      guard let own = try score(samples, search: try wordSearch(segment.word)),
        let rival = try decodeWithSearch(samples, search: rivalSearch)
      else { continue }
      let rivalWord = rival.segments.first { !$0.isFiller }?.word
      let margin = own - rival.score
      annotated.segments[index].confidence = 1 / (1 + exp(-margin * configuration.confidenceScale))
      if let rivalWord, rivalWord != segment.word {
        var segments = best.segments
        segments[index] = WordSegment(
          word: rivalWord, start: segment.start, end: segment.end, score: segment.score - max(0, margin),
          confidence: 1 / (1 + exp(margin * configuration.confidenceScale)))
        alternates.append(Transcription(segments: segments, score: best.score - max(0, margin)))
      }
    }
    try decoder.select(search: Search.main)
    var seen: Set<[String]> = [annotated.words]
    let distinct = alternates.sorted { $0.score > $1.score }.filter { seen.insert($0.words).inserted }
    return [annotated] + distinct.prefix(max(0, configuration.maximumTranscriptions - 1))
  }

  /// The search that holds just `word`, made the first time it is needed.
  private func wordSearch(_ word: String) throws -> String {
    let name = Search.word(word)
    if !wordSearches.contains(name) {
      try final?.addSearch(named: name, jsgf: Self.singleWordGrammar([word]))
      wordSearches.insert(name)
    }
    return name
  }

  private func decodeWithSearch(_ samples: [Int16], search: String) throws -> Transcription? {
    guard let final else { return nil }
    try final.select(search: search)
    return try final.decodeWhole(samples)
  }

  private func score(_ samples: [Int16], search: String) throws -> Double? {
    try decodeWithSearch(samples, search: search)?.score
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

/// The audio format every recognizer here takes: 16 kHz mono 16-bit.
enum AudioRate {
  static let samplesPerSecond = 16_000
}
