#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Mains hum: the steady tone of the power line (50 Hz in most of the world, 60 Hz in the
/// Americas) and its harmonics, which a microphone on a ground loop, a laptop on its
/// charger or a cheap sound card adds to everything it records.
///
/// A hum 10 dB under the voice (50 Hz with its 3rd and 5th harmonics) cost the checking
/// speakers' commands 9 points (92.4% -> 83.4% right, false alarms 4.3% -> 6.0%): the
/// decoder hears it under every word, and the pitch tracker, hunting for a voice's period,
/// finds the hum's. Taken out of what the final pass decodes and of what the gate measures,
/// 89.3% / 4.9% (the bench's humming microphone, 50 or 60 Hz with four harmonics: 81.3% /
/// 4.5% -> 89.8% / 6.0%). Audio without a hum is left as it is; 4% of the checking
/// speakers' own recordings have a 60 Hz hum within 30 dB of their voice.
public enum MainsHum {
  /// The mains frequencies looked for, Hz.
  public static let frequencies = [50.0, 60.0]
  /// How far (dB) the tone must stand above the spectrum beside it (7-13 Hz away): a hum is
  /// one line; a voice, even a low one, has no steady line at 50 or 60 Hz.
  public static let prominence = 15.0
  /// How far (dB) under the audio's loud frames (95th percentile of 10 ms frame energies)
  /// the tone may lie and still be taken out: fainter hum costs nothing.
  public static let relevance = 30.0
  /// The shortest audio a hum is looked for in, samples at 16 kHz (the line's width and
  /// the neighbours' distance need half a second).
  public static let minimumLength = 8_000
  /// The harmonics looked at, the fundamental included (up to 300 or 360 Hz: higher ones
  /// of a hum are weak, and a voice's own harmonics begin there). Only those that stand out
  /// are taken out: taking out all six of a hum that had three (50, 150 and 250 Hz) moved
  /// the ninja for more other words (4.9% -> 6.4%); with notch filters it took out some of
  /// each voice and cost 2 points of commands.
  public static let harmonics = 6
  /// How far (dB) a harmonic of a hum found must stand above the spectrum beside it to be
  /// taken out too (the voice's own harmonics lie among them).
  public static let harmonicProminence = 6.0

  /// A hum: its fundamental (50 or 60 Hz) and the harmonics it has (1 is the fundamental).
  public struct Hum: Hashable, Sendable {
    public var frequency: Double
    public var harmonics: [Int]

    public init(frequency: Double, harmonics: [Int]) {
      self.frequency = frequency
      self.harmonics = harmonics
    }
  }

  /// The mains hum in 16 kHz `samples`, if any: a fundamental that stands out by
  /// `prominence` and lies within `relevance` of the loud frames; with it, each harmonic up
  /// to `harmonics` that stands out too.
  public static func hum(in samples: [Int16], sampleRate: Int = 16_000) -> Hum? {
    guard samples.count >= minimumLength else { return nil }
    let energies = Signal.frameEnergies(samples, length: sampleRate / 100, floor: 1e-2, wholeFrames: true)
    guard !energies.isEmpty else { return nil }
    let loud = SignalEvidence.loud(sortedEnergies: energies.sorted())
    let windowed = hannWindowed(samples)
    // Half the window's sum: a sine of amplitude A has A times that at its frequency, so
    // this scaling gives A².
    let gain = Double(samples.count - 1) / 4
    // Each line with the spectrum beside it (7-13 Hz away), all measured in one pass.
    let beside = [-13.0, -10, -7, 7, 10, 13]
    func lines(_ tones: [Double]) -> [(power: Double, standsOut: Double)] {
      let measured = Self.powers(of: windowed, at: tones.flatMap { tone in [tone] + beside.map { tone + $0 } }, sampleRate: sampleRate)
        .map { $0 / (gain * gain) }
      return tones.indices.map { index in
        let tone = measured[index * 7]
        let around = measured[(index * 7 + 1)..<(index * 7 + 7)].reduce(0, +) / 6
        return (tone, 10 * log10(max(tone, 1e-9) / max(around, 1e-9)))
      }
    }
    var found: (hum: Hum, standsOut: Double)?
    for (frequency, fundamental) in zip(frequencies, lines(frequencies)) {
      // A sine's power is half its amplitude squared; dBFS like the frame energies.
      let level = 10 * log10(max(fundamental.power / 2, 1e-9) / (32768.0 * 32768.0))
      guard fundamental.standsOut >= prominence, level >= loud - relevance,
        found.map({ fundamental.standsOut > $0.standsOut }) ?? true
      else { continue }
      let overtones = Array(2...harmonics)
      let standing = zip(overtones, lines(overtones.map { frequency * Double($0) }))
        .filter { $1.standsOut >= harmonicProminence }.map(\.0)
      found = (Hum(frequency: frequency, harmonics: [1] + standing), fundamental.standsOut)
    }
    return found?.hum
  }

  /// `samples` with `hum` taken out: the hum is fitted and subtracted. Its exact frequency
  /// (the power line drifts by a tenth of a hertz or so) is the one, within half a hertz of
  /// the nominal, at which its harmonics hold the most power; each harmonic's amplitude and
  /// phase are fitted over the whole stretch (Hann-weighted, so the voice's harmonics
  /// nearby leak little into them). A hum is steady over an utterance, so this takes it out
  /// from the first sample to the last: notch filters, starting cold, let the first 50 ms
  /// of it through, and a flite "up" with a hum under it was read "up up".
  public static func removed(_ samples: [Int16], hum: Hum, sampleRate: Int = 16_000) -> [Int16] {
    guard samples.count > 1 else { return samples }
    let windowed = hannWindowed(samples)
    // The Hann window's sum.
    let weight = Double(samples.count - 1) / 2
    // Coarse to fine: tenths of a hertz, then hundredths; each candidate's harmonics all
    // measured in one pass.
    var best = hum.frequency
    for step in [0.1, 0.01] {
      let candidates = (-5...5).map { best + Double($0) * step }
      let powers = Self.powers(
        of: windowed, at: candidates.flatMap { candidate in hum.harmonics.map { candidate * Double($0) } }, sampleRate: sampleRate)
      let totals = candidates.indices.map { index in
        powers[(index * hum.harmonics.count)..<((index + 1) * hum.harmonics.count)].reduce(0, +)
      }
      best = candidates[totals.indices.max { totals[$0] < totals[$1] }!]
    }
    var output = samples.map(Double.init)
    for harmonic in hum.harmonics {
      // cos and sin of step·index by a rotating phasor.
      let step = 2 * Double.pi * best * Double(harmonic) / Double(sampleRate)
      let (turnCos, turnSin) = (cos(step), sin(step))
      var (c, s) = (1.0, 0.0)
      var (re, im) = (0.0, 0.0)
      for value in windowed {
        re += value * c
        im += value * s
        (c, s) = (c * turnCos - s * turnSin, s * turnCos + c * turnSin)
      }
      // A sine a·cos + b·sin gives (a, b) times half the window's weight.
      let (a, b) = (2 * re / weight, 2 * im / weight)
      (c, s) = (1.0, 0.0)
      for index in output.indices {
        output[index] -= a * c + b * s
        (c, s) = (c * turnCos - s * turnSin, s * turnCos + c * turnSin)
      }
    }
    return output.map { Int16(clamping: Int($0.rounded())) }
  }

  /// The squared magnitude of the DFT of `windowed` at each of `frequencies` (Goertzel's
  /// recurrence). The recurrences of up to 16 frequencies run side by side, one vector lane
  /// each: one pass over the audio, and independent chains instead of one long dependent
  /// one (the hum search's 14 lines cost about what one did). Each lane does the scalar
  /// recurrence's arithmetic in its order, so the powers are the same to the bit.
  private static func powers(of windowed: [Double], at frequencies: [Double], sampleRate: Int) -> [Double] {
    var powers: [Double] = []
    powers.reserveCapacity(frequencies.count)
    for start in stride(from: 0, to: frequencies.count, by: 16) {
      let group = frequencies[start..<min(start + 16, frequencies.count)]
      var coefficient = SIMD16<Double>(repeating: 0)
      for (lane, frequency) in group.enumerated() { coefficient[lane] = 2 * cos(2 * Double.pi * frequency / Double(sampleRate)) }
      var (s1, s2) = (SIMD16<Double>(repeating: 0), SIMD16<Double>(repeating: 0))
      windowed.withUnsafeBufferPointer { values in
        for value in values { (s1, s2) = (SIMD16(repeating: value) + coefficient * s1 - s2, s1) }
      }
      let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
      powers += group.indices.map { power[$0 - start] }
    }
    return powers
  }

  /// `samples` times a Hann window over them all (its cosine by a rotating phasor: one
  /// multiply-add a sample, not a cosine).
  private static func hannWindowed(_ samples: [Int16]) -> [Double] {
    guard samples.count > 1 else { return samples.map(Double.init) }
    let step = 2 * Double.pi / Double(samples.count - 1)
    let (turnCos, turnSin) = (cos(step), sin(step))
    var (c, s) = (1.0, 0.0)
    return samples.map { sample in
      defer { (c, s) = (c * turnCos - s * turnSin, s * turnCos + c * turnSin) }
      return Double(sample) * (0.5 - 0.5 * c)
    }
  }

  /// `samples` without their hum, or `samples` themselves when they have none.
  public static func removed(from samples: [Int16], sampleRate: Int = 16_000) -> [Int16] {
    guard let hum = hum(in: samples, sampleRate: sampleRate) else { return samples }
    return removed(samples, hum: hum, sampleRate: sampleRate)
  }
}
