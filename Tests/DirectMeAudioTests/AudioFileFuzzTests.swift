import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeAudio

@Suite("Fuzz: audio file reader")
struct AudioFileFuzzTests {
  /// Valid WAV files of several encodings to mutate.
  static func seeds() -> [[UInt8]] {
    func wav(format: UInt16, channels: UInt16, rate: UInt32, bits: UInt16, extensible: Bool = false, data: [UInt8]) -> [UInt8] {
      func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
      func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
      let blockAlign = channels * bits / 8
      var fmt = le16(extensible ? 0xFFFE : format) + le16(channels) + le32(rate) + le32(rate * UInt32(blockAlign))
        + le16(blockAlign) + le16(bits)
      if extensible { fmt += le16(22) + le16(bits) + le32(3) + le16(format) + [UInt8](repeating: 0, count: 14) }
      let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(UInt32(fmt.count)) + fmt + Array("data".utf8)
        + le32(UInt32(data.count)) + data
      return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }
    let bytes = (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    return [
      wav(format: 1, channels: 1, rate: 16_000, bits: 16, data: bytes),
      wav(format: 1, channels: 2, rate: 44_100, bits: 24, data: Array(bytes.prefix(396))),
      wav(format: 1, channels: 1, rate: 8_000, bits: 8, data: bytes),
      wav(format: 3, channels: 1, rate: 48_000, bits: 32, data: bytes),
      wav(format: 1, channels: 2, rate: 22_050, bits: 16, extensible: true, data: bytes),
      wav(format: 7, channels: 1, rate: 8_000, bits: 8, data: bytes),
    ]
  }

  @Test("mutated audio files are read or refused with an error naming the file, never a crash")
  func mutatedFiles() throws {
    let folder = try TestSupport.temporaryFolder("wavfuzz")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("fuzz.wav")
    var random = FuzzRandom(seed: 1)
    // Compressed files too, written by libsndfile's encoders: 0.2 s of a tone each.
    var seeds = Self.seeds()
    let tone = (0..<3_200).map { Int16(8_000 * sin(Double($0) * 0.17)) }
    for kind in [AudioFileWriter.Kind.flac, .ogg, .mp3] {
      let seed = folder.appendingPathComponent("seed.\(kind.rawValue)")
      try AudioFileWriter.write(samples: tone, to: seed.path, kind: kind)
      seeds.append([UInt8](try Data(contentsOf: seed)))
    }
    var read = 0
    var refused = 0
    for _ in 0..<FuzzRandom.iterations {
      let input = random.mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)])
      try Data(input).write(to: file)
      do {
        let encoding = try AudioFileReader(path: file.path).format.encoding
        let samples = try AudioFileSource.readAll(path: file.path)
        // Bounded: uncompressed audio never gives more samples than its bytes hold at 16 kHz
        // from the lowest rate accepted (4 kHz, 8-bit mono: 4 samples a byte); compressed
        // audio no more than its coder's largest expansion (a FLAC frame of one constant:
        // 65,535 samples from a few bytes).
        let uncompressed = ["PCM", "Float", "Law"].contains { encoding.contains($0) }
        #expect(samples.count <= input.count * (uncompressed ? 4 : 16_384) + 16, "\(encoding)")
        read += 1
      } catch let error as AudioFileError {
        #expect(error.file == file.path)
        #expect(!error.problem.isEmpty && !error.problem.contains("\n"))
        refused += 1
      }
    }
    #expect(read + refused == FuzzRandom.iterations)
    #expect(read > 0 && refused > 0, "the mutations reach both outcomes (read \(read), refused \(refused))")
  }
}
