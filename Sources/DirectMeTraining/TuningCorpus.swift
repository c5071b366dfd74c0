import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// A labelled recording to decode for tuning, with the words said and the speaker.
public struct LabelledAudio: Hashable, Sendable {
  /// The audio file's path.
  public var path: String
  public var expected: [Direction]
  /// The words said, when known.
  public var transcript: String?
  public var speaker: String
  /// The audio itself when it was made in memory (a noisy copy, a stretch of noise); `path`
  /// then only names it.
  public var samples: [Int16]?

  public init(path: String, expected: [Direction], transcript: String?, speaker: String, samples: [Int16]? = nil) {
    self.path = path
    self.expected = expected
    self.transcript = transcript
    self.speaker = speaker
    self.samples = samples
  }

  /// What kind of recording it is, for weighing false alarms (see `TuningRecording.kind`).
  public var kind: String {
    if !expected.isEmpty {
      return expected.map(\.rawValue).joined(separator: " ")
        + (isNoisyCopy ? TuningRecording.noisySuffix : "") + (joined.map { $0.suffix } ?? "")
    }
    return transcript ?? "other"
  }
  /// Made by mixing noise into a command recording.
  public var isNoisyCopy = false
  /// Made by joining one speaker's recordings (see `NoiseMaterial.joined`).
  public var joined: TuningRecording.Joined?
}

/// Reads labels files (or folders holding a `labels.tsv`) into recordings with speakers.
public enum LabelledAudioReader {
  /// The recordings of every labels file, and one line per bad line or missing file.
  public static func read(_ paths: [String]) throws -> (recordings: [LabelledAudio], problems: [String]) {
    var recordings: [LabelledAudio] = []
    var problems: [String] = []
    for given in paths {
      let file = LabelsFormat.file(named: given)
      let text: String
      do {
        text = try String(contentsOfFile: file, encoding: .utf8)
      } catch {
        throw ToolError("\(file): cannot read the labels file (\(FileManager.default.fileExists(atPath: file) ? "not UTF-8 text or unreadable" : "no such file"))")
      }
      let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
      let (parsed, errors) = LabelsFormat.parse(text)
      problems += errors.map { "\(file): \($0)" }
      for recording in parsed {
        let path = recording.path.hasPrefix("/") ? recording.path : folder.appendingPathComponent(recording.path).path
        guard FileManager.default.fileExists(atPath: path) else {
          problems.append("\(file): line \(recording.line): \(recording.path): no such file")
          continue
        }
        recordings.append(
          LabelledAudio(
            path: path, expected: recording.expected, transcript: recording.transcript,
            speaker: recording.speaker ?? speaker(of: recording.path)))
      }
    }
    return (recordings, problems)
  }

  /// A speaker id from a file name when the labels give none: Speech Commands names files
  /// `<speaker>_nohash_<n>.wav`; otherwise each file is its own speaker.
  public static func speaker(of path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    if let range = name.firstRange(of: "_nohash_") { return String(name[..<range.lowerBound]) }
    return name
  }
}

/// Runs labelled recordings through the listening pipeline, several at once, keeping the
/// final result of every utterance.
public struct TuningDecoder: Sendable {
  public var jobs: Int
  public init(jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) {
    self.jobs = jobs
  }

  /// Decodes `recordings`; `makeListener` is called once per job (each gets its own decoder).
  /// A recording that cannot be read is reported through `failed` and left out.
  public func decode(
    _ recordings: [LabelledAudio], makeListener: @escaping @Sendable () throws -> CommandListener,
    progress: @escaping @Sendable (Int, Int) -> Void, failed: @escaping @Sendable (String, Error) -> Void
  ) throws -> [TuningRecording] {
    // A recording that cannot be read or decoded is reported and left out; a listener that
    // cannot be made ends the run.
    let outcomes = try Striped.map(count: recordings.count, parts: jobs, worker: { _ in try makeListener() }, { listener, index in
      let recording = recordings[index]
      let samples = try recording.samples ?? AudioFileSource.readAll(path: recording.path)
      return try Self.finalResults(of: samples, listener: listener)
    }) { index, outcome, done in
      if case .failure(let error) = outcome { failed(recordings[index].path, error) }
      progress(done, recordings.count)
      return true
    }
    return zip(recordings, outcomes).compactMap { recording, outcome in
      (try? outcome?.get()).map {
        TuningRecording(
          path: recording.path, speaker: recording.speaker, expected: recording.expected, kind: recording.kind, results: $0)
      }
    }
  }

  /// The final result of each utterance of `samples` (the last one given for it, covering all of it).
  public static func finalResults(of samples: [Int16], listener: CommandListener) throws -> [RecognitionResult] {
    listener.recognizer.resetAdaptation()
    let fresh = CommandListener(recognizer: listener.recognizer, interpreter: listener.interpreter)
    let stream = try fresh.run(samples: samples)
    var results: [RecognitionResult] = []
    for utterance in stream.utterances {
      if let last = results.last, last.start == utterance.result.start { results.removeLast() }
      results.append(utterance.result)
    }
    return results
  }
}

/// Noisy material for tuning: noise-only stretches (which must move nothing) and noisy
/// copies of command recordings (which should still move the ninja).
public enum NoiseMaterial {
  /// `count` one-second stretches of the noises at levels from -45 to -10 dBFS.
  public static func noiseOnly(_ noises: [[Int16]], count: Int, seed: UInt64 = 11) -> [LabelledAudio] {
    guard !noises.isEmpty else { return [] }
    var random = Signal.Random(seed: seed)
    return (0..<count).map { index in
      let samples = stretch(of: noises[index % noises.count], random: &random)
      return LabelledAudio(
        path: "noise #\(index + 1)", expected: [], transcript: TuningRecording.noiseKind, speaker: "noise-\(index % 7)",
        samples: samples)
    }
  }

  /// A second of `noise` from a random place, at a random level from -45 to -10 dBFS.
  public static func stretch(of noise: [Int16], random: inout Signal.Random) -> [Int16] {
    let start = Int.random(in: 0..<max(1, noise.count - 16_000), using: &random)
    let stretch = Array(noise[start..<min(noise.count, start + 16_000)])
    let gain = Signal.gain(stretch, toLevel: Double.random(in: -45 ... -10, using: &random))
    return stretch.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
  }

  /// A noisy copy of every `stride`-th command recording, at an SNR drawn from `snr`.
  public static func noisyCopies(
    of recordings: [LabelledAudio], noises: [[Int16]], snr: ClosedRange<Double>, every stride: Int, seed: UInt64 = 13
  ) throws -> [LabelledAudio] {
    guard !noises.isEmpty else { return [] }
    var random = Signal.Random(seed: seed)
    var copies: [LabelledAudio] = []
    for (index, recording) in recordings.enumerated() where !recording.expected.isEmpty && index % stride == 0 {
      let clean = try recording.samples ?? AudioFileSource.readAll(path: recording.path)
      let (mixed, level) = Signal.mixedWithOne(of: noises, clean, snr: snr, random: &random)
      var copy = LabelledAudio(
        path: recording.path + " + noise at \(Int(level.rounded())) dB", expected: recording.expected,
        transcript: recording.transcript, speaker: recording.speaker, samples: mixed)
      copy.isNoisyCopy = true
      copies.append(copy)
    }
    return copies
  }
}

extension NoiseMaterial {
  /// A copy of every `stride`-th recording (commands and other speech alike) as heard in a
  /// room (`Signal.reverberatedInSomeRoom`). A copy is the same kind of recording as its original: a reverberant
  /// "go" that moves the ninja is a false alarm on "go", and a reverberant "up" a command to
  /// catch. (Tuned on clean recordings only, a room's echo turned "go" into "down": false
  /// alarms on held-out speakers 4.1% clean, 9.9-12.2% reverberant.)
  public static func reverberantCopies(
    of recordings: [LabelledAudio], every stride: Int, seed: UInt64 = 19
  ) throws -> [LabelledAudio] {
    guard stride > 0 else { return [] }
    var random = Signal.Random(seed: seed)
    var copies: [LabelledAudio] = []
    for (index, recording) in recordings.enumerated() where recording.samples == nil && index % stride == 0 {
      let (samples, decay) = Signal.reverberatedInSomeRoom(try AudioFileSource.readAll(path: recording.path), random: &random)
      copies.append(
        LabelledAudio(
          path: recording.path + String(printf: " in a room (RT60 %.2f s)", decay), expected: recording.expected,
          transcript: recording.transcript, speaker: recording.speaker, samples: samples))
    }
    return copies
  }
}

extension NoiseMaterial {
  /// Recordings joined as people say commands in a row, each speaker's own, with 200-400 ms
  /// pauses: for each speaker with two or more command recordings, one sequence of two or
  /// three of them; for each speaker with a command and another word, the two in either
  /// order. Tuning learns from them how sure a command must be beside another one.
  public static func joined(_ recordings: [LabelledAudio], seed: UInt64 = 17) throws -> [LabelledAudio] {
    var random = Signal.Random(seed: seed)
    var made: [LabelledAudio] = []
    let bySpeaker = Dictionary(grouping: recordings.filter { !$0.isNoisyCopy && $0.samples == nil }, by: \.speaker)
    for speaker in bySpeaker.keys.sorted() {
      let mine = bySpeaker[speaker]!
      let commands = mine.filter { $0.expected.count == 1 }
      let others = mine.filter { $0.expected.isEmpty }
      func join(_ parts: [LabelledAudio], as kind: TuningRecording.Joined) throws -> LabelledAudio {
        var samples = Signal.silence(0.3)
        for (index, part) in parts.enumerated() {
          if index > 0 { samples += Signal.silence(Double.random(in: 0.2...0.4, using: &random)) }
          samples += Signal.trimmed(try AudioFileSource.readAll(path: part.path))
        }
        samples += Signal.silence(0.5)
        var joined = LabelledAudio(
          path: parts.map(\.path).joined(separator: " + "), expected: parts.flatMap(\.expected),
          transcript: parts.compactMap(\.transcript).joined(separator: " "), speaker: speaker, samples: samples)
        joined.joined = kind
        return joined
      }
      if commands.count >= 2 {
        let count = min(commands.count, Int.random(in: 2...3, using: &random))
        made.append(try join(Array(commands.prefix(count)), as: .sequence))
      }
      if let command = commands.last, let other = others.first {
        made.append(try join(Bool.random(using: &random) ? [command, other] : [other, command], as: .besideOtherWords))
      }
    }
    return made
  }
}
