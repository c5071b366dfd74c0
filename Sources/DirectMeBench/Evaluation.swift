import DirectMeCore
import Foundation

/// What DirectMe and the baseline made of one benchmark item.
public struct ItemOutcome: Sendable {
  public var item: BenchItem
  /// DirectMe's final results, kept so other interpreter settings can be tried without
  /// decoding again.
  public var results: [RecognitionResult]
  /// The baseline's directions, when it ran.
  public var baseline: [Direction]?
  /// The previous default's directions, when it ran.
  public var previous: [Direction]?
  /// The baseline's transcript lines.
  public var baselineTranscript: String?
  /// What the pipeline acted on, at the settings it ran with (early decisions included).
  public var emitted: [Direction]?

  public init(
    item: BenchItem, results: [RecognitionResult], emitted: [Direction]? = nil, baseline: [Direction]? = nil,
    baselineTranscript: String? = nil
  ) {
    self.item = item
    self.results = results
    self.emitted = emitted
    self.baseline = baseline
    self.baselineTranscript = baselineTranscript
  }
}

/// Metrics of one set of outcomes, by the same definitions as `directme score`.
public struct ConditionScore: Sendable, Codable {
  public var condition: String
  public var items: Int
  public var utteranceAccuracy: Double?
  public var instructionErrorRate: Double?
  public var falseAlarmRate: Double?
  public var rescues: Int
  /// Of the rescues, those that took a direction the item holds.
  public var rescuesRight: Int
  public var rescuesWrong: Int { rescues - rescuesRight }
  /// Items of one command alone, by its direction: how many, and how many right.
  public var singleCommands: [String: WordTally]
  /// The same in a line (`ScoreReport.singleCommandsLine(_:)`).
  public var singleCommandsLine: String? { ScoreReport.singleCommandsLine(singleCommands) }

  public init(condition: String, report: ScoreReport) {
    self.condition = condition
    items = report.recordings.count
    utteranceAccuracy = report.utteranceAccuracy
    instructionErrorRate = report.instructionErrorRate
    falseAlarmRate = report.falseAlarmRate
    rescues = report.rescues
    rescuesRight = report.rescuesRight
    singleCommands = report.singleCommandsByName
  }
}

/// Runs items through DirectMe's pipeline, exactly as `replay` does.
public struct DirectMeRunner {
  public let listener: () -> CommandListener

  public init(listener: @escaping () -> CommandListener) {
    self.listener = listener
  }

  /// The final result of each utterance (the last one given for it, covering all of it), and
  /// the directions the pipeline acted on.
  public func run(_ item: BenchItem) throws -> (results: [RecognitionResult], emitted: [Direction]) {
    let listener = listener()
    listener.recognizer.resetAdaptation()
    let result = try listener.run(samples: item.samples)
    var results: [RecognitionResult] = []
    for utterance in result.utterances {
      if let last = results.last, last.start == utterance.result.start { results.removeLast() }
      results.append(utterance.result)
    }
    return (results, result.directions)
  }
}

/// The stock approach DirectMe is measured against: `pocketsphinx_continuous -jsgf` with a
/// plain grammar of the four directions, on each item written to a WAV file.
public struct BaselineRunner {
  public let folder: URL
  public let grammar: URL
  private let cacheFile: URL
  private var cache: [String: String]

  public static var isAvailable: Bool { Tools.which("pocketsphinx_continuous") != nil }

  public init(folder: URL) throws {
    self.folder = folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    grammar = folder.appendingPathComponent("four-directions.gram")
    try "#JSGF V1.0;\ngrammar directions;\npublic <direction> = up | down | left | right;\n"
      .write(to: grammar, atomically: true, encoding: .utf8)
    cacheFile = folder.appendingPathComponent("baseline-results.tsv")
    cache = [:]
    if let text = try? String(contentsOf: cacheFile, encoding: .utf8) {
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 { cache[String(parts[0])] = String(parts[1]).replacingOccurrences(of: "\\n", with: "\n") }
      }
    }
  }

  /// A key for the item's audio, so cached results are reused only for the same samples.
  static func key(_ item: BenchItem) -> String {
    var hash: UInt64 = 14_695_981_039_346_656_037
    for sample in item.samples {
      hash = (hash ^ UInt64(UInt16(bitPattern: sample))) &* 1_099_511_628_211
    }
    return String(hash, radix: 16) + "-" + String(item.samples.count)
  }

  /// The baseline's transcript of `item` (one line per utterance it found).
  public mutating func transcript(of item: BenchItem) throws -> String {
    let key = Self.key(item)
    if let cached = cache[key] { return cached }
    // The process's id in the name: two runs sharing a cache write the same items (the same
    // key), and one's removal took the file from under the other's decoder.
    let wav = folder.appendingPathComponent("item-\(key)-\(ProcessInfo.processInfo.processIdentifier).wav")
    try Tools.write(item.samples, to: wav.path)
    defer { try? FileManager.default.removeItem(at: wav) }
    let output = try Tools.run([
      "pocketsphinx_continuous", "-infile", wav.path, "-jsgf", grammar.path, "-logfn", "/dev/null",
    ])
    let transcript = output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.joined(separator: "\n")
    cache[key] = transcript
    let line = key + "\t" + transcript.replacingOccurrences(of: "\n", with: "\\n") + "\n"
    if let handle = FileHandle(forWritingAtPath: cacheFile.path) {
      handle.seekToEndOfFile()
      handle.write(Data(line.utf8))
      try? handle.close()
    } else {
      try line.write(to: cacheFile, atomically: true, encoding: .utf8)
    }
    return transcript
  }

  /// The directions in a baseline transcript.
  public static func directions(in transcript: String) -> [Direction] {
    transcript.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Direction(rawValue: String($0)) }
  }
}

/// Scores outcomes per condition under given interpreter settings.
public enum Scoring {
  /// DirectMe's directions for an outcome under `interpreter`.
  public static func directions(_ outcome: ItemOutcome, interpreter: Interpreter) -> [Direction] {
    interpreter.interpret(outcome.results).flatMap(\.directions)
  }

  /// Scores under `interpreter`, deciding once per utterance at its end; with `emitted`,
  /// scores what the pipeline acted on instead (its own settings, early decisions included).
  public static func report(_ outcomes: [ItemOutcome], interpreter: Interpreter, emitted: Bool = false) -> ScoreReport {
    ScoreReport(recordings: outcomes.map { outcome in
      let interpretations = interpreter.interpret(outcome.results)
      return ScoredRecording(
        path: outcome.item.id, expected: outcome.item.expected,
        recognized: emitted ? (outcome.emitted ?? interpretations.flatMap(\.directions)) : interpretations.flatMap(\.directions),
        transcripts: outcome.results.map(\.bestTranscription.formattedString),
        rescued: interpretations.flatMap(\.rescues).map(\.taken))
    })
  }

  /// The scores of another system's directions (the baseline's, the previous default's).
  public static func otherReport(_ outcomes: [ItemOutcome], _ directions: KeyPath<ItemOutcome, [Direction]?>) -> ScoreReport {
    ScoreReport(recordings: outcomes.compactMap { outcome in
      outcome[keyPath: directions].map {
        ScoredRecording(path: outcome.item.id, expected: outcome.item.expected, recognized: $0)
      }
    })
  }

  /// Conditions in the order they were first seen.
  public static func conditions(_ outcomes: [ItemOutcome]) -> [String] {
    var seen: [String] = []
    for outcome in outcomes where !seen.contains(outcome.item.condition) { seen.append(outcome.item.condition) }
    return seen
  }

  /// One point of the miss / false-alarm curve.
  public struct CurvePoint: Codable, Sendable {
    /// The confidence a command needs.
    public var threshold: Double
    /// Share of command items not exactly right.
    public var missRate: Double
    /// Share of non-command items that moved the ninja.
    public var falseAlarmRate: Double
  }

  /// Misses against false alarms as the decision threshold moves.
  public static func curve(_ outcomes: [ItemOutcome], interpreter: Interpreter, thresholds: [Double]) -> [CurvePoint] {
    thresholds.map { threshold in
      var moved = interpreter
      moved.settings.minimumConfidence = threshold
      let report = report(outcomes, interpreter: moved)
      return CurvePoint(
        threshold: threshold, missRate: 1 - (report.utteranceAccuracy ?? 0), falseAlarmRate: report.falseAlarmRate ?? 0)
    }
  }
}

/// An earlier build of DirectMe (the previous default), run over the items with its own
/// `replay --json`, each item written to a WAV file; results are cached by the item's audio.
public struct PreviousRunner {
  public let executable: String
  public let folder: URL

  public init(executable: String, folder: URL) throws {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw Tools.Failure(description: "\(executable): not an executable (pass the path of an earlier directme build)")
    }
    self.executable = executable
    self.folder = folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// The directions the previous build gave for each item, by item id.
  public func run(_ items: [BenchItem], progress: (String) -> Void = { _ in }) throws -> [String: [Direction]] {
    let cacheFile = folder.appendingPathComponent("previous-results.tsv")
    var cache: [String: [Direction]] = [:]
    if let text = try? String(contentsOf: cacheFile, encoding: .utf8) {
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
        if parts.count == 2 { cache[String(parts[0])] = [Direction](parsing: parts[1]) ?? [] }
      }
    }
    let keys = items.map(BaselineRunner.key)
    let missing = Array(Set(zip(items, keys).filter { cache[$0.1] == nil }.map(\.1)))
    if !missing.isEmpty {
      progress("running the previous default (\(executable)) on \(missing.count) items")
      let audio = folder.appendingPathComponent("audio")
      try? FileManager.default.removeItem(at: audio)
      try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
      let byKey = Dictionary(zip(keys, items), uniquingKeysWith: { first, _ in first })
      for key in missing { try Tools.write(byKey[key]!.samples, to: audio.appendingPathComponent("\(key).wav").path) }
      let output = try Tools.run([executable, "replay", "--json", audio.path], allowFailure: true)
      struct Line: Decodable {
        var file: String
        var instructions: [Direction]?
      }
      var lines = ""
      for line in output.split(separator: "\n") {
        guard let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { continue }
        let key = ((decoded.file as NSString).lastPathComponent as NSString).deletingPathExtension
        let directions = decoded.instructions ?? []
        cache[key] = directions
        lines += key + "\t" + directions.map(\.rawValue).joined(separator: " ") + "\n"
      }
      if let handle = FileHandle(forWritingAtPath: cacheFile.path) {
        handle.seekToEndOfFile()
        handle.write(Data(lines.utf8))
        try? handle.close()
      } else {
        try lines.write(to: cacheFile, atomically: true, encoding: .utf8)
      }
      try? FileManager.default.removeItem(at: audio)
    }
    var result: [String: [Direction]] = [:]
    for (item, key) in zip(items, keys) { result[item.id] = cache[key] }
    return result
  }
}
