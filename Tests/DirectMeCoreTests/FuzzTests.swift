import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeCore

@Suite("Fuzz: labels parser and interpreter")
struct CoreFuzzTests {
  @Test("random labels files parse without a crash; every error names a line that exists")
  func labels() {
    var random = FuzzRandom(seed: 2)
    let pieces = [
      "a.wav", "dir/b.wav", "\t", "\t", "\n", "\r\n", "up", "down", "left", "right", " ", "  ", "UP", "drown", "é",
      "\u{0}", "#", "\t\t", "up down", "../x.wav", "",
    ]
    var total = 0
    for _ in 0..<FuzzRandom.iterations {
      var text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
        .joined()
      if Bool.random(using: &random) { text = String(decoding: random.mutate(Array(text.utf8)), as: UTF8.self) }
      let (recordings, errors) = LabelsFormat.parse(text)
      let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
      for error in errors { #expect(error.line >= 1 && error.line <= max(1, lines)) }
      for recording in recordings {
        #expect(!recording.path.isEmpty)
        #expect(recording.line >= 1 && recording.line <= max(1, lines))
      }
      total += recordings.count + errors.count
    }
    #expect(total > 0)
  }

  @Test("random hypotheses are interpreted without a crash; instructions come only from commands or rescues")
  func interpreter() {
    var random = FuzzRandom(seed: 3)
    let words = ["up", "down", "left", "right", "drown", "town", "cup", "light", "move", "the", "ninja", "<sil>", "[NOISE]", "hello", ""]
    let interpreters = [
      Interpreter(), Interpreter(settings: InterpreterSettings(minimumConfidence: 0.88)),
      Interpreter(settings: InterpreterSettings(rescueMargin: 1e9, minimumOverlap: 0, minimumConfidence: 0.5, maximumOtherWords: 0)),
    ]
    let odd: [Double] = [0, -0.0, 1e-300, 1e300, -1e300, .infinity, -.infinity, .nan]
    func number() -> Double {
      Int.random(in: 0..<8, using: &random) == 0 ? odd[Int.random(in: 0..<odd.count, using: &random)] : Double.random(in: -5...5, using: &random)
    }
    for _ in 0..<FuzzRandom.iterations {
      let transcriptions = (0..<Int.random(in: 0...4, using: &random)).map { _ in
        Transcription(
          segments: (0..<Int.random(in: 0...6, using: &random)).map { _ in
            WordSegment(
              word: words[Int.random(in: 0..<words.count, using: &random)], start: number(), end: number(), score: number(),
              confidence: Bool.random(using: &random) ? number() : nil)
          }, score: number())
      }
      let result = RecognitionResult(transcriptions: transcriptions, start: number(), end: number())
      for interpreter in interpreters {
        let interpretation = interpreter.interpret(result)
        for instruction in interpretation.instructions {
          #expect(
            instruction.rescue != nil || Direction(rawValue: instruction.heard) == instruction.direction,
            "\(instruction.heard) -> \(instruction.direction)")
        }
        #expect(interpretation.instructions.isEmpty || interpretation.rejection == nil)
      }
    }
  }
}
