import CPocketSphinx
import DirectMeCore
import Foundation

/// Where the recognizer's model, dictionary and grammar come from, and how it decodes.
public struct RecognizerConfiguration: Hashable, Sendable {
  /// Debian's US English model (package `pocketsphinx-en-us`).
  public static let defaultModelFolder = "/usr/share/pocketsphinx/model/en-us"

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
  /// How much lattice scores count when computing word posteriors (pocketsphinx's
  /// `-ascale` is 20, that is 1/20).
  public var posteriorScale: Double = 1.0 / 20

  public init(
    acousticModel: String = Self.defaultModelFolder + "/en-us",
    dictionary: String = Self.defaultModelFolder + "/cmudict-en-us.dict",
    grammar: String,
    extraDictionary: String? = nil,
    maximumTranscriptions: Int = 10,
    decoderOptions: [String: String] = [:]
  ) {
    self.acousticModel = acousticModel
    self.dictionary = dictionary
    self.grammar = grammar
    self.extraDictionary = extraDictionary ?? Self.companionDictionary(of: grammar)
    self.maximumTranscriptions = maximumTranscriptions
    self.decoderOptions = decoderOptions
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
/// times, scores and n-best alternates.
public final class PocketSphinxRecognizer: Recognizer {
  public let configuration: RecognizerConfiguration
  /// Every word the grammar can produce.
  public let grammarWords: Set<String>
  private let decoder: Decoder
  private let searchName = "directme"
  private var inUtterance = false
  /// The cepstral mean the model starts from (`-cmninit`), restored by `resetAdaptation`.
  private var initialMean: [mfcc_t] = []

  public init(configuration: RecognizerConfiguration) throws {
    try Self.validateFiles(of: configuration)
    self.configuration = configuration
    decoder = try Decoder(
      options: configuration.initOptions,
      describing: "loading acoustic model \(configuration.acousticModel)")
    if let extra = configuration.extraDictionary {
      try Self.addWords(from: extra, to: decoder)
    }
    grammarWords = try Self.setGrammar(configuration.grammar, named: searchName, on: decoder)
    initialMean = withCepstralMean { cmn in
      var mean = [mfcc_t](repeating: 0, count: Int(cmn.pointee.veclen))
      cmn_live_get(cmn, &mean)
      return mean
    } ?? []
  }

  /// Calls `body` with the decoder's cepstral-mean state, if it has one.
  private func withCepstralMean<T>(_ body: (UnsafeMutablePointer<cmn_t>) -> T) -> T? {
    guard let feat = ps_get_feat(decoder.handle), let cmn = feat.pointee.cmn_struct else { return nil }
    return body(cmn)
  }

  public func resetAdaptation() {
    guard !initialMean.isEmpty else { return }
    _ = withCepstralMean { cmn in
      initialMean.withUnsafeBufferPointer { cmn_live_set(cmn, $0.baseAddress) }
    }
  }

  // MARK: Recognizer

  public func startUtterance() throws {
    if inUtterance { _ = try endUtterance() }
    // A new stream restarts the frame count, so word times are from the utterance's start.
    let (status, log) = SphinxLog.capturing("starting an utterance") {
      ps_start_stream(decoder.handle) < 0 ? -1 : ps_start_utt(decoder.handle)
    }
    try decoder.check(status, "ps_start_utt", log: log)
    inUtterance = true
  }

  public func process(_ samples: [Int16]) throws {
    guard inUtterance, !samples.isEmpty else { return }
    let status = samples.withUnsafeBufferPointer {
      ps_process_raw(decoder.handle, $0.baseAddress, $0.count, 0, 0)
    }
    try decoder.check(status, "ps_process_raw")
  }

  public func partialResult() -> Transcription? {
    guard inUtterance else { return nil }
    var score: Int32 = 0
    guard ps_get_hyp(decoder.handle, &score) != nil else { return nil }
    let segments = wordSegments(ps_seg_iter(decoder.handle))
    return Transcription(segments: segments, score: decoder.ln(score))
  }

  public func endUtterance() throws -> RecognitionResult {
    guard inUtterance else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    inUtterance = false
    let (status, log) = SphinxLog.capturing("ending an utterance") { ps_end_utt(decoder.handle) }
    try decoder.check(status, "ps_end_utt", log: log)
    let frames = ps_get_n_frames(decoder.handle)
    let duration = Double(frames) / decoder.frameRate

    var score: Int32 = 0
    guard ps_get_hyp(decoder.handle, &score) != nil else {
      return RecognitionResult(transcriptions: [], start: 0, end: duration)
    }
    let best = Transcription(segments: wordSegments(ps_seg_iter(decoder.handle)), score: decoder.ln(score))
    let transcriptions =
      wordLattice()?.annotate(
        best, scale: configuration.posteriorScale, maximum: configuration.maximumTranscriptions,
        isFiller: WordSegment.isFiller) ?? [best]
    let spoken = transcriptions[0].segments.filter { !$0.isFiller }
    let confidence = spoken.isEmpty ? nil : spoken.compactMap(\.confidence).min()
    return RecognitionResult(transcriptions: transcriptions, start: 0, end: duration, confidence: confidence)
  }

  // MARK: Results

  /// Reads and frees a segment iterator.
  private func wordSegments(_ iterator: OpaquePointer?) -> [WordSegment] {
    var segments: [WordSegment] = []
    var seg = iterator
    let rate = decoder.frameRate
    while let current = seg {
      var startFrame: Int32 = 0
      var endFrame: Int32 = 0
      ps_seg_frames(current, &startFrame, &endFrame)
      var acoustic: Int32 = 0
      var language: Int32 = 0
      var backoff: Int32 = 0
      _ = ps_seg_prob(current, &acoustic, &language, &backoff)
      let word = Self.baseWord(String(cString: ps_seg_word(current)))
      segments.append(
        WordSegment(
          word: word,
          start: Double(startFrame) / rate,
          end: Double(endFrame + 1) / rate,
          score: decoder.ln(acoustic) + decoder.ln(language)))
      seg = ps_seg_next(current)
    }
    return segments
  }

  /// The decoder's word lattice for the utterance just ended, as a `WordLattice`.
  ///
  /// The corresponding C functions are `ps_get_lattice`, `ps_latnode_iter` and
  /// `ps_latnode_exits`. (The decoder's own posteriors, `ps_get_prob`, come out as 1 for
  /// every grammar lattice in this version, so DirectMe computes them from the link scores;
  /// and `ps_nbest` takes hundreds of milliseconds on grammar lattices.)
  private func wordLattice() -> WordLattice? {
    guard let lattice = ps_get_lattice(decoder.handle) else { return nil }
    let rate = decoder.frameRate
    var index: [OpaquePointer: Int] = [:]
    var nodes: [WordLattice.Node] = []
    var iterator = ps_latnode_iter(lattice)
    while let current = iterator {
      if let node = ps_latnode_iter_node(current) {
        var firstEnd: Int16 = 0
        var lastEnd: Int16 = 0
        let startFrame = ps_latnode_times(node, &firstEnd, &lastEnd)
        index[node] = nodes.count
        nodes.append(
          WordLattice.Node(
            word: Self.baseWord(String(cString: ps_latnode_word(lattice, node))),
            start: Double(startFrame) / rate, end: Double(Int(lastEnd) + 1) / rate))
      }
      iterator = ps_latnode_iter_next(current)
    }
    var links: [WordLattice.Link] = []
    for (node, from) in index {
      var exits = ps_latnode_exits(node)
      while let current = exits {
        if let link = ps_latlink_iter_link(current) {
          var source: OpaquePointer?
          if let destination = ps_latlink_nodes(link, &source), let to = index[destination] {
            var acoustic: Int32 = 0
            _ = ps_latlink_prob(lattice, link, &acoustic)
            links.append(WordLattice.Link(from: from, to: to, score: decoder.ln(acoustic)))
          }
        }
        exits = ps_latlink_iter_next(current)
      }
    }
    return WordLattice(nodes: nodes, links: links)
  }

  /// "read(2)" is "read".
  static func baseWord(_ word: String) -> String {
    guard word.hasSuffix(")"), let open = word.lastIndex(of: "("), open != word.startIndex else { return word }
    return String(word[..<open])
  }

  // MARK: Loading

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
      let path = model + "/" + required
      guard fileManager.isReadableFile(atPath: path) else {
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

  /// Adds the pronunciations of a `word PH PH ...` file.
  private static func addWords(from path: String, to decoder: Decoder) throws {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw ConfigurationError(file: path, problem: "cannot read the dictionary (\(error.localizedDescription))")
    }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let word = fields.first, !word.hasPrefix("#"), !word.hasPrefix(";;") else { continue }
      guard fields.count >= 2 else {
        throw ConfigurationError(file: path, problem: "line \(index + 1): '\(word)' has no phones")
      }
      if decoder.knows(String(word)) { continue }
      do {
        try decoder.addWord(String(word), phones: fields.dropFirst().joined(separator: " "))
      } catch let error as PocketSphinxError {
        throw ConfigurationError(file: path, problem: "line \(index + 1): \(error.message)")
      }
    }
  }

  /// Parses the JSGF file, checks every word against the dictionary and makes it the search.
  /// Returns the grammar's words.
  private static func setGrammar(_ path: String, named name: String, on decoder: Decoder) throws -> Set<String> {
    let (grammar, log) = SphinxLog.capturing("reading grammar \(path)") { jsgf_parse_file(path, nil) }
    guard let grammar else {
      throw ConfigurationError(file: path, problem: Self.describeSyntaxError(log))
    }
    defer { jsgf_grammar_free(grammar) }
    guard let rule = jsgf_get_public_rule(grammar) else {
      throw ConfigurationError(file: path, problem: "no public rule (declare one: public <commands> = ...;)")
    }
    let (built, buildLog) = SphinxLog.capturing("building grammar \(path)") {
      jsgf_build_fsg(grammar, rule, decoder.logmath, Float(decoder.float("-lw")))
    }
    guard let fsg = built else {
      throw ConfigurationError(file: path, problem: PocketSphinxError.from("jsgf_build_fsg", log: buildLog, fallback: "cannot build the grammar").message)
    }
    defer { fsg_model_free(fsg) }

    var words: Set<String> = []
    var missing: [String] = []
    let model = fsg.pointee
    for index in 0..<Int(model.n_word) {
      guard let cWord = model.vocab[index] else { continue }
      let word = String(cString: cWord)
      if WordSegment.isFiller(word) { continue }
      words.insert(word)
      if !decoder.knows(word) && !missing.contains(word) { missing.append(word) }
    }
    if !missing.isEmpty {
      let list = missing.map { "'\($0)'" }.joined(separator: ", ")
      throw ConfigurationError(
        file: path,
        problem: missing.count == 1
          ? "the word \(list) is not in the dictionary"
          : "the words \(list) are not in the dictionary")
    }
    if words.isEmpty {
      throw ConfigurationError(file: path, problem: "the grammar has no words")
    }

    let (status, setLog) = SphinxLog.capturing("setting grammar \(path)") { ps_set_fsg(decoder.handle, name, fsg) }
    if status < 0 {
      throw ConfigurationError(file: path, problem: PocketSphinxError.from("ps_set_fsg", log: setLog, fallback: "cannot use the grammar").message)
    }
    let (searchStatus, searchLog) = SphinxLog.capturing("selecting grammar \(path)") { ps_set_search(decoder.handle, name) }
    try decoder.check(searchStatus, "ps_set_search", log: searchLog)
    return words
  }

  /// "syntax error at line 3: ..." from the JSGF parser's log.
  static func describeSyntaxError(_ log: [String]) -> String {
    let errors = log.map(SphinxLog.clean)
    guard let first = errors.first else { return "cannot parse the grammar (JSGF syntax error)" }
    // The parser says "Syntax error at line 3 current token 'x'" (wording varies by version).
    if let range = first.range(of: "line ") {
      let digits = first[range.upperBound...].prefix { $0.isNumber }
      if !digits.isEmpty {
        let token = first.range(of: "token").map { " near" + first[$0.upperBound...] } ?? ""
        return "line \(digits): JSGF syntax error\(token)"
      }
    }
    return "JSGF error: \(first)"
  }
}
