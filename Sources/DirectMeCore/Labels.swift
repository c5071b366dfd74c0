#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// One line of a labels file: a recording and the directions said in it (none for a
/// recording that holds no command), and optionally the words said and who said them.
public struct LabeledRecording: Hashable, Sendable {
  /// The path as written in the file (relative paths are relative to the file's folder).
  public var path: String
  public var expected: [Direction]
  /// The line it came from, counting from 1.
  public var line: Int
  /// Every word said, when the file gives it (third column), for adapting the acoustic model.
  public var transcript: String?
  /// Who said it, when the file gives it (fourth column), for splitting by speaker.
  public var speaker: String?

  public init(path: String, expected: [Direction], line: Int, transcript: String? = nil, speaker: String? = nil) {
    self.path = path
    self.expected = expected
    self.line = line
    self.transcript = transcript
    self.speaker = speaker
  }
}

/// A line of a labels file that could not be read.
public struct LabelsError: Error, Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var problem: String
  public init(line: Int, problem: String) {
    self.line = line
    self.problem = problem
  }
  public var description: String { "line \(line): \(problem)" }
}

/// Reads labels files: one recording a line, `path<TAB>directions`, directions space-separated
/// and empty for a non-command; optionally `<TAB>transcript<TAB>speaker` after them (the words
/// said, and a speaker id). Blank lines and lines starting with `#` are skipped.
public enum LabelsFormat {
  /// The labels file a command-line argument names: the file itself, or `labels.tsv` in a
  /// folder (as `directme enroll` and the data sets keep theirs).
  public static func file(named given: String) -> String {
    var isFolder = false
    guard FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), isFolder else { return given }
    return URL(fileURLWithPath: given).appendingPathComponent(fileName).path
  }

  /// The name a folder's labels file has.
  public static let fileName = "labels.tsv"

  /// Every good line, and an error for each bad one (so one bad line loses nothing else).
  public static func parse(_ text: String) -> (recordings: [LabeledRecording], errors: [LabelsError]) {
    var recordings: [LabeledRecording] = []
    var errors: [LabelsError] = []
    var seen: [String: Int] = [:]
    var number = 0
    // "\r\n" is one Character in Swift, so it is a separator of its own.
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      number += 1
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.first == "#" { continue }
      guard let tab = line.firstIndex(of: "\t") else {
        errors.append(LabelsError(line: number, problem: "expected 'path<TAB>directions', found no tab"))
        continue
      }
      let path = String(line[..<tab])
      if path.trimmingSpaces.isEmpty {
        errors.append(LabelsError(line: number, problem: "the path is empty"))
        continue
      }
      if path.utf8.contains(0) {
        errors.append(LabelsError(line: number, problem: "the path holds a NUL byte"))
        continue
      }
      let columns = line[line.index(after: tab)...].split(separator: "\t", omittingEmptySubsequences: false)
      let rest = columns[0]
      guard columns.count <= 3 else {
        errors.append(LabelsError(line: number, problem: "too many columns (expected path, directions, and optionally transcript and speaker)"))
        continue
      }
      let transcript = columns.count > 1 ? columns[1].trimmingSpaces : ""
      let speaker = columns.count > 2 ? columns[2].trimmingSpaces : ""
      guard let expected = [Direction](parsing: rest) else {
        let unknown = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
          .first { Direction(rawValue: $0.lowercased()) == nil } ?? rest
        errors.append(
          LabelsError(
            line: number,
            problem: "unknown direction '\(unknown)' (expected up, down, left or right)"))
        continue
      }
      if let first = seen[path] {
        errors.append(LabelsError(line: number, problem: "'\(path)' is already listed on line \(first)"))
        continue
      }
      seen[path] = number
      recordings.append(
        LabeledRecording(
          path: path, expected: expected, line: number,
          transcript: transcript.isEmpty ? nil : transcript.lowercased(), speaker: speaker.isEmpty ? nil : String(speaker)))
    }
    return (recordings, errors)
  }

  /// The file's text for `recordings`.
  public static func format(_ recordings: [(path: String, expected: [Direction])]) -> String {
    recordings.map { "\($0.path)\t\($0.expected.map(\.rawValue).joined(separator: " "))\n" }.joined()
  }

  /// The file's text for `recordings`, with the transcript and speaker columns when given.
  public static func format(_ recordings: [LabeledRecording]) -> String {
    recordings.map { recording in
      var columns = [recording.path, recording.expected.map(\.rawValue).joined(separator: " ")]
      if recording.transcript != nil || recording.speaker != nil {
        columns.append(recording.transcript ?? "")
      }
      if let speaker = recording.speaker { columns.append(speaker) }
      return columns.joined(separator: "\t") + "\n"
    }.joined()
  }
}

extension StringProtocol {
  var trimmingSpaces: Substring {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
