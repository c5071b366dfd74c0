import Foundation
import Testing

@testable import DirectMeCore

/// Builds a transcription from "word start end" triples.
func transcription(_ words: [(String, Double, Double)], score: Double, confidence: Double? = nil) -> Transcription {
  Transcription(
    segments: words.map { WordSegment(word: $0.0, start: $0.1, end: $0.2, confidence: confidence) }, score: score)
}

@Suite("Interpreter")
struct InterpreterTests {
  let interpreter = Interpreter(settings: InterpreterSettings(rescueMargin: 2.0))

  @Test("a single command becomes one instruction")
  func singleCommand() {
    let result = RecognitionResult(
      transcriptions: [transcription([("up", 0.2, 0.5)], score: -10)], start: 0, end: 1)
    let interpretation = interpreter.interpret(result)
    #expect(interpretation.directions == [.up])
    #expect(interpretation.rejection == nil)
    #expect(interpretation.instructions.first?.start == 0.2)
  }

  @Test("several commands keep their order")
  func multipleCommands() {
    let result = RecognitionResult(
      transcriptions: [transcription([("up", 0, 0.3), ("up", 0.5, 0.8), ("left", 1, 1.4)], score: -10)],
      start: 0, end: 2)
    #expect(interpreter.interpret(result).directions == [.up, .up, .left])
  }

  @Test("carrier words are ignored")
  func carriers() {
    let words = ["move", "the", "ninja", "down", "now", "please", "then", "go", "right", "and", "left"]
    let segments = words.enumerated().map { ($0.element, Double($0.offset), Double($0.offset) + 0.5) }
    let result = RecognitionResult(transcriptions: [transcription(segments, score: -10)], start: 0, end: 12)
    let interpretation = interpreter.interpret(result)
    #expect(interpretation.directions == [.down, .right, .left])
    #expect(interpretation.rejection == nil)
  }

  @Test("fillers are not words")
  func fillers() {
    let result = RecognitionResult(
      transcriptions: [transcription([("<sil>", 0, 0.2), ("[NOISE]", 0.2, 0.4), ("(NULL)", 0.4, 0.4)], score: -5)],
      start: 0, end: 1)
    #expect(interpreter.interpret(result).rejection == .nothingHeard)
  }

  @Test("no word read in audio with a voice in it is refused as no command, not as silence or noise")
  func voiceWithoutWords() {
    var result = RecognitionResult(transcriptions: [], start: 0, end: 1)
    result.signal = SignalEvidence(voiced: 0.3, longestVoiced: 0.2, dynamicRange: 40)
    #expect(interpreter.interpret(result).rejection == .noCommand)
    #expect(interpreter.interpret(result).rejection?.code == "no-command")
    result.signal = SignalEvidence(voiced: 0.05, longestVoiced: 0.04, dynamicRange: 6)
    #expect(interpreter.interpret(result).rejection == .nothingHeard)
  }

  @Test("a near-miss is rescued from a close alternate at the same time")
  func rescueTaken() throws {
    let best = transcription([("move", 0, 0.3), ("drown", 0.35, 0.7)], score: -100)
    let other = transcription([("move", 0, 0.3), ("brown", 0.35, 0.7)], score: -100.5)
    let alternate = transcription([("move", 0, 0.3), ("down", 0.36, 0.72)], score: -101.2)
    let result = RecognitionResult(transcriptions: [best, other, alternate], start: 0, end: 1)
    let interpretation = interpreter.interpret(result)
    #expect(interpretation.directions == [.down])
    let rescue = try #require(interpretation.rescues.first)
    #expect(rescue.heard == "drown")
    #expect(rescue.taken == .down)
    #expect(rescue.alternate == 2)
    #expect(abs(rescue.scoreGap - 1.2) < 1e-9)
  }

  @Test("no rescue from an alternate beyond the margin")
  func rescueRefusedBeyondMargin() {
    let best = transcription([("drown", 0.35, 0.7)], score: -100)
    let alternate = transcription([("down", 0.35, 0.7)], score: -102.5)
    let interpretation = interpreter.interpret(RecognitionResult(transcriptions: [best, alternate], start: 0, end: 1))
    #expect(interpretation.directions.isEmpty)
    #expect(interpretation.rejection == .notACommand(heard: ["drown"]))
  }

  @Test("no rescue from a command at another time")
  func rescueNeedsTimeAlignment() {
    let best = transcription([("drown", 0.0, 0.3), ("brown", 0.8, 1.0)], score: -100)
    let alternate = transcription([("drown", 0.0, 0.3), ("down", 0.4, 0.7)], score: -100.1)
    let interpretation = interpreter.interpret(RecognitionResult(transcriptions: [best, alternate], start: 0, end: 1))
    #expect(interpretation.directions.isEmpty)
  }

  @Test("speech that is not a command is rejected with the words heard")
  func rejection() {
    let result = RecognitionResult(
      transcriptions: [transcription([("turn", 0, 0.2), ("on", 0.2, 0.3), ("the", 0.3, 0.4), ("light", 0.4, 0.7)], score: -50)],
      start: 0, end: 1)
    let interpretation = interpreter.interpret(result)
    #expect(interpretation.instructions.isEmpty)
    #expect(interpretation.rejection == .notACommand(heard: ["turn", "on", "the", "light"]))
    #expect(interpretation.rejection?.reason.contains("turn on the light") == true)
  }

  @Test("commands below the confidence threshold are dropped, and the utterance says why")
  func lowConfidence() {
    var settings = InterpreterSettings()
    settings.minimumConfidence = 0.6
    let interpreter = Interpreter(settings: settings)
    let unsure = RecognitionResult(
      transcriptions: [transcription([("up", 0, 0.3)], score: -10, confidence: 0.4)], start: 0, end: 1)
    let interpretation = interpreter.interpret(unsure)
    #expect(interpretation.instructions.isEmpty)
    #expect(interpretation.rejection == .lowConfidence(heard: ["up"], confidence: 0.4, threshold: 0.6))
    let sure = RecognitionResult(
      transcriptions: [transcription([("up", 0, 0.3)], score: -10, confidence: 0.9)], start: 0, end: 1)
    #expect(interpreter.interpret(sure).directions == [.up])
  }

  @Test("a command buried in other speech is refused when a limit is set")
  func otherSpeech() {
    var settings = InterpreterSettings()
    settings.maximumOtherWords = 1
    let words = [("pick", 0.0, 0.2), ("up", 0.2, 0.4), ("the", 0.4, 0.5), ("phone", 0.5, 0.8)]
    let result = RecognitionResult(transcriptions: [transcription(words, score: -10)], start: 0, end: 1)
    let interpretation = Interpreter(settings: settings).interpret(result)
    #expect(interpretation.instructions.isEmpty)
    #expect(interpretation.rejection?.code == "too-much-other-speech")
    // The default has no limit.
    #expect(Interpreter().interpret(result).directions == [.up])
  }
}

@Suite("Interpreter with a detector")
struct DetectorInterpreterTests {
  /// Confidence 0.5 at a margin of 0; 0.73 at +10; 0.27 at -10.
  let interpreter = Interpreter(
    settings: InterpreterSettings(
      detector: Detector(
        calibrations: [:], fallback: .init(slope: 0.1, intercept: 0, minimumDuration: 0.1),
        gate: .init(minimumVoiced: 0.03, minimumDynamicRange: 6), threshold: 0.6, rescueThreshold: 0.3)))
  let voiced = SignalEvidence(voiced: 0.3, longestVoiced: 0.2, dynamicRange: 30)

  func result(_ margin: Double, garbage: String = "go", soundsLike: String? = nil, signal: SignalEvidence?) -> RecognitionResult {
    let commands = Transcription(
      segments: [WordSegment(word: "move", start: 0, end: 0.3, score: -30), WordSegment(word: "down", start: 0.3, end: 0.7, score: -40, margin: margin)],
      score: -70)
    let others = Transcription(
      segments: [
        WordSegment(word: "move", start: 0, end: 0.3, score: -30),
        WordSegment(word: garbage, start: 0.32, end: 0.7, score: -40 - margin, soundsLike: soundsLike),
      ], score: -70 - margin)
    return RecognitionResult(transcriptions: [others, commands].sorted { $0.score > $1.score }, start: 0, end: 1, signal: signal)
  }

  @Test("a command sure enough is taken with its confidence, even when the other reading scores better")
  func sure() throws {
    let interpretation = interpreter.interpret(result(10, signal: voiced))
    #expect(interpretation.directions == [.down])
    let confidence = try #require(interpretation.instructions.first?.confidence)
    #expect(abs(confidence - 1 / (1 + exp(-1))) < 1e-9)
  }

  @Test("an unsure command is refused with its confidence and the threshold")
  func unsure() {
    let interpretation = interpreter.interpret(result(-5, signal: voiced))
    #expect(interpretation.directions.isEmpty)
    guard case .lowConfidence(_, let confidence, let threshold) = interpretation.rejection else {
      Issue.record("expected a low-confidence rejection, got \(String(describing: interpretation.rejection))")
      return
    }
    #expect(confidence < threshold)
    #expect(threshold == 0.6)
  }

  @Test("a nearly sure command is rescued when the other reading heard a near-miss of it at the same time")
  func rescue() throws {
    let interpretation = interpreter.interpret(result(-5, garbage: "drown", soundsLike: "down", signal: voiced))
    #expect(interpretation.directions == [.down])
    let rescue = try #require(interpretation.rescues.first)
    #expect(rescue.heard == "drown")
    #expect(rescue.taken == .down)
    // Below the rescue threshold nothing is rescued.
    #expect(interpreter.interpret(result(-15, garbage: "drown", soundsLike: "down", signal: voiced)).directions.isEmpty)
  }

  @Test("audio without voice moves nothing, whatever the margin")
  func gate() {
    let interpretation = interpreter.interpret(result(50, signal: SignalEvidence(voiced: 0, longestVoiced: 0, dynamicRange: 2)))
    #expect(interpretation.directions.isEmpty)
    #expect(interpretation.rejection == .noVoice)
    // Over other voices (babble) a voice must stand further out; refused, it is said so.
    var detector = interpreter.settings.detector
    detector.gate.overVoices = .init(share: 0.3, minimumDynamicRange: 10)
    var settings = interpreter.settings
    settings.detector = detector
    let amid = Interpreter(settings: settings)
    let babble = SignalEvidence(voiced: 0.6, longestVoiced: 0.2, dynamicRange: 8, backgroundVoicing: 0.6)
    let refused = amid.interpret(result(50, signal: babble))
    #expect(refused.directions.isEmpty)
    #expect(refused.rejection == .amidVoices)
    #expect(!amid.interpret(result(50, signal: SignalEvidence(voiced: 0.6, longestVoiced: 0.2, dynamicRange: 12, backgroundVoicing: 0.6))).directions.isEmpty)
  }

  @Test("a command word buried in a long stretch of sound (music) moves nothing, and is said so")
  func buried() {
    var settings = interpreter.settings
    settings.detector.gate.continuousSound = .init(seconds: 3, minimumStandout: 8)
    let listening = Interpreter(settings: settings)
    let music = SignalEvidence(voiced: 4, longestVoiced: 0.4, dynamicRange: 14, backgroundVoicing: 0.7, duration: 8)
    var heard = result(50, signal: music)
    for t in heard.transcriptions.indices {
      for w in heard.transcriptions[t].segments.indices where heard.transcriptions[t].segments[w].margin != nil {
        heard.transcriptions[t].segments[w].standout = 4
      }
    }
    let refused = listening.interpret(heard)
    #expect(refused.directions.isEmpty)
    #expect(refused.rejection == .buried)
    #expect(refused.rejection?.code == "buried")
    // Said over it, louder than what plays: taken.
    for t in heard.transcriptions.indices {
      for w in heard.transcriptions[t].segments.indices where heard.transcriptions[t].segments[w].margin != nil {
        heard.transcriptions[t].segments[w].standout = 12
      }
    }
    #expect(!listening.interpret(heard).directions.isEmpty)
  }

  @Test("a threshold given by the user overrides the detector's")
  func override() {
    var settings = interpreter.settings
    settings.minimumConfidence = 0.9
    #expect(Interpreter(settings: settings).interpret(result(10, signal: voiced)).directions.isEmpty)
  }
}

@Suite("Interpreter with a detector, word by word")
struct WordGateTests {
  /// An interpreter whose every command word has one calibration (slope 0.1), threshold 0.6.
  func interpreter(
    intercept: Double = 0, minimumDuration: Double = 0.1, gate: Detector.Gate = .init(minimumVoiced: 0.03, minimumDynamicRange: 6)
  ) -> Interpreter {
    let detector = Detector(
      calibrations: [:], fallback: .init(slope: 0.1, intercept: intercept, minimumDuration: minimumDuration), gate: gate,
      threshold: 0.6, rescueThreshold: 0.6)
    return Interpreter(settings: InterpreterSettings(detector: detector))
  }

  @Test("a command word without a voiced run of its own is refused even when the utterance holds voice elsewhere")
  func wordVoicing() {
    let interpreter = self.interpreter()
    func result(voiced: Double) -> RecognitionResult {
      let commands = Transcription(
        segments: [
          WordSegment(word: "go", start: 0, end: 0.4, score: -30),
          WordSegment(word: "up", start: 0.4, end: 0.7, score: -20, margin: 30, voiced: voiced),
        ], score: -50)
      return RecognitionResult(
        transcriptions: [commands], start: 0, end: 1, signal: SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 30))
    }
    #expect(interpreter.interpret(result(voiced: 0.1)).directions == [.up])
    let refused = interpreter.interpret(result(voiced: 0))
    #expect(refused.directions.isEmpty)
    #expect(refused.rejection == .noVoice)
  }

  @Test("a command word whose sound is no voice's (outside the speech band, a few pure tones) is refused and said so")
  func unlikeVoice() {
    let interpreter = self.interpreter()
    func result(_ word: String = "up", band: Double? = nil, tone: Double? = nil) -> RecognitionResult {
      var command = WordSegment(word: word, start: 0.2, end: 0.5, score: -20, margin: 30, voiced: 0.1)
      command.speechShare = band
      command.toneShare = tone
      return RecognitionResult(
        transcriptions: [Transcription(segments: [command], score: -20)], start: 0, end: 1,
        signal: SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30))
    }
    #expect(interpreter.interpret(result(band: 0.9, tone: 0.8)).directions == [.up])
    let ringing = interpreter.interpret(result(band: 0.9, tone: 0.995))
    #expect(ringing.directions.isEmpty)
    #expect(ringing.rejection == .unlikeVoice(heard: ["up"], why: .pureTones))
    #expect(ringing.rejection?.code == "unlike-voice")
    #expect(ringing.rejection?.reason.contains("pure tones") == true)
    let thump = interpreter.interpret(result("down", band: 0.1))
    #expect(thump.rejection == .unlikeVoice(heard: ["down"], why: .outsideSpeechBand))
    #expect(thump.rejection?.reason.contains("speech band") == true)
    // Without voice, the gate's own reason stands.
    var silent = result(band: 0.1)
    silent.signal = SignalEvidence(voiced: 0, longestVoiced: 0, dynamicRange: 2)
    #expect(interpreter.interpret(silent).rejection == .noVoice)
  }

  @Test("a command word with a clear margin needs only one voiced frame and weighs its duration as in a phrase; one below it, without voice or without dynamics, is refused")
  func clearMargin() {
    let interpreter = self.interpreter(gate: .init(minimumVoiced: 0.03, minimumDynamicRange: 6, clearMargin: 10))
    func result(margin: Double, voiced: Double = 0.01, dynamicRange: Double = 30, duration: Double = 0.4) -> RecognitionResult {
      let up = WordSegment(word: "up", start: 0.2, end: 0.2 + duration, score: -20, margin: margin, voiced: voiced)
      return RecognitionResult(
        transcriptions: [Transcription(segments: [up], score: -20)], start: 0, end: 1,
        signal: SignalEvidence(voiced: 0.01, longestVoiced: 0.01, dynamicRange: dynamicRange))
    }
    #expect(interpreter.interpret(result(margin: 12)).directions == [.up])
    // Confident enough by its margin (0.6 needs +4.1), but under the clear margin: its voicing counts.
    #expect(interpreter.interpret(result(margin: 8)).rejection == .noVoice)
    #expect(interpreter.interpret(result(margin: 12, dynamicRange: 3)).directions.isEmpty)
    #expect(interpreter.interpret(result(margin: 40, voiced: 0)).rejection == .noVoice)
    // Shorter than the minimum duration (0.1 s): with a clear margin it weighs as within a
    // phrase (0.08 / 0.6 = 0.13 s), without one it is too short.
    #expect(interpreter.interpret(result(margin: 12, voiced: 0.05, duration: 0.08)).directions == [.up])
    #expect(interpreter.interpret(result(margin: 8, voiced: 0.05, duration: 0.08)).directions.isEmpty)
  }

  @Test("in a room's noise a command word weighs its duration as in a phrase; in a quiet room or amid other voices it does not")
  func roomNoiseDuration() {
    // Confidence 0.62 at a margin of -5 (intercept 1.1, slope 0.1); the minimum duration 0.14 s.
    let interpreter = self.interpreter(intercept: 1.1, minimumDuration: 0.14)
    func result(dynamicRange: Double, backgroundVoicing: Double = 0, duration: Double = 0.11) -> RecognitionResult {
      let up = WordSegment(word: "up", start: 0.3, end: 0.3 + duration, score: -20, margin: -5, voiced: 0.05)
      return RecognitionResult(
        transcriptions: [Transcription(segments: [up], score: -20)], start: 0, end: 1,
        signal: SignalEvidence(
          voiced: 0.05, longestVoiced: 0.05, dynamicRange: dynamicRange, backgroundVoicing: backgroundVoicing))
    }
    // 0.11 s said 24 dB over a tap's noise: 0.11 / 0.6 = 0.18 s.
    #expect(interpreter.settings.detector.gate.isInRoomNoise(result(dynamicRange: 24).signal))
    #expect(interpreter.interpret(result(dynamicRange: 24)).directions == [.up])
    // The same in a quiet room (a click or a breath is as short), or over babble.
    #expect(interpreter.interpret(result(dynamicRange: 45)).directions.isEmpty)
    #expect(!interpreter.settings.detector.gate.isInRoomNoise(result(dynamicRange: 24, backgroundVoicing: 0.5).signal))
    #expect(interpreter.interpret(result(dynamicRange: 24, backgroundVoicing: 0.5)).directions.isEmpty)
    // Long enough alone, it is taken anywhere.
    #expect(interpreter.interpret(result(dynamicRange: 45, duration: 0.2)).directions == [.up])
  }

  @Test("a command word running into another (\"down down right\" said without pauses) weighs its duration as in a phrase; one apart from it does not")
  func sequenceDuration() {
    let interpreter = self.interpreter(minimumDuration: 0.2, gate: .open)
    func result(gap: Double) -> RecognitionResult {
      let down = WordSegment(word: "down", start: 0.1, end: 0.26, score: -20, margin: 8)
      let right = WordSegment(word: "right", start: 0.26 + gap, end: 0.6 + gap, score: -20, margin: 8)
      return RecognitionResult(transcriptions: [Transcription(segments: [down, right], score: -40)], start: 0, end: 1)
    }
    // 0.16 s, under the minimum of 0.2 s: as in a phrase 0.16 / 0.6 = 0.27 s.
    #expect(interpreter.interpret(result(gap: 0)).directions == [.down, .right])
    #expect(interpreter.interpret(result(gap: 0.02)).directions == [.down, .right])
    #expect(interpreter.interpret(result(gap: 0.3)).directions == [.right])
    // Sure enough by its calibration (intercept 2: 0.86 at -2), but heard better as another
    // word: it weighs its own duration (babble read as "up right").
    let eager = self.interpreter(intercept: 2, minimumDuration: 0.2, gate: .open)
    func sequence(upMargin: Double) -> RecognitionResult {
      let up = WordSegment(word: "up", start: 0.1, end: 0.26, score: -20, margin: upMargin)
      let right = WordSegment(word: "right", start: 0.26, end: 0.6, score: -20, margin: 8)
      return RecognitionResult(transcriptions: [Transcription(segments: [up, right], score: -40)], start: 0, end: 1)
    }
    #expect(eager.interpret(sequence(upMargin: 2)).directions == [.up, .right])
    #expect(eager.interpret(sequence(upMargin: -2)).directions == [.right])
  }
}

@Suite("Interpreter with a detector, commands beside commands")
struct CompanionTests {
  /// Confidence 0.5 at a margin of 0 (slope 0.1): threshold 0.6 is margin +4.1, companion
  /// threshold 0.4 is margin -4.1.
  func interpreter(companion: Double?) -> Interpreter {
    var detector = Detector(
      calibrations: [:], fallback: .init(slope: 0.1, intercept: 0, minimumDuration: 0.1),
      gate: .open, threshold: 0.6, rescueThreshold: 0.6)
    detector.companionThreshold = companion
    return Interpreter(settings: InterpreterSettings(detector: detector))
  }

  func sequence(_ margins: [Double]) -> RecognitionResult {
    let words = ["left", "up", "down"]
    let segments = margins.enumerated().map { index, margin in
      WordSegment(word: words[index], start: Double(index) * 0.6, end: Double(index) * 0.6 + 0.4, score: -20, margin: margin)
    }
    return RecognitionResult(transcriptions: [Transcription(segments: segments, score: -60)], start: 0, end: 2)
  }

  @Test("a less sure command is taken beside a sure one, in the order spoken")
  func beside() {
    #expect(interpreter(companion: 0.4).interpret(sequence([10, -2, 8])).directions == [.left, .up, .down])
    // Without a companion threshold only the sure ones move the ninja.
    #expect(interpreter(companion: nil).interpret(sequence([10, -2, 8])).directions == [.left, .down])
    // Less sure than the companion threshold: still refused.
    #expect(interpreter(companion: 0.4).interpret(sequence([10, -6, 8])).directions == [.left, .down])
  }

  @Test("a word read elsewhere than the reading placed it (amid voices) is taken on its own confidence, not as a companion")
  func readElsewhere() {
    var result = sequence([10, -2, 8])
    result.transcriptions[0].segments[1].readElsewhere = true
    #expect(interpreter(companion: 0.4).interpret(result).directions == [.left, .down])
    // Sure on its own: taken.
    result.transcriptions[0].segments[1].margin = 6
    #expect(interpreter(companion: 0.4).interpret(result).directions == [.left, .up, .down])
  }

  @Test("a less sure command running into a sure one, with no pause between them, is refused")
  func noPause() {
    // A "right" clip whose onset also read "up" at 0.5: the two words touch.
    let touching = RecognitionResult(
      transcriptions: [
        Transcription(
          segments: [
            WordSegment(word: "up", start: 0.1, end: 0.35, score: -20, margin: -1),
            WordSegment(word: "right", start: 0.4, end: 0.8, score: -20, margin: 10),
          ], score: -40)
      ], start: 0, end: 1)
    #expect(interpreter(companion: 0.4).interpret(touching).directions == [.right])
    // After it, touching: refused too; 0.15 s after it: a companion.
    var after = sequence([10, -2])
    after.transcriptions[0].segments[1].start = 0.45
    #expect(interpreter(companion: 0.4).interpret(after).directions == [.left])
    after.transcriptions[0].segments[1].start = 0.55
    #expect(interpreter(companion: 0.4).interpret(after).directions == [.left, .up])
  }

  @Test("commands that are only companion-sure move nothing on their own")
  func alone() {
    let interpretation = interpreter(companion: 0.4).interpret(sequence([-2, -1]))
    #expect(interpretation.directions.isEmpty)
    guard case .lowConfidence = interpretation.rejection else {
      Issue.record("expected a low-confidence rejection, got \(String(describing: interpretation.rejection))")
      return
    }
  }

  /// Utterances of one word each, `start` seconds into the stream.
  func utterance(_ word: String, at start: Double, margin: Double) -> RecognitionResult {
    let segment = WordSegment(word: word, start: start, end: start + 0.4, score: -20, margin: margin)
    return RecognitionResult(transcriptions: [Transcription(segments: [segment], score: -20)], start: start, end: start + 0.5)
  }

  @Test("a less sure command soon after a command acted on, in the next utterance, is taken; later it is not")
  func afterACommand() {
    let interpreter = self.interpreter(companion: 0.4)
    // "left." then "up." 300 ms later, "up" only companion-sure; then "down" 3 s later, also.
    let utterances = [
      utterance("left", at: 0, margin: 10), utterance("up", at: 0.7, margin: -2), utterance("down", at: 4, margin: -2),
    ]
    #expect(interpreter.interpret(utterances).map(\.directions) == [[.left], [.up], []])
    #expect(interpreter.interpret(utterances[1], lastCommandEnd: 0.4).directions == [.up])
    #expect(interpreter.interpret(utterances[1], lastCommandEnd: nil).directions.isEmpty)
    // Starting as the command ends, with no pause: its tail or a noise, refused.
    #expect(interpreter.interpret(utterance("up", at: 0.45, margin: -2), lastCommandEnd: 0.4).directions.isEmpty)
    // Less sure than the companion threshold: refused however close.
    #expect(interpreter.interpret(utterance("up", at: 0.7, margin: -6), lastCommandEnd: 0.4).directions.isEmpty)
    // Without a companion threshold nothing but sure commands moves.
    #expect(self.interpreter(companion: nil).interpret(utterances).map(\.directions) == [[.left], [], []])
  }
}

@Suite("Interpreter with a detector, words within a phrase")
struct PhraseDurationTests {
  /// Minimum duration 0.15 s; a phrase's words need 60% of it (0.09 s).
  let interpreter = Interpreter(
    settings: InterpreterSettings(
      detector: Detector(
        calibrations: [:], fallback: .init(slope: 0.1, intercept: 0, minimumDuration: 0.15), gate: .open,
        threshold: 0.6, rescueThreshold: 0.6)))

  func result(_ words: [(String, Double, Double)]) -> RecognitionResult {
    let segments = words.map { word, start, end in
      WordSegment(word: word, start: start, end: end, score: -20, margin: word == "up" ? 20 : nil)
    }
    return RecognitionResult(transcriptions: [Transcription(segments: segments, score: -60)], start: 0, end: 1.2)
  }

  @Test("a short command between carrier words is taken; alone, after a pause or beside a conjunction it is too short")
  func shortInPhrase() {
    // "go up now" with a 110 ms "up": words said on the way are short.
    #expect(interpreter.interpret(result([("go", 0, 0.5), ("up", 0.5, 0.61), ("now", 0.61, 1.0)])).directions == [.up])
    #expect(interpreter.interpret(result([("up", 0.5, 0.61), ("now", 0.62, 1.0)])).directions == [.up])
    // The same "up" alone, or with a pause between it and the carrier word, is a click or a breath.
    #expect(interpreter.interpret(result([("up", 0.5, 0.61)])).directions.isEmpty)
    #expect(interpreter.interpret(result([("go", 0, 0.4), ("up", 0.5, 0.61)])).directions.isEmpty)
    // Conjunctions join noise heard as commands ("right and right" in babble): they do not count.
    #expect(interpreter.interpret(result([("and", 0.2, 0.5), ("up", 0.5, 0.61)])).directions.isEmpty)
    // Shorter than the phrase's share of the minimum: refused even in a phrase.
    #expect(interpreter.interpret(result([("go", 0, 0.5), ("up", 0.5, 0.58), ("now", 0.58, 1.0)])).directions.isEmpty)
  }
}

@Suite("Interpreter with a detector, the base model's second opinion")
struct SecondOpinionTests {
  /// Confidence 0.5 at a margin of 0 (slope 0.1): 0.6 at +4.1, 0.9 at +22.
  let interpreter: Interpreter = {
    var detector = Detector(
      calibrations: [:], fallback: .init(slope: 0.1, intercept: 0, minimumDuration: 0.1),
      gate: .open, threshold: 0.6, rescueThreshold: 0.6)
    detector.secondOpinion = Detector.SecondOpinion(words: ["up"], below: 0.9, maximumOtherVoicing: 0.2)
    return Interpreter(settings: InterpreterSettings(detector: detector))
  }()

  func result(_ word: String = "up", margin: Double, base: WordSegment.SecondOpinion?, voiced: Double = 0.35) -> RecognitionResult {
    var segment = WordSegment(word: word, start: 0.2, end: 0.6, score: -20, margin: margin)
    segment.secondOpinion = base
    return RecognitionResult(
      transcriptions: [Transcription(segments: [segment], score: -20)], start: 0, end: 1,
      signal: SignalEvidence(voiced: voiced, longestVoiced: 0.3, dynamicRange: 40))
  }

  @Test("an unsure \"up\" the base model hears as another command is refused; a sure one, one amid other voices, or another word is not")
  func refusal() {
    let right = WordSegment.SecondOpinion(word: "right", margin: -10)
    #expect(interpreter.interpret(result(margin: 10, base: nil)).directions == [.up])
    #expect(interpreter.interpret(result(margin: 10, base: right)).directions.isEmpty)
    // Refused with its own reason, naming what the base model heard.
    let refused = interpreter.interpret(result(margin: 10, base: right)).rejection
    #expect(refused?.code == "overruled")
    guard case .overruled(let heard, let word, let confidence, let baseHeard) = refused else {
      Issue.record("expected an overruled rejection, got \(String(describing: refused))")
      return
    }
    #expect(heard == ["up"] && word == "up" && baseHeard == "right")
    #expect(abs(confidence - 0.731) < 0.01)
    #expect(refused?.reason == "second opinion: the base model hears \"right\" where \"up\" was heard (confidence 0.73)")
    // An unsure word under the threshold is refused for that, not overruled.
    #expect(interpreter.interpret(result(margin: 2, base: right)).rejection?.code == "low-confidence")
    // The base model agrees, however unsure.
    #expect(interpreter.interpret(result(margin: 10, base: .init(word: "up", margin: -200))).directions == [.up])
    // Sure enough not to ask (0.9 and over); half a second of other voicing (babble); not asked of "down".
    #expect(interpreter.interpret(result(margin: 30, base: right)).directions == [.up])
    #expect(interpreter.interpret(result(margin: 10, base: right, voiced: 0.8)).directions == [.up])
    #expect(interpreter.interpret(result("down", margin: 10, base: right)).directions == [.down])
  }

  @Test("the margins asked about run from the lowest confidence that can act to the opinion's bound, for its words only")
  func askedMargins() {
    let detector = interpreter.settings.detector
    let asked = detector.secondOpinion!.askedMargins(for: "up", of: detector, lowest: 0.4)
    #expect(abs(asked.lowerBound - -4.055) < 0.01)
    #expect(abs(asked.upperBound - 21.97) < 0.01)
    #expect(detector.secondOpinion!.askedMargins(for: "down", of: detector, lowest: 0.4).isEmpty)
  }

  @Test("asked of a model adapted from a stock one, not of a stock model nor of one adapted from an adapted one")
  func forModel() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("second-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    func model(_ name: String, base: String?) throws -> String {
      let folder = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      if let base { try Data(#"{"baseModel": "\#(base)"}"#.utf8).write(to: folder.appendingPathComponent("adaptation.json")) }
      return folder.path
    }
    let stock = try model("stock", base: nil)
    let shipped = try model("shipped", base: stock)
    let personal = try model("personal", base: "../shipped")
    #expect(Detector.SecondOpinion.forModel(in: stock) == nil)
    #expect(Detector.SecondOpinion.forModel(in: shipped) == .measured)
    #expect(Detector.SecondOpinion.forModel(in: personal) == nil)
  }
}

@Suite("Interpreter with a detector, a command word's rivals")
struct RivalTests {
  /// Confidence 0.5 at a margin of -10 (slope 0.1, intercept 1): 0.73 at 0, 0.67 at -3, 0.6 at -5.9.
  let interpreter: Interpreter = {
    var detector = Detector(
      calibrations: [:], fallback: .init(slope: 0.1, intercept: 1, minimumDuration: 0.1),
      gate: .open, threshold: 0.6, rescueThreshold: 0.5)
    detector.rivals = ["down": ["go"]]
    return Interpreter(settings: InterpreterSettings(detector: detector))
  }()

  func result(_ word: String = "down", margin: Double, other: String?) -> RecognitionResult {
    var segment = WordSegment(word: word, start: 0.2, end: 0.6, score: -20, margin: margin)
    segment.otherWord = other
    return RecognitionResult(
      transcriptions: [Transcription(segments: [segment], score: -20)], start: 0, end: 1,
      signal: SignalEvidence(voiced: 0.35, longestVoiced: 0.3, dynamicRange: 40))
  }

  @Test("a command word its rival alone explains better is refused, naming the rival; at a margin of 0 or more, or beaten by another word, it stands")
  func refusal() {
    // Confidence 0.67 at -3: taken, but for its rival.
    #expect(interpreter.interpret(result(margin: -3, other: "done")).directions == [.down])
    let refused = interpreter.interpret(result(margin: -3, other: "go"))
    #expect(refused.directions.isEmpty)
    #expect(refused.rejection?.code == "rival")
    #expect(refused.rejection?.reason == "\"go\" fits it better than \"down\" (a word people say that is not a command)")
    // Not beaten: the command explains its stretch better than its rival.
    #expect(interpreter.interpret(result(margin: 0, other: "go")).directions == [.down])
    // A rival of another command; no other word read alone over the stretch.
    #expect(interpreter.interpret(result("up", margin: -3, other: "go")).directions == [.up])
    #expect(interpreter.interpret(result(margin: -3, other: nil)).directions == [.down])
    // Too unsure anyway: refused for that.
    #expect(interpreter.interpret(result(margin: -20, other: "go")).rejection?.code == "low-confidence")
  }

  @Test("a detector file without rivals has none; rivals are written and read back")
  func file() throws {
    var detector = interpreter.settings.detector
    detector.rivals = nil
    let without = try JSONDecoder().decode(Detector.self, from: try detector.json())
    #expect(without.rivals == nil)
    #expect(!String(decoding: try detector.json(), as: UTF8.self).contains("rivals"))
    detector.rivals = Detector.measuredRivals
    let with = try JSONDecoder().decode(Detector.self, from: try detector.json())
    #expect(with.rivals == ["down": ["go"], "right": ["eight"], "left": ["five"]])
    var segment = WordSegment(word: "right", start: 0, end: 0.4, score: -10, margin: -1)
    segment.otherWord = "eight"
    #expect(with.rival(of: segment) == "eight")
    segment.margin = nil
    #expect(with.rival(of: segment) == nil)
  }
}
