import Testing

@testable import DirectMeCore

@Suite("Stage")
struct StageTests {
  func utterance(_ words: [(String, Double, Double)], alternates: [Transcription] = [], emittedAt: Double = 2) -> Utterance {
    let result = RecognitionResult(
      transcriptions: [transcription(words, score: -10)] + alternates, start: 0, end: 1.5)
    return Utterance(result: result, interpretation: Interpreter().interpret(result), emittedAt: emittedAt)
  }

  @Test("a final result queues one keyframe per instruction and shows the transcript")
  func final() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    let keyframes = stage.apply(.final(utterance([("move", 0, 0.3), ("left", 0.3, 0.6), ("up", 0.8, 1.0)])), at: 10)
    #expect(keyframes.map(\.direction) == [.left, .up])
    let scene = stage.scene(at: 10.5)
    #expect(scene.lastTranscript == "move left up")
    #expect(scene.lastInstructions == [.left, .up])
    #expect(scene.rejection == nil)
    #expect(scene.spritePosition == Point(x: 300, y: 300))
    #expect(stage.scene(at: 11).spritePosition == Point(x: 300, y: 200))
    #expect(stage.isAnimating(at: 10.9))
    #expect(!stage.isAnimating(at: 11.0))
  }

  @Test("a command acted on shows the commands reading as heard, not the other words' reading that scored higher")
  func commandsReadingShown() throws {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    let up = WordSegment(word: "up", start: 0.2, end: 0.5, score: -30, margin: 60, voiced: 0.2, loud: 0.2)
    let other = Transcription(segments: [WordSegment(word: "of", start: 0.2, end: 0.5, score: -20)], score: -50)
    let result = RecognitionResult(transcriptions: [other, Transcription(segments: [up], score: -70)], start: 0, end: 1)
    let acted = Utterance(result: result, interpretation: Interpreter().interpret(result), emittedAt: 1)
    try #require(acted.interpretation.directions == [.up])
    stage.apply(.final(acted), at: 2)
    #expect(stage.scene(at: 2).lastTranscript == "up")
    // Refused, the best reading is what was heard.
    var refused = acted
    refused.interpretation.instructions = []
    refused.interpretation.rejection = .notACommand(heard: ["of"])
    stage.apply(.final(refused), at: 3)
    #expect(stage.scene(at: 3).lastTranscript == "of")
  }

  @Test("frames of a move look alike only while the ninja stays on the same pixel and nothing else changes")
  func looksLike() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    _ = stage.apply(.final(utterance([("up", 0, 0.3)])), at: 10)
    // Easing in, the first frame moves the ninja less than half a pixel.
    #expect(stage.scene(at: 10).looksLike(stage.scene(at: 10 + 1.0 / 60)))
    #expect(!stage.scene(at: 10).looksLike(stage.scene(at: 10.25)))
    // Against the top wall, a move up shows nothing new.
    for _ in 0..<4 { _ = stage.apply(.final(utterance([("up", 0, 0.3)])), at: 10) }
    let end = stage.animator.finishTime!
    #expect(stage.scene(at: end - 0.7).looksLike(stage.scene(at: end - 0.2)))
    #expect(stage.isAnimating(at: end - 0.2))
    var louder = stage.scene(at: end - 0.2)
    louder.level = 0.5
    #expect(!stage.scene(at: end - 0.7).looksLike(louder))
  }

  @Test("an early result and the rest of its utterance show all the directions acted on")
  func earlyThenRest() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    var early = utterance([("move", 0, 0.3), ("left", 0.3, 0.6)])
    early.isEarly = true
    stage.apply(.final(early), at: 1)
    #expect(stage.scene(at: 1).lastInstructions == [.left])
    // The rest of the same utterance adds "up" only (the listener leaves out what was acted on).
    let rest = RecognitionResult(transcriptions: [transcription([("up", 1.0, 1.2)], score: -10)], start: 0, end: 1.5)
    stage.apply(.final(Utterance(result: rest, interpretation: Interpreter().interpret(rest), emittedAt: 2)), at: 2)
    #expect(stage.scene(at: 2).lastInstructions == [.left, .up])
    // So does the rest of an utterance whose early part was settled: it starts where the
    // early result was emitted.
    early.emittedAt = 2.5
    stage.apply(.final(early), at: 2.5)
    let settledRest = RecognitionResult(transcriptions: [transcription([("down", 2.7, 2.9)], score: -10)], start: 2.5, end: 3)
    stage.apply(.final(Utterance(result: settledRest, interpretation: Interpreter().interpret(settledRest), emittedAt: 3)), at: 3)
    #expect(stage.scene(at: 3).lastInstructions == [.left, .down])
    #expect(stage.scene(at: 3).lastTranscript == "move left down", "what was heard of the whole utterance")
    // A new utterance starts afresh.
    let next = RecognitionResult(transcriptions: [transcription([("down", 3.0, 3.3)], score: -10)], start: 3, end: 3.5)
    stage.apply(.final(Utterance(result: next, interpretation: Interpreter().interpret(next), emittedAt: 4)), at: 4)
    #expect(stage.scene(at: 4).lastInstructions == [.down])
  }

  @Test("partials show while speech goes on and clear at the final result")
  func partials() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    stage.apply(.speechStarted(at: 1), at: 1)
    stage.apply(.partial(transcription([("move", 0, 0.3)], score: -1), at: 1.3), at: 1.3)
    #expect(stage.scene(at: 1.3).partial == "move")
    stage.apply(.final(utterance([("move", 0, 0.3), ("down", 0.3, 0.6)])), at: 2)
    #expect(stage.scene(at: 2).partial == "")
  }

  @Test("rescues and rejections are shown as such")
  func rescueAndRejection() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)))
    let rescued = utterance(
      [("drown", 0.2, 0.5)], alternates: [transcription([("down", 0.2, 0.5)], score: -10.5)])
    stage.apply(.final(rescued), at: 1)
    #expect(stage.scene(at: 1).rescues == ["drown -> down"])
    stage.apply(.final(utterance([("hello", 0.2, 0.5)])), at: 3)
    let scene = stage.scene(at: 3)
    #expect(scene.rejection?.contains("not a command") == true)
    #expect(scene.lastInstructions.isEmpty)
  }

  @Test("not listening clears the partial")
  func listening() {
    var stage = Stage(
      animator: Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64)),
      isListening: true)
    stage.apply(.partial(transcription([("up", 0, 0.3)], score: -1), at: 1), at: 1)
    stage.setListening(false)
    #expect(!stage.scene(at: 1).isListening)
    #expect(stage.scene(at: 1).partial == "")
  }
}
