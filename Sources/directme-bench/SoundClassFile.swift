import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeCommandLine
import DirectMeCore
import DirectMeRecognizer
import DirectMeTraining
import DirectMeSystem
import Foundation

/// Writes sound-class.json: speech against other sounds (see `SoundClass`).
struct SoundClassFile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sound-class",
    abstract: "Write sound-class.json: two mixtures of Gaussians, people's speech and other sounds, that tell a command word from a sound.",
    discussion: """
      Reads the loud frames (within 15 dB of each recording's loudest) of the speech recordings \
      (--speech: each as it is, twice changed by turns (its pitch and formants 600, 400 or 800 \
      cents up or 400 down, or through 8 kHz), and once with one of --noise's recordings mixed \
      in) and of \
      the sound recordings (--sounds), fits a mixture to each (standardized by the speech's mean \
      and spread), and writes them. With --check and --detector, replays --check's recordings \
      of one command through --model with the detector (its speech bounds left out) and sets \
      the gate's minimumSpeechLikeness to the likeness under which --refuse of the command words \
      it takes lie (in utterances ranging 20 dB or more, as the gate asks), and each \
      --refuse-word word's own bound (minimumSpeechLikenessByWord) likewise from that word's.
      """
  )

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Labels files (or folders holding one) of people's speech.", valueName: "labels"))
  var speech: [String]

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Labels files (or folders holding one) of sounds that are not speech.", valueName: "labels"))
  var sounds: [String]

  @Option(help: ArgumentHelp("Where to write the file.", valueName: "file"))
  var out: String

  @Option(help: ArgumentHelp("A folder of noise recordings: each speech recording is also read with one of them mixed in.", valueName: "folder"))
  var noise: String?

  @Option(help: ArgumentHelp("The SNR range of the noisy copies, in dB.", valueName: "low:high"))
  var snr = SNRRange(argument: "5:20")!

  @Option(help: "Gaussians per mixture.")
  var components = 32

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Labels files of other speakers' recordings, whose commands set the detector's bound.", valueName: "labels"))
  var check: [String] = []

  @Option(help: ArgumentHelp("The detector file whose gate gets the bound (with --check).", valueName: "file"))
  var detector: String?

  @Option(help: ArgumentHelp("The acoustic model folder that replays --check's recordings (default: --detector's folder).", valueName: "folder"))
  var model: String?

  @Option(help: "The share of --check's commands the bound refuses.")
  var refuse = 0.01

  @Option(
    name: .customLong("refuse-word"),
    help: ArgumentHelp(
      "A command word whose bound is set apart, under which this share of --check's recordings of that word alone lie (gate.minimumSpeechLikenessByWord; repeat for more words).",
      valueName: "word=share"))
  var refuseWord: [String] = []

  @Option(help: "Seed of the noisy copies and the mixtures' start.")
  var seed: UInt64 = 5

  func validate() throws {
    guard components >= 1 else { throw ValidationError("--components must be 1 or more") }
    guard refuse > 0, refuse < 1 else { throw ValidationError("--refuse must lie between 0 and 1") }
    guard (detector == nil) == check.isEmpty else { throw ValidationError("--check and --detector go together") }
    _ = try wordShares()
  }

  /// `--refuse-word`'s words and shares.
  func wordShares() throws -> [(word: Direction, share: Double)] {
    try refuseWord.map { argument in
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let word = Direction(rawValue: parts[0]), let share = Double(parts[1]), share > 0, share < 1
      else {
        throw ValidationError("--refuse-word \(argument): expected word=share, the word a command (up, down, left, right), the share between 0 and 1")
      }
      guard !check.isEmpty else { throw ValidationError("--refuse-word needs --check and --detector") }
      return (word, share)
    }
  }

  func run() throws {
    try reportingErrors {
      // The check's replay is set up first: a --model or --detector it cannot use stops the run
      // before the minutes of reading and fitting (make-model.sh's step 8 stopped after them,
      // with sound-class.json written, when its model's routed models were missing; stop 97).
      let checking = try detector.map { detector in
        try Self.CheckReplay(
          recordings: Self.recordings(check), detector: detector,
          model: model ?? URL(fileURLWithPath: detector).deletingLastPathComponent().path)
      }
      let noises = try noise.map { try ModelAdapter.loadNoises($0) } ?? []
      var random = Signal.Random(seed: seed)
      let speechRecordings = try Self.recordings(speech)
      let soundRecordings = try Self.recordings(sounds)
      var speechFrames: [[Double]] = []
      // Children's voices and deep ones, and a telephone's.
      let changes: [([Int16]) -> [Int16]] = [
        { Self.shifted($0, cents: 600) }, { Self.shifted($0, cents: -400) }, { Self.shifted($0, cents: 800) },
        { Self.narrowband($0) }, { Self.shifted($0, cents: 400) },
      ]
      let progress = ProgressBar(total: speechRecordings.count + soundRecordings.count, label: "reading")
      for (index, recording) in speechRecordings.enumerated() {
        let samples = try Self.read(recording.path)
        speechFrames += Self.loudFrames(samples)
        speechFrames += Self.loudFrames(changes[index % changes.count](samples))
        speechFrames += Self.loudFrames(changes[(index + 2) % changes.count](samples))
        if !noises.isEmpty {
          speechFrames += Self.loudFrames(Signal.mixedWithOne(of: noises, samples, snr: snr.range, random: &random).samples)
        }
        progress.update(index + 1)
      }
      var soundFrames: [[Double]] = []
      for (index, recording) in soundRecordings.enumerated() {
        soundFrames += Self.loudFrames(try Self.read(recording.path))
        progress.update(speechRecordings.count + index + 1)
      }
      progress.finish()
      guard speechFrames.count >= 10 * components, soundFrames.count >= 10 * components else {
        throw Failure("too little audio: \(speechFrames.count) speech frames and \(soundFrames.count) sound frames, \(10 * components) of each needed")
      }
      let dimensions = SoundClass.dimensions
      let center = (0..<dimensions).map { (j: Int) -> Double in
        var sum = 0.0
        for frame in speechFrames { sum += frame[j] }
        return sum / Double(speechFrames.count)
      }
      let scale = (0..<dimensions).map { (j: Int) -> Double in
        var sum = 0.0
        for frame in speechFrames { sum += (frame[j] - center[j]) * (frame[j] - center[j]) }
        return (sum / Double(speechFrames.count)).squareRoot()
      }
      let standardize = { (frame: [Double]) in frame.indices.map { (frame[$0] - center[$0]) / scale[$0] } }
      var fitter = MixtureFitter()
      fitter.components = components
      fitter.seed = seed
      print("fitting speech (\(speechFrames.count) frames of \(speechRecordings.count) recordings) and sounds (\(soundFrames.count) of \(soundRecordings.count))")
      let speechMixture = fitter.fit(speechFrames.map(standardize), dimensions: dimensions)
      let soundsMixture = fitter.fit(soundFrames.map(standardize), dimensions: dimensions)
      let soundClass = SoundClass(
        center: center, scale: scale, speech: speechMixture, sounds: soundsMixture,
        notes: [
          "made by": "directme-bench sound-class --speech \(speech.map { ($0 as NSString).lastPathComponent }.joined(separator: " ")) --sounds "
            + sounds.map { ($0 as NSString).lastPathComponent }.joined(separator: " ")
            + (noise.map { " --noise \(($0 as NSString).lastPathComponent) --snr \(snr.defaultValueDescription)" } ?? "")
            + " --components \(components) --seed \(seed)",
          "speech": "\(speechRecordings.count) recordings, \(speechFrames.count) loud frames with their changed and noisy copies",
          "sounds": "\(soundRecordings.count) recordings, \(soundFrames.count) loud frames",
        ])
      try soundClass.json().write(to: URL(fileURLWithPath: out), options: .atomic)
      print("\(out): written")
      guard let detector, let checking else { return }
      let likenesses = try checking.takenLikenesses(soundClass: soundClass)
      guard !likenesses.isEmpty else {
        throw Failure("\(check.joined(separator: ", ")): no command taken from a recording of one command ranging \(Detector.Gate.speechLikenessRange.formatted(digits: 0)) dB or more")
      }
      var settings = try Detector.load(detector)
      let all = likenesses.map(\.likeness)
      let bound = Self.bound(all, refusing: refuse)
      settings.gate.minimumSpeechLikeness = bound
      print("\(detector): minimumSpeechLikeness \(bound) (refuses \(all.filter { $0 < bound }.count) of \(all.count) commands)")
      var byWord: [String: Double] = [:]
      for (word, share) in try wordShares() {
        let own = likenesses.filter { $0.word == word }.map(\.likeness)
        guard !own.isEmpty else { throw Failure("\(check.joined(separator: ", ")): no \(word) taken from a recording of it alone") }
        let wordBound = Self.bound(own, refusing: share)
        byWord[word.rawValue] = wordBound
        print("\(detector): minimumSpeechLikenessByWord \(word) \(wordBound) (refuses \(own.filter { $0 < wordBound }.count) of \(own.count) \(word)s)")
      }
      settings.gate.minimumSpeechLikenessByWord = byWord.isEmpty ? nil : byWord
      try settings.json().write(to: URL(fileURLWithPath: detector), options: .atomic)
    }
  }

  /// The recordings of one command that set the bounds, replayed through `model` with
  /// `detector`, its speech bounds left out.
  struct CheckReplay {
    let singles: [LabelledAudio]
    let interpreter: Interpreter
    let recognizers: [PocketSphinxRecognizer]

    init(recordings: [LabelledAudio], detector: String, model folder: String) throws {
      singles = recordings.filter { $0.expected.count == 1 }
      let options = try RecognizerOptions.parse(["--model", folder, "--detector", detector, "--no-personal-model"])
      var settings = try options.loadDetector()
      settings.gate.minimumSpeechLikeness = nil
      settings.gate.minimumSpeechLikenessByWord = nil
      interpreter = Interpreter(
        settings: InterpreterSettings(detector: settings, otherVoices: try Detector.otherVoices(ofModel: folder)))
      recognizers = try options.makeRecognizers(max(1, min(4, ProcessInfo.processInfo.activeProcessorCount, singles.count)))
    }

    /// The likeness (by `soundClass`) of each command word the detector takes from a recording
    /// of that one command, as the gate weighs it (in an utterance ranging `speechLikenessRange`
    /// or more). A bound on these refuses its share of the commands that would otherwise move the
    /// ninja. (Whole recordings, as stop 93 measured them, run lower: its bound at 1% of them,
    /// -1.21, lies near 0.5% of the commands taken, -1.36.)
    func takenLikenesses(soundClass: SoundClass) throws -> [(word: Direction, likeness: Double)] {
      // Locals: the concurrent loop below captures them, not self.
      let (singles, interpreter, recognizers) = (self.singles, self.interpreter, self.recognizers)
      for recognizer in recognizers { recognizer.soundClass = soundClass }
      let progress = ProgressBar(total: singles.count, label: "checking")
      let outcomes = Striped.map(count: singles.count, workers: recognizers, { recognizer, index in
        let recording = singles[index]
        var taken: [(word: Direction, likeness: Double)] = []
        let (result, _) = try replayFile(recording.path, recognizer: recognizer, interpreter: interpreter)
          .mapError { Failure("\(recording.path): \($0)") }.get()
        for utterance in result.utterances
        where (utterance.result.signal?.dynamicRange ?? .infinity) + 1e-9 >= Detector.Gate.speechLikenessRange {
          let acted = Set(utterance.interpretation.instructions.map(\.direction))
          for segment in utterance.result.commandsReading?.segments ?? [] {
            guard let word = Direction(rawValue: segment.word), word == recording.expected[0], acted.contains(word),
              let likeness = segment.speechLikeness
            else { continue }
            taken.append((word, likeness))
          }
        }
        return taken
      }) { _, _, done in
        progress.update(done)
        return true
      }
      progress.finish()
      // Every recording is checked; the failures are named together.
      let failures = outcomes.compactMap { outcome -> String? in
        guard case .failure(let error) = outcome else { return nil }
        return "\(error)"
      }
      if !failures.isEmpty { throw Failure(failures[0] + (failures.count > 1 ? " (and \(failures.count - 1) more)" : "")) }
      return outcomes.flatMap { (try? $0?.get()) ?? [] }
    }
  }

  /// The likeness (rounded down to hundredths) under which `share` of `likenesses` lie.
  static func bound(_ likenesses: [Double], refusing share: Double) -> Double {
    let sorted = likenesses.sorted()
    return (sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))] * 100).rounded(.down) / 100
  }

  static func recordings(_ labels: [String]) throws -> [LabelledAudio] {
    let (read, problems) = try LabelledAudioReader.read(labels)
    for problem in problems { warn("sound-class: \(problem)") }
    guard !read.isEmpty else { throw Failure("\(labels.joined(separator: ", ")): no recordings") }
    return read
  }

  static func read(_ path: String) throws -> [Int16] {
    do { return try AudioFileSource.readAll(path: path) } catch { throw Failure("\(path): \(error)") }
  }

  static func loudFrames(_ samples: [Int16]) -> [[Double]] {
    SoundClass.loudFeatures(samples, from: 0, to: samples.count, span: SoundClass.loudSpanDefault)
  }

  /// Pitch and formants moved by `cents`, as a tape played faster or slower.
  static func shifted(_ samples: [Int16], cents: Double) -> [Int16] {
    let rate = Int((16_000 * pow(2, cents / 1200)).rounded())
    return Self.converted(Resampler.resample(samples.map { Float($0) }, from: rate, to: 16_000))
  }

  /// Through an 8 kHz link: nothing above 4 kHz.
  static func narrowband(_ samples: [Int16]) -> [Int16] {
    let floats = samples.map { Float($0) }
    return Self.converted(Resampler.resample(Resampler.resample(floats, from: 16_000, to: 8_000), from: 8_000, to: 16_000))
  }

  static func converted(_ floats: [Float]) -> [Int16] {
    floats.map { Int16(max(-32768, min(32767, $0.rounded()))) }
  }
}
