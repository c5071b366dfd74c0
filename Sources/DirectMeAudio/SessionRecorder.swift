import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Writes a session as it happens (`--save-session DIR`): each utterance's audio as a WAV
/// file and a JSON Lines log (`session.jsonl`) of speech starts, partials, finals with their
/// alternates, rescues, rejections and instructions. Every line is written, and each final
/// synced to disk, as it comes, so a crash or a kill loses at most the utterance in progress.
///
/// The folder is made private (0700) and every file in it 0600: recordings of someone's
/// voice are written only when asked, and only for them.
public final class SessionRecorder {
  public static let logName = "session.jsonl"
  public let folder: URL
  private let log: OutputFile
  private var recent: [Int16] = []
  /// Stream sample index of `recent[0]`.
  private var recentStart = 0
  private var fed = 0
  private let keep: Int
  private var files: [Double: String] = [:]  // utterance start -> its audio file, this stream
  private var count = 0
  private let encoder: JSONEncoder

  /// Opens (or creates) `folder` and appends to its log.
  public init(folder path: String, keepSeconds: Double = 15) throws {
    folder = URL(fileURLWithPath: path)
    let fileManager = FileManager.default
    var isFolder = false
    if fileManager.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder else { throw AudioFileError(file: path, problem: "--save-session needs a folder; this is a file") }
    } else {
      do {
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw AudioFileError(file: path, problem: "cannot create the session folder (\(reason(of: error)))")
      }
    }
    do {
      try fileManager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    } catch {
      throw AudioFileError(file: path, problem: "cannot make the session folder private (\(reason(of: error)))")
    }
    let logPath = folder.appendingPathComponent(Self.logName).path
    do {
      // Created private (0600) when missing, appended to when there.
      log = try OutputFile(path: logPath, mode: .append, permissions: 0o600)
    } catch {
      throw AudioFileError(file: logPath, problem: "cannot open the session log for writing")
    }
    // Appending to an earlier session: number the new utterances after its files.
    count = ((try? fileManager.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("utterance-") }.count
    keep = Int(keepSeconds * 16_000)
    encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// A new stream begins (the next file of a replay): stream time starts again at 0.
  public func beginStream() {
    recent.removeAll()
    recentStart = 0
    fed = 0
    files.removeAll()
  }

  /// The audio as it is fed to the pipeline (16 kHz mono), to cut utterances from.
  public func feed(_ samples: [Int16]) {
    recent.append(contentsOf: samples)
    fed += samples.count
    if recent.count > keep + 16_000 {
      let drop = recent.count - keep
      recent.removeFirst(drop)
      recentStart += drop
    }
  }

  /// One entry of the log.
  public struct Entry: Codable, Sendable {
    public var event: String
    public var time: Double
    public var text: String?
    public var utterance: FileReport.UtteranceReport?
    public var audio: String?
    public var source: String?
  }

  /// Logs a pipeline event; a final also writes its utterance's audio.
  public func record(_ event: ListenerEvent, source: String? = nil) throws {
    switch event {
    case .speechStarted(let time):
      try write(Entry(event: "speech_started", time: time.rounded(to: 3), source: source))
    case .partial(let transcription, let time):
      try write(Entry(event: "partial", time: time.rounded(to: 3), text: transcription.formattedString))
    case .final(let utterance):
      let start = utterance.result.start
      let name: String
      if let known = files[start] {
        name = known
      } else {
        count += 1
        name = String(printf: "utterance-%04d.wav", count)
        files[start] = name
      }
      let from = max(recentStart, Int(start * 16_000) ) - recentStart
      let to = min(fed, Int((utterance.result.end * 16_000).rounded(.up))) - recentStart
      if from < to {
        try AudioFileWriter.write(
          samples: Array(recent[from..<to]), to: folder.appendingPathComponent(name).path, permissions: 0o600)
      }
      try write(
        Entry(
          event: utterance.isEarly ? "early_final" : "final", time: utterance.emittedAt.rounded(to: 3),
          utterance: FileReport.report(utterance), audio: name, source: source))
      log.synchronize()
    }
  }

  private func write(_ entry: Entry) throws {
    var data = try encoder.encode(entry)
    data.append(0x0A)
    do {
      try log.write(data)
    } catch {
      throw AudioFileError(file: log.path, problem: "cannot write the session log (\(error))")
    }
  }

  /// The utterance files of a saved session, in the order they were first written, with the
  /// instructions each gave.
  public static func utterances(in folder: String) throws -> [(file: String, instructions: [Direction])] {
    let logPath = URL(fileURLWithPath: folder).appendingPathComponent(logName).path
    guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else {
      throw AudioFileError(file: logPath, problem: "not a saved session (no readable \(logName))")
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    var order: [String] = []
    var instructions: [String: [Direction]] = [:]
    for (index, line) in text.split(separator: "\n").enumerated() {
      guard let entry = try? decoder.decode(Entry.self, from: Data(line.utf8)) else {
        throw AudioFileError(file: logPath, problem: "line \(index + 1) is not a session entry")
      }
      guard let audio = entry.audio, let utterance = entry.utterance else { continue }
      if instructions[audio] == nil { order.append(audio) }
      instructions[audio, default: []] += utterance.instructions
    }
    return order.map { (URL(fileURLWithPath: folder).appendingPathComponent($0).path, instructions[$0] ?? []) }
  }
}
