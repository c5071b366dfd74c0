/// FNV-1a (64 bits) of text: the same number in every run and on every machine (Swift's own
/// `Hasher` is seeded per process), for cache keys and for splits that must not change.
public struct StableHash: Sendable {
  public private(set) var value: UInt64 = 14_695_981_039_346_656_037

  public init() {}

  /// Mixes in `text`'s UTF-8 bytes.
  public mutating func mix(_ text: String) {
    for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 1_099_511_628_211 }
  }

  /// Mixes in a 16-bit value's two bytes (low first).
  public mutating func mix(_ bytes: UInt16) {
    value = (value ^ UInt64(bytes & 0xff)) &* 1_099_511_628_211
    value = (value ^ UInt64(bytes >> 8)) &* 1_099_511_628_211
  }

  /// The hash of `text` alone.
  public static func of(_ text: String) -> UInt64 {
    var hash = StableHash()
    hash.mix(text)
    return hash.value
  }

  /// The hash of `samples` alone (each sample's two bytes, low first).
  public static func of(_ samples: [Int16]) -> UInt64 {
    var hash = StableHash()
    for sample in samples { hash.mix(UInt16(bitPattern: sample)) }
    return hash.value
  }
}
