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
  /// Options of the final pass's decoder. Every senone is scored in every frame
  /// (`-compallsen`), so that a frame scores the same in the <direction> and the <garbage>
  /// decode and their difference is a margin; otherwise each decode normalizes by its own
  /// best active senone and the scores do not compare. A word costs more than silence or
  /// noise (`-wip` against `-silprob`, `-fillprob`), so breath and noise around a word are
  /// not heard as more commands; the beams are wide enough that a path always survives.
  /// (Chosen on the training set's speakers: `-wip 1e-5` found one command word in 92% of
  /// clips against 67% with the defaults, but dropped short words from sequences (36.7% of
  /// sequences right); `1e-3` keeps them (73.3%) and tunes to 87.5% right at 4.9% false
  /// alarms on the tuning speakers, against 84.9% at 5.0%.)
  public var finalDecoderOptions: [String: String] = [
    "-compallsen": "yes", "-wip": "1e-3", "-silprob": "0.5", "-fillprob": "0.5",
    "-beam": "1e-80", "-pbeam": "1e-80", "-wbeam": "1e-60",
  ]
  /// Options of the streaming decoder, which gives partial results.
  public var streamingDecoderOptions: [String: String] = ["-maxhmmpf": "1000"]
  /// The grammar's words that are commands.
  public var commandWords: Set<String>

  public init(
    acousticModel: String = Self.defaultModelFolder + "/en-us",
    dictionary: String = Self.defaultModelFolder + "/cmudict-en-us.dict",
    grammar: String,
    extraDictionary: String? = nil,
    maximumTranscriptions: Int = 10,
    decoderOptions: [String: String] = [:],
    finalPass: FinalPass = .batch,
    commandWords: Set<String> = Set(Vocabulary.standard.commands.keys)
  ) {
    self.acousticModel = acousticModel
    self.dictionary = dictionary
    self.grammar = grammar
    self.extraDictionary = extraDictionary ?? Self.companionDictionary(of: grammar)
    self.maximumTranscriptions = maximumTranscriptions
    self.decoderOptions = decoderOptions
    self.finalPass = finalPass
    self.commandWords = commandWords
  }

  /// `grammar.dict` beside `grammar.gram`, if there is one.
  public static func companionDictionary(of grammar: String) -> String? {
    let url = URL(fileURLWithPath: grammar).deletingPathExtension().appendingPathExtension("dict")
    return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
  }

  /// Options for `ps_init`, without any search (the grammar is set afterwards).
  public func initOptions(_ extra: [String: String] = [:]) -> [String] {
    var options: [String: String] = [
      "-hmm": acousticModel,
      "-dict": dictionary,
      "-remove_silence": "no",  // DirectMe's endpointer decides where speech is
      "-bestpath": "no",  // the lattice pass is slow on big grammars and not needed
    ]
    // A model adapted by MLLR (directme adapt) carries its transform beside the means.
    let transform = acousticModel + "/mllr_matrix"
    if FileManager.default.fileExists(atPath: transform) { options["-mllr"] = transform }
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
/// times, scores, margins and alternates.
///
/// One decoder follows the stream for partial results. With the batch final pass (the
/// default) a second one decodes each finished utterance again as a whole, twice: with the
/// grammar's `<commands>` rule (what a command utterance may be) and with its `<garbage>`
/// rule (any other speech or noise), every senone scored in every frame so the two compare.
/// Each command word's margin is how much better the commands reading explains its stretch
/// of audio than the garbage reading does; the interpreter's detector turns it into a
/// confidence. The two readings are the result's transcriptions, best score first.
public final class PocketSphinxRecognizer: Recognizer {
  public let configuration: RecognizerConfiguration
  /// Every word the grammar can produce.
  public let grammarWords: Set<String>
  private let streaming: Decoder
  private let final: Decoder?
  private var inUtterance = false
  private var audio: [Int16] = []
  /// The grammar's rules the final pass decodes with (`commands`, `garbage`).
  private var finalSearches: Set<String> = []
  /// Words of the garbage that sound like a command ("drown": "down"), for rescues.
  public private(set) var nearMisses: [String: String] = [:]
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
    if configuration.finalPass == .batch && streamingGrammar.rules[Search.commands] != nil {
      try streaming.select(search: Search.commands)
    }
    final = configuration.finalPass == .batch ? try Self.makeDecoder(configuration, extra: configuration.finalDecoderOptions) : nil
    if let final {
      let rules = try final.setGrammar(
        configuration.grammar, named: Search.main,
        rules: [Search.commands, Search.direction, Search.garbage, Search.carriedDirection, Search.carriedGarbage]
      ).rules
      finalSearches = Set(rules.keys)
      if let garbage = rules[Search.garbage] {
        nearMisses = Self.nearMisses(of: configuration.commandWords, among: garbage, decoder: final)
      }
    }
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

  /// Decodes the utterance's audio so far with <commands>, then checks each command word
  /// against <garbage> (see `verify`).
  private func finalPass() throws -> RecognitionResult {
    guard let final else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    // Without a <commands> rule the whole grammar stands for the commands.
    let commands = try decode(audio, search: finalSearches.contains(Search.commands) ? Search.commands : Search.main, on: final)
    let duration = Double(audio.count) / Double(Self.sampleRate)
    guard let commands else { return RecognitionResult(transcriptions: [], start: 0, end: duration) }
    guard finalSearches.contains(Search.direction) && finalSearches.contains(Search.garbage) else {
      return RecognitionResult(transcriptions: [commands], start: 0, end: duration)
    }
    return RecognitionResult(transcriptions: try verify(commands, on: final), start: 0, end: duration)
  }

  // MARK: Final pass

  /// The searches: the grammar's public rule, and its rules `<commands>` (what counts as
  /// a command utterance), `<direction>` (one command word) and `<garbage>` (one other word).
  enum Search {
    static let main = "directme"
    static let commands = "commands"
    static let direction = "direction"
    static let garbage = "garbage"
    /// The same with optional carriers around the word.
    static let carriedDirection = "carried_direction"
    static let carriedGarbage = "carried_garbage"
  }

  private func decode(_ samples: [Int16], search: String, on decoder: Decoder) throws -> Transcription? {
    try decoder.select(search: search)
    return try decoder.decodeWhole(samples)
  }

  static let sampleRate = 16_000
  /// The commands reading with each command word's margin, and the other-words reading.
  ///
  /// Each command word's stretch of audio is decoded on its own with <direction> (one
  /// command word) and with <garbage> (one other word), every senone scored in every frame;
  /// the margin is the difference. The stretch of a command said alone ("up", "move the
  /// ninja up") is the whole utterance, so where the commands reading placed the word and
  /// what carriers it heard around it do not matter: "go" read as the carrier "go" and a
  /// squeezed-in "up" is still "go" against "up". In a sequence ("down, down, right") each
  /// command word's stretch reaches halfway to the command words before and after it, so
  /// each is judged like a word said alone, and no better than the whole utterance: a
  /// stretch cut out of one longer word ("zero" read as "right" then "up") can look like
  /// a command on its own, the whole does not. The other-words reading is the commands
  /// reading with each command word replaced by the other word heard in its stretch.
  func verify(_ commands: Transcription, on decoder: Decoder) throws -> [Transcription] {
    let spoken = commands.segments.indices.filter { !commands.segments[$0].isFiller }
    let checked = spoken.filter { configuration.commandWords.contains(commands.segments[$0].word) }
    let end = Double(audio.count) / Double(Self.sampleRate)
    // Command words without a pause between them are one slot: one word read as two
    // ("zero" as "right up"). A pause is in the audio, not in where the decoder drew the
    // boundaries: a stretch quiet like the background.
    let energies = Signal.frameEnergies(audio, floor: 1e-2, wholeFrames: true)
    let quiet = Self.pauseLevel(energies)
    var slots: [[Int]] = []
    for index in checked {
      if let last = slots.last?.last,
        !Self.separated(
          commands.segments[slots.last!.first!].start...commands.segments[last].end,
          commands.segments[index].start...commands.segments[index].end, energies: energies, quiet: quiet)
      {
        slots[slots.count - 1].append(index)
      } else {
        slots.append([index])
      }
    }
    let words = spoken.map { commands.segments[$0].word }
    var marked = commands
    var others = commands
    var gap = 0.0
    for (position, slot) in slots.enumerated() {
      let first = commands.segments[slot.first!]
      let last = commands.segments[slot.last!]
      let from = position > 0 ? (commands.segments[slots[position - 1].last!].end + first.start) / 2 : 0
      let to = position + 1 < slots.count ? (last.end + commands.segments[slots[position + 1].first!].start) / 2 : end
      // Carriers said around the command ("move the ninja up") are left out of its stretch
      // when they last long enough to be words; a short one is more often breath or noise
      // read as "now" than a word, and stays in.
      var (low, high) = (from, to)
      let firstSpoken = spoken.firstIndex(of: slot.first!)!
      let lastSpoken = spoken.firstIndex(of: slot.last!)!
      let (lead, trail) = Self.carriers(around: firstSpoken...lastSpoken, in: words)
      // With two or more carriers heard around the command ("go up now", "move the ninja
      // left"), both sides may explain them: <carried_direction> against <carried_garbage>.
      // One carrier alone is as often part of the word or a breath ("go" read before a
      // short "up") and stays in the stretch.
      let carried = lead.count + trail.count >= Self.carrierWords
        && finalSearches.contains(Search.carriedDirection) && finalSearches.contains(Search.carriedGarbage)
      let spokenCarriers = !carried && lead.count + trail.count >= Self.carrierWords
      if spokenCarriers && !lead.isEmpty {
        let leadStart = commands.segments[spoken[firstSpoken - lead.count]].start
        let leadEnd = commands.segments[spoken[firstSpoken - 1]].end
        if leadEnd - leadStart >= Self.carrierDuration { low = max(low, (leadEnd + first.start) / 2) }
      }
      if spokenCarriers && !trail.isEmpty {
        let trailStart = commands.segments[spoken[lastSpoken + 1]].start
        let trailEnd = commands.segments[spoken[lastSpoken + trail.count]].end
        if trailEnd - trailStart >= Self.carrierDuration { high = min(high, (last.end + trailStart) / 2) }
      }
      let lowerSample = max(0, min(audio.count, Int(low * Double(Self.sampleRate))))
      let upperSample = max(lowerSample, min(audio.count, Int(high * Double(Self.sampleRate))))
      let stretch = Array(audio[lowerSample..<upperSample])
      let command = try decode(stretch, search: carried ? Search.carriedDirection : Search.direction, on: decoder)
      let other = try decode(stretch, search: carried ? Search.carriedGarbage : Search.garbage, on: decoder)
      let margin: Double
      if let command, let other {
        margin = command.score - other.score
        gap += margin
      } else {
        // One side found nothing at all: a margin beyond any the detector was tuned on.
        margin = command == nil ? -1e6 : 1e6
      }
      // The slot keeps one command word: the one its stretch holds on its own.
      let keep = slot.first!
      let heard = command?.segments.first { configuration.commandWords.contains($0.word) }?.word
      marked.segments[keep].word = heard ?? marked.segments[keep].word
      marked.segments[keep].end = last.end
      marked.segments[keep].margin = margin
      let garbageWord = other?.segments.first { !$0.isFiller && !Vocabulary.standard.isCarrier($0.word) }
        ?? other?.segments.first { !$0.isFiller }
      // In the command word's place, so the two readings line up word for word.
      var replacement = WordSegment(
        word: garbageWord?.word ?? "<sil>", start: first.start, end: last.end, score: garbageWord?.score ?? first.score)
      replacement.soundsLike = garbageWord.flatMap { nearMisses[$0.word] }
      others.segments[keep] = replacement
      for extra in slot.dropFirst() {
        marked.segments[extra].word = "<sil>"
        others.segments[extra].word = "<sil>"
      }
    }
    others.score = commands.score - gap
    return [marked, others].sorted { $0.score > $1.score }.prefix(configuration.maximumTranscriptions).map { $0 }
  }

  /// The carrier words heard right before and after the command words at `range` of
  /// `words` (the spoken words of the commands reading): the longest lead ("move the
  /// ninja", "please move", "go", ...) ending just before, and a trail ("now", "please")
  /// just after.
  static func carriers(around range: ClosedRange<Int>, in words: [String]) -> (lead: [String], trail: [String]) {
    let before = words[..<range.lowerBound]
    let lead = Self.leads.first { before.suffix($0.count).elementsEqual($0) } ?? []
    let after = words[(range.upperBound + 1)...]
    let trail = Self.trails.first { after.prefix($0.count).elementsEqual($0) } ?? []
    return (lead, trail)
  }

  /// The grammar's <lead> and <trail>, longest first.
  static let leads: [[String]] = [
    ["please", "move", "the", "ninja"], ["move", "the", "ninja"], ["please", "move"], ["please", "go"], ["move"], ["go"], ["please"],
  ]
  static let trails: [[String]] = [["now"], ["please"]]

  /// The level (dBFS) under which a frame is quiet: close to the background (the quietest
  /// tenth of the frames that are not digital silence) or far below the loud part of the
  /// speech, whichever is higher: a clean recording's background can be near digital
  /// silence while the pauses of a sequence still hold breath and reverberation.
  static func pauseLevel(_ energies: [Double]) -> Double {
    let sounding = energies.filter { $0 > -100 }.sorted()
    guard !sounding.isEmpty else { return -100 }
    let background = sounding[sounding.count / 10]
    let loud = sounding[min(sounding.count - 1, sounding.count * 95 / 100)]
    return max(background + pauseRise, loud - pauseDepth)
  }

  /// Whether between `from` and `to` (seconds) there are `pauseFrames` frames in a row no
  /// louder than `level` dBFS.
  static func hasPause(_ energies: [Double], below level: Double, from: Double, to: Double) -> Bool {
    let first = max(0, Int(from * 100))
    let last = min(energies.count, Int(to * 100))
    var run = 0
    for frame in first..<max(first, last) {
      run = energies[frame] <= level ? run + 1 : 0
      if run >= pauseFrames { return true }
    }
    return false
  }

  /// Whether two stretches (seconds) read as command words are two words said apart: a
  /// pause between them. (Also asking each side to be loud for a word's length kept a
  /// quiet "up" after a loud "left" in one slot: sequences 53% right against 73%.)
  static func separated(_ first: ClosedRange<Double>, _ second: ClosedRange<Double>, energies: [Double], quiet: Double) -> Bool {
    hasPause(energies, below: quiet, from: first.upperBound - 0.15, to: second.lowerBound + 0.15)
  }

  /// A pause between two commands: this many 10 ms frames (150 ms: people pause 200-400 ms
  /// between commands; shorter dips are a consonant's closure as often as a pause)...
  static let pauseFrames = 15
  /// ...this close to the background (dB)...
  static let pauseRise = 6.0
  /// ...or this far below the loud part of the utterance (dB).
  static let pauseDepth = 30.0
  /// Carriers around a command lasting at least this long (seconds) are words.
  static let carrierDuration = 0.25
  /// Carriers are left out of a command's stretch only when there are this many around it.
  static let carrierWords = 2

  /// Garbage words one phone away from a command word that share at least two of its phones
  /// in order ("drown" and "down", "cup" and "up"), each with the command it sounds like.
  static func nearMisses(of commands: Set<String>, among words: Set<String>, decoder: Decoder) -> [String: String] {
    let commandPhones = commands.sorted().map { ($0, decoder.pronunciations(of: $0)) }
    var result: [String: String] = [:]
    for word in words.sorted() where !commands.contains(word) {
      for pronunciation in decoder.pronunciations(of: word) {
        if let (command, _) = commandPhones.first(where: { _, variants in
          variants.contains { PhoneDistance.isNearMiss(pronunciation, of: $0) }
        }) {
          result[word] = command
          break
        }
      }
    }
    return result
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

