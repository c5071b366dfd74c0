#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// The mixture weights of a PocketSphinx PTM model: for every feature stream, codeword and
/// senone, the weight of that codeword's Gaussian in the senone.
///
/// Debian's en-us model ships them only as a quantized `sendump` (what the decoder reads);
/// sphinxtrain's `bw` and `map_adapt` need a float `mixture_weights` file. This converts the
/// one into the other: a quantized value `q` is `-log(p)` in base 1.0001, shifted right by
/// 10 bits, so `p = 1.0001^(-1024 q)`; each senone's weights are renormalized per stream.
public struct MixtureWeights: Sendable {
  public var streams: Int
  public var codewords: Int
  public var senones: Int
  /// Quantized weights, `[stream][codeword][senone]` flattened.
  public var quantized: [UInt8]

  /// A problem with a sendump file.
  public struct FormatError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var problem: String
    public var description: String { "\(file): \(problem)" }
  }

  /// Reads a PocketSphinx `sendump` file (8-bit, unclustered).
  public init(sendump path: String) throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw FormatError(file: path, problem: "cannot read the senone dump (\(reason(of: error)))")
    }
    var reader = ByteReader(data: data, file: path)
    // A title, a header, then "key value" strings until an empty one.
    for what in ["title", "header"] {
      let length = try reader.int32(what)
      guard length > 0, length < 1000 else { throw FormatError(file: path, problem: "not a senone dump (bad \(what) length \(length))") }
      try reader.skip(Int(length), what)
    }
    var fields: [String: String] = [:]
    while true {
      let length = try reader.int32("header string")
      if length == 0 { break }
      guard length > 0, length < 1000 else { throw FormatError(file: path, problem: "not a senone dump (bad header string)") }
      let text = try reader.string(Int(length))
      let parts = text.split(separator: " ", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    if let clusters = fields["cluster_count"], clusters != "0" {
      throw FormatError(file: path, problem: "clustered (4-bit) senone dumps are not supported")
    }
    let streams = Int(fields["feature_count"] ?? "") ?? 1
    let rows = Int(try reader.int32("row count"))
    let columns = Int(try reader.int32("column count"))
    guard streams > 0, rows > 0, columns > 0 else { throw FormatError(file: path, problem: "empty senone dump") }
    let count = streams * rows * columns
    guard reader.remaining >= count else {
      throw FormatError(file: path, problem: "truncated: \(count) weights declared, \(reader.remaining) bytes present")
    }
    self.streams = streams
    self.codewords = rows
    self.senones = columns
    self.quantized = Array(reader.bytes(count))
  }

  /// The weights as probabilities, `[senone][stream][codeword]` flattened, each senone's
  /// weights in a stream summing to 1.
  public func probabilities() -> [Float] {
    var table = [Double](repeating: 0, count: 256)
    for q in 0..<256 { table[q] = pow(1.0001, -1024.0 * Double(q)) }
    var result = [Float](repeating: 0, count: senones * streams * codewords)
    var row = [Double](repeating: 0, count: codewords)
    for senone in 0..<senones {
      for stream in 0..<streams {
        var sum = 0.0
        for codeword in 0..<codewords {
          let value = table[Int(quantized[(stream * codewords + codeword) * senones + senone])]
          row[codeword] = value
          sum += value
        }
        let base = (senone * streams + stream) * codewords
        for codeword in 0..<codewords { result[base + codeword] = Float(row[codeword] / max(sum, .leastNormalMagnitude)) }
      }
    }
    return result
  }

  /// The weights as a sphinxtrain `mixture_weights` file (s3 format, little-endian, no checksum).
  public func mixtureWeightsFile() -> Data {
    var data = Data("s3\nversion 1.0\nendhdr\n".utf8)
    func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
    append(0x1122_3344)  // byte-order magic
    append(UInt32(senones))
    append(UInt32(streams))
    append(UInt32(codewords))
    append(UInt32(senones * streams * codewords))
    let values = probabilities()
    data.reserveCapacity(data.count + values.count * 4)
    for value in values { append(value.bitPattern) }
    return data
  }
}

/// Reads little-endian fields from a file's bytes, naming the file when it runs short.
struct ByteReader {
  let data: Data
  let file: String
  var offset = 0

  var remaining: Int { data.count - offset }

  mutating func int32(_ what: String) throws -> Int32 {
    guard remaining >= 4 else { throw MixtureWeights.FormatError(file: file, problem: "truncated (no \(what))") }
    let value = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
    offset += 4
    return Int32(littleEndian: value)
  }

  mutating func skip(_ count: Int, _ what: String) throws {
    guard remaining >= count else { throw MixtureWeights.FormatError(file: file, problem: "truncated (in the \(what))") }
    offset += count
  }

  mutating func string(_ count: Int) throws -> String {
    guard remaining >= count else { throw MixtureWeights.FormatError(file: file, problem: "truncated (in a header string)") }
    let bytes = data[data.startIndex + offset..<data.startIndex + offset + count]
    offset += count
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  mutating func bytes(_ count: Int) -> Data {
    let slice = data[data.startIndex + offset..<data.startIndex + offset + count]
    offset += count
    return slice
  }
}
