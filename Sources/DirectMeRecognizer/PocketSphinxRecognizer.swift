import CPocketSphinx
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Dispatch

public final class PocketSphinxRecognizer: Recognizer {
  /// Threads the final pass scores an utterance with (this one and a helper; the results are
  /// the same with any number): 2 on a machine with two cores or more. Recognizers made after
  /// a change take it: one per core, as `directme-bench accuracy` runs them, should keep to 1.
  public static var scoringThreads: Int {
    get { Decoder.scoringThreads.load(ordering: .relaxed) }
    set { Decoder.scoringThreads.store(newValue, ordering: .relaxed) }
  }

  public let configuration: RecognizerConfiguration
  /// Every word the grammar can produce.
  public let grammarWords: Set<String>
  private let streaming: Decoder
  let final: Decoder?
  private var inUtterance = false
  /// The utterance's audio the final pass decodes: all of it, or from the point settled
  /// before the last one (see `settle`).
  private(set) var audio: [Int16] = []
  /// Samples of the utterance dropped from the start of `audio`.
  private var droppedSamples = 0
  /// Seconds from the utterance's start before which words are settled (not reported again).
  private var settledTime = 0.0
  /// The same, in seconds from the start of `audio`.
  var settledInAudio: Double { settledTime - Double(droppedSamples) / Double(Self.sampleRate) }
  /// The grammar's rules the final pass decodes with (`commands`, `garbage`).
  private(set) var finalSearches: Set<String> = []
  /// Words of the garbage that sound like a command ("drown": "down"), for rescues.
  public private(set) var nearMisses: [String: String] = [:]
  /// The cepstral mean the model starts from (`-cmninit`), restored by `resetAdaptation`.
  private let initialMean: [mfcc_t]?
  /// A personal model's voice check (its `voice.json`): utterances in other voices are
  /// decoded by the final pass with the model it was made from.
  let voiceCheck: VoiceCheck?
  /// The model's voice routing (its `routing.json`; for a personal model, that of the model
  /// for other voices): utterances in the routed voices are decoded by the final pass with
  /// the routed voices' model (loaded at a live session's start, `preloadLaterModels`, or
  /// when first needed).
  /// The routing of the model's own folder (for a personal model: of its owner's utterances)
  /// and, for a personal model, of the model for other voices; each routing's `model` is an
  /// absolute path.
  let routing: VoiceRouting?
  let otherVoicesRouting: VoiceRouting?
  /// Final-pass decoders of other models (the routed voices', the second opinion's), by
  /// model folder, once loaded.
  private var laterDecoders: [String: Decoder] = [:]
  /// Later decoders loading on a thread of their own, by model folder.
  private var preloading: [String: Preloading] = [:]
  /// Measures each utterance's voice, for the voice check and the routing.
  let voiceFeatures: VoiceFeatures?
  /// How far from the model's people each utterance's voice lies (the model's `warp.json`),
  /// for the final pass to hear it as theirs.
  let voiceWarp: VoiceWarp?
  /// The model's word verifier (`verifier.json`), for the listener to weigh command words with.
  public let wordVerifier: WordVerifier?
  /// The model's sound class (`sound-class.json`), for the listener to weigh command words
  /// with; one just fitted can take its place (`directme-bench sound-class` setting its bound).
  public var soundClass: SoundClass?
  /// The front end `voiceWarp` measures with.
  let warpFeatures: VoiceFeatures?
  /// With a voice check (a personal model): the model for other voices' warp and sound
  /// class, and the front end that warp measures with. Utterances the check gives to that
  /// model are heard as it hears them alone (the personal model has neither file).
  let otherVoicesWarp: VoiceWarp?
  let otherVoicesWarpFeatures: VoiceFeatures?
  public let otherVoicesSoundClass: SoundClass?

  /// Whether the final pass weighs each command word against other words (its grammar has
  /// `<direction>` and `<garbage>`): only then do its command words carry margins.
  public var weighsCommandWords: Bool {
    final != nil && finalSearches.contains(Search.direction) && finalSearches.contains(Search.garbage)
  }

  /// The voice profile and the final pass's decoder for other voices.
  struct VoiceCheck {
    let profile: VoiceProfile
    let otherVoices: Decoder
  }

  public init(configuration: RecognizerConfiguration) throws {
    try Self.validateFiles(of: configuration)
    self.configuration = configuration
    // Both decoders load only the dictionary words the grammar can use (51 MB instead of
    // 95 MB, 0.25 s sooner for one file); the grammar's checks still name unknown words.
    var loading = configuration
    loading.dictionary = try DictionaryTrimmer.trimmedCopy(of: configuration.dictionary, for: configuration.grammar)
    defer { try? FileManager.default.removeItem(atPath: loading.dictionary) }
    // The final pass's decoder loads on a thread of its own while the streaming one loads
    // here: each reads the whole acoustic model, and there are two cores.
    let finalSetup = FinalSetup()
    let finalLoaded = DispatchSemaphore(value: 0)
    let profile = try VoiceProfile.load(modelFolder: configuration.acousticModel)
    if let profile {
      try Self.validate(
        model: profile.otherVoicesModel, of: configuration, namedIn: configuration.acousticModel + "/" + VoiceProfile.fileName,
        as: "the model for other voices it names")
    }
    func loadRouting(_ folder: String) throws -> VoiceRouting? {
      guard configuration.finalPass == .batch, let routing = try VoiceRouting.load(modelFolder: folder)?.withModelPaths(in: folder) else {
        return nil
      }
      for (model, what) in [(routing.model, ""), (routing.narrowbandModel, " through a narrowband link")] {
        guard let model else { continue }
        try Self.validate(
          model: model, of: configuration, namedIn: folder + "/" + VoiceRouting.fileName,
          as: "the model for \(routing.name) voices\(what) it names")
      }
      if let model = routing.peopleNarrowbandModel {
        try Self.validate(
          model: model, of: configuration, namedIn: folder + "/" + VoiceRouting.fileName,
          as: "the model for people through a narrowband link it names")
      }
      return routing
    }
    routing = try loadRouting(configuration.acousticModel)
    for second in configuration.secondOpinions where configuration.finalPass == .batch {
      try Self.validate(
        model: second.model, of: configuration, namedIn: configuration.acousticModel, as: "the model asked for second opinions")
    }
    otherVoicesRouting = try profile.flatMap { try loadRouting($0.otherVoicesModel) }
    voiceWarp = configuration.finalPass == .batch ? try VoiceWarp.load(modelFolder: configuration.acousticModel) : nil
    wordVerifier =
      configuration.finalPass == .batch && configuration.usesWordVerifier
      ? try WordVerifier.load(modelFolder: configuration.acousticModel) : nil
    soundClass = configuration.finalPass == .batch ? try SoundClass.load(modelFolder: configuration.acousticModel) : nil
    voiceFeatures = profile != nil || routing != nil ? try VoiceFeatures(model: configuration.acousticModel) : nil
    warpFeatures = try voiceWarp.map { try VoiceFeatures(model: configuration.acousticModel, overriding: $0.frontEndOptions) }
    let othersModel = configuration.finalPass == .batch ? profile?.otherVoicesModel : nil
    let othersWarp = try othersModel.flatMap { try VoiceWarp.load(modelFolder: $0) }
    otherVoicesWarp = othersWarp
    otherVoicesWarpFeatures = try othersModel.flatMap { model in
      try othersWarp.map { try VoiceFeatures(model: model, overriding: $0.frontEndOptions) }
    }
    otherVoicesSoundClass = try othersModel.flatMap { try SoundClass.load(modelFolder: $0) }
    if configuration.finalPass == .batch {
      let loadingFinal = loading
      startThread {
        finalSetup.result = Result {
          func load(_ model: String) throws -> (Decoder, [String: Set<String>]) {
            var setup = loadingFinal
            setup.acousticModel = model
            let final = try Self.makeDecoder(setup, extra: setup.finalDecoderOptions)
            let rules = try final.setGrammar(
              setup.grammar, named: Search.main,
              rules: Search.finalRules, deferred: Search.deferredFinalRules,
              beams: [Search.garbageWords: setup.severalWordsBeams], deferringPublic: true
            ).rules
            return (final, rules)
          }
          let (final, rules) = try load(loadingFinal.acousticModel)
          let nearMisses = rules[Search.garbage].map { Self.nearMisses(of: loadingFinal.commandWords, among: $0, decoder: final) } ?? [:]
          let check = try profile.map { profile in
            VoiceCheck(profile: profile, otherVoices: try load(profile.otherVoicesModel).0)
          }
          return (final, Set(rules.keys), nearMisses, check)
        }
        finalLoaded.signal()
      }
    } else {
      finalLoaded.signal()
    }
    let streamingResult = Result { () throws -> (Decoder, (words: Set<String>, rules: [String: Set<String>])) in
      let streaming = try Self.makeDecoder(loading, extra: configuration.streamingDecoderOptions)
      return (streaming, try streaming.setGrammar(configuration.grammar, named: Search.main, rules: [Search.commands], deferringPublic: true))
    }
    finalLoaded.wait()
    let (streaming, streamingGrammar) = try streamingResult.get()
    self.streaming = streaming
    grammarWords = streamingGrammar.words
    // Partials follow the <commands> rule when there is one: a small search, cheap enough to
    // run on every frame, whose last word tells the endpointer whether a command just ended.
    // The final pass decides whether the utterance was a command at all.
    if streamingGrammar.rules[Search.commands] != nil {
      try streaming.select(search: Search.commands)
    }
    if let (final, searches, nearMisses, check) = try finalSetup.result?.get() {
      // One model held once (see `Decoder.shareModel`).
      final.shareModel(of: streaming)
      self.final = final
      finalSearches = searches
      self.nearMisses = nearMisses
      voiceCheck = check
    } else {
      final = nil
      voiceCheck = nil
    }
    initialMean = streaming.cepstralMean
  }

  /// Checks that `configuration` works with `model` as its acoustic model; if not, the error
  /// names `file` (where the model was named) and says `what` the model is.
  private static func validate(model: String, of configuration: RecognizerConfiguration, namedIn file: String, as what: String) throws {
    var other = configuration
    other.acousticModel = model
    do {
      try validateFiles(of: other)
    } catch let error as ConfigurationError {
      throw ConfigurationError(file: file, problem: "\(what) is unusable (\(error))")
    }
  }

  static func makeDecoder(_ configuration: RecognizerConfiguration, extra: [String: String] = [:]) throws -> Decoder {
    let decoder = try Decoder(
      options: configuration.initOptions(extra),
      describing: "loading acoustic model \(configuration.acousticModel)")
    if let extra = configuration.extraDictionary {
      try decoder.addWords(from: extra)
    }
    return decoder
  }

  /// More pronunciations for the routed voices' decoder alone, a file in their model's folder
  /// (`word(2) PHONE ...` lines, as the grammar's companion dictionary): a synthetic voice's
  /// accent that people's "done" or "don't" would match too.
  static let routedPronunciations = "pronunciations.dict"

  /// A final-pass decoder of another model (the routed voices', the second opinion's):
  /// preloaded in a live session (`preloadLaterModels`), else loaded the first time an
  /// utterance needs it (a replay of a file may never: its memory is not spent for nothing).
  func laterDecoder(_ model: String) throws -> Decoder {
    if let decoder = laterDecoders[model] { return decoder }
    let decoder: Decoder
    if let loading = preloading.removeValue(forKey: model) {
      loading.done.wait()
      decoder = try loading.result!.get()
    } else {
      decoder = try Self.loadLaterDecoder(model, configuration: configuration)
    }
    laterDecoders[model] = decoder
    return decoder
  }

  /// `warm`: every search built and the model's scores read once, as a final pass would
  /// (for a decoder loaded ahead; see `preloadLaterModels`).
  private static func loadLaterDecoder(_ model: String, configuration: RecognizerConfiguration, warm: Bool = false) throws -> Decoder {
    var loading = configuration
    loading.acousticModel = model
    loading.dictionary = try DictionaryTrimmer.trimmedCopy(of: configuration.dictionary, for: configuration.grammar)
    defer { try? FileManager.default.removeItem(atPath: loading.dictionary) }
    let decoder = try Self.makeDecoder(loading, extra: loading.finalDecoderOptions)
    // Pronunciations only the routed voices use (synthetic voices' accents), beside their model.
    let pronunciations = model + "/" + Self.routedPronunciations
    if FileManager.default.fileExists(atPath: pronunciations) { try decoder.addWords(from: pronunciations) }
    _ = try decoder.setGrammar(
      loading.grammar, named: Search.main,
      rules: Search.finalRules, deferred: Search.deferredFinalRules,
      beams: [Search.garbageWords: loading.severalWordsBeams], deferringPublic: true)
    if warm {
      // A quarter second of faint noise through each search, every senone scored: the
      // deferred searches are built, the scorer attached and the model's mixture weights
      // (mapped from `sendump`) read in.
      let faint = Signal.filledDigitalSilence(Signal.silence(0.25))
      for search in Search.finalRules + Search.deferredFinalRules {
        try decoder.select(search: search)
        _ = try decoder.decodeWholeKeepingScores(faint)
      }
    }
    return decoder
  }

  /// A later decoder loading on a thread of its own (`preloadLaterModels`).
  private final class Preloading: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    /// Set before `done` is signalled.
    var result: Result<Decoder, any Error>?
  }

  /// The models a final pass may turn to besides its own, most needed first: the routed
  /// voices' (`routing.json`; a third of people's words lie near its margin, where both
  /// models' fit is weighed), the routed voices' through a narrowband link, and the model
  /// asked for second opinions. Not people's through a narrowband link: a session on a
  /// wideband microphone never needs it, and loaded ahead it held 9 MB more for every
  /// session (81-100 MB against 72-92); loaded when first needed, the first narrowband
  /// utterance waits about 0.25 s for it.
  var laterModels: [String] {
    var models: [String] = []
    for routing in [routing, otherVoicesRouting].compactMap({ $0 }) {
      models.append(routing.model)
      if let narrowband = routing.narrowbandModel { models.append(narrowband) }
    }
    models += configuration.secondOpinions.map(\.model)
    var seen = Set<String>()
    return models.filter { seen.insert($0).inserted }
  }

  /// Starts loading every later model (`laterModels`) not loaded yet, one after another on
  /// a thread of its own, each with its searches built and its scores read once: a live
  /// session needs each sooner or later, and each one loaded on demand held that
  /// utterance's decision back by its loading time and stepped the session's memory up by
  /// 5-7 MB minutes into the session (heaptrack: the acoustic model, dictionary and searches
  /// of a decoder), and its first use by 3-5 MB more (its deferred searches, its scorer, the
  /// mixture weights read in). Call it from the thread that decodes, as every other method;
  /// an error surfaces when the model is first needed.
  public func preloadLaterModels() {
    guard final != nil else { return }
    let models = laterModels.filter { laterDecoders[$0] == nil && preloading[$0] == nil }
    guard !models.isEmpty else { return }
    let loadings = models.map { _ in Preloading() }
    for (model, loading) in zip(models, loadings) { preloading[model] = loading }
    let configuration = self.configuration
    startThread {
      for (model, loading) in zip(models, loadings) {
        loading.result = Result { try Self.loadLaterDecoder(model, configuration: configuration, warm: true) }
        loading.done.signal()
      }
    }
  }

  public func resetAdaptation() {
    streaming.cepstralMean = initialMean
    streaming.forgetPreviousFrames()
  }

  // MARK: Recognizer

  public func startUtterance() throws {
    if inUtterance { _ = try endUtterance() }
    try streaming.startUtterance()
    audio.removeAll(keepingCapacity: true)
    droppedSamples = 0
    settledTime = 0
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
    return try finalPassOfUnsettled(soFar: true)
  }

  /// Later final passes decode the audio from the previous settled point on: the words
  /// settled last, and the pause before them, are context (what ends them, a release or a
  /// breath, is heard as part of them, not as a word of its own; the cepstral mean covers
  /// a pause and a word, as for a word said alone), and the audio is decoded at most twice.
  /// A word of its own after the settled point is decoded without them (see
  /// `finalPassOfUnsettled`).
  public func settle(before time: Double) {
    let keepFrom = min(Int(settledTime * Double(Self.sampleRate)), droppedSamples + audio.count)
    settledTime = max(settledTime, time)
    guard keepFrom > droppedSamples else { return }
    audio.removeFirst(keepFrom - droppedSamples)
    droppedSamples = keepFrom
  }

  public func cancelUtterance() throws {
    guard inUtterance else { return }
    inUtterance = false
    try streaming.endUtterance()
  }

  /// The final pass over the audio kept, times from the utterance's start, without the
  /// words settled (those most of whose time lies before `settledTime`).
  /// `soFar`: the utterance goes on (an early decision reads the audio so far).
  private func finalPassOfUnsettled(soFar: Bool = false) throws -> RecognitionResult {
    // After an early decision the audio kept begins with the words settled last, as context
    // for what follows them (see `settle`). When what follows holds a word of its own, the
    // word is decoded on its own, like a word said alone: beside the context, a word said
    // more softly than the one before, or in another room or voice (the cepstral mean is
    // the whole stretch's), was lost. Sequences of 2-4 held-out speakers' clips: 65.0% ->
    // 69.3% right (300 made with another seed than the benchmark's; its 100: 68 -> 69%).
    let settledSample = Int(settledInAudio * Double(Self.sampleRate))
    if settledSample > 0, settledSample < audio.count,
      SignalEvidence.holdsWord(Array(audio[settledSample...]), after: Array(audio[..<settledSample]))
    {
      audio.removeFirst(settledSample)
      droppedSamples += settledSample
    }
    let result = try finalPass(soFar: soFar)
    // The pass's searches and scores are freed; their pages go back to the system, or a
    // long session's memory creeps up to the costliest utterance's mark and stays there.
    // The corresponding C function is `malloc_trim` (~0.3 ms a pass).
    malloc_trim(0)
    guard droppedSamples > 0 || settledTime > 0 else { return result }
    var shifted = result.shifted(by: Double(droppedSamples) / Double(Self.sampleRate))
    for index in shifted.transcriptions.indices {
      shifted.transcriptions[index].segments.removeAll { ($0.start + $0.end) / 2 < settledTime }
    }
    // The result starts where the settled part ends (or where its first word does, should
    // that be a little earlier).
    let first = shifted.transcriptions.compactMap { $0.segments.first?.start }.min() ?? settledTime
    shifted.start = max(shifted.start, min(settledTime, first))
    return shifted
  }

  public func endUtterance() throws -> RecognitionResult {
    guard inUtterance else { return RecognitionResult(transcriptions: [], start: 0, end: 0) }
    inUtterance = false
    try streaming.endUtterance()
    guard final != nil else {
      let streamed = streaming.bestTranscription()
      return RecognitionResult(transcriptions: streamed.map { [$0] } ?? [], start: 0, end: streaming.duration)
    }
    return try finalPassOfUnsettled()
  }


  // MARK: Checks

  private static func validateFiles(of configuration: RecognizerConfiguration) throws {
    let fileManager = FileManager.default
    var isFolder = false
    let model = configuration.acousticModel
    guard fileManager.fileExists(atPath: model, isDirectory: &isFolder) else {
      throw ConfigurationError(file: model, problem: "acoustic model folder not found")
    }
    guard isFolder else {
      throw ConfigurationError(file: model, problem: "the acoustic model must be a folder (holding mdef, means, ...)")
    }
    for required in ["mdef", "means", "variances", "transition_matrices"] {
      guard let path = AcousticModelFiles.path(of: required, in: model), fileManager.isReadableFile(atPath: path) else {
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
    var isFolder = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ConfigurationError(file: path, problem: "\(what) not found")
    }
    guard !isFolder else { throw ConfigurationError(file: path, problem: "\(what) is a folder, not a file") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw ConfigurationError(file: path, problem: "\(what) is not readable (permission denied)")
    }
    guard let size = fileSize(atPath: path), size > 0 else {
      throw ConfigurationError(file: path, problem: "\(what) is empty")
    }
  }
}

/// The final pass's decoder, loaded on another thread.
private final class FinalSetup: @unchecked Sendable {
  var result: Result<(Decoder, Set<String>, [String: String], PocketSphinxRecognizer.VoiceCheck?), Error>?
}
