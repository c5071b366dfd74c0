#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Some phones of a PocketSphinx PTM model, and where their parameters lie: the codebook each
/// shares (in a PTM model, the codebook of a senone is its base phone's, `-ts2cbfn .ptm.`) and
/// every senone of every triphone built on them.
///
/// `directme adapt --only-phones` adapts a model as usual and then puts the base model's
/// parameters back everywhere else, so that what the recordings say about other phones (the
/// silence around a cough, say) leaves them as they were: a model for one more sound, not a
/// model moved.
public struct PhoneSelection: Sendable, Equatable {
  public var phones: [String]
  /// Codebook indices (the base phones' order in the model definition).
  public var codebooks: [Int]
  /// Senone ids, ascending.
  public var senones: [Int]

  /// Finds `phones` in a model definition in sphinxtrain's text form (`pocketsphinx_mdef_convert
  /// -text`); `file` names it in errors.
  public init(phones: [String], modelDefinition text: String, file: String) throws {
    var basePhones: [String] = []
    var basesExpected: Int?
    var senones: Set<Int> = []
    let wanted = Set(phones)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = fields.first, !first.hasPrefix("#") else { continue }
      if fields.count == 2, fields[1] == "n_base" {
        basesExpected = Int(first)
        continue
      }
      // A phone line: base, left, right, position, attribute, transition matrix, states..., N.
      guard fields.count >= 8, fields.last == "N", let expected = basesExpected else { continue }
      let base = String(first)
      if basePhones.count < expected, fields[1] == "-", fields[2] == "-" { basePhones.append(base) }
      guard wanted.contains(base) else { continue }
      for state in fields[6..<(fields.count - 1)] {
        guard let id = Int(state) else { throw ToolError("\(file): not a text model definition (state '\(state)')") }
        senones.insert(id)
      }
    }
    guard let basesExpected, basePhones.count == basesExpected else {
      throw ToolError("\(file): not a text model definition (no complete list of base phones)")
    }
    var codebooks: [Int] = []
    for phone in phones {
      guard let index = basePhones.firstIndex(of: phone) else {
        throw ToolError("\(file): '\(phone)' is not a phone of the model (its phones: \(basePhones.joined(separator: " ")))")
      }
      codebooks.append(index)
    }
    self.phones = phones
    self.codebooks = codebooks
    self.senones = senones.sorted()
  }

  /// Rewrites the model in `folder` (`means`, `variances`, `sendump`) so that everything but
  /// these phones' codebooks and senones is `base`'s again, byte for byte.
  public func keepBase(_ base: String, outside folder: String) throws {
    for name in ["means", "variances"] {
      var adapted = try GaussianFile(path: folder + "/" + name)
      let original = try GaussianFile(path: base + "/" + name)
      try adapted.keep(original, outside: codebooks)
      try adapted.write(to: folder + "/" + name)
    }
    try SenoneDump.splice(base: base + "/sendump", adapted: folder + "/sendump", senones: senones)
  }
}

/// A sphinxtrain Gaussian parameter file (`means`, `variances`): a text header ending in
/// `endhdr`, a byte-order mark, the sizes, the values as `[codebook][stream][density][dimension]`
/// and, when the header says `chksum0 yes`, a checksum over every 32-bit word after the mark.
struct GaussianFile {
  var path: String
  var header: Data
  /// The sizes as stored: codebooks, streams, densities, each stream's length, value count.
  var sizes: [UInt32]
  var values: [UInt32]
  var hasChecksum: Bool

  var codebookCount: Int { Int(sizes[0]) }
  /// Values per codebook.
  var codebookLength: Int { values.count / max(1, codebookCount) }

  init(path: String) throws {
    self.path = path
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ToolError("\(path): cannot read the model file (\(reason(of: error)))")
    }
    let bytes = [UInt8](data)
    let mark = Array("endhdr\n".utf8)
    guard bytes.starts(with: Array("s3\n".utf8)),
      let start = (0...max(0, bytes.count - mark.count)).first(where: { bytes[$0..<($0 + mark.count)].elementsEqual(mark) })
    else {
      throw ToolError("\(path): not a sphinxtrain parameter file (no s3 header)")
    }
    let end = start + mark.count
    header = Data(bytes[..<end])
    hasChecksum = String(decoding: bytes[..<end], as: UTF8.self).contains("chksum0 yes")
    let words = bytes[end...].withUnsafeBytes { raw in
      (0..<(raw.count / 4)).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)) }
    }
    guard words.count >= 5, words[0] == 0x1122_3344 else {
      throw ToolError("\(path): not a little-endian sphinxtrain parameter file")
    }
    let streams = Int(words[2])
    guard streams > 0, words.count >= 5 + streams else { throw ToolError("\(path): truncated") }
    sizes = Array(words[1..<(5 + streams)])
    let count = Int(sizes.last!)
    let stored = 1 + sizes.count
    guard words.count >= stored + count + (hasChecksum ? 1 : 0) else {
      throw ToolError("\(path): truncated (\(count) values declared, \(words.count - stored) present)")
    }
    values = Array(words[stored..<(stored + count)])
    if hasChecksum, Self.checksum(sizes + values) != words[stored + count] {
      throw ToolError("\(path): checksum mismatch (a damaged file)")
    }
  }

  /// sphinxbase's running checksum: rotate left by 20 bits, add the next word.
  static func checksum(_ words: [UInt32]) -> UInt32 {
    var sum: UInt32 = 0
    for word in words { sum = ((sum << 20) | (sum >> 12)) &+ word }
    return sum
  }

  /// `base`'s values everywhere but in `codebooks`.
  mutating func keep(_ base: GaussianFile, outside codebooks: [Int]) throws {
    guard base.sizes == sizes else { throw ToolError("\(path): its sizes differ from \(base.path)'s") }
    var merged = base.values
    let length = codebookLength
    for codebook in codebooks where codebook < codebookCount {
      let range = (codebook * length)..<((codebook + 1) * length)
      merged.replaceSubrange(range, with: values[range])
    }
    values = merged
  }

  func write(to path: String) throws {
    var data = header
    func append(_ word: UInt32) { withUnsafeBytes(of: word.littleEndian) { data.append(contentsOf: $0) } }
    append(0x1122_3344)
    for word in sizes + values { append(word) }
    if hasChecksum { append(Self.checksum(sizes + values)) }
    try data.write(to: URL(fileURLWithPath: path))
  }
}

/// Splices senones' mixture weights between two `sendump` files of the same model definition.
enum SenoneDump {
  /// Writes into `adapted` the base's weights for every senone but `senones`.
  static func splice(base: String, adapted: String, senones: [Int]) throws {
    let original = try MixtureWeights(sendump: base)
    let new = try MixtureWeights(sendump: adapted)
    guard original.streams == new.streams, original.codewords == new.codewords, original.senones == new.senones else {
      throw ToolError("\(adapted): its senones differ from \(base)'s")
    }
    var baseBytes: [UInt8]
    do {
      baseBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base)))
    } catch {
      throw ToolError("\(base): cannot read the senone dump (\(reason(of: error)))")
    }
    // The weights are the file's last bytes, [stream][codeword][senone]; the header is the base's.
    let count = original.streams * original.codewords * original.senones
    let offset = baseBytes.count - count
    for row in 0..<(original.streams * original.codewords) {
      for senone in senones where senone < original.senones {
        let index = row * original.senones + senone
        baseBytes[offset + index] = new.quantized[index]
      }
    }
    try Data(baseBytes).write(to: URL(fileURLWithPath: adapted))
  }
}
