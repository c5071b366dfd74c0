#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// `directme score` as text.
public enum ScoreText {
  public static func render(_ report: ScoreReport, worst: Int, failed: Int = 0, badLines: Int = 0) -> String {
    func percent(_ value: Double?) -> String {
      value.map { "\(($0 * 100).formatted(digits: 1))%" } ?? "n/a"
    }
    let commands = report.commandRecordings
    let others = report.otherRecordings
    var lines: [String] = []
    lines.append("recordings: \(report.recordings.count) (\(commands.count) with a command, \(others.count) without)")
    if failed > 0 || badLines > 0 {
      lines.append("not scored: \(failed.counting("unreadable recording")), \(badLines.counting("bad line"))")
    }
    lines.append("utterance accuracy:      \(percent(report.utteranceAccuracy))  (exact sequence, recordings with a command)")
    lines.append("instruction error rate:  \(percent(report.instructionErrorRate))  (edit distance / expected instructions)")
    lines.append("false-alarm rate:        \(percent(report.falseAlarmRate))  (recordings without a command that moved the ninja)")
    lines.append("overall accuracy:        \(percent(report.overallAccuracy))  (all recordings exactly right)")
    lines.append("rescues taken:           \(report.rescues)\(report.rescues > 0 ? "  (\(report.rescuesRight) right, \(report.rescuesWrong) wrong)" : "")")
    if let words = report.singleCommandsLine { lines.append("each word alone, right: \(words)") }
    lines.append("")
    lines.append("confusion (rows: expected, columns: recognized; '-' is nothing):")
    let labels = ConfusionMatrix.labels.map { $0?.rawValue ?? "-" }
    let matrix = report.confusion
    lines.append("        " + labels.map { $0.padded(toLength: 7) }.joined())
    for expected in ConfusionMatrix.labels {
      let name = (expected?.rawValue ?? "-").padded(toLength: 8)
      let cells = ConfusionMatrix.labels.map { String(matrix[expected, $0]).padded(toLength: 7) }
      lines.append(name + cells.joined())
    }
    let worstRecordings = report.worst(worst)
    if !worstRecordings.isEmpty {
      lines.append("")
      lines.append("worst recordings:")
      for recording in worstRecordings {
        let expected = recording.expected.isEmpty ? "(none)" : recording.expected.map(\.rawValue).joined(separator: " ")
        let got = recording.recognized.isEmpty ? "(none)" : recording.recognized.map(\.rawValue).joined(separator: " ")
        let heard = recording.transcripts.filter { !$0.isEmpty }.joined(separator: " | ")
        lines.append("  \(recording.path): expected \(expected), got \(got)\(heard.isEmpty ? "" : " (heard \"\(heard)\")")")
      }
    }
    return lines.joined(separator: "\n")
  }
}

/// `directme score --json`.
public struct ScoreJSON: Codable, Hashable, Sendable {
  public struct Worst: Codable, Hashable, Sendable {
    public var path: String
    public var expected: [Direction]
    public var recognized: [Direction]
    public var transcripts: [String]
    public var editDistance: Int
  }

  public var recordings: Int
  public var withCommand: Int
  public var withoutCommand: Int
  public var utteranceAccuracy: Double?
  public var instructionErrorRate: Double?
  public var falseAlarmRate: Double?
  public var overallAccuracy: Double?
  public var rescues: Int
  public var rescuesRight: Int
  public var rescuesWrong: Int
  /// confusion[expected][recognized], "-" for nothing.
  public var confusion: [String: [String: Int]]
  /// Recordings of one command alone, by its direction: how many, and how many right.
  public var singleCommands: [String: WordTally]
  public var worst: [Worst]
  public var failed: [String]
  public var badLines: Int

  public init(report: ScoreReport, worst: Int, failed: [String] = [], badLines: Int = 0) {
    recordings = report.recordings.count
    withCommand = report.commandRecordings.count
    withoutCommand = report.otherRecordings.count
    utteranceAccuracy = report.utteranceAccuracy?.rounded(to: 4)
    instructionErrorRate = report.instructionErrorRate?.rounded(to: 4)
    falseAlarmRate = report.falseAlarmRate?.rounded(to: 4)
    overallAccuracy = report.overallAccuracy?.rounded(to: 4)
    rescues = report.rescues
    rescuesRight = report.rescuesRight
    rescuesWrong = report.rescuesWrong
    let matrix = report.confusion
    self.confusion = matrix.table
    singleCommands = report.singleCommandsByName
    self.worst = report.worst(worst).map {
      Worst(path: $0.path, expected: $0.expected, recognized: $0.recognized, transcripts: $0.transcripts, editDistance: $0.editDistance)
    }
    self.failed = failed
    self.badLines = badLines
  }

  public func jsonLine() -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
