import Testing

@testable import DirectMeCore

@Suite("Metrics")
struct MetricsTests {
  @Test("alignment counts substitutions, deletions and insertions")
  func alignment() {
    #expect(Alignment(expected: [.up, .down], recognized: [.up, .down]).distance == 0)
    #expect(Alignment(expected: [.up, .down], recognized: [.up, .left]).distance == 1)
    #expect(Alignment(expected: [.up, .down, .left], recognized: [.down]).distance == 2)
    #expect(Alignment(expected: [], recognized: [.right, .right]).distance == 2)
    let steps = Alignment(expected: [.up, .left], recognized: [.up, .right, .left]).steps
    #expect(steps == [.match(.up), .insertion(.right), .match(.left)])
  }

  @Test("rates follow their definitions")
  func rates() throws {
    let report = ScoreReport(recordings: [
      ScoredRecording(path: "a", expected: [.up], recognized: [.up]),
      ScoredRecording(path: "b", expected: [.down, .left], recognized: [.down]),
      ScoredRecording(path: "c", expected: [.left], recognized: [.right], rescues: 1),
      ScoredRecording(path: "d", expected: [], recognized: []),
      ScoredRecording(path: "e", expected: [], recognized: [.up, .up]),
    ])
    #expect(try #require(report.utteranceAccuracy) == 1.0 / 3)
    #expect(try #require(report.instructionErrorRate) == 2.0 / 4)
    #expect(try #require(report.falseAlarmRate) == 0.5)
    #expect(try #require(report.overallAccuracy) == 2.0 / 5)
    #expect(report.rescues == 1)
    let confusion = report.confusion
    #expect(confusion[.up, .up] == 1)
    #expect(confusion[.left, .right] == 1)
    #expect(confusion[.left, nil] == 1)
    #expect(confusion[nil, .up] == 2)
    #expect(report.worst(2).map(\.path) == ["e", "b"])
  }

  @Test("a rescue is right when the recording holds the direction it took, wrong otherwise")
  func rescues() {
    let report = ScoreReport(recordings: [
      ScoredRecording(path: "a", expected: [.down, .left], recognized: [.down, .left], rescued: [.down]),
      ScoredRecording(path: "b", expected: [.up], recognized: [.down], rescued: [.down]),
      ScoredRecording(path: "c", expected: [], recognized: [.up], rescued: [.up]),
      ScoredRecording(path: "d", expected: [.right], recognized: [.right]),
    ])
    #expect(report.recordings.map(\.rescues) == [1, 1, 1, 0])
    #expect(report.rescues == 3)
    #expect(report.rescuesRight == 1)
    #expect(report.rescuesWrong == 2)
    let text = ScoreText.render(report, worst: 0)
    #expect(text.contains("rescues taken:           3  (1 right, 2 wrong)"), "\(text)")
    let json = ScoreJSON(report: report, worst: 0).jsonLine()
    #expect(json.contains("\"rescues\":3,\"rescues_right\":1,\"rescues_wrong\":2"), "\(json)")
    let none = ScoreText.render(ScoreReport(recordings: [ScoredRecording(path: "x", expected: [.up], recognized: [.up])]), worst: 0)
    #expect(none.contains("rescues taken:           0\n"), "\(none)")
  }

  @Test("one command alone is tallied by its direction; sequences and other words are not")
  func singleCommands() {
    let report = ScoreReport(recordings: [
      ScoredRecording(path: "a", expected: [.up], recognized: [.up]),
      ScoredRecording(path: "b", expected: [.up], recognized: []),
      ScoredRecording(path: "c", expected: [.up], recognized: [.up, .up]),
      ScoredRecording(path: "d", expected: [.left], recognized: [.left]),
      ScoredRecording(path: "e", expected: [.down, .left], recognized: [.down, .left]),
      ScoredRecording(path: "f", expected: [], recognized: [.right]),
    ])
    #expect(report.singleCommands == [.up: WordTally(items: 3, right: 1), .left: WordTally(items: 1, right: 1)])
    #expect(report.singleCommandsLine == "up 1/3 (33.3%), left 1/1 (100.0%)")
    let text = ScoreText.render(report, worst: 0)
    #expect(text.contains("each word alone, right: up 1/3 (33.3%), left 1/1 (100.0%)\n"), "\(text)")
    let json = ScoreJSON(report: report, worst: 0).jsonLine()
    #expect(json.contains("\"single_commands\":{\"left\":{\"items\":1,\"right\":1},\"up\":{\"items\":3,\"right\":1}}"), "\(json)")
    let sequencesOnly = ScoreReport(recordings: [ScoredRecording(path: "e", expected: [.down, .left], recognized: [])])
    #expect(sequencesOnly.singleCommandsLine == nil)
    #expect(!ScoreText.render(sequencesOnly, worst: 0).contains("each word alone"))
  }

  @Test("what could not be scored is counted in words that fit the count")
  func notScored() {
    let report = ScoreReport(recordings: [ScoredRecording(path: "x", expected: [.up], recognized: [.up])])
    #expect(ScoreText.render(report, worst: 0, failed: 2, badLines: 1).contains("not scored: 2 unreadable recordings, 1 bad line\n"))
    #expect(ScoreText.render(report, worst: 0, failed: 1, badLines: 0).contains("not scored: 1 unreadable recording, 0 bad lines\n"))
    #expect(!ScoreText.render(report, worst: 0).contains("not scored"))
    #expect(1.counting("file") == "1 file" && 0.counting("file") == "0 files" && 2.counting("copy", plural: "copies") == "2 copies")
  }

  @Test("rates without data are unknown, not zero")
  func empty() {
    let report = ScoreReport(recordings: [ScoredRecording(path: "x", expected: [], recognized: [])])
    #expect(report.utteranceAccuracy == nil)
    #expect(report.instructionErrorRate == nil)
    #expect(report.falseAlarmRate == 0)
  }
}

@Suite("Labels")
struct LabelsTests {
  @Test("reads paths and directions; empty directions mean no command")
  func good() {
    let (recordings, errors) = LabelsFormat.parse("a.wav\tup down\n# comment\n\nb/c.wav\t\nd.wav\tLEFT,right\r\n")
    #expect(errors.isEmpty)
    #expect(recordings.map(\.path) == ["a.wav", "b/c.wav", "d.wav"])
    #expect(recordings.map(\.expected) == [[.up, .down], [], [.left, .right]])
    #expect(recordings.map(\.line) == [1, 4, 5])
  }

  @Test("bad lines are named by number and the rest is kept")
  func bad() {
    let text = "a.wav\tup\nno-tab-here\n\tup\nb.wav\tsideways\na.wav\tdown\nc.wav\tleft\n"
    let (recordings, errors) = LabelsFormat.parse(text)
    #expect(recordings.map(\.path) == ["a.wav", "c.wav"])
    #expect(errors.map(\.line) == [2, 3, 4, 5])
    #expect(errors[0].description.contains("no tab"))
    #expect(errors[2].description.contains("'sideways'"))
    #expect(errors[3].description.contains("line 1"))
  }

  @Test("formatting round-trips")
  func roundTrip() {
    let text = LabelsFormat.format([("x.wav", [.up, .left]), ("y.wav", [])])
    let (recordings, errors) = LabelsFormat.parse(text)
    #expect(errors.isEmpty)
    #expect(recordings.map(\.expected) == [[.up, .left], []])
  }
}
