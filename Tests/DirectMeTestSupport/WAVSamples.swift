import DirectMeBench
import Foundation

/// The benchmark's private PulseAudio daemon, for tests that need a virtual microphone.
public typealias PulseAudioServer = DirectMeBench.PulseAudioServer

extension TestSupport {
  /// The samples of a 16-bit mono WAV file (the ones `speak` writes).
  public static func samples(of url: URL) throws -> [Int16] {
    let data = try Data(contentsOf: url)
    let bytes = [UInt8](data)
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
      if id == "data" {
        let body = bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)]
        return stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
          Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)
        }
      }
      offset += 8 + size + size % 2
    }
    throw SynthesisError(message: "\(url.path): no data chunk")
  }
}


/// Seeded randomness and the iteration count for the fuzz tests: a short pass in the test
/// suite, `DIRECTME_FUZZ_ITERATIONS=100000` from `scripts/fuzz.sh`.
public struct FuzzRandom: RandomNumberGenerator {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {  // SplitMix64
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  public static var iterations: Int {
    ProcessInfo.processInfo.environment["DIRECTME_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 2_000
  }

  /// `bytes` with a few random mutations: flipped bits, changed, removed or inserted bytes,
  /// a cut, or a 32-bit field set to an extreme.
  public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...4, using: &self) {
      let kind = Int.random(in: 0..<6, using: &self)
      if bytes.isEmpty { bytes = [UInt8.random(in: 0...255, using: &self)]; continue }
      let at = Int.random(in: 0..<bytes.count, using: &self)
      switch kind {
      case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &self)
      case 1: bytes[at] = UInt8.random(in: 0...255, using: &self)
      case 2: bytes.remove(at: at)
      case 3: bytes.insert(UInt8.random(in: 0...255, using: &self), at: at)
      case 4: bytes = Array(bytes.prefix(at))
      default:
        let value: UInt32 = [0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x8000_0000, 65_535][Int.random(in: 0..<6, using: &self)]
        for offset in 0..<4 where at + offset < bytes.count { bytes[at + offset] = UInt8((value >> (8 * UInt32(offset))) & 0xFF) }
      }
    }
    return bytes
  }
}

extension TestSupport {
  /// A voice-like tone at 16 kHz: `pitch` Hz and its next `harmonics - 1` harmonics, the
  /// k-th at 1/k of the first's amplitude, for `seconds`.
  public static func harmonicTone(pitch: Double, seconds: Double, harmonics: Int) -> [Int16] {
    (0..<Int(seconds * 16_000)).map { (n: Int) -> Int16 in
      let t = Double(n) / 16_000
      var value = 0.0
      for k in 1...max(1, harmonics) { value += sin(2 * Double.pi * pitch * Double(k) * t) / Double(k) }
      return Int16(6_000 * value)
    }
  }
}
