import ArgumentParser
import DirectMeApp
import DirectMeCommandLine
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct Score: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Score command accuracy on labelled recordings.",
    discussion: """
      LABELS is a tab-separated file: path<TAB>expected directions, space-separated (empty for \
      a recording without a command); paths are relative to the file's folder. A folder holding \
      a labels.tsv (as directme enroll writes, as the data sets keep theirs) names that file.
      """
  )

  @Argument(help: ArgumentHelp("The labels file, or a folder holding a labels.tsv.", valueName: "labels.tsv"))
  var labels: String

  @Flag(help: "Print the report as one JSON object.")
  var json = false

  @Option(help: "How many of the worst recordings to list.")
  var worst: Int = 10

  @Option(help: "Recordings decoded at once, each job with a recognizer of its own (the report is the same with any number; default: one per core, at most 4).")
  var jobs: Int = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard worst >= 0 else { throw ValidationError("--worst must be 0 or more") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  func run() throws {
    try reportingErrors {
      let scored = try ScoreRun.run(
        labels: labels, recognizers: try recognizer.makeRecognizers(jobs), interpreter: try recognizer.makeInterpreter())
      if json {
        print(ScoreJSON(report: scored.report, worst: worst, failed: scored.failed, badLines: scored.badLines).jsonLine())
      } else {
        print(ScoreText.render(scored.report, worst: worst, failed: scored.failed.count, badLines: scored.badLines))
      }
      if !scored.failed.isEmpty || scored.badLines > 0 {
        // Only what went wrong: "0 recordings could not be scored, 1 bad line" read as a fault of
        // the recordings.
        var parts: [String] = []
        if !scored.failed.isEmpty { parts.append("\(scored.failed.count.counting("recording")) could not be scored") }
        if scored.badLines > 0 { parts.append("\(scored.badLines.counting("bad line")) left out") }
        warn("directme: \(labels): \(parts.joined(separator: ", "))")
        throw ExitCode(1)
      }
    }
  }
}
