import DirectMeAudio
import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

let grammar = TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path
let modelAvailable = FileManager.default.fileExists(
  atPath: RecognizerConfiguration.defaultModelFolder + "/en-us/mdef")
let voices: [TestSupport.Voice] = [
  .init(.flite, "slt"), .init(.flite, "rms"), .init(.flite, "kal16"), .init(.flite, "awb"),
]
let canSpeak = voices.allSatisfy(\.isAvailable)

/// The app's defaults: the shipped model and its detector.
let shippedModel = TestSupport.shippedModel.path
let shippedDetector = try? Detector.load(TestSupport.shippedModel.appendingPathComponent("detector.json").path)
func shippedConfiguration() -> RecognizerConfiguration {
  RecognizerConfiguration(acousticModel: shippedModel, grammar: grammar)
}

/// A final pass's decoder, of the shipped model or `model`, with the test grammar's three searches.
func finalDecoder(model: String = shippedModel) throws -> Decoder {
  var configuration = shippedConfiguration()
  configuration.acousticModel = model
  let decoder = try PocketSphinxRecognizer.makeDecoder(configuration, extra: configuration.finalDecoderOptions)
  try decoder.setGrammar(grammar, named: "directme", rules: ["commands", "direction", "garbage"])
  return decoder
}

/// Runs `file` through the same streaming pipeline as the microphone, deciding with the
/// shipped detector.
func directions(in file: URL, recognizer: PocketSphinxRecognizer) throws -> StreamResult {
  let source = try AudioFileSource(path: file.path)
  recognizer.resetAdaptation()
  let interpreter = Interpreter(settings: InterpreterSettings(detector: shippedDetector ?? .untrained))
  return try CommandListener(recognizer: recognizer, interpreter: interpreter).run(next: source.next)
}

@Suite(
  "Recognizer on synthetic speech", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: shippedDetector != nil, "needs the shipped model's detector.json (scripts/make-model.sh)"),
  .enabled(if: canSpeak, "needs flite and sox (scripts/setup.sh)"))
struct RecognizerSpeechTests {
  static let commands: [(String, [Direction])] = [
    ("up", [.up]), ("down", [.down]), ("left", [.left]), ("right", [.right]),
    ("move left", [.left]), ("go up now", [.up]), ("please move the ninja down", [.down]),
    ("down. down. right.", [.down, .down, .right]),
  ]

  @Test("commands said by four voices become the right directions")
  func commandsByVoice() throws {
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("speech")
    defer { try? FileManager.default.removeItem(at: folder) }
    var right = 0
    var total = 0
    var misses: [String] = []
    for voice in voices {
      for (index, (text, expected)) in Self.commands.enumerated() {
        let file = folder.appendingPathComponent("\(voice.name)-\(index).wav")
        try TestSupport.speak(text, voice: voice, to: file)
        let result = try directions(in: file, recognizer: recognizer)
        total += 1
        if result.directions == expected {
          right += 1
        } else {
          misses.append("\(voice) \"\(text)\": heard \(result.utterances.map(\.result.bestTranscription.formattedString))")
        }
        // Word times are in the stream, in order, inside their utterance.
        for utterance in result.utterances {
          let words = utterance.result.bestTranscription.segments
          #expect(zip(words, words.dropFirst()).allSatisfy { $0.start <= $1.start })
          #expect(words.allSatisfy { $0.start >= utterance.result.start - 0.011 && $0.end <= utterance.result.end + 0.011 })
        }
        // What an early decision acted on is not read again: the result after it holds only
        // words (most of whose time is) after it.
        for (early, rest) in zip(result.utterances, result.utterances.dropFirst()) where early.isEarly {
          let words = rest.result.bestTranscription.segments.filter { !$0.isFiller }
          #expect(
            words.allSatisfy { ($0.start + $0.end) / 2 >= early.emittedAt - 1e-6 },
            "\(voice) \"\(text)\": \(words.map { "\($0.word) \($0.start)-\($0.end)" }) after \(early.emittedAt)")
        }
      }
    }
    let accuracy = Double(right) / Double(total)
    // The shipped detector is tuned on real speakers; flite's diphone voices awb and kal16
    // say "down" in a way the adapted model reads as "done" or "got" (their single "down"
    // and most phrases holding it fail): about 25 of 32 with the model of 2026-11-23. The
    // synthetic target (95%) is tracked by `directme-bench accuracy --only synthetic`.
    #expect(accuracy >= 0.75, "\(right)/\(total) right; misses: \(misses.joined(separator: "; "))")
  }

  @Test("a sound card's DC offset changes nothing: the commands come through as without it")
  func offsetIsTakenOut() throws {
    // A tenth of full scale under every sample held the utterance's loud part within a few dB
    // of its background, and the gate refused most commands as holding no voice.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("offset")
    defer { try? FileManager.default.removeItem(at: folder) }
    var clean: [[Direction]] = []
    var offset: [[Direction]] = []
    for (index, (text, _)) in Self.commands.prefix(4).enumerated() {
      let file = folder.appendingPathComponent("\(index).wav")
      try TestSupport.speak(text, voice: voices[0], to: file)
      clean.append(try directions(in: file, recognizer: recognizer).directions)
      // The level lowered first, so that nothing clips.
      let shifted = try AudioFileSource.readAll(path: file.path).map { Int16(clamping: Int(Double($0) * 0.8) + 3_277) }
      let shiftedFile = folder.appendingPathComponent("\(index)-offset.wav")
      try AudioFileWriter.write(samples: shifted, to: shiftedFile.path)
      offset.append(try directions(in: shiftedFile, recognizer: recognizer).directions)
    }
    #expect(clean.filter { !$0.isEmpty }.count >= 3, "clean: \(clean)")
    #expect(offset == clean)
  }

  @Test("a mains hum as loud as the voice: the commands come through as without it")
  func humIsTakenOut() throws {
    // A 50 Hz hum with its harmonics at the voice's own level: the decoder heard it under
    // every word and the pitch tracker took its period for the voice's. Before it was taken
    // out, 4 of these 12 came through; now 10 ("go up now" in slt's voice and "down" in
    // rms's are still lost).
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("hum")
    defer { try? FileManager.default.removeItem(at: folder) }
    var same = 0
    var clean: [[Direction]] = []
    var report: [String] = []
    for voice in voices.prefix(2) {
      for (index, (text, _)) in Self.commands.prefix(6).enumerated() {
        let file = folder.appendingPathComponent("\(voice.name)-\(index).wav")
        try TestSupport.speak(text, voice: voice, to: file, pad: 0.3)
        let heard = try directions(in: file, recognizer: recognizer).directions
        clean.append(heard)
        let samples = Signal.hummed(try AudioFileSource.readAll(path: file.path), frequency: 50, snr: 0, phase: Double(index))
        let hummedFile = folder.appendingPathComponent("\(voice.name)-\(index)-hum.wav")
        try AudioFileWriter.write(samples: samples, to: hummedFile.path)
        let throughHum = try directions(in: hummedFile, recognizer: recognizer).directions
        if throughHum == heard { same += 1 } else { report.append("\(voice.name) \"\(text)\": \(heard) -> \(throughHum)") }
      }
    }
    #expect(clean.filter { !$0.isEmpty }.count >= 11, "clean: \(clean)")
    #expect(same >= 10, "\(same) of 12 as without the hum; \(report.joined(separator: "; "))")
  }

  @Test("the four flite voices' commands come through over a room's quiet (-70 dBFS) as over digital silence")
  func overRoomTone() throws {
    // Through a microphone a synthesizer's padding is the room's quiet, not digital silence:
    // its frames count in the voice statistic, and before the routing's references heard any
    // (stop 40) kal16's "down" went to the people's model and was read "found"; awb's "down"
    // (Scottish, nearly "done") was read "done" by both models until the synthetic voices'
    // decoder alone heard "down" as D AH UW N too.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("room-tone")
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = Signal.Random(seed: 3)
    var wrong: [String] = []
    for voice in voices {
      for direction in Direction.allCases {
        let file = folder.appendingPathComponent("\(voice.name)-\(direction).wav")
        try TestSupport.speak(direction.rawValue, voice: voice, to: file, pad: 0.3)
        let samples = try AudioFileSource.readAll(path: file.path)
        try AudioFileWriter.write(samples: Signal.overRoomTone(samples, level: -70, random: &random), to: file.path)
        let heard = try directions(in: file, recognizer: recognizer).directions
        if heard != [direction] { wrong.append("\(voice) \"\(direction)\": \(heard)") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) of 16 wrong: \(wrong.joined(separator: "; "))")
  }

  @Test("the four flite voices' commands through an 8 kHz link go to the model for narrowband synthetic speech")
  func throughNarrowbandLink() throws {
    // Through a telephone or Bluetooth link (sox down to 8 kHz and back, as festival's 8 kHz
    // voices come out resampled), a synthetic voice was measured against references mostly
    // wideband and decoded by the model for wideband synthetic speech: festival's ked at
    // 8 kHz was routed 9 times in 46 and 36% of its commands came through.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("narrowband-voices")
    defer { try? FileManager.default.removeItem(at: folder) }
    var wrong: [String] = []
    var models: [String] = []
    for voice in voices {
      for direction in Direction.allCases {
        let file = folder.appendingPathComponent("\(voice.name)-\(direction).wav")
        let back = folder.appendingPathComponent("\(voice.name)-\(direction)-back.wav")
        try TestSupport.speak(direction.rawValue, voice: voice, to: file, pad: 0.3)
        try TestSupport.throughNarrowbandLink(file, to: back)
        let result = try directions(in: back, recognizer: recognizer)
        models += result.utterances.map { $0.result.voiceModel ?? "people's" }
        if result.directions != [direction] { wrong.append("\(voice) \"\(direction)\": \(result.directions)") }
      }
    }
    // Routed or not, never to the wideband synthetic voices' model.
    #expect(!models.contains("synthetic"), "\(models)")
    #expect(models.filter { $0 == "synthetic narrowband" }.count >= 12, "\(models)")
    #expect(wrong.count <= 2, "\(wrong.count) of 16 wrong: \(wrong.joined(separator: "; "))")
  }

  @Test("a second model reads a command word's stretch when its margin lies where it is asked, and only then")
  func secondOpinion() throws {
    // The stock model decides (no routing there) and the shipped one gives the second opinion.
    let folder = try TestSupport.temporaryFolder("second")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("down.wav")
    try TestSupport.speak("down", voice: voices[0], to: file)
    func heard(asked: Range<Double>) throws -> [WordSegment] {
      var configuration = RecognizerConfiguration(grammar: grammar)
      configuration.secondOpinion = .init(model: shippedModel, asked: ["down": asked, "up": asked, "left": asked, "right": asked])
      let result = try directions(in: file, recognizer: try PocketSphinxRecognizer(configuration: configuration))
      return result.utterances.flatMap { $0.result.commandsReading?.segments ?? [] }.filter { $0.margin != nil }
    }
    let asked = try heard(asked: -1e9..<1e9)
    #expect(!asked.isEmpty)
    #expect(asked.allSatisfy { $0.secondOpinion.map { Vocabulary.standard.commands[$0.word] != nil } == true }, "\(asked)")
    #expect(asked.contains { $0.secondOpinion?.word == "down" }, "\(asked)")
    let notAsked = try heard(asked: 1e8..<1e9)
    #expect(!notAsked.isEmpty && notAsked.allSatisfy { $0.secondOpinion == nil })
    // Noise read as commands, with no voiced frame: never asked (the gate refuses such words).
    let noise = folder.appendingPathComponent("noise.wav")
    let made = try TestSupport.run(["sox", "-R", "-n", "-r", "16000", "-b", "16", "-c", "1", noise.path, "synth", "2", "whitenoise", "vol", "0.05"])
    try #require(made.status == 0, "sox: \(made.stderr)")
    var configuration = RecognizerConfiguration(grammar: grammar)
    configuration.secondOpinion = .init(model: shippedModel, asked: ["down": -1e9..<1e9, "up": -1e9..<1e9, "left": -1e9..<1e9, "right": -1e9..<1e9])
    let recognizer = try PocketSphinxRecognizer(configuration: configuration)
    #expect(recognizer.weighsCommandWords)
    // Decided by a detector whose gate lets words without a voiced frame through, the noise is
    // decoded, and read as commands...
    recognizer.resetAdaptation()
    let open = Interpreter(settings: InterpreterSettings(detector: .untrained))
    let inNoise = try CommandListener(recognizer: recognizer, interpreter: open).run(next: try AudioFileSource(path: noise.path).next)
      .utterances.flatMap { $0.result.commandsReading?.segments ?? [] }.filter { $0.margin != nil }
    #expect(!inNoise.isEmpty, "white noise is read as some command")
    #expect(inNoise.allSatisfy { $0.secondOpinion == nil }, "\(inNoise)")
    // ...while the shipped detector's gate refuses every such word, so the listener does not
    // decode it at all (`CommandListener.cannotBeActedOn`).
    let refused = try directions(in: noise, recognizer: recognizer).utterances
    #expect(!refused.isEmpty && refused.allSatisfy { $0.result.transcriptions.isEmpty && $0.interpretation.rejection == .nothingHeard }, "\(refused)")
  }

  @Test("a command with one carrier word after it, or a lone \"move\" before it, becomes its direction")
  func oneCarrier() throws {
    // Decoded with the stretch's carrier left to <direction> alone, "down please" failed for
    // every voice (read as "please please") and "up now" for nearly every one.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("carrier")
    defer { try? FileManager.default.removeItem(at: folder) }
    let phrases: [(String, [Direction])] = [("down please", [.down]), ("up now", [.up]), ("move up", [.up])]
    let cases = voices.flatMap { voice in phrases.map { (voice, $0.0, $0.1) } }
    let misses = try Self.wrongDirections(cases, folder: folder, recognizer: recognizer)
    #expect(misses.count <= 3, "\(misses.count) of \(cases.count) wrong: \(misses.joined(separator: "; "))")
  }

  @Test("commands said without a pause between them (\"down down right\") become each direction, in order")
  func commandsWithoutPauses() throws {
    // Command words without a pause between them were one slot, judged as one command word:
    // none of these came through before (the bench's "synthetic speech, commands without
    // pauses": 0.0%). A faint lead-in before a lone command (flite's kal: "left" was read
    // "up left") must not become a command of its own.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("fluent")
    defer { try? FileManager.default.removeItem(at: folder) }
    let phrases: [(String, [Direction])] = [
      ("down down right", [.down, .down, .right]), ("left up", [.left, .up]), ("right left", [.right, .left]),
    ]
    let sequences = voices.flatMap { voice in phrases.map { (voice, $0.0, $0.1) } }
    let wrong = try Self.wrongDirections(sequences, folder: folder, recognizer: recognizer)
    // 3 of 12 were still wrong when a lone long command word and a boundary drawn off the
    // valley between two syllables were not tried (slt's "down down right" read as one
    // "down", kal16's "left up" as "left"); 1 since (awb's "down down right").
    #expect(wrong.count <= 2, "\(wrong.count) of \(sequences.count) wrong: \(wrong.joined(separator: "; "))")
    // flite's slt runs "down up" together, no dip between the "n" and the "up" (see
    // `PocketSphinxRecognizer.fluentClearGain`): nothing came through before.
    let together = try Self.wrongDirections([(TestSupport.Voice(.flite, "slt"), "down up", [.down, .up])], folder: folder, recognizer: recognizer)
    #expect(together.isEmpty, "\(together.joined(separator: "; "))")
    let kal = TestSupport.Voice(.flite, "kal")
    let alone = try Self.wrongDirections([(kal, "left", [.left]), (kal, "left please", [.left])], folder: folder, recognizer: recognizer)
    #expect(alone.isEmpty, "\(alone.joined(separator: "; "))")
  }

  @Test(
    "a command after a lone \"go\" becomes its direction; \"go\" said alone moves nothing",
    .enabled(if: TestSupport.Voice(.espeak, "en-us").isAvailable, "needs espeak-ng and sox (scripts/setup.sh)"))
  func loneGo() throws {
    // Each of these failed when the "go" stayed in the stretch <direction> had to explain
    // with the command word alone (margins -20 to -80).
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("go")
    defer { try? FileManager.default.removeItem(at: folder) }
    let commands: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.flite, "awb"), "go up", [.up]), (.init(.flite, "awb"), "go right", [.right]),
      (.init(.espeak, "en-029", rate: 130), "go up", [.up]),
      (.init(.espeak, "en-gb-scotland+m2", rate: 130), "go up", [.up]),
    ]
    let alone: [TestSupport.Voice] = [.init(.flite, "rms"), .init(.flite, "awb"), .init(.espeak, "en-us"), .init(.espeak, "en-029")]
    let cases = commands + alone.map { ($0, "go", []) }
    let wrong = try Self.wrongDirections(cases, folder: folder, recognizer: recognizer)
    #expect(wrong.count <= 1, "\(wrong.count) of \(cases.count) wrong: \(wrong.joined(separator: "; "))")
  }

  @Test(
    "a command after a hesitation the reading drew into one word with it (\"um, right\") becomes its direction",
    .enabled(
      if: TestSupport.Voice(.flite, "slt").isAvailable && TestSupport.Voice(.espeak, "en-us").isAvailable,
      "needs flite, espeak-ng and sox (scripts/setup.sh)"))
  func afterHesitation() throws {
    // The commands reading heard each of these as one command word from the hesitation to
    // the command, over the short pause between them (slt's "um, right" as one "down" of
    // 0.95 s, margin -244), and nothing came through; each sound is now checked on its own.
    // (The bench's "synthetic speech, commands after a hesitation": 56.2% -> 62.5% exact.)
    // Parted below the margins under which the shipped detector takes each word in no way, as
    // the app passes them. (rms's "um, go up", read as one "up" at -57.9, was parted under the
    // detector of stop 54, which took "up" from -52; today's takes it from -69.7 beside another
    // command, so that word is left whole, and the case is no longer one for parting.)
    var configuration = shippedConfiguration()
    let detector = try Detector.load(shippedModel + "/detector.json")
    configuration.partingMargins = detector.actingMargins(of: configuration.commandWords)
    let recognizer = try PocketSphinxRecognizer(configuration: configuration)
    let folder = try TestSupport.temporaryFolder("hesitation")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.flite, "slt"), "um, right", [.right]), (.init(.flite, "rms"), "hmm, down", [.down]),
      // Heard as one "up" from the "uh" on; its second sound only with its carriers' rules.
      (.init(.espeak, "en-us+f5", rate: 130), "uh, up", [.up]),
    ]
    let wrong = try Self.wrongDirections(cases, folder: folder, recognizer: recognizer)
    #expect(wrong.isEmpty, "\(wrong.count) of \(cases.count) wrong: \(wrong.joined(separator: "; "))")
  }

  /// Each phrase said by its voice into `folder` and run through the pipeline; those whose
  /// directions are not the expected ones, with what was heard.
  static func wrongDirections(
    _ cases: [(TestSupport.Voice, String, [Direction])], folder: URL, recognizer: PocketSphinxRecognizer
  ) throws -> [String] {
    var wrong: [String] = []
    for (index, (voice, text, expected)) in cases.enumerated() {
      let file = folder.appendingPathComponent("\(index).wav")
      try TestSupport.speak(text, voice: voice, to: file)
      let result = try directions(in: file, recognizer: recognizer)
      if result.directions != expected {
        wrong.append("\(voice) \"\(text)\": \(result.directions), heard \(result.utterances.map(\.result.bestTranscription.formattedString))")
      }
    }
    return wrong
  }

  /// Expects each case, spoken by its voice with the shipped model, to give its directions.
  static func expectDirections(_ cases: [(TestSupport.Voice, String, [Direction])], folder name: String) throws {
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder(name)
    defer { try? FileManager.default.removeItem(at: folder) }
    let wrong = try wrongDirections(cases, folder: folder, recognizer: recognizer)
    #expect(wrong.isEmpty, "\(wrong.count) of \(cases.count) wrong: \(wrong.joined(separator: "; "))")
  }

  @Test("speech that is not a command rarely moves the ninja")
  func otherSpeech() throws {
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("other")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sentences = ["turn on the lights", "what time is it", "hello there", "the weather is nice today"]
    var moved: [String] = []
    for voice in voices {
      for (index, text) in sentences.enumerated() {
        let file = folder.appendingPathComponent("\(voice.name)-\(index).wav")
        try TestSupport.speak(text, voice: voice, to: file)
        let result = try directions(in: file, recognizer: recognizer)
        if !result.directions.isEmpty { moved.append("\(voice) \"\(text)\" -> \(result.directions)") }
        // Whatever it made of them, each utterance either moves or says why not.
        for utterance in result.utterances {
          #expect(!utterance.interpretation.instructions.isEmpty || utterance.interpretation.rejection != nil)
        }
      }
    }
    #expect(moved.count <= 4, "moved for: \(moved.joined(separator: "; "))")
  }

  @Test(
    "a sentence read as one drawn-out command word is weighed against several other words",
    .enabled(if: TestSupport.Voice(.espeak, "en-us").isAvailable, "needs espeak-ng and sox (scripts/setup.sh)"))
  func sentenceReadAsOneWord() throws {
    // Each of these moved the ninja when the word's stretch was weighed against one other
    // word only (the commands reading drew one command word over 1.0-1.4 s of the sentence).
    let sentences: [(TestSupport.Voice, String)] = [
      (.init(.espeak, "en-us+m5", rate: 185), "what time is it"),
      (.init(.espeak, "en-us+f5", rate: 130), "the light is bright"),
      (.init(.espeak, "en-us+m3", rate: 130), "lift the box"),
      (.init(.espeak, "en-gb-x-rp+m4", rate: 160), "the brown town"),
    ]
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("sentence")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (index, (voice, text)) in sentences.enumerated() {
      let file = folder.appendingPathComponent("\(index).wav")
      try TestSupport.speak(text, voice: voice, to: file)
      let result = try directions(in: file, recognizer: recognizer)
      #expect(result.directions.isEmpty, "\(voice) \"\(text)\" moved the ninja: \(result.directions)")
    }
  }

  @Test(
    "a sentence read as a command with its carriers is weighed against several other words",
    .enabled(
      if: TestSupport.Voice(.flite, "awb").isAvailable && TestSupport.Voice(.espeak, "en-us").isAvailable,
      "needs flite, espeak-ng and sox (scripts/setup.sh)"))
  func sentenceReadAsCarriedCommand() throws {
    // Each of these moved the ninja when the carried command was weighed only against the
    // carried other words, which take the carriers as said ("where are my keys" read "right
    // please" against "where please"); the same voices' carried commands still move it.
    let sentences: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.espeak, "en-us+m5", rate: 185), "where are my keys", []),
      (.init(.espeak, "en-029", rate: 130), "where are my keys", []),
      (.init(.flite, "awb"), "play some music", []),
      (.init(.flite, "rms"), "play some music", []),
      (.init(.espeak, "en-029", rate: 130), "play some music", []),
      (.init(.espeak, "en-us+m5", rate: 185), "move up please", [.up]),
      (.init(.espeak, "en-029", rate: 130), "please go right", [.right]),
      (.init(.flite, "awb"), "move left", [.left]),
      (.init(.flite, "rms"), "down now", [.down]),
    ]
    try Self.expectDirections(sentences, folder: "carried-sentence")
  }

  @Test(
    "a command after a lone lead that was not carried is weighed against several other words",
    .enabled(if: TestSupport.Voice(.espeak, "en-us").isAvailable, "needs espeak-ng and sox (scripts/setup.sh)"))
  func sentenceReadAsLoneLeadAndCommand() throws {
    // Each of these other phrases moved the ninja when a lone "go" or "please" read before
    // the command stayed in its stretch and was weighed against one other word only ("good
    // night" read "go right", "it is raining" "please right"), or against several other words
    // with the penalty they pay amid voices (the last three "good night"s, over silence);
    // the same voices' commands with those leads still move it.
    let cases: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.espeak, "en-gb-x-rp+m4"), "good night", []),
      (.init(.espeak, "en-us+benjamin"), "good night", []),
      (.init(.espeak, "en-029"), "good night", []),
      (.init(.espeak, "en-us+Alex"), "good night", []),
      (.init(.espeak, "en-gb+david"), "good night", []),
      (.init(.espeak, "en-gb+david"), "it is raining", []),
      (.init(.espeak, "en-gb+shelby"), "it is raining", []),
      (.init(.espeak, "en-gb-x-rp+m4"), "go right", [.right]),
      (.init(.espeak, "en-us+benjamin"), "go down", [.down]),
      (.init(.espeak, "en-gb+david"), "please right", [.right]),
      (.init(.espeak, "en-gb+shelby"), "go right", [.right]),
      (.init(.espeak, "en-029"), "please right", [.right]),
      (.init(.espeak, "en-us+Alex"), "go down", [.down]),
    ]
    try Self.expectDirections(cases, folder: "lone-lead")
  }

  @Test(
    "a Speech Commands word the garbage lacked is another word: \"dog\" does not move the ninja down",
    .enabled(if: TestSupport.Voice(.espeak, "en-us").isAvailable, "needs espeak-ng and sox (scripts/setup.sh)"))
  func dogIsNotDown() throws {
    // Both voices' "dog" moved the ninja down before grammars/common-words.txt held "dog"
    // (and grammars/directme.dict "dog(2) D AA G"); their "down" must still move it.
    let cases: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.espeak, "en-us"), "dog", []),
      (.init(.espeak, "en-us+m5"), "dog", []),
      (.init(.espeak, "en-us"), "down", [.down]),
      (.init(.espeak, "en-us+m5"), "down", [.down]),
    ]
    try Self.expectDirections(cases, folder: "dog")
  }

  @Test(
    "a word people say to a ninja is another word: \"jump\" does not move the ninja",
    .enabled(if: TestSupport.Voice(.espeak, "en-us").isAvailable, "needs espeak-ng and sox (scripts/setup.sh)"))
  func jumpIsNoCommand() throws {
    // The first three voices' "jump" moved the ninja down, up and down (read as "some",
    // "done", "them") before grammars/common-words.txt held "jump"; their "up" and "down" must
    // still move it.
    let cases: [(TestSupport.Voice, String, [Direction])] = [
      (.init(.espeak, "en-us"), "jump", []),
      (.init(.espeak, "en-us+f3"), "jump", []),
      (.init(.espeak, "en-us+m5"), "jump", []),
      (.init(.espeak, "en-gb+m3"), "jump", []),
      (.init(.espeak, "en-us"), "down", [.down]),
      (.init(.espeak, "en-us+f3"), "up", [.up]),
      (.init(.espeak, "en-us+m5"), "down", [.down]),
      (.init(.espeak, "en-gb+m3"), "up", [.up]),
    ]
    try Self.expectDirections(cases, folder: "jump")
  }

  @Test(
    "a search given beams of its own is made with them, and the searches made after it with the decoder's",
    .enabled(if: TestSupport.Voice(.flite, "awb").isAvailable, "needs flite and sox (scripts/setup.sh)"))
  func searchBeams() throws {
    let folder = try TestSupport.temporaryFolder("beams")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sentence.wav")
    try TestSupport.speak("what time is it", voice: TestSupport.Voice(.flite, "awb"), to: file)
    let samples = try TestSupport.samples(of: file)
    let configuration = shippedConfiguration()
    func readings(beams: [String: [String: Double]]) throws -> [String: Transcription?] {
      let decoder = try PocketSphinxRecognizer.makeDecoder(configuration, extra: configuration.finalDecoderOptions)
      try decoder.setGrammar(grammar, named: "directme", deferred: ["garbage_words", "direction_words"], beams: beams)
      // The search with beams of its own is made first, the other one after it.
      return try ["garbage_words", "direction_words"].reduce(into: [:]) { readings, search in
        try decoder.select(search: search)
        readings[search] = try decoder.decodeWhole(samples)
      }
    }
    let wide = try readings(beams: [:])
    let narrow = try readings(beams: ["garbage_words": ["-beam": 1e-5, "-pbeam": 1e-5, "-wbeam": 1e-3]])
    let wideWords = try #require(wide["garbage_words"] ?? nil)
    // Pruned that hard, the several-words search finds a worse path or none.
    #expect((narrow["garbage_words"] ?? nil).map { $0.score < wideWords.score } ?? true)
    // The decoder's own beams are back for the search made after it.
    #expect(narrow["direction_words"] == wide["direction_words"])
  }

  @Test(
    "a public rule deferred is built when first selected, and hears as one built at once",
    .enabled(if: TestSupport.Voice(.flite, "awb").isAvailable, "needs flite and sox (scripts/setup.sh)"))
  func deferredPublicRule() throws {
    let folder = try TestSupport.temporaryFolder("deferred-public")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sentence.wav")
    try TestSupport.speak("move the ninja up and then what", voice: TestSupport.Voice(.flite, "awb"), to: file)
    let samples = try TestSupport.samples(of: file)
    let configuration = shippedConfiguration()
    func decoder() throws -> Decoder {
      try PocketSphinxRecognizer.makeDecoder(configuration, extra: configuration.finalDecoderOptions)
    }
    let atOnce = try decoder()
    try atOnce.setGrammar(grammar, named: "directme", rules: ["commands"])
    let deferring = try decoder()
    let found = try deferring.setGrammar(grammar, named: "directme", rules: ["commands"], deferringPublic: true)
    #expect(found.rules["commands"]?.contains("up") == true && found.words.contains("what"))
    #expect(deferring.deferredSearchNames == ["directme"])
    // The first rule found is selected in its place.
    let publicReading = try atOnce.decodeWhole(samples)
    try atOnce.select(search: "commands")
    #expect(try deferring.decodeWhole(samples) == atOnce.decodeWhole(samples))
    try deferring.select(search: "directme")
    #expect(deferring.deferredSearchNames.isEmpty)
    #expect(try deferring.decodeWhole(samples) == publicReading)
    // Without such a rule the public rule is built and selected at once.
    let alone = try decoder()
    try alone.setGrammar(grammar, named: "directme", rules: ["no_such_rule"], deferringPublic: true)
    #expect(alone.deferredSearchNames.isEmpty)
    #expect(try alone.decodeWhole(samples) == publicReading)
  }

  @Test("a final result carries alternates with scores no better than the best")
  func alternates() throws {
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("alternates")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("move left", voice: voices[0], to: file)
    let result = try directions(in: file, recognizer: recognizer)
    let utterance = try #require(result.utterances.first)
    let transcriptions = utterance.result.transcriptions
    // The commands reading and the other-words reading, best score first.
    #expect(transcriptions.count == 2)
    #expect(transcriptions.dropFirst().allSatisfy { $0.score <= transcriptions[0].score })
    #expect(Set(transcriptions.map(\.words)).count == transcriptions.count)
    // Every command word of the commands reading carries its margin over the other words,
    // and the instruction the detector's confidence in it.
    let reading = try #require(utterance.result.commandsReading)
    let commands = reading.segments.filter { Direction(rawValue: $0.word) != nil }
    #expect(!commands.isEmpty)
    #expect(commands.allSatisfy { $0.margin?.isFinite == true })
    let instruction = try #require(utterance.interpretation.instructions.first)
    #expect(instruction.direction == .left)
    #expect((instruction.confidence ?? -1) >= (shippedDetector?.threshold ?? 2))
  }

  @Test("a file is heard the same whatever was decoded before it")
  func independentOfTheFileBefore() throws {
    let folder = try TestSupport.temporaryFolder("order")
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = folder.appendingPathComponent("before.wav")
    let file = folder.appendingPathComponent("file.wav")
    // Speech from the first sample to the last, as a microphone's stream cut into files.
    try TestSupport.speak("the weather is nice today", voice: voices[1], to: before, pad: 0)
    try TestSupport.speak("go up now", voice: voices[0], to: file, pad: 0)
    /// The streaming decoder's reading of `file` (each word's score), after `preceding`.
    func streamed(after preceding: [URL]) throws -> [String] {
      let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
      for url in preceding + [file] {
        recognizer.resetAdaptation()
        try recognizer.startUtterance()
        // In 10-ms chunks, as the microphone gives them.
        let samples = try AudioFileSource.readAll(path: url.path)
        for start in stride(from: 0, to: samples.count, by: 160) {
          try recognizer.process(Array(samples[start..<min(start + 160, samples.count)]))
        }
        if url == file {
          let partial = try #require(recognizer.partialResult())
          return partial.segments.map { "\($0.word) \($0.start)-\($0.end) \($0.score)" }
        }
        _ = try recognizer.endUtterance()
      }
      return []
    }
    let alone = try streamed(after: [])
    #expect(!alone.isEmpty)
    // Fed 10 ms at a time, pocketsphinx took the deltas of an utterance's first frames from
    // the frames its buffer held before them: the previous file's last ones.
    #expect(try streamed(after: [before]) == alone)
    #expect(try streamed(after: [file, before]) == alone)
  }
}

@Suite("Recognizer configuration errors", .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"))
struct RecognizerErrorTests {
  func error(grammarText: String? = nil, configure: (inout RecognizerConfiguration, URL) -> Void = { _, _ in })
    throws -> String
  {
    let folder = try TestSupport.temporaryFolder("config")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = RecognizerConfiguration(grammar: grammar)
    if let grammarText {
      let file = folder.appendingPathComponent("test.gram")
      try grammarText.write(to: file, atomically: true, encoding: .utf8)
      configuration.grammar = file.path
    }
    configure(&configuration, folder)
    do {
      _ = try PocketSphinxRecognizer(configuration: configuration)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  @Test("a grammar word missing from the dictionary is named")
  func unknownWord() throws {
    let message = try error(grammarText: "#JSGF V1.0;\ngrammar g;\npublic <c> = up | flurbleblarg | down;\n")
    #expect(message.contains("test.gram"))
    #expect(message.contains("'flurbleblarg' is not in the dictionary"))
  }

  @Test("a grammar most of whose words the dictionary lacks names a few and counts the rest")
  func mostWordsUnknown() throws {
    let words = (1...20).map { "zorblax\($0)" }.joined(separator: " | ")
    let message = try error(grammarText: "#JSGF V1.0;\ngrammar g;\npublic <c> = up | \(words);\n")
    #expect(message.contains(" and 12 more are not in the dictionary (most of its words: is it the dictionary"), "\(message)")
    #expect(message.components(separatedBy: "'zorblax").count - 1 == 8, "\(message)")
  }

  @Test("a JSGF syntax error names the file and the line")
  func syntaxError() throws {
    let message = try error(grammarText: "#JSGF V1.0;\ngrammar g;\n\npublic <c> = up | ( down ;\n")
    #expect(message.contains("test.gram"))
    #expect(message.contains("line 4"), "\(message)")
  }

  @Test("text outside any rule is named with its line, not skipped (nor echoed to stdout)")
  func strayText() throws {
    let message = try error(grammarText: "#JSGF V1.0;\ngrammar g;\npublic <c> = up | down;\nb = left;\n")
    #expect(message.contains("test.gram"))
    #expect(message.contains("line 4: 'b' stands outside any rule"), "\(message)")
  }

  @Test("missing files are named")
  func missingFiles() throws {
    #expect(try error { config, _ in config.acousticModel = "/nonexistent/model" }.contains("/nonexistent/model: acoustic model folder not found"))
    #expect(try error { config, folder in config.acousticModel = folder.path }.contains("not an acoustic model"))
    #expect(try error { config, _ in config.dictionary = "/nonexistent/words.dict" }.contains("/nonexistent/words.dict: dictionary not found"))
    #expect(try error { config, _ in config.grammar = "/nonexistent/g.gram" }.contains("/nonexistent/g.gram: grammar not found"))
    #expect(try error(grammarText: "").contains("grammar is empty"))
  }
}

@Suite("Final pass helpers")
struct FinalPassTests {
  @Test("the carriers around a command are the longest lead before it and a trail after it")
  func carriers() {
    let words = ["please", "move", "the", "ninja", "up", "now", "then", "left"]
    let around = PocketSphinxRecognizer.carriers(around: 4...4, in: words)
    #expect(around.lead == ["please", "move", "the", "ninja"])
    #expect(around.trail == ["now"])
    #expect(PocketSphinxRecognizer.carriers(around: 1...1, in: ["go", "up", "now"]) == (["go"], ["now"]))
    let none = PocketSphinxRecognizer.carriers(around: 7...7, in: words)
    #expect(none.lead.isEmpty)
    #expect(none.trail.isEmpty)
    #expect(PocketSphinxRecognizer.carriers(around: 0...0, in: ["up"]).lead.isEmpty)
  }

  /// 10 ms frame energies: `loud` dBFS for each (seconds, loud) part, -70 dBFS between.
  static func energies(_ parts: [(Double, Bool)]) -> [Double] {
    parts.flatMap { [Double](repeating: $0.1 ? -20 : -70, count: Int(($0.0 * 100).rounded())) }
  }

  @Test("two command words are apart only across a pause of 150 ms or more")
  func pauses() {
    // "down . down": two 300 ms words, 250 ms apart.
    let sequence = Self.energies([(0.3, false), (0.3, true), (0.25, false), (0.3, true), (0.3, false)])
    let quiet = PocketSphinxRecognizer.pauseLevel(sequence)
    #expect(quiet > -70 && quiet < -20)
    #expect(PocketSphinxRecognizer.separated(0.3...0.6, 0.85...1.15, energies: sequence, quiet: quiet))
    // A 100 ms dip (a stop's closure, "f" of "five") is no pause.
    let closure = Self.energies([(0.3, false), (0.3, true), (0.1, false), (0.3, true), (0.3, false)])
    #expect(!PocketSphinxRecognizer.separated(0.3...0.6, 0.7...1.0, energies: closure, quiet: quiet))
  }

  @Test("islands of sound are what lies between pauses of 150 ms or more; a shorter dip stays inside one")
  func islands() {
    let sequence = Self.energies([(0.3, false), (0.3, true), (0.25, false), (0.2, true), (0.1, false), (0.2, true), (0.3, false)])
    let quiet = PocketSphinxRecognizer.pauseLevel(sequence)
    let islands = PocketSphinxRecognizer.islands(sequence, quiet: quiet)
    #expect(islands.count == 2, "\(islands)")
    #expect(abs(islands[0].lowerBound - 0.3) < 0.011 && abs(islands[0].upperBound - 0.6) < 0.011, "\(islands)")
    #expect(abs(islands[1].lowerBound - 0.85) < 0.011 && abs(islands[1].upperBound - 1.35) < 0.011, "\(islands)")
  }

  @Test("amid other voices a command word's stretch is its loud island: out to 3 dB over the voices' median, 0.1 s around it")
  func loudIsland() throws {
    // 5 s of voices at -40 dB rising and falling 2 dB; a word at -25 dB from 2.4 s to 2.6 s,
    // its edges at -33 dB for 30 ms, with a 30-ms dip inside it.
    var energies = (0..<500).map { -40 + 2 * sin(Double($0) * 0.7) }
    for frame in 237..<240 { energies[frame] = -33 }
    for frame in 240..<260 { energies[frame] = -25 }
    for frame in 248..<251 { energies[frame] = -39 }
    for frame in 260..<263 { energies[frame] = -33 }
    // The reading drew the word from 2.0 s to 2.7 s.
    let island = try #require(PocketSphinxRecognizer.loudIsland(around: 2.0...2.7, energies: energies))
    #expect(abs(island.lowerBound - 2.27) < 0.011 && abs(island.upperBound - 2.73) < 0.011, "\(island)")
  }

  @Test("only a long utterance that never falls quiet, voiced in its quieter half, is amid voices")
  func longAmidVoices() {
    // A 200 Hz tone with a little noise throughout: voiced everywhere.
    var random = Signal.Random(seed: 3)
    let voiced = (0..<64_000).map { Int16(3_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000) + Double.random(in: -50...50, using: &random)) }
    let level = { (samples: [Int16]) in Signal.frameEnergies(samples, floor: 1e-2, wholeFrames: true) }
    var periods: [Int]?
    #expect(PocketSphinxRecognizer.isLongAmidVoices(energies: level(voiced), periods: &periods, of: voiced))
    // The same for 2 s: not long.
    periods = nil
    let short = Array(voiced.prefix(32_000))
    #expect(!PocketSphinxRecognizer.isLongAmidVoices(energies: level(short), periods: &periods, of: short))
    // With 1 s of near-silence in it: it falls quiet (range over 25 dB).
    periods = nil
    let paused = Array(voiced.prefix(24_000)) + (0..<16_000).map { _ in Int16.random(in: -3...3, using: &random) } + Array(voiced.suffix(24_000))
    #expect(!PocketSphinxRecognizer.isLongAmidVoices(energies: level(paused), periods: &periods, of: paused))
    // Noise alone for 4 s: unvoiced.
    periods = nil
    let noise = (0..<64_000).map { _ in Int16.random(in: -3_000...3_000, using: &random) }
    #expect(!PocketSphinxRecognizer.isLongAmidVoices(energies: level(noise), periods: &periods, of: noise))
  }

  @Test("amid voices, a lone command word the reading put on the voices is read where the utterance is loudest")
  func loudestIsland() throws {
    // 1.5 s of a voice-like 200 Hz tone (the voices around); 0.9-1.1 s of it 12 dB louder
    // (the one speaking to DirectMe).
    var random = Signal.Random(seed: 5)
    let tone = { (index: Int, amplitude: Double) in
      Int16(amplitude * sin(2 * Double.pi * 200 * Double(index) / 16_000) + Double.random(in: -50...50, using: &random))
    }
    let speech = (0..<24_000).map { tone($0, $0 >= 14_400 && $0 < 17_600 ? 4_000 : 1_000) }
    let level = { (samples: [Int16]) in Signal.frameEnergies(samples, floor: 1e-2, wholeFrames: true) }
    var periods: [Int]?
    // The reading put the word on the voices at 0.2-0.4 s: read at the loud sound instead.
    let island = try #require(
      PocketSphinxRecognizer.loudestIsland(beside: 0.2...0.4, energies: level(speech), periods: &periods, of: speech))
    #expect(island.lowerBound > 0.7 && island.lowerBound < 0.9 && island.upperBound > 1.1 && island.upperBound < 1.3, "\(island)")
    // Placed on the loud sound already: nothing to look for.
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.9...1.1, energies: level(speech), periods: &periods, of: speech) == nil)
    // From 0.8 s (0.875 s here, a one-second clip's utterance) as from a second on; under it
    // (0.75 s) the gate's short-bed rule does not refuse the word, and nothing moves it.
    periods = nil
    let clip = Array(speech.suffix(14_000))
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.1...0.2, energies: level(clip), periods: &periods, of: clip) != nil)
    periods = nil
    let short = Array(speech.suffix(12_000))
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.5...0.6, energies: level(short), periods: &periods, of: short) == nil)
    // A word the reading put on a voice 4.5 dB over the rest: from 1.2 s the gate asks 5 dB
    // (`Gate.bed(forSeconds:)`), so in 1.5 s it is read at the loud sound; in 1 s, where 4 dB
    // is asked, it stands out enough and is left where it is.
    periods = nil
    let louder = (0..<24_000).map { tone($0, $0 >= 14_400 && $0 < 17_600 ? 4_000 : $0 >= 3_200 && $0 < 6_400 ? 1_680 : 1_000) }
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.2...0.4, energies: level(louder), periods: &periods, of: louder) != nil)
    periods = nil
    let second = (0..<16_000).map { tone($0, $0 >= 8_000 && $0 < 11_200 ? 4_000 : $0 >= 1_600 && $0 < 4_800 ? 1_680 : 1_000) }
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.1...0.3, energies: level(second), periods: &periods, of: second) == nil)
    // Over a quiet, unvoiced background (a room's noise, not voices): left where it is.
    periods = nil
    let noise = (0..<24_000).map { index in
      index >= 14_400 && index < 17_600 ? tone(index, 4_000) : Int16.random(in: -1_700...1_700, using: &random)
    }
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.2...0.4, energies: level(noise), periods: &periods, of: noise) == nil)
    // The loud part only 5 dB over the rest (a note of music standing a little over the
    // others, not someone speaking over the voices): left where it is.
    periods = nil
    let music = (0..<24_000).map { tone($0, $0 >= 14_400 && $0 < 17_600 ? 1_780 : 1_000) }
    #expect(PocketSphinxRecognizer.loudestIsland(beside: 0.2...0.4, energies: level(music), periods: &periods, of: music) == nil)
  }

  @Test("amid voices, a lone command word is also read on the loud part alone of the loudest sound: within 6 dB of its peak, 50 ms around")
  func tightIsland() throws {
    // 1.5 s of a voice-like 200 Hz tone (the voices around); 0.9-1.1 s of it 12 dB louder
    // (the one speaking to DirectMe), its first and last 20 ms 4.4 dB louder only (the
    // word's onset and its /p/).
    var random = Signal.Random(seed: 7)
    let tone = { (index: Int, amplitude: Double) in
      Int16(amplitude * sin(2 * Double.pi * 200 * Double(index) / 16_000) + Double.random(in: -50...50, using: &random))
    }
    let voices = { (seconds: Int) in
      (0..<(seconds * 16_000 / 2)).map { index -> Int16 in
        let loud = index >= 14_400 && index < 17_600
        let edge = index < 14_720 || index >= 17_280
        return tone(index, loud ? (edge ? 1_660 : 4_000) : 1_000)
      }
    }
    let level = { (samples: [Int16]) in Signal.frameEnergies(samples, floor: 1e-2, wholeFrames: true) }
    var periods: [Int]?
    let speech = voices(3)
    let island = try #require(PocketSphinxRecognizer.tightIsland(energies: level(speech), periods: &periods, of: speech))
    // 0.92-1.08 s is within 6 dB of the peak; 50 ms around it.
    #expect(abs(island.lowerBound - 0.87) < 0.015 && abs(island.upperBound - 1.13) < 0.015, "\(island)")
    // The loud sound's island (`loudIsland`) reaches to within 3 dB of the median: wider.
    let wide = try #require(PocketSphinxRecognizer.loudIsland(around: 1.0...1.01, energies: level(speech)))
    #expect(wide.lowerBound < island.lowerBound && wide.upperBound > island.upperBound)
    // A long utterance (3 s or more) amid voices is read otherwise (`isLongAmidVoices`).
    periods = nil
    let long = voices(3) + voices(3)
    #expect(PocketSphinxRecognizer.tightIsland(energies: level(long), periods: &periods, of: long) == nil)
    // Over a room's unvoiced noise, not voices: none.
    periods = nil
    let noise = (0..<24_000).map { index in
      index >= 14_400 && index < 17_600 ? tone(index, 4_000) : Int16.random(in: -1_700...1_700, using: &random)
    }
    #expect(PocketSphinxRecognizer.tightIsland(energies: level(noise), periods: &periods, of: noise) == nil)
    // The loud part 5 dB over the rest (a note standing a little over the music): none.
    periods = nil
    let music = (0..<24_000).map { tone($0, $0 >= 14_400 && $0 < 17_600 ? 1_780 : 1_000) }
    #expect(PocketSphinxRecognizer.tightIsland(energies: level(music), periods: &periods, of: music) == nil)
  }

  @Test("amid voices, the tight island's reading stands when it is the better one by the penalty, or when another command is far worse there")
  func tightReading() {
    typealias Recognizer = PocketSphinxRecognizer
    // "up" lost in the voices around it (whole -40), clear on its own sound (+10): read there.
    #expect(Recognizer.tightReading(wholeMargin: -40, tightMargin: 10, sameWord: true) == .tightBetter)
    #expect(Recognizer.tightReading(wholeMargin: -40, tightMargin: 10, sameWord: false) == .tightBetter)
    // Better there by less than the penalty (25): the whole utterance's reading stands.
    #expect(Recognizer.tightReading(wholeMargin: -40, tightMargin: -20, sameWord: false) == .whole)
    // "five" read as "right" over the whole utterance (-43) and as "down" on its own sound,
    // which "by" explains 55 better: refused.
    #expect(Recognizer.tightReading(wholeMargin: -43, tightMargin: -55, sameWord: false) == .tightRefuses)
    // A "down" read as "down" on its loud part too, if 70 worse there than the other words:
    // kept (a word's loud part alone amid voices is often explained worse than the word).
    #expect(Recognizer.tightReading(wholeMargin: 34, tightMargin: -70, sameWord: true) == .whole)
    // The bound itself: under it refuses, at it not.
    #expect(Recognizer.tightReading(wholeMargin: 0, tightMargin: Recognizer.tightIslandRefusal, sameWord: false) == .whole)
    #expect(Recognizer.tightReading(wholeMargin: 0, tightMargin: Recognizer.tightIslandRefusal - 0.1, sameWord: false) == .tightRefuses)
  }

  @Test("two syllables dip between them even when the decoder draws their boundary a few frames off the valley")
  func syllableDip() {
    // "down down" as flite's slt says it: the first vowel loudest at the end of the first
    // word, the valley of its "n d" 30 ms into the second word; the second vowel 1 dB softer.
    let twice: [Double] = [-40, -20, -15, -12, -10, -10, -11, -14, -18, -16, -13, -11, -12, -15, -40]
    let first = WordSegment(word: "down", start: 0.0, end: 0.05, score: 0)
    let second = WordSegment(word: "down", start: 0.05, end: 0.14, score: 0)
    #expect(PocketSphinxRecognizer.syllableDip(between: first, and: second, from: 0, energies: twice) >= 6.9)
    // One syllable read as two words: the sound only rises and falls.
    let once: [Double] = [-40, -20, -12, -10, -11, -13, -16, -20, -25, -30, -40]
    let (rise, fall) = (WordSegment(word: "right", start: 0.0, end: 0.04, score: 0), WordSegment(word: "up", start: 0.04, end: 0.1, score: 0))
    #expect(PocketSphinxRecognizer.syllableDip(between: rise, and: fall, from: 0, energies: once) < 0.5)
  }


  /// The words of rule `<name>` in the shipped grammar (not the rules it refers to).
  static func ruleWords(_ name: String, in grammar: String) throws -> Set<String> {
    let start = try #require(grammar.range(of: "<\(name)> = "))
    let end = try #require(grammar[start.upperBound...].firstIndex(of: ";"))
    let definition = String(grammar[start.upperBound..<end])
      .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
    return Set(definition.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init))
  }

  @Test("one vocabulary: the grammar's commands and carriers are the interpreter's and the final pass's")
  func oneVocabulary() throws {
    let grammar = try String(
      contentsOf: TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram"), encoding: .utf8)
    #expect(try Self.ruleWords("direction", in: grammar) == Set(Vocabulary.standard.commands.keys))
    let lead = try Self.ruleWords("lead", in: grammar)
    let trail = try Self.ruleWords("trail", in: grammar)
    let joiners = try Self.ruleWords("commands", in: grammar)
    #expect(lead.union(trail).union(joiners) == Vocabulary.standard.carriers)
    #expect(Set(PocketSphinxRecognizer.leads.joined()) == lead)
    #expect(Set(PocketSphinxRecognizer.trails.joined()) == trail)
    // The garbage holds no command and no word that sounds exactly like one.
    let garbage = try Self.ruleWords("garbage", in: grammar)
    #expect(garbage.isDisjoint(with: Vocabulary.standard.commands.keys))
    #expect(garbage.isDisjoint(with: ["write", "rite", "wright"]))
    // It is grammars/common-words.txt and the carriers, as scripts/make-grammar.py writes it (the grammar was
    // written again after the list last changed), which leaves out the frequent words that
    // took more people's commands than they kept other speech from moving the ninja.
    let list = try String(
      contentsOf: TestSupport.repositoryRoot.appendingPathComponent("grammars/common-words.txt"), encoding: .utf8)
    let lines = list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    let listed = Set(lines.filter { !$0.hasPrefix("+") })
    let expected = listed.union(Vocabulary.standard.carriers)  // the carriers are other words too
    #expect(garbage == expected, "in the grammar only: \(garbage.subtracting(expected)); in the list only: \(expected.subtracting(garbage))")
    let nine: Set = ["found", "live", "thousand", "when", "last", "great", "love", "turn", "more"]
    #expect(garbage.isDisjoint(with: nine))
    // Those are other words of several-words readings only ("+found" in the list).
    #expect(try Self.ruleWords("sentence_word", in: grammar) == nine)
    #expect(Set(lines.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }) == nine)
    #expect(grammar.contains("<garbage_words> = (<garbage> | <sentence_word>)+;"))
    #expect(garbage.isSuperset(of: ["dog", "while", "life", "let", "done", "of"]))
  }
}

@Suite(
  "Recognizer on real speech",
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: shippedDetector != nil, "needs the shipped model's detector.json (scripts/make-model.sh)"),
  .enabled(if: TestSupport.trainingSet != nil, "needs ../shared/data/speech-commands-train"))
struct RecognizerRealSpeechTests {
  /// A training-set clip (path in the set) cut to its speech, as the accuracy bench joins clips.
  static func clip(_ path: String) throws -> [Int16] {
    Signal.trimmed(try AudioFileSource.readAll(path: TestSupport.trainingSet!.appendingPathComponent(path).path))
  }

  @Test("a sequence of two speakers' words, 200-400 ms apart: the second is heard on its own, not beside the first")
  func secondWordOnItsOwn() throws {
    // Two real clips joined as the accuracy bench joins a sequence (each cut to its speech).
    // Decoded beside the settled "up" (another recording, another voice), the "right" lost
    // to the other words at every pause tried.
    let up = try Self.clip("sc/up/18a8f03f_nohash_0.wav")
    let right = try Self.clip("sc/right/10ace7eb_nohash_1.wav")
    let folder = try TestSupport.temporaryFolder("sequence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    for pause in [0.2, 0.4] {
      let file = folder.appendingPathComponent("up-right-\(pause).wav")
      try AudioFileWriter.write(samples: Signal.silence(0.3) + up + Signal.silence(pause) + right + Signal.silence(0.5), to: file.path)
      #expect(try directions(in: file, recognizer: recognizer).directions == [.up, .right], "pause \(pause) s")
    }
  }

  @Test("one speaker's commands joined without a pause come through even when several other words explain them better")
  func withoutPausesEachWordOnItsOwn() throws {
    // Two of the bench's sequences without pauses (one checking speaker each): the command
    // words' reading lost to several other words ("a done", "already to found to out") and
    // came out as "down" and "right right"; each of their command words explains its own
    // part better than one other word, with a vowel of its own.
    let folder = try TestSupport.temporaryFolder("joined")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let sequences: [([String], [Direction])] = [
      (["sc/up/0132a06d_nohash_4.wav", "sc/down/0132a06d_nohash_3.wav"], [.up, .down]),
      (
        ["sc/right/1d1fe0a0_nohash_1.wav", "sc/down/1d1fe0a0_nohash_2.wav", "sc/down/1d1fe0a0_nohash_1.wav", "sc/right/1d1fe0a0_nohash_0.wav"],
        [.right, .down, .down, .right]
      ),
    ]
    for (index, (paths, expected)) in sequences.enumerated() {
      let file = folder.appendingPathComponent("joined-\(index).wav")
      try AudioFileWriter.write(samples: Signal.silence(0.3) + paths.map(Self.clip).joined() + Signal.silence(0.5), to: file.path)
      #expect(try directions(in: file, recognizer: recognizer).directions == expected, "\(paths)")
    }
  }

  @Test("people's commands through an 8 kHz link are heard by people's model for such a link, and as recorded by people's own")
  func peopleThroughNarrowbandLink() throws {
    // Checking speakers' commands (none of them in any adaptation) as a telephone or a
    // Bluetooth headset gives them: sox down to 8 kHz and back, as the bench's narrowband
    // microphone. People's model, adapted with everything above 4 kHz, heard 89.0% of the
    // checking speakers' commands through such a link; the model adapted through it 90.4%.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    try #require(recognizer.routing?.peopleNarrowbandModel != nil, "the shipped routing.json names people's narrowband model")
    let folder = try TestSupport.temporaryFolder("narrowband-people")
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = [
      "down/0132a06d_nohash_0", "down/171b56dc_nohash_1", "down/41dce6f5_nohash_0", "left/0132a06d_nohash_0",
      "left/17f0e206_nohash_0", "left/4abefdf5_nohash_0", "right/0132a06d_nohash_0", "right/1ed557b9_nohash_0",
      "right/44bc77f7_nohash_0", "up/0132a06d_nohash_0", "up/122c5aa7_nohash_2", "up/380abbad_nohash_0",
    ]
    var wrong: [String] = []
    for path in paths {
      let original = TestSupport.trainingSet!.appendingPathComponent("sc/\(path).wav")
      let expected = try #require(Direction(rawValue: String(path.prefix { $0 != "/" })))
      let name = path.replacingOccurrences(of: "/", with: "-")
      let back = folder.appendingPathComponent("\(name).wav")
      try TestSupport.throughNarrowbandLink(original, to: back)
      let narrow = try directions(in: back, recognizer: recognizer)
      #expect(
        narrow.utterances.contains { $0.result.narrowbandModel } && narrow.utterances.allSatisfy { $0.result.voiceModel == nil },
        "\(path) through 8 kHz: \(narrow.utterances.map { ($0.result.narrowbandModel, $0.result.voiceModel) })")
      if narrow.directions != [expected] { wrong.append("\(path): \(narrow.directions)") }
      let recorded = try directions(in: original, recognizer: recognizer)
      #expect(!recorded.utterances.contains { $0.result.narrowbandModel }, "\(path) as recorded")
    }
    #expect(wrong.count <= 2, "\(wrong.count) of \(paths.count) wrong: \(wrong.joined(separator: "; "))")
  }

  @Test("another word with a long vowel read as \"up\" moves nothing: its loud part is longer than any such \"up\"'s over a quiet background")
  func longVowelIsNotUp() throws {
    // A checking speaker's "five" (loud for 0.41 s, 35 dB over its background) read as "up" at margin -9.9.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let file = TestSupport.trainingSet!.appendingPathComponent("sc/other/five_270bfa52_nohash_1.wav")
    #expect(try directions(in: file, recognizer: recognizer).directions.isEmpty)
  }

  @Test("a \"go\" read as \"down\" moves nothing: \"go\" alone explains its stretch better, and it is \"down\"'s rival")
  func rivalRefuses() throws {
    // A checking speaker's "go", read as "down" at a margin of -0.1, which the calibration
    // took (confidence 0.81); the other words read it as "go".
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let file = TestSupport.trainingSet!.appendingPathComponent("sc/other/go_2335770e_nohash_1.wav")
    let heard = try directions(in: file, recognizer: recognizer)
    #expect(heard.directions.isEmpty)
    let down = heard.utterances.compactMap(\.result.commandsReading).flatMap(\.segments).filter { $0.word == "down" }
    #expect(!down.isEmpty && down.allSatisfy { $0.otherWord == "go" && ($0.margin ?? 0) < 0 }, "\(down)")
    #expect(heard.utterances.contains { $0.interpretation.rejection?.code == "rival" })
  }

  @Test("\"go down\" said as a phrase goes down: a word with a carrier before it is not weighed against its rival")
  func carrierBeforeRival() throws {
    // A checking speaker's "go" and "down" joined 50 ms apart: a lone "go" before a command
    // stays in its stretch, and the other words read the stretch as "go" alone, which
    // explains it better than "down". Asked of it, the rival refused the phrase.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("go-down")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("go-down.wav")
    let said = try Self.clip("sc/other/go_10ace7eb_nohash_0.wav") + Signal.silence(0.05) + Self.clip("sc/down/10ace7eb_nohash_0.wav")
    try AudioFileWriter.write(samples: Signal.silence(0.3) + said + Signal.silence(0.5), to: file.path)
    #expect(try directions(in: file, recognizer: recognizer).directions == [.down])
  }

  @Test("a short \"up\" whose vowel the decoder gave to the silence before it is taken: its voicing is looked for just beyond its time")
  func vowelGivenToTheSilence() throws {
    // A checking speaker's "up": its vowel lies at 0.18-0.30 s, the commands reading puts
    // "up" at 0.28-0.39 s (margin +6.7, no steady voiced run in its own time), and it was
    // refused as holding no voice.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let file = TestSupport.trainingSet!.appendingPathComponent("sc/up/32a19ecf_nohash_0.wav")
    #expect(try directions(in: file, recognizer: recognizer).directions == [.up])
  }

  @Test("a model folder with a word verifier weighs each command word with it, and the report says what it heard")
  func wordVerifierWeighs() throws {
    // The shipped model's files, and a verifier that hears no command anywhere (its output
    // bias far on "none"): a checking speaker's clear "right" (margin +23) is refused; the
    // same folder without the verifier moves the ninja right.
    let folder = try TestSupport.temporaryFolder("verified-model")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in try FileManager.default.contentsOfDirectory(atPath: shippedModel) {
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(name).path, withDestinationPath: shippedModel + "/" + name)
    }
    let file = TestSupport.trainingSet!.appendingPathComponent("sc/right/0132a06d_nohash_0.wav")
    var configuration = shippedConfiguration()
    configuration.acousticModel = folder.path
    #expect(try directions(in: file, recognizer: PocketSphinxRecognizer(configuration: configuration)).directions == [.right])
    let frontEnd = WordVerifier.FrontEnd()
    let n = frontEnd.featureCount
    let deaf = WordVerifier(
      classes: ["up", "down", "left", "right", ""], weight: 20, frontEnd: frontEnd, mean: [Double](repeating: 0, count: n),
      scale: [Double](repeating: 1, count: n), hidden: [[Double](repeating: 0, count: n)], hiddenBias: [0],
      output: [[0], [0], [0], [0], [0]], outputBias: [0, 0, 0, 0, 20])
    try deaf.json().write(to: folder.appendingPathComponent(WordVerifier.fileName))
    let recognizer = try PocketSphinxRecognizer(configuration: configuration)
    #expect(recognizer.wordVerifier == deaf)
    let heard = try directions(in: file, recognizer: recognizer)
    #expect(heard.directions.isEmpty)
    let right = heard.utterances.compactMap(\.result.commandsReading).flatMap(\.segments).filter { $0.word == "right" }
    #expect(!right.isEmpty && right.allSatisfy { ($0.verified ?? 1) < 1e-6 }, "\(right)")
    // While a verifier is learned, the model's own is left out.
    configuration.usesWordVerifier = false
    #expect(try PocketSphinxRecognizer(configuration: configuration).wordVerifier == nil)
  }

  @Test("a click before a word, a pause apart, moves nothing: read as a command that other words explain better, it has no vowel's loud part")
  func clickBeforeAWord() throws {
    // Recordings as they are: one speaker's "down" begins with two clicks (30 and 50 ms) 0.4 s
    // before the word, read as "up" (margin -25, confidence 0.68); another speaker's "go"
    // with one read as "up" (margin -23). And a third speaker's "eight" read as "right" (margin
    // -29): its loud part, under 0.1 s, is shorter than that of any "right" the other words
    // explained better on the tuning speakers.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let clips: [(String, [Direction])] = [
      ("sc/down/17f0e206_nohash_0.wav", [.down]), ("sc/other/go_05d18852_nohash_0.wav", []),
      ("sc/other/eight_0132a06d_nohash_0.wav", []),
    ]
    for (path, expected) in clips {
      let file = TestSupport.trainingSet!.appendingPathComponent(path)
      #expect(try directions(in: file, recognizer: recognizer).directions == expected, "\(path)")
    }
  }
}

@Suite("The grammar's companion dictionary", .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"))
struct CompanionDictionaryTests {
  @Test("grammars/directme.dict is read beside the grammar: 'off' and 'dog' also with AA, as people with the cot-caught merger say them")
  func offWithTheVowelOfCot() throws {
    let configuration = RecognizerConfiguration(grammar: grammar)
    #expect(configuration.extraDictionary == TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.dict").path)
    let recognizer = try PocketSphinxRecognizer(configuration: configuration)
    let final = try #require(recognizer.final)
    #expect(final.pronunciations(of: "off") == [["AO", "F"], ["AA", "F"]])
    #expect(final.pronunciations(of: "dog") == [["D", "AO", "G"], ["D", "AA", "G"]])
  }

  @Test("the synthetic voices' decoder alone also hears \"down\" as D AH UW N (synthetic-voices/pronunciations.dict)")
  func routedVoicesPronunciations() throws {
    // A Scottish synthetic voice's "down" (flite awb), nearly "done": people's decoder must
    // not hear people's "done" as "down".
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    #expect(try #require(recognizer.final).pronunciations(of: "down") == [["D", "AW", "N"]])
    let routed = try recognizer.laterDecoder(shippedModel + "/synthetic-voices")
    #expect(routed.pronunciations(of: "down") == [["D", "AW", "N"], ["D", "AH", "UW", "N"]])
    #expect(routed.pronunciations(of: "off") == [["AO", "F"], ["AA", "F"]], "the grammar's companion dictionary as well")
  }

  @Test("another pronunciation of a word the grammar does not use is left out, not an error")
  func variantOfAnUnusedWord() throws {
    let folder = try TestSupport.temporaryFolder("companion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let grammarFile = folder.appendingPathComponent("mine.gram")
    try "#JSGF V1.0;\ngrammar mine;\npublic <c> = up | down;\n".write(to: grammarFile, atomically: true, encoding: .utf8)
    try "off(2) AA F\n".write(to: folder.appendingPathComponent("mine.dict"), atomically: true, encoding: .utf8)
    let recognizer = try PocketSphinxRecognizer(configuration: RecognizerConfiguration(grammar: grammarFile.path))
    #expect(try #require(recognizer.final).pronunciations(of: "off").isEmpty)
  }
}

/// Where Debian's bucklespring-data puts a keyboard's keys, pressed (`NN-0.wav`) and released
/// (`NN-1.wav`).
let keyboardFolder = "/usr/share/buckle/wav"

@Suite(
  "Recognizer on a keyboard's typing", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: shippedDetector != nil, "needs the shipped model's detector.json (scripts/make-model.sh)"),
  .enabled(
    if: FileManager.default.fileExists(atPath: keyboardFolder + "/1e-0.wav"),
    "needs a keyboard's recordings, bucklespring-data (scripts/setup.sh --voices)"))
struct RecognizerTypingTests {
  /// `seconds` of typing near the microphone: the keys of `codes` in turn, one every
  /// `pace` seconds, each released 80 ms after its press, peaking at -20 dBFS over a room's quiet.
  static func typing(_ codes: [Int], pace: Double, seconds: Double, seed: UInt64) throws -> [Int16] {
    var samples = [Double](repeating: 0, count: Int(seconds * 16000))
    let keys = try Dictionary(uniqueKeysWithValues: Set(codes).map { code in
      let key = String(format: "%@/%02x", keyboardFolder, code)
      return (code, (press: try AudioFileSource.readAll(path: key + "-0.wav"), release: try AudioFileSource.readAll(path: key + "-1.wav")))
    })
    var time = 0.3
    var index = 0
    while time < seconds - 0.5 {
      let key = keys[codes[index % codes.count]]!
      for (sound, at) in [(key.press, time), (key.release, time + 0.08)] {
        let start = Int(at * 16000)
        for (offset, sample) in sound.enumerated() where start + offset < samples.count {
          samples[start + offset] += Double(sample)
        }
      }
      time += pace
      index += 1
    }
    let peak = samples.map(abs).max() ?? 1
    let typed = samples.map { Int16(clamping: Int(($0 / peak * 3277).rounded())) }  // -20 dBFS
    var random = Signal.Random(seed: seed)
    return Signal.overRoomTone(typed, level: -65, random: &random)
  }

  @Test("typing on a keyboard moves nothing: a key's click read as a command word is refused as a click")
  func typingMovesNothing() throws {
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("typing")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Letters typed at a typist's pace (0.15-0.3 s a key): J, K, L, A, S, D, the space bar.
    let typists: [(codes: [Int], pace: Double)] = [
      ([0x24, 0x25, 0x26, 0x39], 0.15), ([0x1e, 0x1f, 0x20, 0x39], 0.2), ([0x24, 0x1f, 0x39, 0x26], 0.3),
      ([0x20, 0x25, 0x1e, 0x39], 0.25),
    ]
    var moved: [String] = []
    var clicks = 0
    for (index, typist) in typists.enumerated() {
      let file = folder.appendingPathComponent("typing-\(index).wav")
      try AudioFileWriter.write(samples: try Self.typing(typist.codes, pace: typist.pace, seconds: 6, seed: UInt64(index + 1)), to: file.path)
      let result = try directions(in: file, recognizer: recognizer)
      if !result.directions.isEmpty { moved.append("typist \(index + 1) -> \(result.directions)") }
      clicks += result.utterances.filter {
        if case .unlikeVoice(_, .click) = $0.interpretation.rejection { true } else { false }
      }.count
    }
    #expect(moved.isEmpty, "moved for: \(moved.joined(separator: "; "))")
    // The clicks are heard as command words, and the gate says why it refuses them.
    #expect(clicks > 0)
  }

  @Test(
    "a command said while typing comes through: the utterance's clicks are taken out of what the final pass hears",
    .enabled(if: TestSupport.trainingSet != nil, "needs ../shared/data/speech-commands-train"))
  func commandWhileTyping() throws {
    // Three checking speakers' commands with typing going on from 1 s before to 1 s after,
    // its power 10 dB under theirs, as the bench mixes its commands while typing (where all
    // three moved the ninja up undeclicked); here, undeclicked, the "right" is not heard.
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("typing-command")
    defer { try? FileManager.default.removeItem(at: folder) }
    let commands: [(String, Direction)] = [
      ("sc/left/2df590cd_nohash_0.wav", .left), ("sc/left/31267b59_nohash_0.wav", .left), ("sc/right/2ce7534c_nohash_0.wav", .right),
    ]
    var heard: [String] = []
    for (index, (path, direction)) in commands.enumerated() {
      let said = Signal.silence(1) + Signal.trimmed(try AudioFileSource.readAll(path: TestSupport.trainingSet!.appendingPathComponent(path).path))
        + Signal.silence(1)
      let typed = try Self.typing([0x24, 0x1f, 0x39, 0x26, 0x20], pace: 0.17, seconds: Double(said.count) / 16000 + 0.6, seed: UInt64(index + 7))
      let file = folder.appendingPathComponent("typing-\(index).wav")
      try AudioFileWriter.write(samples: Signal.mix(said, noise: typed, snr: 10), to: file.path)
      let result = try directions(in: file, recognizer: recognizer)
      if result.directions != [direction] { heard.append("\(path) -> \(result.directions)") }
    }
    #expect(heard.isEmpty, "\(heard.joined(separator: "; "))")
  }
}
