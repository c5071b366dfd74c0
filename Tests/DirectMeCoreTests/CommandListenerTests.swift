import Testing

@testable import DirectMeCore

/// A recognizer that "hears" a fixed reading, for driving the pipeline without PocketSphinx.
final class FakeRecognizer: Recognizer {
  var reading: [(String, Double, Double)]
  var starts = 0
  var samplesSeen = 0
  var samplesThisUtterance = 0

  init(reading: [(String, Double, Double)]) {
    self.reading = reading
  }

  func startUtterance() throws {
    starts += 1
    samplesThisUtterance = 0
  }

  func process(_ samples: [Int16]) throws {
    samplesSeen += samples.count
    samplesThisUtterance += samples.count
  }

  /// What the streaming search hears, when it differs from the final pass's reading.
  var streamingReading: [(String, Double, Double)]?

  func partialResult() -> Transcription? {
    let heard = Double(samplesThisUtterance) / 16000
    let words = (streamingReading ?? reading).filter { $0.2 <= heard }
    return words.isEmpty ? nil : transcription(words, score: -1)
  }

  /// What the end of the utterance reads, when it differs from the early readings.
  var finalReading: [(String, Double, Double)]?
  var ends = 0
  var cancels = 0
  /// The times (seconds into the utterance) the listener settled.
  var settled: [Double] = []

  /// Whether its command words carry margins the detector weighs (a final pass).
  var weighs = false
  var weighsCommandWords: Bool { weighs }

  func settle(before time: Double) { settled.append(time) }
  func cancelUtterance() throws { cancels += 1 }

  func endUtterance() throws -> RecognitionResult {
    ends += 1
    return RecognitionResult(
      transcriptions: [transcription(finalReading ?? reading, score: -10)], start: 0, end: Double(samplesThisUtterance) / 16000)
  }

  /// With `early`, answers `resultSoFar` with the words heard so far.
  var early = false
  var earlyCalls = 0

  func resultSoFar() throws -> RecognitionResult? {
    guard early else { return nil }
    earlyCalls += 1
    let heard = Double(samplesThisUtterance) / 16000
    let words = reading.filter { $0.2 <= heard }
    return RecognitionResult(transcriptions: [transcription(words, score: -10)], start: 0, end: heard)
  }
}

/// Chunks of 10 ms: `quiet` seconds of near-silence, `loud` seconds of tone, `quiet` again.
func stream(quiet: Double, loud: Double, after: Double) -> [[Int16]] {
  var seed: UInt64 = 9
  let frames =
    frames("quiet", count: Int(quiet * 100), seed: &seed) + frames("tone", count: Int(loud * 100), seed: &seed)
    + frames("quiet", count: Int(after * 100), seed: &seed)
  return frames
}

/// `count` 10 ms frames of hiss (no pitch) at about -26 dBFS.
func hissFrames(count: Int, random: inout Signal.Random) -> [[Int16]] {
  (0..<count).map { _ in (0..<160).map { _ in Int16(Double.random(in: -3_000...3_000, using: &random)) } }
}

/// A detector whose gate refuses a command word without a voiced frame.
let refusingUnvoiced = Detector(
  calibrations: [:], fallback: Detector.untrained.fallback, gate: Detector.Gate(minimumVoiced: 0.02, minimumDynamicRange: 0),
  threshold: 0.5, rescueThreshold: 0.3)

/// The finals of a listener deciding early, over 10 ms chunks: 1 s of near-silence, 0.6 s
/// of tone, a 0.15 s pause (longer than quickEndSilence), `more` frames of tone, 1 s quiet.
func earlyFinals(_ recognizer: FakeRecognizer, more: Int, seed: UInt64) throws -> [Utterance] {
  recognizer.early = true
  let listener = CommandListener(
    recognizer: recognizer, endpointer: EndpointerSettings(endSilence: 0.5, quickEndSilence: 0.1, preRoll: 0.2))
  var seed = seed
  let chunks =
    frames("quiet", count: 100, seed: &seed) + frames("tone", count: 60, seed: &seed)
    + frames("quiet", count: 15, seed: &seed) + frames("tone", count: more, seed: &seed)
    + frames("quiet", count: 100, seed: &seed)
  var finals: [Utterance] = []
  for chunk in chunks {
    for case .final(let utterance) in try listener.feed(chunk) { finals.append(utterance) }
  }
  for case .final(let utterance) in try listener.finish() { finals.append(utterance) }
  return finals
}

@Suite("CommandListener")
struct CommandListenerTests {
  @Test("a command word's voicing is looked for a few frames beyond its time, into silence and noise but not into another word")
  func voicingFramesReachIntoSilence() {
    // The decoder gave a short "up"'s vowel (before 0.28 s) to the silence before it.
    let alone = transcription([("<sil>", 0, 0.28), ("up", 0.28, 0.39), ("<sil>", 0.39, 0.6)], score: -1)
    #expect(alone.voicingFrames(ofWordAt: 1, reach: 5) == 23..<44)
    #expect(alone.voicingFrames(ofWordAt: 1, reach: 0) == 28..<39)
    // Never into a neighbouring word's time, and never before the utterance's start.
    let between = transcription([("go", 0.1, 0.26), ("up", 0.28, 0.39), ("left", 0.41, 0.7)], score: -1)
    #expect(between.voicingFrames(ofWordAt: 1, reach: 5) == 26..<41)
    let first = transcription([("up", 0.02, 0.2)], score: -1)
    #expect(first.voicingFrames(ofWordAt: 0, reach: 5) == 0..<25)
  }

  @Test("a command followed by a short pause is acted on at once; what follows in the same utterance adds only new instructions")
  func earlyDecision() throws {
    // Speech 1.0-2.0 s: "down" ends at 0.4 s into it, then a 0.3 s pause (tone continues in
    // the stream, so the endpointer sees one utterance; the fake reading gives the words).
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6), ("right", 0.7, 1.0)])
    let finals = try earlyFinals(recognizer, more: 50, seed: 3)

    #expect(recognizer.starts == 1, "one utterance")
    #expect(finals.count == 2)
    #expect(finals.first?.isEarly == true)
    #expect(finals.first?.interpretation.directions == [.down])
    // Emitted 0.1 s into the pause, long before the 0.5 s end of speech.
    let pauseStart = 1.0 + 0.6
    #expect(abs((finals.first?.emittedAt ?? 0) - (pauseStart + 0.1)) < 0.03)
    // "right" is acted on at the next pause too; the end of speech then adds nothing.
    #expect(finals.last?.isEarly == true)
    #expect(finals.last?.interpretation.directions == [.right], "down is not emitted twice")
    #expect(recognizer.earlyCalls == 2)
    #expect(finals.flatMap(\.interpretation.directions) == [.down, .right])
  }

  @Test("after a command acted on, the next word and a short pause are looked at even when the streaming search heard no command in it")
  func lookAfterACommand() throws {
    // The streaming search reads the softer second word as "the"; the final pass as "right".
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6), ("right", 0.7, 1.0)])
    recognizer.streamingReading = [("down", 0.3, 0.6), ("the", 0.7, 1.0)]
    let finals = try earlyFinals(recognizer, more: 50, seed: 3)
    #expect(finals.map(\.isEarly) == [true, true], "right is acted on at the pause, not 0.5 s later")
    #expect(finals.flatMap(\.interpretation.directions) == [.down, .right])
    // The first word of an utterance still needs the streaming search to hear a command
    // ("move" and a pause waits for the direction).
    let first = FakeRecognizer(reading: [("right", 0.3, 0.6)])
    first.streamingReading = [("the", 0.3, 0.6)]
    let alone = try earlyFinals(first, more: 0, seed: 3)
    #expect(first.earlyCalls == 0)
    #expect(alone.map(\.isEarly) == [false])
  }

  @Test("in a noise the endpointer hears no pause in, a command is acted on once the streaming search reads a short silence after it")
  func decoderPause() throws {
    /// The finals of 1 s of a background (the endpointer's floor from the first frame) and 1.2 s
    /// of a tone 12 dB over it (no pause to the endpointer), in which the streaming search reads
    /// "left" and then `streaming` (the pause after it), and when the utterance started.
    /// `background`: the background's amplitude (0: a room's quiet).
    func finals(
      _ streaming: [(String, Double, Double)], background: Double = 2000,
      settings: EndpointerSettings = .init(highestInitialFloor: 0)
    ) throws -> (started: Double, finals: [Utterance]) {
      let recognizer = FakeRecognizer(reading: [("left", 0.3, 0.6)])
      recognizer.streamingReading = [("<sil>", 0, 0.3), ("left", 0.3, 0.6)] + streaming
      recognizer.early = true
      let listener = CommandListener(recognizer: recognizer, endpointer: settings)
      var seed: UInt64 = 5
      var started = -1.0
      var finals: [Utterance] = []
      let before = background > 0 ? frames("tone", count: 100, amplitude: background, seed: &seed) : frames("quiet", count: 100, seed: &seed)
      for chunk in before + frames("tone", count: 120, seed: &seed) {
        for event in try listener.feed(chunk) {
          if case .speechStarted(let at) = event { started = at }
          if case .final(let utterance) = event { finals.append(utterance) }
        }
      }
      for case .final(let utterance) in try listener.finish() { finals.append(utterance) }
      return (started, finals)
    }
    let heard = try finals([("<sil>", 0.6, 0.74)])
    #expect(heard.finals.first?.isEarly == true)
    #expect(heard.finals.first?.interpretation.directions == [.left])
    // Once the reading holds 0.14 s of silence after the word (looked at every 20 ms).
    let after = (heard.finals.first?.emittedAt ?? 0) - heard.started
    #expect(after >= 0.74 - 1e-9 && after <= 0.77, "acted on \(after) s into the utterance")
    #expect(heard.finals.flatMap(\.interpretation.directions) == [.left], "not acted on twice")
    // A shorter silence is no pause: the utterance's end decides.
    let short = try finals([("<sil>", 0.6, 0.73)])
    #expect(short.finals.map(\.isEarly) == [false])
    #expect(short.finals.first?.interpretation.directions == [.left])
    // In a room's quiet the endpointer's pauses decide, as they did.
    let quiet = try finals([("<sil>", 0.6, 0.8)], background: 0)
    #expect(quiet.finals.map(\.isEarly) == [false])
    // Nor for an end-of-speech rule that waits 0.5 s for every word (the v1 baseline).
    let waiting = try finals([("<sil>", 0.6, 0.8)], settings: EndpointerSettings(endSilence: 0.5, quickEndSilence: 0.5, highestInitialFloor: 0))
    #expect(waiting.finals.map(\.isEarly) == [false])
  }

  @Test("a noise without a voice that breaks the endpointer's quiet again and again is not read again by the final pass after a command acted on or refused, nor at its end after one acted on; a voice is")
  func noFinalPassOnVoicelessNoise() throws {
    // "down" (a voiced tone, 0.2-0.8 s into the utterance) acted on at its pause, then four
    // bursts of hiss (or of the tone) 0.15 s apart: each quiet run is a pause to the
    // endpointer, none the utterance's end.
    /// `finalReading`: what the final pass reads where the streaming search heard "down".
    func earlyCalls(
      bursts kind: String, weighs: Bool = true, finalReading: String = "down"
    ) throws -> (calls: Int, finals: [Utterance], ends: Int) {
      let recognizer = FakeRecognizer(reading: [(finalReading, 0.3, 0.8)])
      recognizer.streamingReading = [("down", 0.3, 0.8)]
      recognizer.early = true
      recognizer.weighs = weighs
      let listener = CommandListener(
        recognizer: recognizer, interpreter: Interpreter(settings: InterpreterSettings(detector: refusingUnvoiced)),
        endpointer: EndpointerSettings(endSilence: 0.5, quickEndSilence: 0.1, preRoll: 0.2))
      var seed: UInt64 = 6
      var random = Signal.Random(seed: 9)
      var chunks = frames("quiet", count: 100, seed: &seed) + frames("tone", count: 60, seed: &seed)
      for _ in 0..<4 {
        chunks += frames("quiet", count: 15, seed: &seed)
        chunks +=
          kind == "tone"
          ? frames("tone", count: 5, seed: &seed)
          : hissFrames(count: 5, random: &random)
      }
      chunks += frames("quiet", count: 100, seed: &seed)
      var finals: [Utterance] = []
      for chunk in chunks {
        for case .final(let utterance) in try listener.feed(chunk) { finals.append(utterance) }
      }
      for case .final(let utterance) in try listener.finish() { finals.append(utterance) }
      return (recognizer.earlyCalls, finals, recognizer.ends)
    }
    let hissed = try earlyCalls(bursts: "hiss")
    #expect(hissed.finals.first?.isEarly == true)
    #expect(hissed.finals.flatMap(\.interpretation.directions) == [.down])
    #expect(hissed.calls == 1, "only the command's pause asks the final pass")
    // Nor is the utterance's end decoded: what is left of it after "down" is refused as noise.
    #expect(hissed.ends == 0)
    #expect(hissed.finals.count == 2)
    #expect(hissed.finals.last?.interpretation.rejection == .noCommand)
    if let down = hissed.finals.first?.interpretation.instructions.first, let rest = hissed.finals.last?.result {
      #expect(abs(rest.start - down.end) < 1e-9, "the rest begins where the command ends")
    }
    // A voice after the command is looked at at each pause, as before.
    let voice = try earlyCalls(bursts: "tone")
    #expect(voice.calls >= 4, "the bursts' pauses asked \(voice.calls - 1) times")
    #expect(voice.ends == 1)
    #expect(voice.finals.flatMap(\.interpretation.directions) == [.down])
    // Words without margins (no final pass to weigh them, no gate): the hiss is looked at too.
    let unweighed = try earlyCalls(bursts: "hiss", weighs: false)
    #expect(unweighed.calls >= 4 && unweighed.ends == 1)
    // A "down" the final pass reads as another word at its pause is not read again at each
    // pause of the hiss after it (the streaming search still ends in "down"); the utterance's
    // end decides, as it would have.
    let refused = try earlyCalls(bursts: "hiss", finalReading: "the")
    #expect(refused.calls == 1, "read again \(refused.calls - 1) times")
    #expect(refused.ends == 1)
    #expect(refused.finals.flatMap(\.interpretation.directions).isEmpty)
    #expect(try earlyCalls(bursts: "tone", finalReading: "the").calls >= 4)
  }

  @Test("after an early decision the window shows nothing as heard until speech resumes, so nothing stale is left")
  func noStalePartial() throws {
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6)])
    // The streaming search goes on hearing things in the pause after the decision.
    recognizer.streamingReading = [("down", 0.3, 0.6), ("up", 0.9, 1.0)]
    recognizer.early = true
    let listener = CommandListener(
      recognizer: recognizer, endpointer: EndpointerSettings(endSilence: 0.5, quickEndSilence: 0.1, preRoll: 0.2))
    var stage = Stage(animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)))
    var seed: UInt64 = 4
    var partials = 0
    var finals = 0
    for chunk in frames("quiet", count: 100, seed: &seed) + frames("tone", count: 60, seed: &seed) + frames("quiet", count: 100, seed: &seed) {
      for event in try listener.feed(chunk) {
        if case .partial = event { partials += 1 }
        if case .final = event { finals += 1 }
        _ = stage.apply(event, at: listener.time)
      }
    }
    #expect(partials > 0)
    #expect(finals == 1)
    // The utterance ended without more speech (no final pass, no final result).
    #expect(recognizer.cancels == 1)
    #expect(stage.scene(at: listener.time).partial.isEmpty)
  }

  @Test("in a quiet room an early decision asks its command words to stand 15 dB over their utterance; in noise, or standing out, it is made")
  func earlyStandout() {
    let interpreter = Interpreter()
    // An utterance starting 2 s into the stream: a room's quiet at -70 dBFS, 0.7 s long, and
    // its words (times in the stream) at `level` dBFS.
    func mayDecide(
      _ words: [(String, Double, Double)] = [("up", 2.2, 2.5)], level: Double = -55, range: Double,
      routed: Bool = false, committed: [Instruction] = []
    ) -> Bool {
      let start = 2.0
      var heard = transcription(words, score: -10)
      for w in heard.segments.indices { heard.segments[w].margin = 10 }
      var energies = [Double](repeating: -70, count: 70)
      for (_, from, to) in words {
        let frames = WordSegment.frames(from: from - start, to: to - start)
        for f in frames where f < energies.count { energies[f] = level }
      }
      var result = RecognitionResult(
        transcriptions: [heard], start: start, end: start + 0.7, signal: SignalEvidence(voiced: 0.2, longestVoiced: 0.1, dynamicRange: range))
      if routed { result.voiceModel = "synthetic" }
      return CommandListener.mayDecideEarly(
        result, interpreter: interpreter, lastCommandEnd: nil, committed: committed, energies: energies, start: start)
    }
    // A word said over a quiet room stands far over it (15 dB over the utterance's median, the
    // room's level).
    #expect(mayDecide(level: -55, range: 50))
    #expect(mayDecide(level: -40, range: 60))
    #expect(!mayDecide(level: -55.1, range: 50))
    // A cry read as "up", most of its own utterance, in a room's quiet: its median is the
    // cry's, and the decision is left to the utterance's end.
    #expect(!mayDecide([("up", 2.0, 2.6)], level: -40, range: 50))
    // Amid noise (a range under 30 dB) a command stands little over the noise: not asked.
    #expect(mayDecide([("up", 2.0, 2.6)], level: -40, range: 29.9))
    // A synthetic voice (routed to its model): not asked; its words run closer together.
    #expect(mayDecide([("up", 2.0, 2.6)], level: -40, range: 90, routed: true))
    // Commands said without pauses fill their utterance: each stands over the rest of it, the
    // other commands left out of the median.
    let run = [("left", 2.1, 2.3), ("down", 2.3, 2.5)]
    #expect(mayDecide(run, level: -45, range: 50))
    // A word already acted on early in the utterance is not asked again: only the new one, and
    // the word acted on is left out of its median.
    let words = [("up", 2.0, 2.3), ("left", 2.45, 2.6)]
    #expect(!mayDecide(words, level: -40, range: 50))
    #expect(mayDecide(words, level: -40, range: 50, committed: [Instruction(direction: .up, heard: "up", start: 2.0, end: 2.3)]))
  }

  @Test("in noise an early decision asks each command word for a steady voiced run, which the utterance's end may relax")
  func earlyVoicingInNoise() throws {
    // The shipped gate's voicing: 20 ms of steady voicing, one frame for a clear margin (10) or
    // in a long utterance in a room's noise. Confidence 0.62 at a margin of 5.
    let needed = CommandListener.earlyVoicedInNoise
    try #require(needed > 0.02)
    let gate = Detector.Gate(minimumVoiced: 0.02, minimumDynamicRange: 0, clearMargin: 10)
    let detector = Detector(calibrations: [:], fallback: Detector.untrained.fallback, gate: gate, threshold: 0.5, rescueThreshold: 0.3)
    let interpreter = Interpreter(settings: InterpreterSettings(detector: detector))
    let start = 2.0
    func mayDecide(voiced: Double?, range: Double = 18, margin: Double = 5, routed: Bool = false) -> Bool {
      var heard = transcription([("move", 2.0, 2.2), ("up", 2.2, 2.5)], score: -10)
      heard.segments[1].margin = margin
      heard.segments[1].voiced = voiced
      var result = RecognitionResult(
        transcriptions: [heard], start: start, end: start + 0.7,
        signal: SignalEvidence(voiced: 0.2, longestVoiced: 0.1, dynamicRange: range, duration: 0.7))
      if routed { result.voiceModel = "synthetic" }
      // The interpreter takes the word (the gate relaxed at its end), or the test asks nothing.
      guard !interpreter.interpret(result, lastCommandEnd: nil).instructions.isEmpty else {
        Issue.record("the interpreter took no command (voiced \(String(describing: voiced)), margin \(margin))")
        return false
      }
      // The word stands 20 dB over the rest: the quiet room's rule takes it.
      var energies = [Double](repeating: -60, count: 70)
      for f in WordSegment.frames(from: 0.2, to: 0.5) { energies[f] = -40 }
      return CommandListener.mayDecideEarly(result, interpreter: interpreter, lastCommandEnd: nil, energies: energies, start: start)
    }
    // In a room's noise, one voiced frame (a clear margin's, or a long noisy utterance's, at
    // the utterance's end) or the gate's 20 ms waits for the end; a longer run is decided on now.
    #expect(!mayDecide(voiced: Detector.Gate.clearVoiced))
    #expect(!mayDecide(voiced: Detector.Gate.clearVoiced, margin: 20))
    #expect(!mayDecide(voiced: 0.02))
    #expect(!mayDecide(voiced: needed - 0.01))
    #expect(mayDecide(voiced: needed))
    // Voicing not measured: not asked, as the gate does not ask it.
    #expect(mayDecide(voiced: nil))
    // In a room's quiet the standout rule decides, and a synthetic voice is not asked.
    #expect(mayDecide(voiced: Detector.Gate.clearVoiced, range: 50, margin: 20))
    #expect(mayDecide(voiced: Detector.Gate.clearVoiced, routed: true))
  }

  @Test("what an early decision acted on is settled, and an utterance its early decisions end is not decoded again")
  func settledAudio() throws {
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6), ("right", 0.7, 1.0)])
    let finals = try earlyFinals(recognizer, more: 50, seed: 3)
    #expect(finals.count == 2)
    // Each early decision settles the utterance up to its own time (the utterance starts
    // 0.2 s of pre-roll before the tone, at 0.8 s).
    let utteranceStart = 0.8
    #expect(recognizer.settled.count == 2)
    for (time, final) in zip(recognizer.settled, finals) {
      #expect(abs(time - (final.emittedAt - utteranceStart)) < 0.03, "settled at \(time), emitted at \(final.emittedAt)")
    }
    // Nothing was said after the second decision: no final pass at the end.
    #expect(recognizer.cancels == 1)
    #expect(recognizer.ends == 0)
  }

  @Test("an utterance goes from speech start to a final result with stream-time words and instructions")
  func wholeUtterance() throws {
    let recognizer = FakeRecognizer(reading: [("move", 0.3, 0.5), ("left", 0.5, 0.8)])
    let listener = CommandListener(
      recognizer: recognizer, endpointer: EndpointerSettings(endSilence: 0.3, preRoll: 0.2))
    var events: [ListenerEvent] = []
    for chunk in stream(quiet: 1.0, loud: 0.8, after: 1.0) {
      events += try listener.feed(chunk)
    }
    events += try listener.finish()

    guard case .speechStarted(let start) = events.first else {
      Issue.record("expected speech to start first, got \(events)")
      return
    }
    // The tone starts at 1.0 s and is found 30 ms in; the utterance starts 200 ms before it.
    #expect(abs(start - 0.80) < 0.005)
    let finals = events.compactMap { if case .final(let u) = $0 { u } else { nil } }
    try #require(finals.count == 1)
    let utterance = finals[0]
    #expect(utterance.interpretation.directions == [.left])
    // Word times are stream times: shifted by where the utterance started.
    #expect(abs(utterance.result.bestTranscription.segments[1].start - (start + 0.5)) < 1e-9)
    // Emitted once 300 ms of silence followed the tone (which ends at 1.8 s; the 10 ms
    // after it still hold the endpointer's high-pass ringing).
    #expect(abs(utterance.emittedAt - 2.11) < 0.005)
    #expect(events.contains { if case .partial = $0 { true } else { false } })
    #expect(recognizer.starts == 1)
  }

  @Test("an utterance without a voiced frame is not decoded when the gate refuses every word without one; a voiced one is")
  func unvoicedUtteranceIsNotDecoded() throws {
    // 1 s of near-silence, 0.5 s of hiss (no pitch) or of a 440 Hz tone (voiced), 1 s of near-silence.
    func finals(voiced: Bool, weighs: Bool, gate: Detector = refusingUnvoiced, threshold: Double? = nil) throws -> (FakeRecognizer, [Utterance]) {
      let recognizer = FakeRecognizer(reading: [("up", 0.2, 0.5)])
      recognizer.weighs = weighs
      let listener = CommandListener(
        recognizer: recognizer, interpreter: Interpreter(settings: InterpreterSettings(detector: gate, minimumConfidence: threshold)),
        endpointer: EndpointerSettings(endSilence: 0.3, preRoll: 0.2))
      var random = Signal.Random(seed: 8)
      var seed: UInt64 = 4
      let sound =
        voiced
        ? frames("tone", count: 50, seed: &seed)
        : hissFrames(count: 50, random: &random)
      var utterances: [Utterance] = []
      for chunk in frames("quiet", count: 100, seed: &seed) + sound + frames("quiet", count: 100, seed: &seed) {
        for case .final(let utterance) in try listener.feed(chunk) { utterances.append(utterance) }
      }
      for case .final(let utterance) in try listener.finish() { utterances.append(utterance) }
      return (recognizer, utterances)
    }
    let (hissed, hiss) = try finals(voiced: false, weighs: true)
    try #require(hiss.count == 1)
    #expect(hissed.ends == 0 && hissed.cancels == 1)
    #expect(hiss[0].interpretation.instructions.isEmpty && hiss[0].interpretation.rejection == .nothingHeard)
    #expect(hiss[0].result.signal?.voiced == 0)
    // A voice is decoded; so is the hiss when the words carry no margins for the gate to
    // weigh (no final pass), or when the gate lets a word without a voiced frame through.
    #expect(try finals(voiced: true, weighs: true).0.ends == 1)
    #expect(try finals(voiced: false, weighs: false).0.ends == 1)
    let open = Detector(calibrations: [:], fallback: Detector.untrained.fallback, gate: .open, threshold: 0.5, rescueThreshold: 0.3)
    #expect(try finals(voiced: false, weighs: true, gate: open).0.ends == 1)
    // At a threshold of 0 even a word the gate refuses (confidence 0) acts: decoded too.
    #expect(try finals(voiced: false, weighs: true, threshold: 0).0.ends == 1)
  }

  @Test("a steady noise from the start is cut out as endless sound, and so is the next utterance until a pause is heard")
  func endlessSound() throws {
    let recognizer = FakeRecognizer(reading: [("up", 0.1, 0.3)])
    let listener = CommandListener(recognizer: recognizer)
    var random = Signal.Random(seed: 5)
    // A hiss at about -26 dBFS from the first sample: 2.5 s of it, then a tone 15 dB over it
    // for 0.5 s in it, then 1 s of near-silence, then the tone alone and silence.
    var seed: UInt64 = 3
    let tone = frames("tone", count: 50, amplitude: 14_000, seed: &seed)
    let inHiss = zip(tone, hissFrames(count: 50, random: &random)).map { zip($0, $1).map { Int16(clamping: Int($0) + Int($1)) } }
    let chunks =
      hissFrames(count: 250, random: &random) + inHiss + frames("quiet", count: 100, seed: &seed) + frames("tone", count: 50, seed: &seed)
      + frames("quiet", count: 100, seed: &seed)
    var finals: [Utterance] = []
    for chunk in chunks {
      for event in try listener.feed(chunk) { if case .final(let utterance) = event { finals.append(utterance) } }
    }
    for event in try listener.finish() { if case .final(let utterance) = event { finals.append(utterance) } }
    try #require(finals.count == 3, "\(finals.map { ($0.result.start, $0.result.end, $0.wasCut) })")
    // The hiss, cut within 2 s; the tone in it; the tone after a pause.
    #expect(finals[0].wasCut && finals[0].result.end < 2.0)
    #expect(finals.map { $0.result.signal?.endless == true } == [true, true, false])
  }

  @Test("a voice rising out of a bed of sound is decided in an utterance of its own; a word of the bed's utterance reaching into the rise is left to it")
  func riseOutOfABed() throws {
    // The reading ends where the voice begins in the bed's utterance (3.95-4.1 s of it).
    let recognizer = FakeRecognizer(reading: [("up", 3.95, 4.1)])
    recognizer.finalReading = [("up", 3.95, 4.1)]
    let listener = CommandListener(recognizer: recognizer)
    var finals: [Utterance] = []
    for chunk in EndpointerTests().bedOfSound(frames: 520, voiceFrom: 400, to: 450) {
      for case .final(let utterance) in try listener.feed(chunk) { finals.append(utterance) }
    }
    try #require(finals.count >= 2, "the bed's utterance ends at the rise, the voice's once the bed is back")
    let bed = finals[0]
    #expect(bed.wasCut && bed.result.end > 4.0 && bed.result.end < 4.1, "\(bed.result.start)-\(bed.result.end)")
    #expect(bed.result.bestTranscription.segments.filter { !$0.isFiller }.isEmpty, "\(bed.result.bestTranscription)")
    #expect(bed.interpretation.instructions.isEmpty)
    // The voice's utterance begins with the frames before the cut as its pre-roll, and keeps
    // its words (it ended at the fall, handing nothing over).
    let voice = finals[1]
    #expect(voice.result.start > 3.6 && voice.result.start < 4.0 && voice.result.end > 4.5 && voice.result.end < 5.1,
      "\(voice.result.start)-\(voice.result.end)")
    #expect(voice.interpretation.directions == [.up])
  }

  @Test("chunks of any size are fine, and time counts every sample")
  func oddChunks() throws {
    let recognizer = FakeRecognizer(reading: [("up", 0.1, 0.3)])
    let listener = CommandListener(recognizer: recognizer)
    let samples = stream(quiet: 0.5, loud: 0.5, after: 1.0).flatMap { $0 }
    var index = 0
    var finals = 0
    let sizes = [1, 7, 160, 333, 1000]
    var turn = 0
    while index < samples.count {
      let size = min(sizes[turn % sizes.count], samples.count - index)
      turn += 1
      for event in try listener.feed(Array(samples[index..<index + size])) {
        if case .final = event { finals += 1 }
      }
      index += size
    }
    for event in try listener.finish() {
      if case .final = event { finals += 1 }
    }
    #expect(finals == 1)
    #expect(listener.samplesFed == samples.count)
  }

  @Test("a stream that ends mid-utterance still gives the final result")
  func finishMidUtterance() throws {
    let listener = CommandListener(recognizer: FakeRecognizer(reading: [("down", 0.1, 0.4)]))
    var chunks = stream(quiet: 0.5, loud: 1.0, after: 0)
    let result = try listener.run(next: { chunks.isEmpty ? nil : chunks.removeFirst() })
    #expect(result.directions == [.down])
    #expect(abs(result.duration - 1.5) < 1e-9)
  }

  @Test("silence gives nothing at all")
  func silence() throws {
    let recognizer = FakeRecognizer(reading: [("up", 0, 0.1)])
    let listener = CommandListener(recognizer: recognizer)
    var events: [ListenerEvent] = []
    for chunk in stream(quiet: 3, loud: 0, after: 0) { events += try listener.feed(chunk) }
    events += try listener.finish()
    #expect(events.isEmpty)
    #expect(recognizer.samplesSeen == 0)
  }

  @Test("a later reading that gains a word before an early command adds that word, and does not repeat the command")
  func dedupByTime() throws {
    // Early: "down" alone. At the end of speech the whole utterance reads "up down", the
    // boundaries a little moved: only "up" is new.
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6)])
    recognizer.finalReading = [("up", 0.0, 0.2), ("down", 0.32, 0.62)]
    let finals = try earlyFinals(recognizer, more: 20, seed: 5)
    #expect(finals.first?.isEarly == true)
    #expect(finals.first?.interpretation.directions == [.down])
    #expect(finals.flatMap(\.interpretation.directions).sorted { $0.rawValue < $1.rawValue } == [.down, .up])
    #expect(finals.last?.interpretation.directions == [.up])
  }
}

@Suite("CommandListener after an early decision")
struct EarlyThenOtherTests {
  @Test("an early \"down\" followed by other speech ends in a final that says why it moved nothing more")
  func earlyThenHello() throws {
    let recognizer = FakeRecognizer(reading: [("down", 0.3, 0.6), ("hello", 0.75, 0.95)])
    let finals = try earlyFinals(recognizer, more: 20, seed: 7)
    #expect(finals.flatMap(\.interpretation.directions) == [.down])
    let last = try #require(finals.last)
    #expect(last.interpretation.instructions.isEmpty)
    #expect(last.interpretation.rejection == .notACommand(heard: ["hello"]), "\(String(describing: last.interpretation.rejection))")
  }
}

extension CommandListener {
  /// `mayDecideEarly` for `result` as `interpreter` reads it, as `decideEarly` asks it.
  static func mayDecideEarly(
    _ result: RecognitionResult, interpreter: Interpreter, lastCommandEnd: Double?, committed: [Instruction] = [], energies: [Double], start: Double
  ) -> Bool {
    mayDecideEarly(
      result, instructions: interpreter.interpret(result, lastCommandEnd: lastCommandEnd).instructions,
      vocabulary: interpreter.vocabulary, committed: committed, energies: energies, start: start)
  }
}
