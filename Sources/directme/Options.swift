import ArgumentParser
import DirectMeCore
import DirectMeRecognizer
import Foundation

/// Where the recognizer's files come from and how it decides.
struct RecognizerOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Acoustic model folder.", valueName: "folder"))
  var model: String = RecognizerConfiguration.defaultModelFolder + "/en-us"

  @Option(help: ArgumentHelp("Pronunciation dictionary.", valueName: "file"))
  var dict: String = RecognizerConfiguration.defaultModelFolder + "/cmudict-en-us.dict"

  @Option(help: ArgumentHelp("JSGF grammar (default: grammars/directme.gram).", valueName: "file"))
  var grammar: String?

  @Option(help: "How many transcriptions to keep per utterance, the best included (n-best).")
  var alternates: Int = 10

  @Option(
    help: ArgumentHelp(
      "How much better (natural log) the commands must explain an utterance than other words; below 0, near-misses within that margin are rescued.",
      valueName: "nats"))
  var threshold: Double = RecognizerOptions.defaultThreshold

  @Option(help: "Override: how far (natural log) below the best an alternate may score to rescue a near-miss.")
  var rescueMargin: Double?

  @Option(help: "Override: the confidence (0-1) a command needs.")
  var minConfidence: Double?

  /// The tuned operating point (see `directme bench accuracy`).
  static let defaultThreshold = 40.0

  func validate() throws {
    guard alternates >= 1, alternates <= 100 else {
      throw ValidationError("--alternates must be between 1 and 100 (got \(alternates))")
    }
    guard threshold.isFinite else { throw ValidationError("--threshold must be a number") }
    if let rescueMargin, !(rescueMargin >= 0 && rescueMargin.isFinite) {
      throw ValidationError("--rescue-margin must be 0 or more (got \(rescueMargin))")
    }
    if let minConfidence, !(minConfidence >= 0 && minConfidence <= 1) {
      throw ValidationError("--min-confidence must be between 0 and 1 (got \(minConfidence))")
    }
  }

  var configuration: RecognizerConfiguration {
    RecognizerConfiguration(
      acousticModel: model, dictionary: dict, grammar: grammar ?? Resources.defaultGrammar,
      maximumTranscriptions: alternates)
  }

  var interpreter: Interpreter {
    var settings = InterpreterSettings.operatingPoint(
      threshold: threshold, confidenceScale: configuration.confidenceScale)
    if let rescueMargin { settings.rescueMargin = rescueMargin }
    if let minConfidence { settings.minimumConfidence = minConfidence }
    return Interpreter(settings: settings)
  }

  /// The settings in one line, for reports.
  var summary: String {
    "grammar \(((grammar ?? Resources.defaultGrammar) as NSString).lastPathComponent), alternates \(alternates), threshold \(threshold)"
      + (rescueMargin.map { ", rescue margin \($0)" } ?? "") + (minConfidence.map { ", min confidence \($0)" } ?? "")
  }

  func makeRecognizer() throws -> PocketSphinxRecognizer {
    try PocketSphinxRecognizer(configuration: configuration)
  }
}

/// Prints one line on stderr.
func warn(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Ends the program with a one-line error.
struct Failure: Error, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

extension ParsableCommand {
  /// Runs `body`; a failure becomes one line on stderr and exit status 1.
  func reportingErrors(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as ExitCode {
      throw error
    } catch let error as CleanExit {
      throw error
    } catch {
      warn("directme: error: \(error)")
      throw ExitCode(1)
    }
  }
}

/// Expands files and folders into WAV files, in a stable order; folders are searched
/// recursively. Paths that do not exist are kept, to fail with their own error.
func expandAudioPaths(_ paths: [String]) -> [String] {
  var result: [String] = []
  let fileManager = FileManager.default
  for path in paths {
    var isFolder: ObjCBool = false
    if fileManager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      let found = (fileManager.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
        .filter { $0.lowercased().hasSuffix(".wav") }
        .sorted()
        .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
      result.append(contentsOf: found)
    } else {
      result.append(path)
    }
  }
  return result
}
