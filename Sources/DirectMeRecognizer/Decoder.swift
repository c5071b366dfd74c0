import CPocketSphinx
import CSenoneScorer
import CSphinxLists
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Synchronization

/// Owns one `ps_decoder_t` and the configuration it was made from.
///
/// All calls must come from one thread at a time.
final class Decoder {
  let handle: OpaquePointer
  private let config: OpaquePointer

  /// Makes a decoder from command-line style options (`["-hmm", path, "-dict", path]`).
  ///
  /// The corresponding C functions are `cmd_ln_parse_r` and `ps_init`.
  init(options: [String], describing what: String) throws {
    let (config, log) = SphinxLog.capturing("reading decoder options") {
      withCStrings(["directme"] + options) { argv in
        cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), argv.baseAddress, 1)
      }
    }
    guard let config else {
      throw PocketSphinxError.from("cmd_ln_parse_r", log: log, fallback: "bad decoder options \(options)")
    }
    let (decoder, initLog) = SphinxLog.capturing(what) { FrontEnds.making { MappedFile.changingMappings { ps_init(config) } } }
    guard let decoder else {
      cmd_ln_free_r(config)
      throw PocketSphinxError.from("ps_init", log: initLog, fallback: "\(what) failed")
    }
    self.handle = decoder
    self.config = config
    scorer = Self.attachScorer(to: decoder, config: config)
    releaseModelDefinition()
  }

  /// Lets the model definition's pages go: pocketsphinx reads all of the mapped `mdef` while
  /// loading the model and building searches, then only a few of its pages (`MappedFile`).
  private func releaseModelDefinition() {
    // Named by -mdef, or found in the -hmm folder (pocketsphinx does not write that back).
    let definition = cmd_ln_str_r(config, "-mdef").map { String(cString: $0) }
      ?? cmd_ln_str_r(config, "-hmm").map { String(cString: $0) + "/mdef" }
    if let definition { MappedFile.releasePages(of: definition) }
  }

  /// DirectMe's scorer installed in `decoder`'s acoustic model, nil when it cannot read the
  /// model; with `scoringThreads` threads when the decoder scores every senone.
  private static func attachScorer(to decoder: OpaquePointer, config: OpaquePointer) -> OpaquePointer? {
    let scorer = directme_acmod(decoder).flatMap { directme_senone_scorer_attach($0) }
    if let scorer, cmd_ln_int_r(config, "-compallsen") != 0 {
      directme_senone_scorer_set_threads(scorer, Int32(scoringThreads.load(ordering: .relaxed)))
    }
    return scorer
  }

  /// Threads that score a whole utterance's frames when every senone is scored (the final
  /// pass's decoders; `directme_senone_scorer_set_threads`): 2, this one and a helper, on a
  /// machine with two cores or more; the scores are the same with 1. Decoders made after a
  /// change take it. (`directme-bench accuracy` sets 1 when it runs a recognizer on each core.)
  /// `DIRECTME_SCORING_THREADS=1` in the environment keeps to one.
  static let scoringThreads = Atomic<Int>(
    ProcessInfo.processInfo.environment["DIRECTME_SCORING_THREADS"].flatMap(Int.init)
      ?? min(2, ProcessInfo.processInfo.activeProcessorCount))

  /// Threads this decoder's scorer scores with (see `scoringThreads`); setting it starts or
  /// stops its helper. 1 without DirectMe's scorer. The corresponding C functions are
  /// `directme_senone_scorer_threads` and `directme_senone_scorer_set_threads`.
  var threadsScoring: Int {
    get { scorer.map { Int(directme_senone_scorer_threads($0)) } ?? 1 }
    set { if let scorer { _ = directme_senone_scorer_set_threads(scorer, Int32(newValue)) } }
  }

  deinit {
    warpedFrontEnds.values.forEach { fe_free($0) }
    keptGrammars.forEach { jsgf_grammar_free($0) }
    directme_senone_scorer_detach(scorer)
    MappedFile.changingMappings { _ = ps_free(handle) }
    cmd_ln_free_r(config)
  }

  /// DirectMe's scorer of the acoustic model (`CSenoneScorer`), in pocketsphinx's place: the
  /// numbers pocketsphinx's own scoring gives, in less time. Nil when the model is not one it
  /// reads (pocketsphinx scores it then).
  private var scorer: OpaquePointer?
  /// Searches `setGrammar` checked but builds when first selected: each rule with its parsed
  /// grammar (one of `keptGrammars`) and the grammar's file.
  private var deferredSearches: [String: (grammar: OpaquePointer, rule: OpaquePointer, path: String)] = [:]
  /// By search, beams it uses instead of the decoder's (see `setGrammar`).
  private var searchBeams: [String: [String: Double]] = [:]
  /// Parsed grammars whose rules are deferred (freed with the decoder).
  private var keptGrammars: [OpaquePointer] = []

  /// Whether DirectMe's scorer scores the model (true when it can read the model). Setting it
  /// false gives the model back to pocketsphinx's own scoring (for comparing the two).
  var scoresItself: Bool {
    get { scorer != nil }
    set {
      if newValue, scorer == nil {
        scorer = Self.attachScorer(to: handle, config: config)
      } else if !newValue, let attached = scorer {
        directme_senone_scorer_detach(attached)
        scorer = nil
        modelOwner = nil
      }
    }
  }

  /// The decoder whose model this one's scorer reads (see `shareModel`), kept alive as long
  /// as this one.
  private var modelOwner: Decoder?

  /// Lets this decoder's scorer read `other`'s model where the two decoders loaded the same:
  /// its mixture weights when both loaded the same file of them (`sendump`, the same file on
  /// disk: this decoder's own mapping of them, 1.9 MB for the en-us model, is then never read
  /// and does not become resident), its means and precisions when they are the same, value
  /// for value (this decoder's own, 1.7 MB, are given back). The scores are the same. Returns
  /// what is shared. The corresponding C functions are `directme_senone_scorer_share_weights`
  /// and `directme_senone_scorer_share_gaussians`.
  @discardableResult
  func shareModel(of other: Decoder) -> (weights: Bool, gaussians: Bool) {
    guard let scorer, let theirs = other.scorer else { return (false, false) }
    let weights = mixtureWeightsFile.map { $0 == other.mixtureWeightsFile } == true && directme_senone_scorer_share_weights(scorer, theirs) != 0
    let gaussians = directme_senone_scorer_share_gaussians(scorer, theirs) != 0
    if weights || gaussians { modelOwner = other }
    return (weights, gaussians)
  }

  /// Whether this decoder's scorer reads another's means and precisions (see `shareModel`).
  var sharesGaussians: Bool { scorer.map { directme_senone_scorer_shares_gaussians($0) != 0 } ?? false }

  /// The model's file of mixture weights (`-sendump`, else `sendump` in the `-hmm` folder),
  /// named by its device and inode; nil when there is none.
  private var mixtureWeightsFile: String? {
    guard
      let path = cmd_ln_str_r(config, "-sendump").map({ String(cString: $0) })
        ?? cmd_ln_str_r(config, "-hmm").map({ String(cString: $0) + "/sendump" })
    else { return nil }
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec)"
  }

  /// Whether DirectMe's scorer reads the model's own arrays rather than a copy of them
  /// (1.7 MB less per decoder of the en-us model). The corresponding C function is
  /// `directme_senone_scorer_in_place`.
  var scoresInPlace: Bool { directme_senone_scorer_in_place(scorer) != 0 }

  /// How many frames DirectMe's scorer scored several at a time (see
  /// `directme_senone_scorer_frames_from_batches`).
  var framesScoredTogether: Int { Int(directme_senone_scorer_frames_from_batches(scorer)) }

  /// Whether DirectMe's scorer reads the model's log-addition table with byte shuffles (see
  /// `directme_senone_scorer_short_table`).
  var readsShortAddTable: Bool { directme_senone_scorer_short_table(scorer) != 0 }

  /// How well the model fits each 10-ms frame of `samples` (an utterance), whatever the
  /// grammar: the best senone's log-likelihood (pocketsphinx's scaled log units, before its
  /// normalizations), every senone scored; comparable between models of one front end. And
  /// the senone scores, for reading them with a search later. Empty without DirectMe's
  /// scorer. The corresponding C function is `directme_senone_scorer_fits`.
  func fits(_ samples: [Int16]) throws -> (fits: [Float], scores: SenoneScores?) {
    guard let scorer else { return ([], nil) }
    directme_senone_scorer_forget_fits(scorer)
    let (_, scores) = try decodeWholeKeepingScores(samples)
    var count = 0
    guard let fits = directme_senone_scorer_fits(scorer, &count) else { return ([], scores) }
    defer { directme_senone_scorer_forget_fits(scorer) }
    return (Array(UnsafeBufferPointer(start: fits, count: count)), scores)
  }

  /// Blocks of list nodes DirectMe's pool (`CSphinxLists`) has handed to pocketsphinx so
  /// far: 0 when sphinxbase's own list functions are in use (the program was linked
  /// without exporting the pool's).
  static var pooledListBlocks: Int { directme_sphinx_list_blocks() }

  var logmath: OpaquePointer { ps_get_logmath(handle) }

  /// Converts a search score to a natural log. Search scores are in the decoder's log
  /// base, shifted right by `SENSCR_SHIFT` (10) bits.
  func ln(_ score: Int32) -> Double {
    logmath_log_to_ln(logmath, score) * 1024
  }

  /// The value of a floating-point option.
  func float(_ name: String) -> Double {
    Double(cmd_ln_float_r(config, name))
  }

  /// Frames per second of the acoustic features.
  var frameRate: Double { Double(cmd_ln_int_r(config, "-frate")) }

  /// Whether `word` is in the dictionary. The corresponding C function is `ps_lookup_word`.
  func knows(_ word: String) -> Bool {
    guard let phones = ps_lookup_word(handle, word) else { return false }
    free(phones)
    return true
  }

  /// Every pronunciation of `word` in the dictionary ("read", "read(2)", ...), as phones.
  ///
  /// The corresponding C function is `ps_lookup_word`.
  func pronunciations(of word: String) -> [[String]] {
    var result: [[String]] = []
    for variant in 1...9 {
      guard let phones = ps_lookup_word(handle, variant == 1 ? word : "\(word)(\(variant))") else { break }
      result.append(String(cString: phones).split(separator: " ").map(String.init))
      free(phones)
    }
    return result
  }

  /// Adds a word with its phones to the dictionary. The corresponding C function is `ps_add_word`.
  func addWord(_ word: String, phones: String) throws {
    let (id, log) = SphinxLog.capturing("adding '\(word)' to the dictionary") {
      ps_add_word(handle, word, phones, 0)
    }
    if id < 0 {
      throw PocketSphinxError.from("ps_add_word", log: log, fallback: "cannot add '\(word)' /\(phones)/")
    }
  }

  /// Throws the decoder's explanation when a status is negative.
  func check(_ status: Int32, _ function: String, log: [String] = []) throws {
    if status < 0 {
      throw PocketSphinxError.from(function, log: log, fallback: "\(function) failed")
    }
  }

  // MARK: Utterances

  /// Starts an utterance on a new stream, so frame numbers (word times) count from it.
  ///
  /// The corresponding C functions are `ps_start_stream` and `ps_start_utt`.
  func startUtterance() throws {
    let (stream, streamLog) = SphinxLog.capturing("starting a stream") { ps_start_stream(handle) }
    try check(stream, "ps_start_stream", log: streamLog)
    let (status, log) = SphinxLog.capturing("starting an utterance") { ps_start_utt(handle) }
    try check(status, "ps_start_utt", log: log)
  }

  /// Decodes more audio. `wholeUtterance` says this is all of it, so the cepstral mean can
  /// be taken over the whole utterance. The corresponding C function is `ps_process_raw`.
  func process(_ samples: [Int16], wholeUtterance: Bool = false) throws {
    guard !samples.isEmpty else { return }
    let (status, log) = SphinxLog.capturing("decoding audio") {
      samples.withUnsafeBufferPointer {
        ps_process_raw(handle, $0.baseAddress, $0.count, 0, wholeUtterance ? 1 : 0)
      }
    }
    try check(status, "ps_process_raw", log: log)
  }

  /// The corresponding C function is `ps_end_utt`.
  func endUtterance() throws {
    let (status, log) = SphinxLog.capturing("ending an utterance") { ps_end_utt(handle) }
    try check(status, "ps_end_utt", log: log)
  }

  /// Seconds decoded in the current or last utterance.
  var duration: Double { Double(ps_get_n_frames(handle)) / frameRate }

  // MARK: Results

  /// The best reading so far (or of the last utterance), with word times from its start.
  ///
  /// The corresponding C functions are `ps_get_hyp` and `ps_seg_iter`.
  func bestTranscription() -> Transcription? {
    var score: Int32 = 0
    guard ps_get_hyp(handle, &score) != nil else { return nil }
    return Transcription(segments: wordSegments(ps_seg_iter(handle)), score: ln(score))
  }

  /// Reads and frees a segment iterator.
  private func wordSegments(_ iterator: OpaquePointer?) -> [WordSegment] {
    var segments: [WordSegment] = []
    var seg = iterator
    let rate = frameRate
    while let current = seg {
      var startFrame: Int32 = 0
      var endFrame: Int32 = 0
      ps_seg_frames(current, &startFrame, &endFrame)
      var acoustic: Int32 = 0
      var language: Int32 = 0
      var backoff: Int32 = 0
      _ = ps_seg_prob(current, &acoustic, &language, &backoff)
      segments.append(
        WordSegment(
          word: Self.baseWord(String(cString: ps_seg_word(current))),
          start: Double(startFrame) / rate, end: Double(endFrame + 1) / rate,
          score: ln(acoustic) + ln(language)))
      seg = ps_seg_next(current)
    }
    return segments
  }

  /// "read(2)" is "read".
  static func baseWord(_ word: String) -> String {
    guard word.hasSuffix(")"), let open = word.lastIndex(of: "("), open != word.startIndex else { return word }
    return String(word[..<open])
  }

  // MARK: Cepstral mean

  /// The running cepstral mean (live CMN), if the features have one.
  var cepstralMean: [mfcc_t]? {
    get {
      withCepstralMean { cmn in
        var mean = [mfcc_t](repeating: 0, count: Int(cmn.pointee.veclen))
        cmn_live_get(cmn, &mean)
        return mean
      }
    }
    set {
      guard let newValue else { return }
      _ = withCepstralMean { cmn in
        guard newValue.count == Int(cmn.pointee.veclen) else { return }
        newValue.withUnsafeBufferPointer { cmn_live_set(cmn, $0.baseAddress) }
      }
    }
  }

  /// Forgets the cepstra of the utterances before: fed a few milliseconds at a time (as from
  /// a microphone), pocketsphinx computes the deltas of an utterance's first frames from the
  /// frames its ring buffer holds before them: the previous utterance's last ones, or zeros
  /// in a new decoder. Cleared, the next utterance starts as in a new decoder, whatever was
  /// decoded before (a dev-set clip replayed after another was read "up" at a margin of -1.3,
  /// after a third at -7.9, alone as "oh").
  ///
  /// The corresponding C structure is `feat_t` (`cepbuf`, `bufpos`, `curpos`).
  func forgetPreviousFrames() {
    guard let feat = ps_get_feat(handle), let buffer = feat.pointee.cepbuf else { return }
    // As feat_init allocates it (ckd_calloc_2d): the rows in one block.
    let rows = max(Int(LIVEBUFBLOCKSIZE), 2 * Int(feat.pointee.window_size))
    let width = Int(feat.pointee.cepsize)
    // Touched only when the rows' pointers agree.
    guard let first = buffer[0], buffer[rows - 1] == first + (rows - 1) * width else { return }
    first.update(repeating: 0, count: rows * width)
    feat.pointee.bufpos = 0
    feat.pointee.curpos = 0
  }

  private func withCepstralMean<T>(_ body: (UnsafeMutablePointer<cmn_t>) -> T) -> T? {
    guard let feat = ps_get_feat(handle), let cmn = feat.pointee.cmn_struct else { return nil }
    return body(cmn)
  }

  // MARK: Grammar

  /// Adds the pronunciations of a `word PH PH ...` file, skipping words already known and
  /// other pronunciations (`word(2)`) of words not in the dictionary.
  func addWords(from path: String) throws {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw ConfigurationError(file: path, problem: "cannot read the dictionary (\(reason(of: error)))")
    }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let word = fields.first, !word.hasPrefix("#"), !word.hasPrefix(";;") else { continue }
      guard fields.count >= 2 else {
        throw ConfigurationError(file: path, problem: "line \(index + 1): '\(word)' has no phones")
      }
      if knows(String(word)) { continue }
      // Another pronunciation ("off(2)") of a word the grammar does not use (the dictionary
      // was trimmed to the grammar's words): nothing can say it.
      if let open = word.lastIndex(of: "("), word.hasSuffix(")"), !knows(String(word[..<open])) { continue }
      do {
        try addWord(String(word), phones: fields.dropFirst().joined(separator: " "))
      } catch let error as PocketSphinxError {
        throw ConfigurationError(file: path, problem: "line \(index + 1): \(error.message)")
      }
    }
  }

  /// Parses a JSGF file, checks every word against the dictionary, and adds a search for
  /// its public rule (named `name`, and selected) and for each of `rules` that the grammar
  /// defines (named as the rule). Returns the grammar's words and the rules it found.
  ///
  /// The corresponding C functions are `jsgf_parse_file`, `jsgf_get_rule`, `jsgf_build_fsg`,
  /// `ps_set_fsg` and `ps_set_search`.
  ///
  /// The searches of `deferred` rules are checked now (their words must be in the
  /// dictionary) but built the first time they are selected: a search over a few hundred
  /// words holds about 2 MB, worth holding only once it is needed. `beams`: by rule, beams
  /// (`-beam`, `-pbeam`, `-wbeam`) its search uses instead of the decoder's. `deferringPublic`:
  /// the public rule's search is deferred too when one of `rules` is found (that one is
  /// selected instead): a decoder that searches only those rules never builds it.
  @discardableResult
  func setGrammar(
    _ path: String, named name: String, rules: [String] = [], deferred: [String] = [], beams: [String: [String: Double]] = [:],
    deferringPublic: Bool = false
  ) throws -> (words: Set<String>, rules: [String: Set<String>]) {
    searchBeams.merge(beams) { $1 }
    // Before sphinxbase reads it: its scanner echoes text outside statements to stdout.
    if let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }),
      let stray = GrammarText.strayText(in: text)
    {
      throw ConfigurationError(
        file: path,
        problem: "line \(stray.line): '\(stray.text)' stands outside any rule "
          + "(a JSGF statement starts with #JSGF, grammar, import, public or a <rule>, and ends with ';')")
    }
    let (grammar, log) = SphinxLog.capturing("reading grammar \(path)") { jsgf_parse_file(path, nil) }
    guard let grammar else {
      throw ConfigurationError(file: path, problem: Self.describeSyntaxError(log))
    }
    var keep = false
    defer { if !keep { jsgf_grammar_free(grammar) } }
    guard let publicRule = jsgf_get_public_rule(grammar) else {
      throw ConfigurationError(file: path, problem: "no public rule (declare one: public <commands> = ...;)")
    }
    let grammarName = String(cString: jsgf_grammar_name(grammar))
    let defined = (rules + deferred).compactMap { rule in jsgf_get_rule(grammar, "\(grammarName).\(rule)").map { (rule, $0) } }
    let firstBuilt = defined.first { !deferred.contains($0.0) }?.0
    let deferringPublic = deferringPublic && firstBuilt != nil
    /// Keeps `rule` to be built as search `name` when first selected (the grammar with it).
    func deferSearch(_ name: String, rule: OpaquePointer) {
      deferredSearches[name] = (grammar, rule, path)
      if !keep { keptGrammars.append(grammar) }
      keep = true
    }
    let words = try addSearch(from: grammar, rule: publicRule, named: name, path: path, build: !deferringPublic)
    if deferringPublic { deferSearch(name, rule: publicRule) }
    var found: [String: Set<String>] = [:]
    for (rule, definition) in defined {
      let deferring = deferred.contains(rule)
      found[rule] = try addSearch(from: grammar, rule: definition, named: rule, path: path, build: !deferring)
      if deferring { deferSearch(rule, rule: definition) }
    }
    let selected = deferringPublic ? firstBuilt! : name
    let (status, log2) = SphinxLog.capturing("selecting grammar \(path)") { ps_set_search(handle, selected) }
    try check(status, "ps_set_search", log: log2)
    releaseModelDefinition()
    return (words, found)
  }

  /// Builds the finite-state grammar of one rule and adds it as a search.
  /// With `build` false, only checks its words.
  private func addSearch(
    from grammar: OpaquePointer, rule: OpaquePointer, named name: String, path: String, build: Bool = true
  ) throws -> Set<String> {
    let (built, buildLog) = SphinxLog.capturing("building grammar \(path)") {
      jsgf_build_fsg(grammar, rule, logmath, Float(float("-lw")))
    }
    guard let fsg = built else {
      throw ConfigurationError(
        file: path,
        problem: PocketSphinxError.from("jsgf_build_fsg", log: buildLog, fallback: "cannot build the grammar").message)
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
      if !knows(word) && !missing.contains(word) { missing.append(word) }
    }
    if !missing.isEmpty {
      // A few of them: a dictionary that is not the grammar's lacks hundreds.
      let shown = 8
      let list = missing.prefix(shown).map { "'\($0)'" }.joined(separator: ", ")
      let more = missing.count > shown ? " and \(missing.count - shown) more" : ""
      let most = missing.count * 2 > words.count ? " (most of its words: is it the dictionary the grammar was written for?)" : ""
      throw ConfigurationError(
        file: path,
        problem: missing.count == 1
          ? "the word \(list) is not in the dictionary"
          : "the words \(list)\(more) are not in the dictionary\(most)")
    }
    if words.isEmpty {
      throw ConfigurationError(file: path, problem: "the grammar has no words")
    }
    guard build else { return words }
    // A search takes its beams from the decoder's options when it is made.
    let beams = searchBeams[name] ?? [:]
    let before = beams.keys.map { ($0, cmd_ln_float_r(config, $0)) }
    for (option, value) in beams { cmd_ln_set_float_r(config, option, value) }
    defer { for (option, value) in before { cmd_ln_set_float_r(config, option, value) } }
    let (status, setLog) = SphinxLog.capturing("setting grammar \(path)") { ps_set_fsg(handle, name, fsg) }
    if status < 0 {
      throw ConfigurationError(
        file: path,
        problem: PocketSphinxError.from("ps_set_fsg", log: setLog, fallback: "cannot use the grammar").message)
    }
    return words
  }

  /// The searches not built yet (built when first selected).
  var deferredSearchNames: Set<String> { Set(deferredSearches.keys) }

  /// Makes `name` the search for the next utterances. The corresponding C function is `ps_set_search`.
  func select(search name: String) throws {
    if let (grammar, rule, path) = deferredSearches.removeValue(forKey: name) {
      _ = try addSearch(from: grammar, rule: rule, named: name, path: path)
    }
    let (status, log) = SphinxLog.capturing("selecting search \(name)") { ps_set_search(handle, name) }
    try check(status, "ps_set_search", log: log)
  }

  // MARK: Warped front ends

  /// Front ends whose mel filterbank is warped, by their warp's sphinxbase options (type and
  /// parameters), each made the first time it is asked for.
  private var warpedFrontEnds: [SphinxWarp: OpaquePointer] = [:]

  /// A warp in sphinxbase's options: `-warp_type` and `-warp_params` (the factor or slope
  /// rounded as printed).
  struct SphinxWarp: Hashable {
    var type: String
    var parameters: String

    init(_ warp: VoiceWarp.FrontEndWarp) {
      switch warp {
      case .inverseLinear(let factor): (type, parameters) = ("inverse_linear", String(printf: "%.3f", factor))
      case .piecewiseLinear(let slope, let cutoff): (type, parameters) = ("piecewise_linear", String(printf: "%.5f %.0f", slope, cutoff))
      }
    }
  }

  /// Runs `body` with the utterances it starts heard through a front end warped by `warp`
  /// (vocal tract length normalization: a voice whose formants lie 19% higher than the model's
  /// people's is heard nearer theirs by 1.19; how sphinxbase warps: `VoiceWarp.FrontEndWarp`).
  /// An inverse linear warp's factor is rounded to thousandths, and 1 is the decoder's own
  /// front end. The corresponding C functions are `cmd_ln_set_str_r` and `fe_init_auto_r`.
  func withWarp<T>(_ warp: VoiceWarp.FrontEndWarp, _ body: () throws -> T) throws -> T {
    let sphinx = SphinxWarp(warp)
    guard sphinx != SphinxWarp(.inverseLinear(factor: 1)) else { return try body() }
    guard warp.factor.isFinite, (warp.factor * 1000).rounded() > 0 else {
      throw PocketSphinxError(function: "fe_init_auto_r", message: "a front end's warp factor must be above 0 (got \(warp.factor))")
    }
    let warped = try warpedFrontEnd(sphinx)
    guard let own = directme_swap_front_end(handle, warped) else {
      throw PocketSphinxError(function: "fe_init_auto_r", message: "cannot change this decoder's front end")
    }
    defer { _ = directme_swap_front_end(handle, own) }
    return try body()
  }

  /// The front end warped by `warp`, made from the decoder's options with the warp.
  private func warpedFrontEnd(_ warp: SphinxWarp) throws -> OpaquePointer {
    if let known = warpedFrontEnds[warp] { return known }
    let names = ["-warp_type", "-warp_params"]
    let before = names.map { cmd_ln_str_r(config, $0).map { String(cString: $0) } }
    let (frontEnd, log) = FrontEnds.makingWarped { lastParameters in
      // sphinxbase keeps each warp type's parameters in globals while it builds a filterbank,
      // and skips setting them when given the same text as the type's last (even after a
      // front end without one made it neutral): the text is never the last one given (a
      // space more, which sphinxbase's parsing passes over; a "0" more would be read as part
      // of the piecewise warp's cutoff).
      var parameters = warp.parameters
      while parameters == lastParameters[warp.type] { parameters += " " }
      lastParameters[warp.type] = parameters
      cmd_ln_set_str_r(config, "-warp_type", warp.type)
      cmd_ln_set_str_r(config, "-warp_params", parameters)
      return SphinxLog.capturing("making a warped front end") { fe_init_auto_r(config) }
    }
    for (name, value) in zip(names, before) {
      if let value { cmd_ln_set_str_r(config, name, value) } else { cmd_ln_set_str_r(config, name, nil) }
    }
    guard let frontEnd else {
      throw PocketSphinxError.from("fe_init_auto_r", log: log, fallback: "cannot make a front end warped by \(warp.type) \(warp.parameters)")
    }
    warpedFrontEnds[warp] = frontEnd
    return frontEnd
  }

  /// Decodes `samples` as a whole utterance and returns the best reading.
  func decodeWhole(_ samples: [Int16]) throws -> Transcription? {
    try startUtterance()
    try process(samples, wholeUtterance: true)
    try endUtterance()
    return bestTranscription()
  }

  // MARK: Senone scores

  /// Every senone's score in every frame of one utterance's audio, as pocketsphinx dumps them:
  /// decoding them with another search gives what decoding the audio would, without
  /// scoring the acoustic model again (with `-compallsen` and batch CMN the scores depend
  /// only on the audio).
  struct SenoneScores {
    fileprivate let dump: Dump
    /// The frames these scores hold.
    let frameCount: Int
    /// Where the dump's frames lie, when its layout is the one scoring every senone writes.
    fileprivate let layout: Layout?
    /// Whether these scores are a part of other scores (`frames`): parts are taken of a whole.
    let isPart: Bool
    /// Whether the dump lies in a block of `DumpBuffers` (it goes back there when freed).
    var inPooledBlock: Bool { dump.pooledCapacity != nil }

    /// Each frame's scores (for comparing two scorers), nil when the layout is not known.
    var frameScores: [[Int16]]? {
      guard let layout, let bytes = dump.bytes else { return nil }
      let raw = UnsafeRawPointer(bytes)
      return (0..<frameCount).map { frame in
        let start = layout.header + frame * layout.frameBytes + 2
        return (0..<(layout.frameBytes - 2) / 2).map { raw.loadUnaligned(fromByteOffset: start + 2 * $0, as: Int16.self) }
      }
    }

    /// A dump's header length and each frame's length in bytes.
    fileprivate struct Layout: Equatable {
      let header: Int
      let frameBytes: Int
    }

    fileprivate init(dump: Dump, decodedFrames: Int) {
      self.dump = dump
      isPart = false
      // The frames written, which can be one fewer than the decoder counted.
      if let bytes = dump.bytes, let layout = Self.wholeLayout(bytes, count: dump.count) {
        self.layout = layout
        frameCount = (dump.count - layout.header) / layout.frameBytes
      } else {
        layout = nil
        frameCount = decodedFrames
      }
    }

    private init(part dump: Dump, layout: Layout, frameCount: Int) {
      self.dump = dump
      self.layout = layout
      self.frameCount = frameCount
      isPart = true
    }

    /// Frames `range` of these scores (clamped to what there is), as a dump of their own (the
    /// header, then those frames; copied once, read by every search): decoding them is
    /// decoding that part of the audio as it sounded within the whole (its cepstral mean the
    /// whole's, its first and last frames' deltas taken across the cut). Nil for a part
    /// (parts are taken of a whole) or when the dump's layout is not the one scoring every
    /// senone writes.
    func frames(_ range: Range<Int>) -> SenoneScores? {
      guard let layout, !isPart, frameCount > 0, let bytes = dump.bytes else { return nil }
      let lower = max(0, min(range.lowerBound, frameCount - 1))
      let upper = max(lower + 1, min(range.upperBound, frameCount))
      let count = layout.header + (upper - lower) * layout.frameBytes
      guard let block = DumpBuffers.shared.take(count) else { return nil }
      let part = block.bytes
      part.update(from: bytes, count: layout.header)
      (part + layout.header).update(from: bytes + layout.header + lower * layout.frameBytes, count: count - layout.header)
      return SenoneScores(part: Dump(bytes: part, count: count, pooledCapacity: block.capacity), layout: layout, frameCount: upper - lower)
    }

    /// The layout of `count` bytes of a dump, when they are its header and whole frames.
    fileprivate static func wholeLayout(_ bytes: UnsafeMutablePointer<CChar>, count: Int) -> Layout? {
      guard let layout = layout(bytes, count: count), (count - layout.header) % layout.frameBytes == 0 else { return nil }
      return layout
    }

    /// The layout pocketsphinx writes: a header (`s3`, `name value` lines, `endhdr`, a
    /// 4-byte byte-order mark), then per frame the number of senones scored (16 bits) and,
    /// every senone being scored, a 16-bit score for each.
    private static func layout(_ bytes: UnsafeMutablePointer<CChar>, count: Int) -> Layout? {
      let text = UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: min(count, 4096))
      let end = Array("endhdr\n".utf8)
      guard text.count >= end.count,
        let at = (0...(text.count - end.count)).first(where: { text[$0..<$0 + end.count].elementsEqual(end) })
      else { return nil }
      let header = String(decoding: text[..<at], as: UTF8.self)
      guard let line = header.split(separator: "\n").first(where: { $0.hasPrefix("n_sen ") }),
        let senones = Int(line.dropFirst(6).trimmed()), senones > 0
      else { return nil }
      return Layout(header: at + end.count + 4, frameBytes: 2 + 2 * senones)
    }

    /// The dump's bytes, as `open_memstream` left them (about 1 MB a second of audio):
    /// searches read them in place, and the last reader frees them.
    fileprivate final class Dump {
      let bytes: UnsafeMutablePointer<CChar>?
      let count: Int
      /// The size of the block of `DumpBuffers` the bytes lie in (nil: allocated alone).
      let pooledCapacity: Int?
      init(bytes: UnsafeMutablePointer<CChar>?, count: Int, pooledCapacity: Int? = nil) {
        (self.bytes, self.count, self.pooledCapacity) = (bytes, count, pooledCapacity)
      }
      deinit {
        if let bytes, let pooledCapacity {
          DumpBuffers.shared.give(bytes, capacity: pooledCapacity)
        } else {
          free(bytes)
        }
      }
    }
  }

  /// Dumps are megabytes each and short-lived. glibc raises its mmap threshold to the
  /// largest block freed (up to 32 MB), after which such blocks come from the heap and a
  /// freed one stays resident: memory grew by 25 MB over a 5-minute session. A fixed
  /// threshold keeps blocks over 256 kB in their own mappings, returned when freed.
  ///
  /// The corresponding C function is `mallopt(M_MMAP_THRESHOLD)`.
  private static let fixedMmapThreshold: Void = { _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024) }()

  /// Whether this decoder can hand out its senone scores (see `directme_acmod`).
  private(set) lazy var canShareScores: Bool = directme_acmod(handle) != nil
  /// The layout of this decoder's dumps of senone scores, once one was written.
  private var dumpLayout: SenoneScores.Layout?
  /// Frames beyond the audio's own (a frame every 160 samples) that a kept block is sized
  /// for. (Tests make it negative: a dump that does not fit is written again the other way.)
  var dumpFrameAllowance = 8

  /// Decodes `samples` as a whole utterance, keeping its senone scores when the decoder
  /// can hand them out.
  ///
  /// The corresponding C functions are `acmod_set_senfh` (on an `open_memstream`) and those
  /// of `decodeWhole`.
  func decodeWholeKeepingScores(_ samples: [Int16]) throws -> (Transcription?, SenoneScores?) {
    guard canShareScores, let acmod = directme_acmod(handle) else { return (try decodeWhole(samples), nil) }
    Self.fixedMmapThreshold
    // Once a dump's layout is known, the next ones are written into a block of
    // `DumpBuffers` large enough for every frame the audio can give.
    // The dump may fill that size only, whatever the block given (a kept block can be larger):
    // whether it fits does not depend on which blocks other decoders gave back.
    if let layout = dumpLayout, case let allowed = layout.header + max(0, samples.count / 160 + dumpFrameAllowance) * layout.frameBytes,
      let block = DumpBuffers.shared.take(allowed)
    {
      let written: SenoneScores?
      do {
        written = try decodeWholeKeepingScores(samples, into: block, filling: allowed, layout: layout, acmod: acmod)
      } catch {
        DumpBuffers.shared.give(block.bytes, capacity: block.capacity)
        throw error
      }
      if let written { return (bestTranscription(), written) }
      DumpBuffers.shared.give(block.bytes, capacity: block.capacity)
    }
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { throw PocketSphinxError(function: "open_memstream", message: "cannot keep senone scores in memory") }
    var kept = false
    defer { if !kept { free(buffer) } }
    // Closing the stream finishes the buffer.
    try decodeWhole(samples, writingScoresTo: stream, acmod: acmod)
    kept = true
    let scores = SenoneScores(dump: SenoneScores.Dump(bytes: buffer, count: size), decodedFrames: Int(ps_get_n_frames(handle)))
    dumpLayout = scores.layout
    return (bestTranscription(), scores)
  }

  /// The dump of `samples`' senone scores written into the first `filling` bytes of `block`
  /// (whose bytes the scores then own), when it has `layout` and fits; nil otherwise (the
  /// block is left to the caller).
  ///
  /// The corresponding C function is `fopencookie` (`directme_byte_sink_open`): pocketsphinx
  /// closes the stream at the end of the utterance, and the sink counts what it wrote.
  private func decodeWholeKeepingScores(
    _ samples: [Int16], into block: (bytes: UnsafeMutablePointer<CChar>, capacity: Int), filling: Int,
    layout: SenoneScores.Layout, acmod: UnsafeMutableRawPointer
  ) throws -> SenoneScores? {
    guard let sink = directme_byte_sink_create(block.bytes, filling) else { return nil }
    defer { directme_byte_sink_free(sink) }
    guard let stream = directme_byte_sink_open(sink) else { return nil }
    try decodeWhole(samples, writingScoresTo: stream, acmod: acmod)
    let count = directme_byte_sink_count(sink)
    // A block too small dropped the rest of the scores: written again the other way.
    guard directme_byte_sink_overflowed(sink) == 0, count > layout.header,
      SenoneScores.wholeLayout(block.bytes, count: count) == layout
    else { return nil }
    return SenoneScores(
      dump: SenoneScores.Dump(bytes: block.bytes, count: count, pooledCapacity: block.capacity),
      decodedFrames: Int(ps_get_n_frames(handle)))
  }

  /// Decodes `samples` as a whole utterance, pocketsphinx writing every frame's senone
  /// scores to `stream`: it takes the stream and closes it at the end of the utterance (or
  /// here, on the way out).
  ///
  /// The corresponding C function is `acmod_set_senfh`.
  private func decodeWhole(_ samples: [Int16], writingScoresTo stream: UnsafeMutablePointer<FILE>, acmod: UnsafeMutableRawPointer) throws {
    do {
      try startUtterance()
    } catch {
      fclose(stream)
      throw error
    }
    guard acmod_set_senfh(acmod, stream) >= 0 else {
      _ = acmod_set_senfh(acmod, nil)
      try? endUtterance()
      throw PocketSphinxError(function: "acmod_set_senfh", message: "cannot write senone scores")
    }
    defer { _ = acmod_set_senfh(acmod, nil) }
    try process(samples, wholeUtterance: true)
    try endUtterance()
  }

  /// Decodes an utterance from its senone scores with the selected search.
  ///
  /// The corresponding C functions are `ps_start_stream`, `fmemopen` and `ps_decode_senscr`.
  func decode(_ scores: SenoneScores) throws -> Transcription? {
    guard let acmod = directme_acmod(handle) else { throw PocketSphinxError(function: "ps_decode_senscr", message: "cannot read senone scores") }
    // A whole-utterance decode longer than the feature buffer grows the buffer but not the
    // frame positions that reading scores writes to (pocketsphinx 5prealpha): size both.
    acmod_grow_feat_buf(acmod, Int32(max(scores.frameCount + 1, 256)))
    let (stream, streamLog) = SphinxLog.capturing("starting a stream") { ps_start_stream(handle) }
    try check(stream, "ps_start_stream", log: streamLog)
    let dump = scores.dump
    let (status, log) = SphinxLog.capturing("decoding senone scores") { () -> Int32 in
      // Opened for reading only: the bytes are not written.
      guard let bytes = dump.bytes, let file = fmemopen(bytes, dump.count, "rb") else { return -1 }
      defer { fclose(file) }
      return ps_decode_senscr(handle, file)
    }
    try check(status, "ps_decode_senscr", log: log)
    return bestTranscription()
  }

  /// "line 3: JSGF syntax error near ..." from the JSGF parser's log.
  static func describeSyntaxError(_ log: [String]) -> String {
    let errors = log.map(SphinxLog.clean)
    guard let first = errors.first else { return "cannot parse the grammar (JSGF syntax error)" }
    if let range = first.firstRange(of: "line ") {
      let digits = first[range.upperBound...].prefix { $0.isNumber }
      if !digits.isEmpty {
        let token = first.firstRange(of: "token").map { " near" + first[$0.upperBound...] } ?? ""
        return "line \(digits): JSGF syntax error\(token)"
      }
    }
    return "JSGF error: \(first)"
  }
}

/// Calls `body` with a C `argv` for `strings`, valid only inside it.
func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
  var pointers = strings.map { strdup($0) }
  defer { pointers.forEach { free($0) } }
  return pointers.withUnsafeMutableBufferPointer { body($0) }
}

/// Blocks of memory for dumps of senone scores (about 1 MB a second of audio, several an
/// utterance), kept for the next ones once freed, up to `limit` bytes in all: each block the
/// system maps afresh costs a page fault per 4 kB written (a 5-minute recording's replay:
/// 125,000 page faults and 0.37 s of system time with fresh blocks, 23,000 and 0.08 s with
/// kept ones). A block is taken for the smallest kept one that holds the bytes asked for.
final class DumpBuffers: Sendable {
  static let shared = DumpBuffers()
  init() {}
  /// The bytes kept at most: 4 MB gives nearly all the reuse 8 MB gives (that replay's page
  /// faults 23,000 against 20,000) for half the memory.
  static let limit = 4 << 20
  /// Blocks are allocated in multiples of this (so that one serves many sizes).
  static let granule = 64 << 10

  private struct Block: @unchecked Sendable {
    var bytes: UnsafeMutablePointer<CChar>
    var capacity: Int
  }
  private let kept = Mutex<[Block]>([])

  /// A block of at least `count` bytes (a kept one, else a new one; nil when there is no
  /// memory for it).
  func take(_ count: Int) -> (bytes: UnsafeMutablePointer<CChar>, capacity: Int)? {
    let reused = kept.withLock { blocks -> Block? in
      guard let best = blocks.indices.filter({ blocks[$0].capacity >= count }).min(by: { blocks[$0].capacity < blocks[$1].capacity })
      else { return nil }
      return blocks.remove(at: best)
    }
    if let reused { return (reused.bytes, reused.capacity) }
    let capacity = (max(count, 1) + Self.granule - 1) / Self.granule * Self.granule
    guard let bytes = malloc(capacity)?.assumingMemoryBound(to: CChar.self) else { return nil }
    return (bytes, capacity)
  }

  /// Gives a block back: kept while the blocks kept stay within `limit`, else freed.
  func give(_ bytes: UnsafeMutablePointer<CChar>, capacity: Int) {
    let keep = kept.withLock { blocks -> Bool in
      guard blocks.reduce(0, { $0 + $1.capacity }) + capacity <= Self.limit else { return false }
      blocks.append(Block(bytes: bytes, capacity: capacity))
      return true
    }
    if !keep { free(bytes) }
  }

  /// The bytes kept now.
  var keptBytes: Int { kept.withLock { $0.reduce(0) { $0 + $1.capacity } } }
}

/// sphinxbase's front ends read their frequency warp from globals while they are made
/// (`fe_warp_inverse_linear.c`): a front end made with a warp must not be made while another
/// is (one without a warp sets them neutral). Front ends without a warp (every decoder's, the
/// voice features') are made side by side; one with a warp, alone.
enum FrontEnds {
  nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
    let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    pthread_rwlock_init(lock, nil)
    return lock
  }()
  /// The warp text given last to each warp type (see `Decoder.warpedFrontEnd`); read and
  /// written under the lock.
  nonisolated(unsafe) private static var lastParameters: [String: String] = [:]

  /// Runs `body`, which makes front ends without a warp (`ps_init`, `fe_init_auto_r`).
  static func making<T>(_ body: () throws -> T) rethrows -> T {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body()
  }

  /// Runs `body`, which makes one front end with a warp, alone; it is given the warp text
  /// given last to each warp type, to change.
  static func makingWarped<T>(_ body: (inout [String: String]) throws -> T) rethrows -> T {
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body(&lastParameters)
  }
}
