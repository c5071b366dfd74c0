import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// One recording to adapt on, with every word said in it.
public struct AdaptationItem: Hashable, Sendable {
  public var audio: String
  public var words: [String]
  public init(audio: String, words: [String]) {
    self.audio = audio
    self.words = words
  }

  /// What to adapt on from labelled recordings: each one's transcript, or its directions for
  /// a command without one. Non-commands without a transcript are left out (counted).
  public static func items(from recordings: [LabelledAudio]) -> (items: [AdaptationItem], leftOut: Int) {
    var items: [AdaptationItem] = []
    var leftOut = 0
    for recording in recordings {
      if let transcript = recording.transcript {
        items.append(AdaptationItem(audio: recording.path, words: transcript.split(separator: " ").map(String.init)))
      } else if !recording.expected.isEmpty {
        items.append(AdaptationItem(audio: recording.path, words: recording.expected.map(\.rawValue)))
      } else {
        leftOut += 1
      }
    }
    return (items, leftOut)
  }
}

/// How to adapt.
public struct AdaptationOptions: Sendable {
  public enum Method: String, Sendable, CaseIterable {
    /// Maximum a posteriori: every Gaussian and mixture weight moves towards the data, as
    /// far as the data supports it. Needs tens of minutes of speech.
    case map
    /// Maximum likelihood linear regression: one linear transform of all means. Works with a
    /// few minutes.
    case mllr
    /// MLLR below `AdaptationOptions.minutesForMAP` of audio, MAP above.
    case auto
  }

  public var method: Method = .auto
  /// The model to start from (a folder with mdef, means, variances, sendump, ...).
  public var baseModel: String
  /// The pronunciation dictionary the transcripts' words are looked up in.
  public var dictionary: String
  /// More pronunciations (`word PH PH ...`), e.g. the grammar's companion dictionary.
  public var extraDictionary: String?
  /// Noise recordings to mix into copies of the recordings (`nil`: clean only).
  public var noiseFolder: String?
  /// The range of signal-to-noise ratios (dB) of the noisy copies.
  public var snr: ClosedRange<Double> = 5...20
  /// Noisy copies per recording.
  public var noisyCopies: Int = 1
  /// A reverberant copy (a synthetic room, see `Signal.reverberatedInSomeRoom`) of every this many-th
  /// recording (0: none).
  public var reverbEvery: Int = 0
  /// A copy in a shifted voice (`ModelAdapter.shiftedVoice`: faster and higher, or slower and
  /// lower, as a shorter or longer vocal tract says it) of every this many-th recording (0: none).
  public var voiceShiftEvery: Int = 0
  /// A copy through an overdriven microphone (`Signal.overdrivenSomehow`: its peak 3-12 dB past
  /// full scale, clipped flat) of every this many-th recording (0: none).
  public var clipEvery: Int = 0
  /// MAP only: how many frames of evidence the base model's variances weigh as, against the
  /// recordings' (sphinxtrain's `tau`, the same for every Gaussian); nil: `map_adapt`
  /// estimates a weight for each from the data. `map_adapt` counts it once per codeword of a
  /// senone's mixture weights (a PTM senone has 128: 1000 weighs its weights as 128,000 frames,
  /// and they stay the base model's in effect). The means are interpolated by their own
  /// Bayesian rule either way. A large weight keeps the base model's
  /// spread of each sound: estimated, the variances fitted the recordings' microphones and
  /// rooms (DirectMe's model, 2026-11-29: with 1000 and the detector tuned on it, the bench's
  /// checking speakers 93.8% right against 93.0% at the same 2.1% false alarms, the reverberant
  /// room's false alarms 6.9% against 10.5%; see the model's README).
  public var priorWeight: Double?
  /// Adapt only these phones (e.g. `+SPN+`, the model's non-speech filler), keeping the base
  /// model's parameters for every other codebook and senone (`PhoneSelection`); empty: all.
  /// MAP only (with `.auto`, MAP whatever the amount of audio).
  public var onlyPhones: [String] = []
  /// Parallel jobs for feature extraction and statistics.
  public var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// Seeds the choice of noise and SNR, so a rebuild gives the same model.
  public var seed: UInt64 = 1
  /// Less audio than this (seconds, clean) is refused.
  public var minimumSeconds: Double = 20

  public static let minutesForMAP = 10.0

  public init(baseModel: String, dictionary: String) {
    self.baseModel = baseModel
    self.dictionary = dictionary
  }
}

/// What an adaptation did, for the model's README and the user.
public struct AdaptationSummary: Sendable, Codable {
  public var method: String
  public var recordings: Int
  public var noisyCopies: Int
  /// Reverberant copies made (absent in models made before they were).
  public var reverberantCopies: Int?
  /// Copies in a shifted voice made (absent in models made before they were).
  public var shiftedVoiceCopies: Int?
  /// Clipped (overdriven) copies made (absent in models made before they were).
  public var clippedCopies: Int?
  public var seconds: Double
  /// MAP's fixed prior weight (`AdaptationOptions.priorWeight`; absent: estimated).
  public var priorWeight: Double?
  public var baseModel: String
  /// The only phones adapted (absent: all).
  public var onlyPhones: [String]?
  public var noise: String?
  public var snr: String?
}

/// Progress of a long adaptation: a stage, and how far into it.
public struct AdaptationProgress: Sendable {
  public var stage: String
  public var done: Int
  public var total: Int
}
