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
    // No reading carries a margin (not a final pass that weighed commands): which is which is not said.
    #expect(utterances.first?["reading"] == nil)
    #expect(alternates.first?["reading"] == nil)
    let rescues = try #require(utterances.first?["rescues"] as? [[String: Any]])
    #expect(rescues.first?["heard"] as? String == "drown")
    #expect(rescues.first?["taken"] as? String == "down")
  }

  @Test("replay JSON shows what the detector weighed: each command word's voicing, loud part, standout, speech-band and tone shares, pitch and harmonic lead, and the utterance's signal")
  func evidenceJSON() throws {
    var up = WordSegment(word: "up", start: 0.2, end: 0.5, score: -30, margin: -12.5, voiced: 0.12, loud: 0.09)
    up.standout = 14.25
    up.speechShare = 0.875
    up.toneShare = 0.625
    up.harmonicLead = HarmonicLead(pitch: 180.25, lead: -6.5)
    let other = Transcription(segments: [WordSegment(word: "of", start: 0.2, end: 0.5, score: -20)], score: -60)
    let result = RecognitionResult(
      transcriptions: [Transcription(segments: [up], score: -70), other], start: 0, end: 1,
      signal: SignalEvidence(voiced: 0.2, longestVoiced: 0.12, dynamicRange: 17.5, backgroundVoicing: 0.25, duration: 1))
    let utterance = Utterance(result: result, interpretation: Interpreter().interpret(result), emittedAt: 1)
    let line = FileReport(file: "a.wav", result: StreamResult(utterances: [utterance], duration: 1)).jsonLine()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let first = try #require((object["utterances"] as? [[String: Any]])?.first)
    let readings = [first["words"] as? [[String: Any]] ?? []] + (first["alternates"] as? [[String: Any]] ?? []).map { $0["words"] as? [[String: Any]] ?? [] }
    let word = try #require(readings.joined().first { $0["word"] as? String == "up" })
    #expect(word["margin"] as? Double == -12.5)
    #expect(word["voiced"] as? Double == 0.12)
    #expect(word["loud"] as? Double == 0.09)
    #expect(word["standout"] as? Double == 14.25)
    #expect(word["speech_share"] as? Double == 0.875)
    #expect(word["tone_share"] as? Double == 0.625)
    #expect(word["pitch"] as? Double == 180.3)
    #expect(word["harmonic_lead"] as? Double == -6.5)
    let signal = try #require(first["signal"] as? [String: Any])
    #expect(signal["dynamic_range"] as? Double == 17.5)
    #expect(signal["background_voicing"] as? Double == 0.25)
    #expect(signal["longest_voiced"] as? Double == 0.12)
    // Each reading says which it is: here the commands reading is the best one.
    #expect(first["reading"] as? String == "commands")
    #expect((first["alternates"] as? [[String: Any]])?.map { $0["reading"] as? String } == ["other_words"])
    // A word of the other reading carries none of it.
    let of = try #require(readings.joined().first { $0["word"] as? String == "of" })
    #expect(of["voiced"] == nil && of["margin"] == nil)
  }

  @Test("replay JSON names the commands reading when the other words' reading scored higher")
  func commandsReadingAsAlternate() throws {
    let up = WordSegment(word: "up", start: 0.2, end: 0.5, score: -30, margin: 8)
    let other = Transcription(segments: [WordSegment(word: "of", start: 0.2, end: 0.5, score: -20)], score: -50)
    let result = RecognitionResult(transcriptions: [other, Transcription(segments: [up], score: -70)], start: 0, end: 1)
    let utterance = Utterance(result: result, interpretation: Interpreter().interpret(result), emittedAt: 1)
    let line = FileReport(file: "a.wav", result: StreamResult(utterances: [utterance], duration: 1)).jsonLine()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let first = try #require((object["utterances"] as? [[String: Any]])?.first)
    #expect(first["transcript"] as? String == "of")
    #expect(first["reading"] as? String == "other_words")
    let alternates = try #require(first["alternates"] as? [[String: Any]])
    #expect(alternates.map { $0["reading"] as? String } == ["commands"])
    #expect(alternates.first?["transcript"] as? String == "up")
    // The text report labels them too.
    let text = TextReport.lines(for: utterance)
    #expect(text[0].hasSuffix(": \"of\" (other words)"), "\(text)")
    #expect(text[1] == "      alternate 1: \"up\" (commands, gap 20.00)", "\(text)")
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
