import ArgumentParser
import DirectMeBench
import DirectMeCore
import Foundation

struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Benchmarks that print numbers beside a baseline measured in the same run.",
    subcommands: [AccuracyBench.self, LiveBench.self]
  )
}

struct AccuracyBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accuracy",
    abstract: "Command accuracy and false alarms per condition, beside the stock baseline.",
    discussion: """
      Conditions: the real dev set split by speaker (tuning half, checking half), its checking \
      half mixed with pink, brown and babble noise at 20, 10 and 5 dB SNR, sequences of 2-4 \
      direction clips, synthetic speech (flite and espeak-ng voices), and silence, noises, \
      clicks and coughs. The baseline is pocketsphinx_continuous -jsgf with a plain \
      four-word grammar. Writes accuracy.txt, accuracy.json and accuracy.html to --out.
      """
  )

  @Option(help: ArgumentHelp("The real-speech dev set (a folder with labels.tsv).", valueName: "folder"))
  var dev: String?

  @Option(help: ArgumentHelp("Where to write the report and cache generated audio.", valueName: "folder"))
  var out: String = "bench-out"

  @Flag(help: "Skip the baseline.")
  var noBaseline = false

  @Flag(help: "A quicker, smaller run: every third item of the noise mixes, fewer sequences.")
  var quick = false

  enum Part: String, ExpressibleByArgument, CaseIterable {
    case dev, noise, sequences, synthetic, nonspeech
  }

  @Option(
    parsing: .upToNextOption,
    help: ArgumentHelp("Only these parts (\(Part.allCases.map(\.rawValue).joined(separator: ", "))).", valueName: "part"))
  var only: [Part] = []

  private func includes(_ part: Part) -> Bool { only.isEmpty || only.contains(part) }

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func run() throws {
    try reportingErrors {
      let started = Date()
      let outFolder = URL(fileURLWithPath: out)
      let cache = outFolder.appendingPathComponent("cache")
      try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
      let builder = CorpusBuilder(cache: cache) { warn("bench: \($0)") }

      var items: [BenchItem] = []
      let devFolder = URL(fileURLWithPath: dev ?? Resources.path("../shared/data/speech-commands-dev"))
      if FileManager.default.fileExists(atPath: devFolder.appendingPathComponent("labels.tsv").path) {
        let devItems = try builder.devSet(devFolder)
        let checking = devItems.filter { $0.condition == CorpusBuilder.checkingHalf }
        if includes(.dev) { items += devItems }
        if includes(.noise) {
          var mixes = try builder.noiseMixes(checking)
          if quick { mixes = mixes.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) }
          items += mixes
        }
        if includes(.sequences) {
          items += builder.sequences(
            from: checking.filter { !$0.expected.isEmpty }, count: quick ? 20 : 60,
            condition: "sequences of 2-4 (checking half)")
        }
      } else {
        warn("bench: no dev set at \(devFolder.path) (pass --dev); real-speech conditions skipped")
      }
      if includes(.synthetic) { items += try builder.synthetic() }
      if includes(.nonspeech) { items += try builder.nonSpeech() }
      warn("bench: \(items.count) items")

      // The baseline runs on a thread of its own while DirectMe decodes on this one.
      let baselineBox = BaselineBox()
      let baselineDone = DispatchSemaphore(value: 0)
      if !noBaseline {
        guard BaselineRunner.isAvailable else {
          throw Failure("pocketsphinx_continuous not found (Debian package pocketsphinx); or pass --no-baseline")
        }
        let itemsCopy = items
        let folder = cache
        Thread {
          do {
            var runner = try BaselineRunner(folder: folder)
            for item in itemsCopy {
              let transcript = try runner.transcript(of: item)
              baselineBox.set(item.id, transcript)
            }
          } catch {
            baselineBox.fail("\(error)")
          }
          baselineDone.signal()
        }.start()
      } else {
        baselineDone.signal()
      }

      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = self.recognizer.interpreter
      let runner = DirectMeRunner { CommandListener(recognizer: recognizer, interpreter: interpreter) }
      var outcomes: [ItemOutcome] = []
      let progress = ProgressBar(total: items.count, label: "DirectMe")
      for (index, item) in items.enumerated() {
        let (results, emitted) = try runner.run(item)
        outcomes.append(ItemOutcome(item: item, results: results, emitted: emitted))
        progress.update(index + 1)
      }
      progress.finish()
      if !noBaseline { warn("bench: waiting for the baseline") }
      baselineDone.wait()
      if let failure = baselineBox.failure { throw Failure("baseline: \(failure)") }
      for index in outcomes.indices {
        if let transcript = baselineBox.transcript(outcomes[index].item.id) {
          outcomes[index].baselineTranscript = transcript
          outcomes[index].baseline = BaselineRunner.directions(in: transcript)
        }
      }

      let report = AccuracyReport(
        outcomes: outcomes, interpreter: interpreter, confidenceScale: recognizer.configuration.confidenceScale,
        settings: self.recognizer.summary,
        curveThresholds: [-60, -40, -20, -10, 0, 10, 20, 30, 40, 50, 60, 80, 100, 150],
        seconds: Date().timeIntervalSince(started))
      let text = report.text()
      print(text)
      try text.write(to: outFolder.appendingPathComponent("accuracy.txt"), atomically: true, encoding: .utf8)
      try report.json().write(to: outFolder.appendingPathComponent("accuracy.json"))
      try report.html().write(to: outFolder.appendingPathComponent("accuracy.html"), atomically: true, encoding: .utf8)
      try writeOutcomes(outcomes, interpreter: interpreter, to: outFolder.appendingPathComponent("accuracy-items.tsv"))
      warn("bench: wrote \(out)/accuracy.txt, accuracy.json, accuracy.html, accuracy-items.tsv")
    }
  }

  /// One line per item: condition, id, expected, DirectMe, baseline, transcripts (for digging).
  private func writeOutcomes(_ outcomes: [ItemOutcome], interpreter: Interpreter, to url: URL) throws {
    var text = "condition\titem\texpected\tdirectme\tbaseline\tdirectme heard\tbaseline heard\n"
    for outcome in outcomes {
      let mine = (outcome.emitted ?? Scoring.directions(outcome, interpreter: interpreter)).map(\.rawValue).joined(separator: " ")
      let theirs = outcome.baseline.map { $0.map(\.rawValue).joined(separator: " ") } ?? "-"
      let heard = outcome.results.map { result in
        let gap = result.transcriptions.count > 1 ? result.transcriptions[0].score - result.transcriptions[1].score : 0
        let words = result.bestTranscription.segments.filter { !$0.isFiller }.map {
          $0.word + ($0.confidence.map { String(format: ":%.2f", $0) } ?? "")
        }.joined(separator: " ")
        let alternate = result.alternates.first?.formattedString ?? ""
        return words + String(format: " (gap %.1f over \"%@\", %.2f s)", gap, alternate, result.end - result.start)
      }.joined(separator: " | ")
      text += [
        outcome.item.condition, outcome.item.id, outcome.item.expected.map(\.rawValue).joined(separator: " "), mine,
        theirs, heard, (outcome.baselineTranscript ?? "").replacingOccurrences(of: "\n", with: " | "),
      ].joined(separator: "\t") + "\n"
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}

/// Baseline transcripts handed from the baseline's thread.
final class BaselineBox: @unchecked Sendable {
  private let lock = NSLock()
  private var transcripts: [String: String] = [:]
  private(set) var failure: String?

  func set(_ id: String, _ transcript: String) {
    lock.lock()
    transcripts[id] = transcript
    lock.unlock()
  }

  func fail(_ message: String) {
    lock.lock()
    failure = message
    lock.unlock()
  }

  func transcript(_ id: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return transcripts[id]
  }
}
