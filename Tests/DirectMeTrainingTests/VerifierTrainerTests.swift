import DirectMeCore
import DirectMeTraining
import Foundation
import Testing

@Suite("Word verifier training")
struct VerifierTrainerTests {
  /// A second of faint noise with a burst at 0.3-0.6 s: a tone at `hz` (nil: louder noise),
  /// its level and start varying.
  static func clip(_ hz: Double?, random: inout Signal.Random) -> [Int16] {
    let level = Double.random(in: 0.05...0.5, using: &random)
    let onset = 4800 + Int.random(in: -400...400, using: &random)
    return (0..<16000).map { i in
      var x = Double.random(in: -0.002...0.002, using: &random)
      if (onset..<onset + 4800).contains(i) {
        x += hz.map { level * sin(2 * Double.pi * $0 * Double(i) / 16000) } ?? Double.random(in: -level...level, using: &random)
      }
      return Int16(clamping: Int(x * 32767))
    }
  }

  /// Decoded recordings of bursts, as the trainer takes them: "up" a 500 Hz tone, "down" a
  /// 2 kHz one, a noise burst read as "up" without a command.
  static func recordings(_ count: Int, random: inout Signal.Random) -> [(TuningRecording, [Int16])] {
    (0..<count).map { index in
      let kind = index % 3
      let samples = clip([500, 2000, nil][kind], random: &random)
      var word = WordSegment(word: kind == 1 ? "down" : "up", start: 0.3, end: 0.6, score: -100)
      word.margin = 0
      let result = RecognitionResult(transcriptions: [Transcription(segments: [word], score: -100)], start: 0, end: 1)
      let expected: [Direction] = [[.up], [.down], []][kind]
      return (
        TuningRecording(path: "burst \(index)", speaker: "s\(index % 5)", expected: expected, kind: "", results: [result]),
        samples
      )
    }
  }

  @Test("examples are the command words of each reading, labelled with what the recording holds")
  func examples() {
    var random = Signal.Random(seed: 1)
    let trainer = VerifierTrainer()
    let made = Self.recordings(3, random: &random).map { trainer.examples(of: $0.0, samples: $0.1) }
    #expect(made.map(\.count) == [1, 1, 1])
    #expect(made.map { trainer.classes[$0[0].label] } == ["up", "down", ""])
    #expect(made[0][0].features.count == trainer.frontEnd.featureCount)
    // A command word in a recording of another command is left out.
    var (recording, samples) = Self.recordings(1, random: &random)[0]
    recording.expected = [.left]
    #expect(trainer.examples(of: recording, samples: samples).isEmpty)
  }

  @Test("a network learned from examples tells bursts it has not heard apart")
  func learns() throws {
    var random = Signal.Random(seed: 2)
    var trainer = VerifierTrainer()
    trainer.classes = ["up", "down", ""]
    trainer.hiddenUnits = 8
    trainer.maximumEpochs = 60
    trainer.batchSize = 20
    let examples = Self.recordings(90, random: &random).flatMap { trainer.examples(of: $0.0, samples: $0.1) }
    let verifier = try trainer.train(examples)
    #expect(verifier.problem == nil)
    #expect(verifier.notes?["held-back accuracy"] != nil)
    // Fresh bursts, never heard in training.
    let fresh = Self.recordings(30, random: &random)
    var right = 0
    for (recording, samples) in fresh {
      let word = recording.results[0].transcriptions[0].segments[0].word
      let p = try #require(verifier.probability(of: word, in: samples, start: 0.3, end: 0.6))
      if (p > 0.5) == !recording.expected.isEmpty { right += 1 }
    }
    #expect(right >= 27, "\(right) of 30 fresh bursts judged right")
    // Too few of a class: one line naming it.
    do {
      _ = try trainer.train(examples.filter { trainer.classes[$0.label] != "down" } + examples.filter { trainer.classes[$0.label] == "down" }.prefix(3))
      Issue.record("trained on 3 stretches of \"down\"")
    } catch {
      #expect("\(error)".contains("too few stretches of down"))
    }
  }
}
