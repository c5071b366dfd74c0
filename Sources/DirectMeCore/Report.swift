#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// The JSON shape of one replayed file (`directme replay --json`): one object a line.
public struct FileReport: Codable, Hashable, Sendable {
  public struct Word: Codable, Hashable, Sendable {
    public var word: String
    public var start: Double
    public var end: Double
    public var score: Double
    public var confidence: Double?
    /// How much better (natural log) this command word explains its stretch than other words.
    public var margin: Double?
    /// For a command word, what the detector weighs beside its margin (`WordSegment`): its
    /// longest steady voiced run and its loud part (seconds), and how far its loud frames
    /// stand over the utterance's median level (dB).
    public var voiced: Double?
    public var loud: Double?
    /// For a command word, the longest run of its loud part's frames without a break
    /// (seconds, `WordSegment.loudRun`).
    public var loudRun: Double?
    public var standout: Double?
    /// For a command word, the share of its loud part's energy in the speech band (200-3,400
    /// Hz) and the share of that in three sharp spectral peaks (`WordSegment.speechShare`,
    /// `toneShare`): the gate's test of whether it sounds like a voice.
    public var speechShare: Double?
    public var toneShare: Double?
    /// For a command word, how likely the model's word verifier found its stretch to be this
    /// word (its margin includes that opinion, `WordVerifier`).
    public var verified: Double?
    /// For a command word, how much more like speech than like other sounds its loud frames
    /// are (`WordSegment.speechLikeness`).
    public var speechLikeness: Double?
    /// For a command word, its voiced loud frames' pitch (Hz) and how far their first harmonic
    /// stands over their fourth (dB; `WordSegment.harmonicLead`).
    public var pitch: Double?
    public var harmonicLead: Double?
  }
  /// What the utterance's audio says by itself (`SignalEvidence`), which the detector's gate weighs.
  public struct SignalReport: Codable, Hashable, Sendable {
    public var voiced: Double
    public var longestVoiced: Double
    public var dynamicRange: Double
    public var backgroundVoicing: Double
    public var endless: Bool?
  }
  public struct Alternate: Codable, Hashable, Sendable {
    public var transcript: String
    public var score: Double
    /// How far below the best (natural log, >= 0).
    public var gap: Double
    public var words: [Word]
    /// Which reading it is (`Reading`), when the final pass weighed command words.
    public var reading: Reading?
  }
  /// What a reading is: the commands reading (its command words carry a `margin`) or the
  /// other words' reading it was weighed against. The higher score comes first, so the
  /// commands reading may be an alternate, even when it was acted on.
  public enum Reading: String, Codable, Hashable, Sendable {
    case commands
    case otherWords = "other_words"

    /// As `replay`'s text names it.
    public var label: String {
      switch self {
      case .commands: "commands"
      case .otherWords: "other words"
      }
    }
  }
  public struct RescueReport: Codable, Hashable, Sendable {
    public var heard: String
    public var taken: Direction
    public var alternate: Int
    public var scoreGap: Double
  }
  public struct RejectionReport: Codable, Hashable, Sendable {
    public var code: String
    public var reason: String
  }
  public struct UtteranceReport: Codable, Hashable, Sendable {
    public var transcript: String
    public var start: Double
    public var end: Double
    public var confidence: Double?
    public var score: Double
    public var words: [Word]
    /// Which reading `words` is (`Reading`), when the final pass weighed command words.
    public var reading: Reading?
    public var alternates: [Alternate]
    public var rescues: [RescueReport]
    public var rejection: RejectionReport?
    public var signal: SignalReport?
    public var instructions: [Direction]
    public var emittedAt: Double
    public var cut: Bool
    /// Decided at a short pause after a command; a later utterance with the same start
    /// holds what was said after it.
    public var early: Bool
    /// With a personal model: how far the utterance's voice lay from its owner's, and
    /// whether the personal model decided it (`VoiceProfile`).
    public var voice: VoiceReport?
    /// The voices whose own model decoded it ("synthetic"), when not the usual model.
    public var voiceModel: String?
    /// True when people's model for a narrowband link decoded it (absent otherwise).
    public var narrowbandModel: Bool?
    /// The factor the final pass's front end divided frequencies by (a voice heard as the
    /// model's people's, `VoiceWarp`), when not 1.
    public var warp: Double?
    /// Up to where (Hz) it did, when the warp was piecewise linear (a child's voice).
    public var warpCutoff: Double?
  }
  public struct VoiceReport: Codable, Hashable, Sendable {
    public var distance: Double?
    public var threshold: Double
    public var owner: Bool
    /// How near the enrollment's recordings and other voices' lay (`VoiceMatch`).
    public var nearestOwn: Double?
    public var nearestOthers: Double?
  }

  /// The path as given on the command line.
  public var file: String
  public var duration: Double?
  public var instructions: [Direction]
  /// For each instruction, the stream time in seconds at which the pipeline emitted it.
  public var emittedAt: [Double]
  public var utterances: [UtteranceReport]
  /// Why the file could not be processed (then the rest is empty).
  public var error: String?
  /// Problems that did not stop processing (a header promising more audio than there is).
  public var warnings: [String]

  public init(file: String, result: StreamResult, warnings: [String] = []) {
    self.file = file
    duration = result.duration.rounded(to: 3)
    let timed = result.instructions
    instructions = timed.map(\.instruction.direction)
    emittedAt = timed.map { $0.emittedAt.rounded(to: 3) }
    utterances = result.utterances.map(Self.report)
    error = nil
    self.warnings = warnings
  }

  public init(file: String, error: String) {
    self.file = file
    duration = nil
    instructions = []
    emittedAt = []
    utterances = []
    self.error = error
    warnings = []
  }

  static func words(_ transcription: Transcription) -> [Word] {
    transcription.segments.filter { !$0.isFiller }.map {
      Word(
        word: $0.word, start: $0.start.rounded(to: 3), end: $0.end.rounded(to: 3), score: $0.score.rounded(to: 3),
        confidence: $0.confidence?.rounded(to: 3), margin: $0.margin?.rounded(to: 3), voiced: $0.voiced?.rounded(to: 3),
        loud: $0.loud?.rounded(to: 3), loudRun: $0.loudRun?.rounded(to: 3), standout: $0.standout?.rounded(to: 3), speechShare: $0.speechShare?.rounded(to: 3),
        toneShare: $0.toneShare?.rounded(to: 3), verified: $0.verified?.rounded(to: 3),
        speechLikeness: $0.speechLikeness?.rounded(to: 3), pitch: $0.harmonicLead?.pitch.rounded(to: 1),
        harmonicLead: $0.harmonicLead?.lead.rounded(to: 2))
    }
  }

  public static func report(_ utterance: Utterance) -> UtteranceReport {
    let result = utterance.result
    let best = result.bestTranscription
    let interpretation = utterance.interpretation
    return UtteranceReport(
      transcript: best.formattedString,
      start: result.start.rounded(to: 3),
      end: result.end.rounded(to: 3),
      confidence: result.confidence?.rounded(to: 3),
      score: best.score.rounded(to: 3),
      words: words(best),
      reading: result.reading(at: 0),
      alternates: zip(result.alternates.indices, result.alternates).map { index, alternate in
        Alternate(
          transcript: alternate.formattedString, score: alternate.score.rounded(to: 3),
          gap: (best.score - alternate.score).rounded(to: 3), words: words(alternate), reading: result.reading(at: index))
      },
      rescues: interpretation.rescues.map {
        RescueReport(heard: $0.heard, taken: $0.taken, alternate: $0.alternate, scoreGap: $0.scoreGap.rounded(to: 3))
      },
      rejection: interpretation.rejection.map { RejectionReport(code: $0.code, reason: $0.reason) },
      signal: result.signal.map {
        SignalReport(
          voiced: $0.voiced.rounded(to: 3), longestVoiced: $0.longestVoiced.rounded(to: 3),
          dynamicRange: $0.dynamicRange.rounded(to: 3), backgroundVoicing: $0.backgroundVoicing.rounded(to: 3), endless: $0.endless)
      },
      instructions: interpretation.directions,
      emittedAt: utterance.emittedAt.rounded(to: 3),
      cut: utterance.wasCut, early: utterance.isEarly,
      voice: result.voice.map {
        VoiceReport(
          distance: $0.distance.isFinite ? $0.distance.rounded(to: 3) : nil, threshold: $0.threshold.rounded(to: 3),
          owner: $0.matches, nearestOwn: $0.nearestOwn?.rounded(to: 3), nearestOthers: $0.nearestOthers?.rounded(to: 3))
      }, voiceModel: result.voiceModel, narrowbandModel: result.narrowbandModel ? true : nil, warp: result.warp.map { $0.factor.rounded(to: 3) }, warpCutoff: result.warp?.cutoff)
  }

  /// One line of JSON.
  public func jsonLine() -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}

extension RecognitionResult {
  /// Which reading `transcriptions[index]` is, when the final pass weighed command words
  /// (nil otherwise: no reading carries a margin).
  func reading(at index: Int) -> FileReport.Reading? {
    commandsReadingIndex.map { $0 == index ? .commands : .otherWords }
  }
}

extension Double {
  /// Rounded to `digits` decimals.
  public func rounded(to digits: Int) -> Double {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (self * scale).rounded() / scale
  }
}

/// Human-readable text for replayed files.
public enum TextReport {
  /// The lines for one utterance.
  public static func lines(for utterance: Utterance, alternates: Int = 3) -> [String] {
    let result = utterance.result
    let best = result.bestTranscription
    let interpretation = utterance.interpretation
    var lines: [String] = []
    let span = "\(result.start.formatted(digits: 2))-\(result.end.formatted(digits: 2)) s"
    let confidence = result.confidence.map { ", confidence \($0.formatted(digits: 2))" } ?? ""
    let transcript =
      !best.formattedString.isEmpty
      ? "\"\(best.formattedString)\"" : interpretation.rejection == .noCommand ? "(no words)" : "(silence)"
    // Which reading is which, when the final pass weighed commands against other words.
    lines.append("  \(span): \(transcript)\(result.reading(at: 0).map { " (\($0.label))" } ?? "")\(confidence)")
    for (index, alternate) in result.alternates.prefix(alternates).enumerated() {
      let gap = (best.score - alternate.score).formatted(digits: 2)
      let label = [result.reading(at: index + 1)?.label, "gap \(gap)"].compactMap { $0 }.joined(separator: ", ")
      lines.append("      alternate \(index + 1): \"\(alternate.formattedString)\" (\(label))")
    }
    for rescue in interpretation.rescues {
      lines.append(
        "    rescued: \(rescue.heard) -> \(rescue.taken.rawValue) (alternate \(rescue.alternate), gap \(rescue.scoreGap.formatted(digits: 2)))"
      )
    }
    if let rejection = interpretation.rejection {
      lines.append("    rejected: \(rejection.reason)")
    } else {
      lines.append(
        "    instructions: \(interpretation.directions.map(\.rawValue).joined(separator: " ")) (at \(utterance.emittedAt.formatted(digits: 2)) s)"
      )
    }
    return lines
  }
}
