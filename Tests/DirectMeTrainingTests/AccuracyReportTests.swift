import DirectMeBench
import DirectMeCore
import Testing

/// The accuracy benchmark's report (in this target: it already depends on DirectMeBench).
@Suite("Accuracy report")
struct AccuracyReportTests {
  /// One utterance the commands reading heard as "drown", the other words' reading as "down":
  /// the default interpreter rescues it as down.
  static let nearMiss: RecognitionResult = {
    let best = Transcription(
      segments: [WordSegment(word: "drown", start: 1.0, end: 1.3, score: -40, confidence: 0.3)], score: -100)
    let alternate = Transcription(segments: [WordSegment(word: "down", start: 1.0, end: 1.3)], score: -101)
    return RecognitionResult(transcriptions: [best, alternate], start: 0.8, end: 1.6, confidence: 0.3)
  }()

  @Test("rescues are counted right when the item holds the direction taken, wrong otherwise, per condition and overall")
  func rescues() {
    let interpreter = Interpreter()
    #expect(interpreter.interpret(Self.nearMiss).rescues.map(\.taken) == [.down])
    func outcome(_ id: String, _ condition: String, _ expected: [Direction], _ results: [RecognitionResult]) -> ItemOutcome {
      ItemOutcome(item: BenchItem(id: id, condition: condition, expected: expected, samples: []), results: results)
    }
    let outcomes = [
      outcome("a", "words", [.down], [Self.nearMiss]),
      outcome("b", "words", [], [Self.nearMiss]),
      outcome("c", "words", [.left, .down], [Self.nearMiss]),
      outcome("d", "quiet", [], []),
    ]
    let report = AccuracyReport(outcomes: outcomes, interpreter: interpreter, settings: "test", curveThresholds: [], seconds: 0)
    #expect(report.rows.map { $0.scores[AccuracyReport.directMe]?.rescues } == [3, 0])
    #expect(report.rows.map { $0.scores[AccuracyReport.directMe]?.rescuesRight } == [2, 0])
    let text = report.text()
    #expect(text.contains("every condition: 3 taken, 2 right, 1 wrong"), "\(text)")
    let lines = text.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("  words") && $0.hasSuffix("3 taken, 2 right, 1 wrong") }, "\(text)")
    #expect(!lines.contains { $0.hasPrefix("  quiet") }, "a condition without rescues is not listed: \(text)")
  }

  @Test("each direction said alone is tallied per condition; only conditions with enough such items are listed")
  func singleCommands() {
    let interpreter = Interpreter()
    var outcomes: [ItemOutcome] = []
    // 40 "down"s, half heard (the near miss), half not; 39 in a smaller condition.
    for index in 0..<40 {
      outcomes.append(
        ItemOutcome(
          item: BenchItem(id: "d\(index)", condition: "many", expected: [.down], samples: []),
          results: index % 2 == 0 ? [Self.nearMiss] : []))
    }
    for index in 0..<39 {
      outcomes.append(
        ItemOutcome(item: BenchItem(id: "f\(index)", condition: "few", expected: [.down], samples: []), results: [Self.nearMiss]))
    }
    let report = AccuracyReport(outcomes: outcomes, interpreter: interpreter, settings: "test", curveThresholds: [], seconds: 0)
    #expect(report.rows.map { $0.scores[AccuracyReport.directMe]?.singleCommands["down"] } == [
      WordTally(items: 40, right: 20), WordTally(items: 39, right: 39),
    ])
    let lines = report.text().split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("  many") && $0.hasSuffix("  down 20/40 (50.0%)") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("  few") && $0.contains("down 39/39") }, "\(lines)")
  }
}
