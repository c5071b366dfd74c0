#if canImport(Glibc)
  import Glibc
#else
  import Foundation
#endif

/// Turns the quieter part of a noisy utterance further down before the final pass decodes it:
/// a downward expander over 10-ms frames.
///
/// In an utterance that stands 21-30 dB over its background (a command said at about 10 dB
/// over a room's noise), every frame more than `below` dB under the loudest
/// is turned down by `ratio - 1` times as much again as it lies under that line, by
/// `deepest` dB at most. The command, the loudest sound, keeps its level; the voices and
/// noise around it drop towards silence, which the searches' silence and filler words
/// explain, so the other words can no longer build a word of their own out of the sound
/// beside a short command ("lot" out of another voice's syllable and a said "up").
///
/// A frame's level is the loudest within 20 ms of it, so a word's onset and its release are
/// not cut; the gain moves smoothly from frame to frame. Utterances ranging less than
/// `ranges` (the voices or the noise as loud as the command, where it would cut the command's
/// own fainter phones) or more (clean recordings, synthetic voices) are left as they are.
///
/// Only the final pass's decoder hears the result; pauses, voicing and the detector's gate
/// are measured on what the microphone gave.
public struct Expander: Hashable, Sendable {
  /// How far (dB) under the utterance's loudest frame the expansion starts.
  public var below: Double
  /// The expansion ratio: a frame `x` dB under the line ends `ratio * x` dB under it.
  public var ratio: Double
  /// The largest attenuation, dB (positive).
  public var deepest: Double
  /// The utterance ranges (its loudest frame over its 10th-percentile frame, dB) it acts on.
  public var ranges: Range<Double>
  /// The final pass expands only utterances whose quieter half is voiced less than this
  /// (`SignalEvidence.backgroundVoicing`): amid other voices it cost commands. 0.4, not the
  /// 0.3 from which the final pass counts an utterance as amid voices: held out, babble of
  /// real people at 10 dB 57.5 -> 58.3% of commands right, its other words and real ambience
  /// the same (0.5: 58.5% at 10 dB, but 5 dB 39.6 -> 39.0%). Measured 2026-12-04, stop 101.
  public var maximumBackgroundVoicing: Double

  public init(
    below: Double = 9, ratio: Double = 2, deepest: Double = 10, ranges: Range<Double> = 21..<30, maximumBackgroundVoicing: Double = 0.4
  ) {
    self.below = below
    self.ratio = ratio
    self.deepest = deepest
    self.ranges = ranges
    self.maximumBackgroundVoicing = maximumBackgroundVoicing
  }

  /// Frames of 10 ms at 16 kHz.
  static let frameLength = 160
  /// A frame's level is the loudest within this many frames on each side.
  static let hold = 2

  /// `samples` with the quieter frames turned down, or as they are when the utterance's
  /// range lies outside `ranges` or `condition` (asked only when it lies inside) says no.
  public func expanded(_ samples: [Int16], provided condition: () -> Bool = { true }) -> [Int16] {
    let gains = frameGains(Signal.frameEnergies(samples, length: Self.frameLength, floor: 1e-2))
    guard let gains, condition() else { return samples }
    var out = samples
    let half = Double(Self.frameLength) / 2
    for index in samples.indices {
      // Between the centres of the two nearest frames, the gain moves linearly.
      let position = (Double(index) - half) / Double(Self.frameLength)
      let first = max(0, min(gains.count - 1, Int(position.rounded(.down))))
      let second = min(gains.count - 1, first + 1)
      let weight = max(0, min(1, position - Double(first)))
      let gain = gains[first] * (1 - weight) + gains[second] * weight
      out[index] = Int16(max(-32768, min(32767, (Double(samples[index]) * gain).rounded())))
    }
    return out
  }

  /// Each frame's linear gain, from the frames' energies (dB); nil when the utterance is not
  /// expanded (too short, or its range outside `ranges`).
  func frameGains(_ energies: [Double]) -> [Double]? {
    guard energies.count > 2 * Self.hold, let loudest = energies.max() else { return nil }
    let background = SignalEvidence.background(sortedEnergies: energies.sorted())
    guard ranges.contains(loudest - background) else { return nil }
    let line = loudest - below
    return energies.indices.map { index in
      let level = energies[max(0, index - Self.hold)...min(energies.count - 1, index + Self.hold)].max()!
      let attenuation = level < line ? min(deepest, (line - level) * (ratio - 1)) : 0
      return pow(10, -attenuation / 20)
    }
  }
}
