import Foundation

/// Small signal tools for building benchmark audio, on 16 kHz mono samples.
public enum Signal {
  public static let rate = 16_000

  /// Mean power of 10 ms frames, in dBFS.
  public static func frameEnergies(_ samples: [Int16]) -> [Double] {
    stride(from: 0, to: samples.count, by: 160).map { start in
      let frame = samples[start..<min(start + 160, samples.count)]
      let power = frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, frame.count))
      return 10 * log10(max(power, 1e-3) / (32768.0 * 32768.0))
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
    let speechPower = speechPower(speech)
    let noisePower = noise.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(noise.count)
    guard speechPower > 0, noisePower > 0 else { return speech }
    let gain = (speechPower / pow(10, snr / 10) / noisePower).squareRoot()
    return speech.indices.map { index in
      let n = Double(noise[(offset + index) % noise.count]) * gain
      return Int16(clamping: Int((Double(speech[index]) + n).rounded()))
    }
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

  /// White noise at `level` dBFS RMS.
  public static func whiteNoise(_ seconds: Double, level: Double, random: inout Random) -> [Int16] {
    let amplitude = pow(10, level / 20) * 32768 * 3.0.squareRoot()
    return (0..<Int(seconds * Double(rate))).map { _ in
      Int16(clamping: Int(Double.random(in: -1...1, using: &random) * amplitude))
    }
  }

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
