import ArgumentParser
import DirectMeAudio
import DirectMeCore
import DirectMeRecognizer
import Foundation

struct Score: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Score command accuracy on labelled recordings.",
    discussion: """
      LABELS is a tab-separated file: path<TAB>expected directions, space-separated (empty for \
      a recording without a command); paths are relative to the file's folder.
      """
  )

  @Argument(help: ArgumentHelp("The labels file.", valueName: "labels.tsv"))
  var labels: String

  @Flag(help: "Print the report as one JSON object.")
  var json = false

  @Option(help: "How many of the worst recordings to list.")
  var worst: Int = 10

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard worst >= 0 else { throw ValidationError("--worst must be 0 or more") }
  }

  func run() throws {
    try reportingErrors {
      let text: String
      do {
        text = try String(contentsOfFile: labels, encoding: .utf8)
      } catch {
        throw Failure("\(labels): cannot read the labels file (\(FileManager.default.fileExists(atPath: labels) ? "not UTF-8 text or unreadable" : "no such file"))")
      }
      let (recordings, errors) = LabelsFormat.parse(text)
      for error in errors { warn("directme: \(labels): \(error)") }
      guard !recordings.isEmpty else { throw Failure("\(labels): no recordings listed") }

      let folder = URL(fileURLWithPath: labels).deletingLastPathComponent()
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      var scored: [ScoredRecording] = []
      var failures: [String] = []
      let progress = ProgressBar(total: recordings.count, label: "scoring")
      for (index, recording) in recordings.enumerated() {
        let path = recording.path.hasPrefix("/") ? recording.path : folder.appendingPathComponent(recording.path).path
        switch replayFile(path, recognizer: recognizer, interpreter: interpreter) {
        case .success(let (result, warnings)):
          for warning in warnings { progress.interrupt { warn("directme: warning: \(warning)") } }
          scored.append(
            ScoredRecording(
              path: recording.path, expected: recording.expected, recognized: result.directions,
              transcripts: result.utterances.map(\.result.bestTranscription.formattedString),
              rescues: result.utterances.reduce(0) { $0 + $1.interpretation.rescues.count }))
        case .failure(let error):
          progress.interrupt { warn("directme: error: \(error) (\(labels) line \(recording.line))") }
          failures.append(recording.path)
        }
        progress.update(index + 1)
      }
      progress.finish()

      let report = ScoreReport(recordings: scored)
      if json {
        print(ScoreJSON(report: report, worst: worst, failed: failures, badLines: errors.count).jsonLine())
      } else {
        print(ScoreText.render(report, worst: worst, failed: failures.count, badLines: errors.count))
      }
      if !failures.isEmpty || !errors.isEmpty {
        warn("directme: \(failures.count) recordings could not be scored, \(errors.count) bad lines in \(labels)")
        throw ExitCode(1)
      }
    }
  }
}

/// A progress bar on stderr when it is a terminal; otherwise a line at every tenth of the way
/// (for logs), for work that takes more than a few seconds.
final class ProgressBar {
  let total: Int
  let label: String
  private let enabled = isatty(STDERR_FILENO) != 0
  private let start = Date()
  private var shown = false
  private var lastTenth = 0

  init(total: Int, label: String) {
    self.total = total
    self.label = label
  }

  func update(_ done: Int) {
    guard enabled else {
      let tenth = total == 0 ? 10 : done * 10 / total
      if tenth > lastTenth, Date().timeIntervalSince(start) > 5 || tenth == 10 && lastTenth > 0 {
        lastTenth = tenth
        warn("\(label): \(done)/\(total) (\(Int(Date().timeIntervalSince(start).rounded())) s)")
      }
      return
    }
    let width = 30
    let filled = total == 0 ? width : done * width / total
    let elapsed = Date().timeIntervalSince(start)
    let remaining = done == 0 ? 0 : elapsed / Double(done) * Double(total - done)
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let line = "\r\(label) [\(bar)] \(done)/\(total)  \(Int(remaining.rounded())) s left "
    FileHandle.standardError.write(Data(line.utf8))
    shown = true
  }

  /// Prints something without garbling the bar.
  func interrupt(_ body: () -> Void) {
    if enabled && shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    body()
  }

  func finish() {
    if enabled && shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
  }
}
