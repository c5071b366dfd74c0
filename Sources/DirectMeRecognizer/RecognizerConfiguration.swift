import CPocketSphinx
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Where the recognizer's model, dictionary and grammar come from, and how it decodes.
public struct RecognizerConfiguration: Hashable, Sendable {
  /// Debian's US English model (package `pocketsphinx-en-us`).
  public static let defaultModelFolder = "/usr/share/pocketsphinx/model/en-us"

  /// How the final result of an utterance is decoded.
  public enum FinalPass: String, Hashable, Sendable, CaseIterable {
    /// The streaming decode's own result (cepstral mean carried over from earlier speech),
    /// of the same search as with the final pass (`<commands>` when the grammar has it, which
    /// hears commands in any speech): the streaming pass's cost alone, for measuring what the
    /// final pass costs (`replay --streaming-only`), not a way to decide.
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
  /// not heard as more commands; the beams are wide enough that a path survives wherever a
  /// command may be (see `-wbeam` below).
  /// (Chosen on the training set's speakers: `-wip 1e-5` found one command word in 92% of
  /// clips against 67% with the defaults, but dropped short words from sequences (36.7% of
  /// sequences right); `1e-3` keeps them (73.3%) and tunes to 87.5% right at 4.9% false
  /// alarms on the tuning speakers, against 84.9% at 5.0%.) Left at pocketsphinx's defaults,
  /// measured 2026-11-27 (`directme-bench accuracy`, `directme replay` of a 5.1-minute
  /// recording): `-ds 2` (codebooks scored every other frame) checking speakers 92.4% / 4.3%
  /// -> 89.6% / 5.3% for a replay at most 5% faster (6.60-6.70 s against 6.69-7.06 s), `-topn
  /// 2` (two codewords per codebook) -> 90.4% / 5.1%, no faster (6.92-7.05 s); `-topn 8`
  /// (2026-12-02, the train, dev and noise parts, 4,268 items): 60 items gained, 80 lost
  /// (checking speakers 97.1 -> 96.3% of items, babble 10 / 5 dB 66.3 / 59.0 -> 69.1 / 56.7%,
  /// other words in noise moving the ninja 10.1 -> 12.8%), and the 5.1-minute recording's
  /// replay 6.8 -> 12.9 s (its scorer takes four codewords; others fall back to pocketsphinx's
  /// own scoring). Word exits
  /// within 1e-40 of the frame's best (`-wbeam`; 1e-60 before): with ~325 other words in
  /// parallel each frame's word exits, their history entries and grammar transitions were a
  /// quarter of a replay's time, and the best paths lie far inside that beam: of the 8,341
  /// items of `directme-bench accuracy`, 6 decided otherwise (5 false alarms fewer, 1 more; no
  /// command lost; 60 more items, all refused before and after, are now read as no command at
  /// all, the commands search left without a path: "go" had been "go down" at confidence
  /// 0.00), the 5.1-minute recording's results byte-identical, decoded in 6.27 s
  /// instead of 6.98 (medians of three; 1e-30 changed how its commands were read).
  /// At most 2,000 HMMs active in a frame (`-maxhmmpf`; pocketsphinx narrows the beam in a
  /// frame that would keep more): the several-words search, 325 words in a loop, is the one
  /// that reaches it. Measured 2026-12-01 (`directme-bench accuracy`, 11,197 items; `directme-
  /// bench live`, medians of five): every item acted on as without the bound (49 of their
  /// readings' margins moved, all far under where the detector takes a word), the 5.1-minute
  /// recording's results byte-identical, its replay 6.06 s -> 5.77 s (5.2x -> 4.9x the stock
  /// four-word decoder's time). 1,500: 5.5 s, 2 synthetic "the brown town"s moved the ninja;
  /// 800: 5.2 s, the recording read otherwise.
  public var finalDecoderOptions: [String: String] = [
    "-compallsen": "yes", "-wip": "1e-3", "-silprob": "0.5", "-fillprob": "0.5",
    "-beam": "1e-80", "-pbeam": "1e-80", "-wbeam": "1e-40", "-maxhmmpf": "2000",
  ]
  /// Beams of the final pass's several-other-words search (`<garbage_words>`, the costliest:
  /// 325 words in a loop, each word's first phone in every left context), narrower than the
  /// other searches': its reading only has to beat one other word by a penalty, and what
  /// a narrower beam prunes are paths far under that. Measured 2026-11-29 (`directme-bench
  /// accuracy`, 9,143 items; `directme replay` of the 5.1-minute recording): at beams 1e-40 /
  /// word exits 1e-30 every item decided as with the decoder's 1e-80 / 1e-40, the
  /// recording's results byte-identical and its several-words searches 1.6 s -> 0.6 s.
  /// Narrower still, 1e-32 / 1e-26 (2026-12-04, stop 105): all 17,576 items of `directme-bench
  /// accuracy` and every held-out line decided the same and the recording's searches 0.97 ->
  /// 0.63 s (its replay 5.28 -> 5.03 s), but a recognizer test's espeak en-029 "play some
  /// music", heard as "please move it", then moved the ninja right: not used.
  /// (Not for the one-other-word searches, `<garbage>` and `<carried_garbage>`: at 1e-50 /
  /// 1e-40 they took 1.7 s of the recording's 2.3 s, but 24 of the 9,540 items moved the ninja
  /// where they had not, and no item gained: a pruned other-words reading is a worse one.)
  public var severalWordsBeams: [String: Double] = ["-beam": 1e-40, "-pbeam": 1e-40, "-wbeam": 1e-30]
  /// Options of the streaming decoder, which gives partial results. Its reading decides when
  /// an early decision is tried (a direction last, then a short pause), so a cheaper one costs
  /// reaction. Measured 2026-12-06 (stop 118, `directme replay` of the 5.1-minute recording;
  /// `directme-bench live --no-live`): `-ds 2` replayed it in 5.7-5.8 s against 6.2 s (the same
  /// instructions, three emitted later or together) but real people's sequences' p95 went
  /// 197 -> 430 ms and synthetic voices' 260 -> 543 ms; `-topn 2` (5.6 s): 190 and 543 ms;
  /// `-topn 3`: 190 and 756 ms; `-maxhmmpf 500`: every line the same, no faster beyond the
  /// machine's noise. Not used.
  public var streamingDecoderOptions: [String: String] = ["-maxhmmpf": "1000"]
  /// The grammar's words that are commands.
  public var commandWords: Set<String>
  /// A second model the final pass asks about command words whose margin lies in their
  /// range of `asked` (nil: none; see `Detector.SecondOpinion`).
  public var secondOpinion: SecondOpinionRequest?
  /// With a personal model's voice check: what the model for other voices asks about their
  /// utterances (its own detector's `secondOpinion`).
  public var otherVoicesSecondOpinion: SecondOpinionRequest?
  /// Every utterance (not routed to another model) is heard by the final pass through a front
  /// end warped by this factor (sphinxbase's inverse linear warp), whatever its voice: how
  /// `personalize` tries warps for the voice it enrolls (nil: each utterance's own, as the
  /// model's `VoiceWarp` and a personal model's `VoiceProfile.warp` choose).
  public var everyUtteranceWarp: Double?
  /// Every second opinion the final pass may ask (each model to validate and load).
  public var secondOpinions: [SecondOpinionRequest] { [secondOpinion, otherVoicesSecondOpinion].compactMap { $0 } }
  /// By command word, the margin below which the detector takes it in no way (not even beside
  /// another command): a slot's command word below it whose time spans two sounds or more
  /// parted by pauses has each of them checked on its own (see `PocketSphinxRecognizer.verify`).
  /// A word without one uses `defaultPartingMargin`.
  public var partingMargins: [String: Double] = [:]
  /// Without a detector's margins (tuning, where the detector is being learned). Chosen when
  /// below it the shipped detector took no command word (stop 54's counted from -31 for
  /// "down", -52 for "up" and "left", -58 for "right"; today's takes "up" from -70 beside
  /// another command, "down" from -31, "left" from -45, "right" from -61).
  public static let defaultPartingMargin = -60.0

  /// See `partingMargins`.
  public func partingMargin(of word: String) -> Double { partingMargins[word] ?? Self.defaultPartingMargin }

  public struct SecondOpinionRequest: Hashable, Sendable {
    /// The model's folder.
    public var model: String
    /// By command word, the margins at which it is asked.
    public var asked: [String: Range<Double>]
    public init(model: String, asked: [String: Range<Double>]) {
      self.model = model
      self.asked = asked
    }
  }
  /// Cleans steady background noise out of an utterance before the final pass decodes it
  /// (nil: the decoder hears the audio as it came).
  public var denoiser: Denoiser? = Denoiser()
  /// Turns the quieter part of a noisy utterance further down (after the denoiser) before the
  /// final pass decodes it, so the voices and noise around a command drop towards silence
  /// (nil: not turned down; see `Expander`).
  public var expander: Expander? = Expander()
  /// Takes a mains hum (50 or 60 Hz and the harmonics that stand out) out of an utterance
  /// before the final pass decodes and routes it, when it has one: fitted and subtracted,
  /// not notched (see `MainsHum`).
  public var removesHum = true
  /// Whether the model's word verifier (`verifier.json`, `WordVerifier`) weighs command words;
  /// off while one is being learned, so that what it learns from does not depend on it.
  public var usesWordVerifier = true

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
    // DirectMe's shipped model reads the model definition from the model it was adapted from.
    if !FileManager.default.fileExists(atPath: acousticModel + "/mdef"),
      let definition = AcousticModelFiles.path(of: "mdef", in: acousticModel)
    {
      options["-mdef"] = definition
    }
    options.merge(extra) { _, new in new }
    options.merge(decoderOptions) { _, new in new }
    return options.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
  }

  /// The first command word (`commandWords`) of a reading; nil when it holds none.
  func firstCommand(in reading: Transcription?) -> WordSegment? {
    reading?.segments.first { commandWords.contains($0.word) }
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
