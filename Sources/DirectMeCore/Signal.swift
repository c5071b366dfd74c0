#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Small signal tools on 16 kHz mono samples: frame energies, speech power, mixing noise at
/// a signal-to-noise ratio, test signals (benchmark audio, noisy copies for adaptation).
public enum Signal {
  public static let rate = 16_000

  /// Mean power of frames of `length` samples (10 ms at 16 kHz), in dBFS, the power floored
  /// at `floor` (sample units squared). A last, shorter frame counts unless `wholeFrames`.
  public static func frameEnergies(
    _ samples: [Int16], length: Int = 160, floor: Double = 1e-3, wholeFrames: Bool = false
  ) -> [Double] {
    let end = wholeFrames ? samples.count / length * length : samples.count
    return stride(from: 0, to: end, by: length).map { start in
      var sum = 0.0
      for index in start..<min(start + length, end) { sum += Double(samples[index]) * Double(samples[index]) }
      let power = sum / Double(max(1, min(length, end - start)))
      return 10 * log10(max(power, floor) / (32768.0 * 32768.0))
    }
  }

  /// The frames that hold speech: those within `range` dB of the loudest.
  public static func speechFrames(_ samples: [Int16], range: Double = 25) -> [Int] {
    let energies = frameEnergies(samples)
    guard let peak = energies.max() else { return [] }
    return energies.indices.filter { energies[$0] >= peak - range }
  }

  /// Mean power (linear, in sample units squared) over the speech frames.
  public static func speechPower(_ samples: [Int16]) -> Double {
    let frames = speechFrames(samples)
    guard !frames.isEmpty else { return 0 }
    var sum = 0.0
    var count = 0
    for frame in frames {
      for sample in samples[(frame * 160)..<min(frame * 160 + 160, samples.count)] {
        sum += Double(sample) * Double(sample)
        count += 1
      }
    }
    return sum / Double(max(1, count))
  }

  /// `samples` cut to their speech, with `margin` seconds kept on each side.
  public static func trimmed(_ samples: [Int16], margin: Double = 0.05) -> [Int16] {
    let frames = speechFrames(samples)
    guard let first = frames.first, let last = frames.last else { return samples }
    let pad = Int(margin * Double(rate))
    let start = max(0, first * 160 - pad)
    let end = min(samples.count, (last + 1) * 160 + pad)
    return Array(samples[start..<end])
  }

  /// `speech` with `noise` added so that the signal-to-noise ratio over the speech part is
  /// `snr` dB. The noise is taken from `offset` on (wrapping around).
  public static func mix(_ speech: [Int16], noise: [Int16], snr: Double, offset: Int = 0) -> [Int16] {
    guard !noise.isEmpty else { return speech }
    let noisePower = noise.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(noise.count)
    return added(speech, noisePower: noisePower, snr: snr) { Double(noise[(offset + $0) % noise.count]) }
  }

  /// `speech` with one of `noises` mixed in (`mix`) at an SNR drawn from `snr` and from a drawn
  /// offset (drawn in that order: the noise, the SNR, the offset), and the SNR drawn. `noises`
  /// must not be empty.
  public static func mixedWithOne(
    of noises: [[Int16]], _ speech: [Int16], snr: ClosedRange<Double>, random: inout Random
  ) -> (samples: [Int16], snr: Double) {
    let noise = noises[Int.random(in: 0..<noises.count, using: &random)]
    let level = Double.random(in: snr, using: &random)
    return (mix(speech, noise: noise, snr: level, offset: Int.random(in: 0..<noise.count, using: &random)), level)
  }

  /// `speech` with the noise `noise(index)` (of mean power `noisePower`) added at `snr` dB
  /// under the speech part's power.
  private static func added(_ speech: [Int16], noisePower: Double, snr: Double, noise: (Int) -> Double) -> [Int16] {
    let speechPower = speechPower(speech)
    guard speechPower > 0, noisePower > 0 else { return speech }
    let gain = (speechPower / pow(10, snr / 10) / noisePower).squareRoot()
    return speech.indices.map { Int16(clamping: Int((Double(speech[$0]) + noise($0) * gain).rounded())) }
  }

  /// A mains hum of `seconds`: the power line's `frequency` (50 or 60 Hz) with the harmonics
  /// a transformer's and a rectifier's buzz add (2nd at 0.3, 3rd at 0.4, 5th at 0.2 of the
  /// fundamental), amplitude 1, starting at `phase` (radians).
  public static func mainsHum(frequency: Double, count: Int, phase: Double = 0) -> [Double] {
    let parts: [(harmonic: Double, amplitude: Double)] = [(1, 1), (2, 0.3), (3, 0.4), (5, 0.2)]
    return (0..<count).map { index in
      let angle = 2 * Double.pi * frequency * Double(index) / Double(rate)
      return parts.reduce(0) { $0 + $1.amplitude * sin($1.harmonic * (angle + phase)) }
    }
  }

  /// `speech` through a microphone that hums (`mainsHum`), the hum `snr` dB under the speech.
  public static func hummed(_ speech: [Int16], frequency: Double, snr: Double, phase: Double = 0) -> [Int16] {
    let hum = mainsHum(frequency: frequency, count: speech.count, phase: phase)
    let humPower = hum.reduce(0) { $0 + $1 * $1 } / Double(max(1, hum.count))
    return added(speech, noisePower: humPower, snr: snr) { hum[$0] }
  }

  /// `samples` through an overdriven microphone: made louder until their peak stands
  /// `overdrive` dB above full scale, every sample past it clipped flat (a gain set too high,
  /// a shout close to the microphone).
  public static func overdriven(_ samples: [Int16], by overdrive: Double) -> [Int16] {
    scaled(samples, peakAt: overdrive)
  }

  /// `samples` scaled so that their peak stands at `level` dB from full scale (over 0: past
  /// it, every sample past full scale clipped flat); digital silence as it is.
  public static func scaled(_ samples: [Int16], peakAt level: Double) -> [Int16] {
    let peak = samples.reduce(0) { max($0, abs(Int($1))) }
    guard peak > 0 else { return samples }
    let gain = pow(10, level / 20) * 32767 / Double(peak)
    return samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
  }

  /// How far (dB) `overdrivenSomehow` drives a recording past full scale.
  public static let overdrives = 3.0...12.0

  /// `samples` overdriven by an amount drawn from `overdrives`.
  public static func overdrivenSomehow(_ samples: [Int16], random: inout Random) -> [Int16] {
    overdriven(samples, by: Double.random(in: overdrives, using: &random))
  }

  /// The factor that brings `samples`' power to `level` dBFS (0 for digital silence).
  public static func gain(_ samples: [Int16], toLevel level: Double) -> Double {
    let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
    return power > 0 ? pow(10, level / 20) * 32768 / power.squareRoot() : 0
  }

  public static func silence(_ seconds: Double) -> [Int16] {
    [Int16](repeating: 0, count: Int(seconds * Double(rate)))
  }

  /// A deterministic pseudo-random generator (xorshift), so benchmark audio is the same each run.
  public struct Random: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    public mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
  }

  /// `samples` with each run of digital silence (at least `minimumRun` samples of exact zero)
  /// filled with the faintest noise, `amplitude` LSB either way (seeded: the same samples give
  /// the same result). A microphone never gives exact zeros; files joined or padded with them
  /// do, and a decoder that normalizes by the utterance's mean (batch CMN) hears the speech
  /// between long runs of them badly.
  public static func filledDigitalSilence(_ samples: [Int16], minimumRun: Int = 160, amplitude: Int = 2) -> [Int16] {
    var filled = samples
    var random = Random(seed: 0x5EED)
    var start = 0
    while start < filled.count {
      guard filled[start] == 0 else {
        start += 1
        continue
      }
      var end = start
      while end < filled.count, filled[end] == 0 { end += 1 }
      if end - start >= minimumRun {
        for index in start..<end { filled[index] = Int16(Int.random(in: -amplitude...amplitude, using: &random)) }
      }
      start = end
    }
    return filled
  }

  /// White noise at `level` dBFS RMS.
  public static func whiteNoise(_ seconds: Double, level: Double, random: inout Random) -> [Int16] {
    let amplitude = pow(10, level / 20) * 32768 * 3.0.squareRoot()
    return (0..<Int(seconds * Double(rate))).map { _ in
      Int16(clamping: Int(Double.random(in: -1...1, using: &random) * amplitude))
    }
  }

  /// `samples` with a room's quiet under them, as a microphone hears a loudspeaker: white
  /// noise at `level` dBFS over the whole recording.
  public static func overRoomTone(_ samples: [Int16], level: Double, random: inout Random) -> [Int16] {
    let tone = whiteNoise(Double(samples.count) / Double(rate) + 0.01, level: level, random: &random)
    return zip(samples, tone).map { Int16(clamping: Int($0) + Int($1)) }
  }

  /// The levels (dBFS) of a room's quiet through a microphone that synthetic speech is heard
  /// over, by the bench and by the voice routing's references.
  public static let roomQuietLevels = -75.0 ... -55.0

  /// Clicks: single-sample spikes with a short ring, `count` of them spread over `seconds`.
  public static func clicks(_ seconds: Double, count: Int, random: inout Random) -> [Int16] {
    var samples = silence(seconds)
    for _ in 0..<count {
      let at = Int.random(in: 0..<max(1, samples.count - 200), using: &random)
      for k in 0..<120 {
        let ring = sin(Double(k) * 1.7) * exp(-Double(k) / 15) * 20000
        samples[at + k] = Int16(clamping: Int(samples[at + k]) + Int(ring))
      }
    }
    return samples
  }

  /// Something like a cough: one or two bursts of band-limited noise with a sharp attack
  /// and a decay of a few hundred milliseconds.
  public static func cough(bursts: Int, random: inout Random) -> [Int16] {
    var samples = silence(0.3)
    for _ in 0..<bursts {
      let length = Int(Double.random(in: 0.18...0.35, using: &random) * Double(rate))
      var low = 0.0
      var band = [Int16](repeating: 0, count: length)
      for index in 0..<length {
        let white = Double.random(in: -1...1, using: &random)
        low += 0.35 * (white - low)  // a simple low-pass for a breathy colour
        let t = Double(index) / Double(rate)
        let envelope = min(1, t / 0.01) * exp(-t / 0.09)
        band[index] = Int16(clamping: Int((white - low) * envelope * 18000))
      }
      samples += band + silence(Double.random(in: 0.1...0.25, using: &random))
    }
    return samples + silence(0.3)
  }

  /// A sine beep at `frequency` Hz.
  public static func tone(_ seconds: Double, frequency: Double, level: Double) -> [Int16] {
    let amplitude = pow(10, level / 20) * 32768 * 2.0.squareRoot()
    return (0..<Int(seconds * Double(rate))).map {
      Int16(clamping: Int(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate))))
    }
  }
}

extension Signal {
  /// Noises of everyday rooms, made from seeded random numbers, for adapting and tuning
  /// against noise and for benchmarks: coloured noise, a running tap, an exercise bike, a
  /// kitchen with clinking dishes.
  public enum Room: String, CaseIterable, Sendable {
    case white, pink, brown, tap, bike, kitchen

    /// `seconds` of this noise at about -20 dBFS RMS.
    public func make(seconds: Double, seed: UInt64) -> [Int16] {
      var random = Signal.Random(seed: seed)
      let count = Int(seconds * Double(Signal.rate))
      var samples: [Double]
      switch self {
      case .white: samples = Signal.colored(count, slope: 0, random: &random)
      case .pink: samples = Signal.colored(count, slope: -1, random: &random)
      case .brown: samples = Signal.colored(count, slope: -2, random: &random)
      case .tap: samples = Signal.tap(count, random: &random)
      case .bike: samples = Signal.bike(count, random: &random)
      case .kitchen: samples = Signal.kitchen(count, random: &random)
      }
      let rms = (samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))).squareRoot()
      // Clattering dishes have peaks far above their mean; keep them unclipped.
      let gain = rms > 0 ? (self == .kitchen ? 0.03 : 0.1) * 32768 / rms : 0
      return samples.map { Int16(clamping: Int(($0 * gain).rounded())) }
    }
  }

  /// A standard normal draw (Box-Muller), two uniform draws of `random`.
  public static func gaussian(_ random: inout Random) -> Double {
    let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
    let v = Double.random(in: 0..<1, using: &random)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }

  /// Noise whose power falls by `slope` x 3 dB per octave (0 white, -1 pink, -2 brown), by
  /// summing octave bands of held random values (Voss-McCartney for pink; an integrator for brown).
  static func colored(_ count: Int, slope: Int, random: inout Random) -> [Double] {
    switch slope {
    case 0:
      return (0..<count).map { _ in gaussian(&random) }
    case -2:
      var level = 0.0
      return (0..<count).map { _ in
        level = 0.995 * level + gaussian(&random)
        return level
      }
    default:
      var rows = [Double](repeating: 0, count: 16)
      var sum = 0.0
      return (0..<count).map { index in
        let changed = index == 0 ? 0 : (index.trailingZeroBitCount % 16)
        sum -= rows[changed]
        rows[changed] = gaussian(&random)
        sum += rows[changed]
        return sum + gaussian(&random)
      }
    }
  }

  /// A one-pole high-pass then low-pass, in place.
  static func band(_ samples: inout [Double], low: Double, high: Double) {
    let a = exp(-2 * .pi * low / Double(rate))
    var previousIn = 0.0
    var previousOut = 0.0
    let b = 1 - exp(-2 * .pi * high / Double(rate))
    var smoothed = 0.0
    for index in samples.indices {
      let highPassed = (1 + a) / 2 * (samples[index] - previousIn) + a * previousOut
      previousIn = samples[index]
      previousOut = highPassed
      smoothed += b * (highPassed - smoothed)
      samples[index] = smoothed
    }
  }

  /// Running water: band-limited noise with a slow flutter.
  static func tap(_ count: Int, random: inout Random) -> [Double] {
    var water = colored(count, slope: -1, random: &random)
    band(&water, low: 300, high: 6000)
    var flutter = 1.0
    for index in water.indices {
      if index % 160 == 0 { flutter = max(0.5, min(1.5, flutter + 0.05 * gaussian(&random))) }
      water[index] *= flutter
    }
    return water
  }

  /// An exercise bike: a rhythmic whoosh, a motor hum with harmonics, a squeak each turn.
  static func bike(_ count: Int, random: inout Random) -> [Double] {
    var whoosh = colored(count, slope: -1, random: &random)
    band(&whoosh, low: 80, high: 2500)
    let turns = Double.random(in: 1.0...1.8, using: &random)
    let hum = Double.random(in: 60...110, using: &random)
    let squeak = Double.random(in: 900...2000, using: &random)
    let rms = (whoosh.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))).squareRoot()
    return (0..<count).map { index in
      let t = Double(index) / Double(rate)
      let phase = (t * turns).truncatingRemainder(dividingBy: 1)
      var value = whoosh[index] / max(rms, 1e-9) * (0.6 + 0.4 * pow(sin(.pi * phase), 2))
      for harmonic in 1...5 { value += 0.3 * sin(2 * .pi * hum * Double(harmonic) * t) / Double(harmonic) }
      if phase < 0.12 { value += 0.5 * sin(2 * .pi * squeak * t) * sin(.pi * phase / 0.12) }
      return value
    }
  }

  /// A kitchen: water in the sink, dishes clinking (decaying high partials) and clattering.
  static func kitchen(_ count: Int, random: inout Random) -> [Double] {
    var samples = colored(count, slope: -1, random: &random)
    band(&samples, low: 400, high: 6000)
    let rms = (samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))).squareRoot()
    for index in samples.indices { samples[index] *= 0.4 / max(rms, 1e-9) }
    let seconds = Double(count) / Double(rate)
    for _ in 0..<Int(seconds * Double.random(in: 2...5, using: &random)) {
      let start = Int.random(in: 0..<max(1, count - 4000), using: &random)
      let length = min(count - start, Int(Double.random(in: 0.05...0.25, using: &random) * Double(rate)))
      let decay = Double.random(in: 15...60, using: &random)
      let partials = (0..<3).map { _ in (Double.random(in: 1500...7000, using: &random), Double.random(in: 0...6, using: &random)) }
      let loudness = Double.random(in: 0.5...3, using: &random)
      for k in 0..<length {
        let t = Double(k) / Double(rate)
        let ring = partials.reduce(0) { $0 + sin(2 * .pi * $1.0 * t + $1.1) }
        samples[start + k] += ring * exp(-t * decay) * loudness
      }
    }
    for _ in 0..<Int(seconds * Double.random(in: 1...4, using: &random)) {
      let start = Int.random(in: 0..<max(1, count - 2000), using: &random)
      let length = min(count - start, Int(Double.random(in: 0.01...0.05, using: &random) * Double(rate)))
      let loudness = Double.random(in: 1...4, using: &random)
      for k in 0..<length {
        samples[start + k] += gaussian(&random) * exp(-Double(k) / (Double(length) / 4)) * loudness
      }
    }
    return samples
  }
}

extension Signal {
  /// Babble: `talkers` people talking at once, each a run of the given recordings (cut to
  /// their speech, at one level, with short gaps), mixed at gains from 0.6 to 1 and scaled to
  /// about -20 dBFS RMS. From real recordings of other words this is the noise of a room
  /// full of people; nothing in it is a command when `clips` hold none.
  public static func babble(
    from clips: [[Int16]], seconds: Double, talkers: Int = 6, random: inout Random
  ) -> [Int16] {
    let count = Int(seconds * Double(rate))
    let usable = clips.map { trimmed($0, margin: 0) }.filter { $0.count >= rate / 10 }
    guard !usable.isEmpty, count > 0 else { return [Int16](repeating: 0, count: max(0, count)) }
    var mixed = [Double](repeating: 0, count: count)
    for _ in 0..<max(1, talkers) {
      let gain = Double.random(in: 0.6...1.0, using: &random)
      var position = Int.random(in: 0..<(rate / 2), using: &random)
      while position < count {
        let clip = usable[Int.random(in: 0..<usable.count, using: &random)]
        let power = clip.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(clip.count)
        let scale = power > 0 ? gain / power.squareRoot() : 0
        for (index, sample) in clip.enumerated() where position + index < count {
          mixed[position + index] += Double(sample) * scale
        }
        position += clip.count + Int.random(in: 0...(rate / 10), using: &random)
      }
    }
    let power = mixed.reduce(0.0) { $0 + $1 * $1 } / Double(count)
    let scale = power > 0 ? 0.1 * 32768 / power.squareRoot() : 0
    return mixed.map { Int16(clamping: Int(($0 * scale).rounded())) }
  }
}

extension Signal {
  /// `samples` as heard in a room: convolved with a synthetic impulse response (the direct
  /// sound, then a tail of decaying noise, dulled a little as walls and air dull it) whose
  /// energy falls 60 dB in `rt60` seconds, the tail `directToReverberant` dB under the direct
  /// sound. The result keeps the speech's power and gains the tail's length (up to
  /// `rt60 / 2` seconds) after the last sample.
  public static func reverberated(
    _ samples: [Int16], rt60: Double, directToReverberant: Double, random: inout Random
  ) -> [Int16] {
    guard !samples.isEmpty, rt60 > 0 else { return samples }
    // The tail stops 40 dB down: below that it is lost under the room's own noise.
    let length = max(2, Int(rt60 * 40 / 60 * Double(rate)))
    let delay = Int.random(in: Int(0.002 * Double(rate))...Int(0.008 * Double(rate)), using: &random)
    var tail = [Double](repeating: 0, count: length)
    var dulled = 0.0
    for index in delay..<length {
      let noise = Double.random(in: -1...1, using: &random)
      dulled = 0.6 * noise + 0.4 * dulled
      // Amplitude falls 60 dB (a factor 1000) in rt60.
      tail[index] = dulled * exp(-log(1000) * Double(index) / (rt60 * Double(rate)))
    }
    let tailEnergy = tail.reduce(0) { $0 + $1 * $1 }
    let tailGain = tailEnergy > 0 ? (pow(10, -directToReverberant / 10) / tailEnergy).squareRoot() : 0
    var response = tail.map { $0 * tailGain }
    response[0] = 1
    let taps = response.enumerated().filter { $0.element != 0 }
    let count = samples.count + Int(rt60 / 2 * Double(rate))
    var out = [Double](repeating: 0, count: count)
    samples.withUnsafeBufferPointer { input in
      out.withUnsafeMutableBufferPointer { output in
        for (lag, gain) in taps {
          let end = min(input.count, output.count - lag)
          guard end > 0 else { continue }
          for index in 0..<end { output[index + lag] += gain * Double(input[index]) }
        }
      }
    }
    let before = speechPower(samples)
    let rounded = out.map { Int16(clamping: Int($0.rounded())) }
    let after = speechPower(rounded)
    let scale = after > 0 && before > 0 ? (before / after).squareRoot() : 1
    return out.map { Int16(clamping: Int(($0 * scale).rounded())) }
  }

  /// The rooms `reverberatedInSomeRoom` draws from: decay times (RT60, seconds) of a small
  /// lively room to a large hall, the tail 0-8 dB under the direct sound.
  public static let roomDecays = 0.3...0.9
  public static let roomTailDepths = 0.0...8.0

  /// `samples` in a room drawn from `roomDecays` and `roomTailDepths`, and the room's RT60.
  public static func reverberatedInSomeRoom(_ samples: [Int16], random: inout Random) -> (samples: [Int16], rt60: Double) {
    let rt60 = Double.random(in: roomDecays, using: &random)
    let depth = Double.random(in: roomTailDepths, using: &random)
    return (reverberated(samples, rt60: rt60, directToReverberant: depth, random: &random), rt60)
  }
}

/// A DC blocker: `y[n] = x[n] - x[n-1] + pole * y[n-1]`, a one-pole high-pass whose -3 dB
/// point is about 13 Hz at 16 kHz (pole 0.995): speech (above 70 Hz) passes unchanged to
/// within a fraction of a dB. It starts from its first sample (taken as the offset, so an
/// offset makes no step at the start) and carries its state from one chunk to the next.
public struct DCBlocker: Sendable {
  public var pole: Double
  private var lastInput: Double?
  private var lastOutput = 0.0

  public init(pole: Double = 0.995) { self.pole = pole }

  public mutating func filter(_ samples: [Int16]) -> [Int16] {
    samples.map { Int16(clamping: Int(filter(Double($0)).rounded())) }
  }

  /// The next sample, unrounded.
  public mutating func filter(_ x: Double) -> Double {
    lastOutput = x - (lastInput ?? x) + pole * lastOutput
    lastInput = x
    return lastOutput
  }
}
