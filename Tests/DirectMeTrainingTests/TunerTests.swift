import DirectMeCore
import Foundation
import Testing

@testable import DirectMeTraining

@Suite("Detector tuning")
struct TunerTests {
  @Test("the logistic fit recovers a known slope and intercept")
  func logistic() {
    var random = Signal.Random(seed: 5)
    var x: [Double] = []
    var y: [Double] = []
    for _ in 0..<4000 {
      let value = Double.random(in: -60...60, using: &random)
      let p = 1 / (1 + exp(-(0.1 * value - 1)))
      x.append(value)
      y.append(Double.random(in: 0..<1, using: &random) < p ? 1 : 0)
    }
    let fit = DetectorTuner.logistic(x, y, weights: Array(repeating: 1, count: x.count))
    #expect(abs(fit.slope - 0.1) < 0.02)
    #expect(abs(fit.intercept - -1) < 0.25)
  }

  @Test("quantiles interpolate between sorted values")
  func quantiles() {
    #expect(DetectorTuner.quantile([3, 1, 2], 0) == 1)
    #expect(DetectorTuner.quantile([3, 1, 2], 1) == 3)
    #expect(DetectorTuner.quantile([1, 2], 0.5) == 1.5)
    #expect(DetectorTuner.quantile([], 0.5) == 0)
  }

  @Test("the split keeps each speaker in one part and holds out about the share asked")
  func split() {
    let recordings = (0..<2000).map {
      TuningRecording(path: "\($0).wav", speaker: "s\($0 / 4)", expected: [.up], kind: "up", results: [])
    }
    let (tuning, checking) = DetectorTuner.split(recordings, checkingShare: 0.25)
    #expect(Set(tuning.map(\.speaker)).isDisjoint(with: Set(checking.map(\.speaker))))
    #expect(abs(Double(checking.count) / 2000 - 0.25) < 0.05)
  }

  /// A recording heard as one command word with a margin.
  func recording(_ word: String, margin: Double, expected: [Direction], kind: String, speaker: String, loud: Double? = nil) -> TuningRecording {
    let commands = Transcription(
      segments: [WordSegment(word: word, start: 0.2, end: 0.6, score: -40, margin: margin, loud: loud)], score: -40)
    let garbage = Transcription(segments: [WordSegment(word: "go", start: 0.2, end: 0.6, score: -40 - margin)], score: -40 - margin)
    let result = RecognitionResult(
      transcriptions: [commands, garbage], start: 0, end: 1, signal: SignalEvidence(voiced: 0.3, longestVoiced: 0.2, dynamicRange: 30))
    return TuningRecording(path: "\(kind)-\(speaker).wav", speaker: speaker, expected: expected, kind: kind, results: [result])
  }

  /// 400 command recordings (margins -20...60) and 400 other-word recordings heard as a
  /// command (margins -80...10), one speaker each, the other words' kinds taken in turn.
  func singleWords(otherKinds: [String], random: inout Signal.Random) -> [TuningRecording] {
    var recordings: [TuningRecording] = []
    for index in 0..<400 {
      let word = ["up", "down", "left", "right"][index % 4]
      recordings.append(
        recording(word, margin: Double.random(in: -20...60, using: &random), expected: [Direction(rawValue: word)!], kind: word, speaker: "p\(index)"))
      let kind = otherKinds[index % otherKinds.count]
      recordings.append(recording(word, margin: Double.random(in: -80...10, using: &random), expected: [], kind: kind, speaker: "n\(index)"))
    }
    return recordings
  }

  @Test("tuning separates commands from other words and keeps false alarms within the target")
  func tuneAndEvaluate() {
    var random = Signal.Random(seed: 9)
    let recordings = singleWords(otherKinds: ["go", "yes", "stop", "zero"], random: &random)
    var options = TuningOptions()
    options.maximumFalseAlarms = 0.05
    let detector = DetectorTuner(options: options).tune(recordings)
    let score = DetectorTuner.evaluate(detector, on: recordings)
    #expect(score.falseAlarms <= 0.05)
    #expect(score.accuracy > 0.6)
    #expect(Set(detector.calibrations.keys) == ["up", "down", "left", "right"])
    #expect(detector.calibrations.values.allSatisfy { $0.slope > 0 })
    #expect(detector.rescueThreshold <= detector.threshold)
    // The range asked over other voices is measured, not learned: written as measured.
    #expect(detector.gate.overVoices == .measured)
  }

  @Test("each command word's loud part keeps nearly all real commands that other words explain better, and refuses shorter and longer ones")
  func loudPart() {
    var random = Signal.Random(seed: 11)
    var recordings: [TuningRecording] = []
    for index in 0..<400 {
      let word = ["up", "down", "left", "right"][index % 4]
      // Commands' vowels last 90-250 ms; clicks and breaths read as commands 10-60 ms, other
      // words' vowels 350-600 ms.
      recordings.append(
        recording(
          word, margin: Double.random(in: -20...60, using: &random), expected: [Direction(rawValue: word)!], kind: word,
          speaker: "p\(index)", loud: Double.random(in: 0.09...0.25, using: &random)))
      recordings.append(
        recording(
          word, margin: Double.random(in: -40 ... -2, using: &random), expected: [], kind: index % 2 == 0 ? "click" : "five",
          speaker: "n\(index)", loud: index % 2 == 0 ? Double.random(in: 0.01...0.06, using: &random) : Double.random(in: 0.35...0.6, using: &random)))
    }
    let detector = DetectorTuner().tune(recordings)
    for word in ["up", "down", "left", "right"] {
      let calibration = detector.calibration(for: word)
      #expect(calibration.minimumLoud.map { (0.09...0.1).contains($0) } == true, "\(word): \(String(describing: calibration.minimumLoud))")
      #expect(calibration.maximumLoud.map { (0.23...0.25).contains($0) } == true, "\(word): \(String(describing: calibration.maximumLoud))")
    }
    var options = TuningOptions()
    options.asksLoudPart = false
    let plain = DetectorTuner(options: options).tune(recordings)
    #expect(plain.calibrations.values.allSatisfy { $0.minimumLoud == nil && $0.maximumLoud == nil })
    // The other words whose loud part gives them away no longer hold the operating point up.
    let (loud, unasked) = (DetectorTuner.evaluate(detector, on: recordings), DetectorTuner.evaluate(plain, on: recordings))
    #expect(loud.falseAlarms <= TuningOptions().maximumFalseAlarms)
    #expect(loud.accuracy > unasked.accuracy + 0.05, "\(loud.accuracy) against \(unasked.accuracy)")
    // Not measured: not asked.
    let unmeasured = singleWords(otherKinds: ["go"], random: &random)
    #expect(DetectorTuner().tune(unmeasured).calibrations.values.allSatisfy { $0.minimumLoud == nil && $0.maximumLoud == nil })
  }

  /// Words heard in a row, each with a margin (a joined recording); with `nearMisses`, an
  /// other-words reading where each command word is heard as a word that sounds like it
  /// ("cup" for up), so that unsure commands can be rescued.
  func joined(
    _ words: [(String, Double)], expected: [Direction], as kind: TuningRecording.Joined, speaker: String, nearMisses: Bool = false
  ) -> TuningRecording {
    let segments = words.enumerated().map { index, word in
      WordSegment(word: word.0, start: 0.2 + Double(index) * 0.7, end: 0.6 + Double(index) * 0.7, score: -40, margin: word.1, voiced: 0.2)
    }
    let others = segments.map {
      WordSegment(word: "c" + $0.word, start: $0.start, end: $0.end, score: -41, soundsLike: $0.word, voiced: 0.2)
    }
    let result = RecognitionResult(
      transcriptions: [Transcription(segments: segments, score: -80)] + (nearMisses ? [Transcription(segments: others, score: -82)] : []),
      start: 0, end: 2,
      signal: SignalEvidence(voiced: 0.3, longestVoiced: 0.2, dynamicRange: 30))
    return TuningRecording(
      path: "\(speaker).wav", speaker: speaker, expected: expected,
      kind: expected.map(\.rawValue).joined(separator: " ") + " + " + kind.rawValue, results: [result])
  }

  @Test("the companion threshold takes less sure commands beside sure ones only as far as commands beside other words stay put")
  func companion() throws {
    var random = Signal.Random(seed: 3)
    var recordings = singleWords(otherKinds: ["go"], random: &random)
    // Sequences: a sure first command, a second one less sure (margin -15...0).
    for index in 0..<100 {
      recordings.append(
        joined([("left", 40), ("up", Double.random(in: -15...0, using: &random))], expected: [.left, .up], as: .sequence, speaker: "q\(index)"))
    }
    // A sure command beside another word read as a command far less sure (-60...-30).
    for index in 0..<100 {
      recordings.append(
        joined([("down", 40), ("up", Double.random(in: -60 ... -30, using: &random))], expected: [.down], as: .besideOtherWords, speaker: "r\(index)"))
    }
    // The same with near-misses heard for the other word: rescuing it would be wrong, which
    // must not move the rescue threshold (set on single recordings only).
    for index in 0..<100 {
      recordings.append(
        joined(
          [("down", 40), ("up", Double.random(in: -30 ... 0, using: &random))], expected: [.down], as: .besideOtherWords,
          speaker: "s\(index)", nearMisses: true))
    }
    let detector = DetectorTuner(options: TuningOptions()).tune(recordings)
    let companion = try #require(detector.companionThreshold)
    #expect(companion < detector.threshold)
    let joinedOnly = recordings.filter { $0.joined != nil }
    let score = DetectorTuner.evaluate(detector, on: joinedOnly)
    var without = detector
    without.companionThreshold = nil
    let before = DetectorTuner.evaluate(without, on: joinedOnly)
    #expect(score.sequenceAccuracy > before.sequenceAccuracy)
    #expect(score.besideExtra <= before.besideExtra + TuningOptions().maximumCompanionExtra)
    // Joined recordings teach nothing else: the same detector without them, but the companion.
    var plain = DetectorTuner(options: TuningOptions()).tune(recordings.filter { $0.joined == nil })
    plain.companionThreshold = detector.companionThreshold
    #expect(plain == detector)
  }

  @Test("a personal operating point is lower only when the speaker's commands gain and none of their other phrases moves the ninja, with a margin")
  func personalOperatingPoint() {
    var random = Signal.Random(seed: 3)
    var general: [TuningRecording] = []
    for index in 0..<400 {
      let word = ["up", "down", "left", "right"][index % 4]
      general.append(recording(word, margin: Double.random(in: -20...60, using: &random), expected: [Direction(rawValue: word)!], kind: word, speaker: "p\(index)"))
      general.append(recording(word, margin: Double.random(in: -80...10, using: &random), expected: [], kind: "go", speaker: "n\(index)"))
    }
    let base = DetectorTuner(options: TuningOptions()).tune(general)
    let low = base.calibrations["down"]!.margin(forConfidence: base.threshold) - 8
    // This speaker's commands come out a little low; their other phrases far lower.
    let speaker = (0..<6).map { recording("down", margin: low + Double($0), expected: [.down], kind: "down", speaker: "me") }
    let others = (0..<4).map { _ in recording("down", margin: -200, expected: [], kind: "stop", speaker: "me") }
    let personal = DetectorTuner.personalOperatingPoint(base: base, recordings: speaker + others)
    #expect(personal.detector.threshold < base.threshold)
    #expect(personal.detector.threshold >= 0.3)
    #expect(personal.after.accuracy > personal.before.accuracy)
    #expect(personal.after.falseAlarmsPooled == 0)
    // An other phrase that would pass just below the base threshold keeps it where it is.
    let close = recording("down", margin: low + 3, expected: [], kind: "stop", speaker: "me")
    let kept = DetectorTuner.personalOperatingPoint(base: base, recordings: speaker + others + [close])
    #expect(kept.detector.threshold > personal.detector.threshold)
    // Nothing to gain: the base detector as it is.
    let fine = (0..<4).map { _ in recording("down", margin: 80, expected: [.down], kind: "down", speaker: "me") }
    #expect(DetectorTuner.personalOperatingPoint(base: base, recordings: fine + others).detector == base)
  }
}

@Suite("Mixture weights")
struct MixtureWeightsTests {
  static let sendump = "/usr/share/pocketsphinx/model/en-us/en-us/sendump"

  @Test(
    "Debian's sendump reads as 3 streams x 128 codewords x 5126 senones, each senone's weights summing to 1",
    .enabled(if: FileManager.default.fileExists(atPath: sendump), "needs pocketsphinx-en-us (scripts/setup.sh)"))
  func stockModel() throws {
    let weights = try MixtureWeights(sendump: Self.sendump)
    #expect(weights.streams == 3)
    #expect(weights.codewords == 128)
    #expect(weights.senones == 5126)
    let probabilities = weights.probabilities()
    for senone in [0, 1000, 5125] {
      for stream in 0..<3 {
        let base = (senone * 3 + stream) * 128
        let sum = probabilities[base..<base + 128].reduce(0, +)
        #expect(abs(sum - 1) < 1e-4)
      }
    }
    let file = weights.mixtureWeightsFile()
    #expect(file.starts(with: Data("s3\nversion 1.0\nendhdr\n".utf8)))
    #expect(file.count == 22 + 4 * 5 + 5126 * 3 * 128 * 4)
  }

  @Test("a file that is not a senone dump is one clear error naming it")
  func notASendump() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-sendump-\(UUID().uuidString)")
    try Data("hello".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    do {
      _ = try MixtureWeights(sendump: file.path)
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".hasPrefix(file.path + ": "))
    }
  }
}
