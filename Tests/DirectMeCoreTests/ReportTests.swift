import Foundation
import Testing

@testable import DirectMeCore

@Suite("Reports")
struct ReportTests {
  @Test("replay JSON carries file, instructions, utterances and emission times")
  func fileReportJSON() throws {
    let best = Transcription(
      segments: [WordSegment(word: "drown", start: 1.0, end: 1.3, score: -40, confidence: 0.3)], score: -100)
    let alternate = Transcription(segments: [WordSegment(word: "down", start: 1.0, end: 1.3)], score: -101)
    let result = RecognitionResult(transcriptions: [best, alternate], start: 0.8, end: 1.6, confidence: 0.3)
    let interpretation = Interpreter().interpret(result)
    let utterance = Utterance(result: result, interpretation: interpretation, emittedAt: 2.1)
    let report = FileReport(file: "cmds/a.wav", result: StreamResult(utterances: [utterance], duration: 3))
    let line = report.jsonLine()
    #expect(!line.contains("\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["file"] as? String == "cmds/a.wav")
    #expect(object["instructions"] as? [String] == ["down"])
    #expect(object["emitted_at"] as? [Double] == [2.1])
    let utterances = try #require(object["utterances"] as? [[String: Any]])
    #expect(utterances.first?["transcript"] as? String == "drown")
    #expect(utterances.first?["start"] as? Double == 0.8)
    let alternates = try #require(utterances.first?["alternates"] as? [[String: Any]])
    #expect(alternates.first?["transcript"] as? String == "down")
    let rescues = try #require(utterances.first?["rescues"] as? [[String: Any]])
    #expect(rescues.first?["heard"] as? String == "drown")
    #expect(rescues.first?["taken"] as? String == "down")
  }

  @Test("score text shows the rates and the confusion matrix")
  func scoreText() {
    let report = ScoreReport(recordings: [
      ScoredRecording(path: "a", expected: [.up], recognized: [.up]),
      ScoredRecording(path: "b", expected: [], recognized: [.left], transcripts: ["lift"]),
    ])
    let text = ScoreText.render(report, worst: 5)
    #expect(text.contains("utterance accuracy:      100.0%"))
    #expect(text.contains("false-alarm rate:        100.0%"))
    #expect(text.contains("b: expected (none), got left (heard \"lift\")"))
  }
}
