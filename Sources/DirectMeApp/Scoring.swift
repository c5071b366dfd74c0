import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// `directme score`: replays every recording of a labels file and compares what the ninja
/// did with what was said.
public struct ScoreRun {
  public var report: ScoreReport
  /// Recordings that could not be read or decoded.
  public var failed: [String]
  /// Lines of the labels file that could not be parsed.
  public var badLines: Int

  /// Reads `labels` (a labels file or a folder holding `labels.tsv`; paths relative to its
  /// folder) and scores each recording, with a
  /// progress bar; problems are reported through `output` as they come. Several recognizers
  /// score at once, each on a thread of its own taking every n-th recording: each recording
  /// starts afresh (`replayFile`), so the report is the same with any number of them.
  public static func run(
    labels: String, recognizers: [Recognizer], interpreter: Interpreter, output: Output = .standard
  ) throws -> ScoreRun {
    precondition(!recognizers.isEmpty, "at least one recognizer")
    let labels = LabelsFormat.file(named: labels)
    let text: String
    do {
      text = try String(contentsOfFile: labels, encoding: .utf8)
    } catch {
      throw Failure("\(labels): cannot read the labels file (\(FileManager.default.fileExists(atPath: labels) ? "not UTF-8 text or unreadable" : "no such file"))")
    }
    let (recordings, errors) = LabelsFormat.parse(text)
    for error in errors { output.warning("\(programName): \(labels): \(error)") }
    guard !recordings.isEmpty else { throw Failure("\(labels): no recordings listed") }

    let folder = URL(fileURLWithPath: labels).deletingLastPathComponent()
    let progress = ProgressBar(total: recordings.count, label: "scoring")
    // Each recording's outcome (nil: it could not be scored) and what to say of it.
    let outcomes = Striped.map(count: recordings.count, workers: recognizers, { recognizer, index in
      let recording = recordings[index]
      let path = recording.path.hasPrefix("/") ? recording.path : folder.appendingPathComponent(recording.path).path
      switch replayFile(path, recognizer: recognizer, interpreter: interpreter) {
      case .success(let (result, warnings)):
        let scored = ScoredRecording(
          path: recording.path, expected: recording.expected, recognized: result.directions,
          transcripts: result.utterances.map(\.result.bestTranscription.formattedString),
          rescued: result.utterances.flatMap(\.interpretation.rescues).map(\.taken))
        return (scored: Optional(scored), messages: warnings.map { "\(programName): warning: \($0)" })
      case .failure(let error):
        return (scored: nil, messages: ["\(programName): error: \(error) (\(labels) line \(recording.line))"])
      }
    }) { _, outcome, done in
      // One call at a time: the progress bar and the messages are drawn by one thread.
      for message in (try? outcome.get().messages) ?? [] { progress.interrupt { output.warning(message) } }
      progress.update(done)
      return true
    }
    progress.finish()
    let scored = outcomes.map { try? $0?.get().scored }
    return ScoreRun(
      report: ScoreReport(recordings: scored.compactMap { $0 }),
      failed: zip(recordings, scored).filter { $0.1 == nil }.map(\.0.path), badLines: errors.count)
  }
}

/// `directme replay` to text: each file's transcripts, alternates, rescues and instructions,
/// or one JSON object per file per line. Returns the files that had problems (named on
/// stderr as they come; the others still run).
public func replayToText(
  _ files: [String], recognizer: Recognizer, interpreter: Interpreter, recorder: SessionRecorder?, json: Bool,
  output: Output = .standard
) -> [String] {
  var failures: [String] = []
  for file in files {
    switch replayFile(file, recognizer: recognizer, interpreter: interpreter, recorder: recorder) {
    case .success(let (result, warnings)):
      if json {
        output.line(FileReport(file: file, result: result, warnings: warnings).jsonLine())
      } else {
        output.line("\(file) (\(result.duration.formatted(digits: 2)) s)")
        if result.utterances.isEmpty { output.line("  no speech") }
        for utterance in result.utterances {
          TextReport.lines(for: utterance).forEach(output.line)
        }
        let directions = result.directions.map(\.rawValue).joined(separator: " ")
        output.line("  => \(directions.isEmpty ? "(no instructions)" : directions)")
      }
      for warning in warnings { output.warning("\(programName): warning: \(warning)") }
      if !warnings.isEmpty { failures.append(file) }
    case .failure(let error):
      output.warning("\(programName): error: \(error)")
      if json { output.line(FileReport(file: file, error: "\(error)").jsonLine()) }
      failures.append(file)
    }
  }
  return failures
}
