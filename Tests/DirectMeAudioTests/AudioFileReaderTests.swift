import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeAudio

/// Writes a WAV file with the given header fields and raw sample bytes.
func writeWAV(
  _ url: URL, formatCode: UInt16 = 1, channels: UInt16 = 1, rate: UInt32 = 16000, bits: UInt16 = 16,
  data: [UInt8], declaredDataSize: UInt32? = nil, extensible: Bool = false
) throws {
  var bytes: [UInt8] = []
  func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
  func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
  let blockAlign = channels * bits / 8
  let fmtSize: UInt32 = extensible ? 40 : 16
  bytes += Array("RIFF".utf8)
  u32(UInt32(4 + 8 + Int(fmtSize) + 8 + data.count))
  bytes += Array("WAVE".utf8)
  bytes += Array("LIST".utf8)
  u32(4)
  bytes += Array("INFO".utf8)
  bytes += Array("fmt ".utf8)
  u32(fmtSize)
  u16(extensible ? 0xFFFE : formatCode)
  u16(channels)
  u32(rate)
  u32(rate * UInt32(blockAlign))
  u16(blockAlign)
  u16(bits)
  if extensible {
    u16(22)
    u16(bits)
    u32(0)
    u16(formatCode)
    bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
  }
  bytes += Array("data".utf8)
  u32(declaredDataSize ?? UInt32(data.count))
  bytes += data
  try Data(bytes).write(to: url)
}

func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("directme-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Little-endian bytes of 16-bit samples.
func bytes16(_ samples: [Int16]) -> [UInt8] {
  samples.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] }
}

@Suite("Audio file reader")
struct AudioFileReaderTests {
  @Test("reads WAV files of every PCM and float encoding to the same mono samples")
  func encodings() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let values: [Double] = [0, 0.5, -0.5, 0.25, -1]
    func check(_ name: String, tolerance: Float = 0.01, _ write: (URL) throws -> Void) throws {
      let url = folder.appendingPathComponent(name)
      try write(url)
      let reader = try AudioFileReader(path: url.path)
      let samples = try reader.read(frames: 100)
      #expect(samples.count == values.count, "\(name)")
      for (got, want) in zip(samples, values) {
        #expect(abs(got - Float(want)) <= tolerance, "\(name): \(got) vs \(want)")
      }
      #expect(try reader.read(frames: 100).isEmpty)
    }
    try check("16.wav") { try writeWAV($0, data: bytes16(values.map { Int16(clamping: Int($0 * 32768)) })) }
    try check("8.wav") {
      try writeWAV($0, bits: 8, data: values.map { UInt8(clamping: Int(($0 * 128 + 128).rounded())) })
    }
    try check("24.wav") {
      try writeWAV($0, bits: 24, data: values.flatMap { v -> [UInt8] in
        let i = Int32(max(-8_388_608, min(8_388_607, v * 8_388_608)))
        return [UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i >> 16 & 0xFF)]
      })
    }
    try check("32.wav") {
      try writeWAV($0, bits: 32, data: values.flatMap { v -> [UInt8] in
        let i = UInt32(bitPattern: Int32(max(-2_147_483_648, min(2_147_483_647, v * 2_147_483_648))))
        return [UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i >> 16 & 0xFF), UInt8(i >> 24)]
      })
    }
    try check("float.wav") {
      try writeWAV($0, formatCode: 3, bits: 32, data: values.flatMap { v -> [UInt8] in
        let b = Float(v).bitPattern
        return [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
      })
    }
    try check("double-extensible.wav") {
      try writeWAV($0, formatCode: 3, bits: 64, data: values.flatMap { v -> [UInt8] in
        withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) }
      }, extensible: true)
    }
    try check("stereo.wav") {
      // Left and right differ; mono is their mean.
      try writeWAV($0, channels: 2, data: bytes16(values.flatMap { v -> [Int16] in
        [Int16(clamping: Int(v * 32767 + 100)), Int16(clamping: Int(v * 32767 - 100))]
      }))
    }
  }

  @Test("refuses what it cannot read, naming the problem")
  func refusals() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func problem(_ name: String, _ write: (URL) throws -> Void) throws -> String {
      let url = folder.appendingPathComponent(name)
      try write(url)
      do {
        _ = try AudioFileReader(path: url.path)
        return "no error"
      } catch let error as AudioFileError {
        #expect(error.file == url.path)
        return error.problem
      }
    }
    #expect(try problem("empty.wav") { try Data().write(to: $0) } == "empty file")
    #expect(try problem("text.wav") { try Data("hello, this is not audio at all".utf8).write(to: $0) }.contains("not an audio file"))
    #expect(try problem("header-only.wav") {
      try Data(Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8)).write(to: $0)
    }.contains("not an audio file"))
    #expect(try problem("slow.wav") { try writeWAV($0, rate: 1000, data: bytes16([1, 2, 3])) }.contains("unsupported sample rate 1000 Hz"))
    #expect(try problem("missing.wav") { _ = $0 } == "no such file")
  }

  /// A 440 Hz tone, 1 s at 16 kHz.
  static let tone = (0..<16_000).map { Int16(12_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }

  /// The pitch of a tone from its zero crossings.
  static func frequency(_ samples: [Int16]) -> Double {
    var crossings = 0
    for i in 1..<samples.count where (samples[i - 1] < 0) != (samples[i] < 0) { crossings += 1 }
    return Double(crossings) / 2 / (Double(samples.count) / 16_000)
  }

  @Test(
    "FLAC, OGG/Vorbis, MP3, A-law and mu-law files (written by libsndfile's encoders) read back as the tone they hold",
    arguments: AudioFileWriter.Kind.allCases)
  func formats(kind: AudioFileWriter.Kind) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("tone.\(kind.rawValue)")
    try AudioFileWriter.write(samples: Self.tone, to: url.path, kind: kind)
    let samples = try AudioFileSource.readAll(path: url.path)
    // Lossy coders add a little delay and padding (MP3 up to about 50 ms).
    #expect(abs(samples.count - 16_000) <= 1_200, "\(kind): \(samples.count) samples")
    let middle = Array(samples[2_000..<14_000])
    #expect(abs(Self.frequency(middle) - 440) < 3, "\(kind)")
    let peak = Double(middle.map { abs(Int($0)) }.max() ?? 0)
    #expect(abs(peak - 12_000) < 1_200, "\(kind): peak \(peak)")
  }

  @Test("files made by another encoder (sox: FLAC, OGG, A-law, mu-law at 8 kHz, 44.1 kHz stereo) read back as the tone")
  func soxFormats() throws {
    guard TestSupport.which("sox") != nil else {
      Issue.record("sox is missing (scripts/setup.sh installs it)")
      return
    }
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("tone.wav")
    try AudioFileWriter.write(samples: Self.tone, to: source.path)
    let conversions: [(String, [String])] = [
      ("tone.flac", []), ("tone.ogg", []), ("alaw.wav", ["-e", "a-law"]), ("mulaw.wav", ["-e", "u-law", "-r", "8000"]),
      ("stereo.wav", ["-r", "44100", "-c", "2"]),
    ]
    for (name, options) in conversions {
      let target = folder.appendingPathComponent(name)
      let made = try TestSupport.run(["sox", source.path] + options + [target.path])
      try #require(made.status == 0, "sox: \(made.stderr)")
      let reader = try AudioFileReader(path: target.path)
      #expect(reader.format.description.contains(name == "mulaw.wav" ? "8000 Hz" : "Hz"))
      let samples = try AudioFileSource.readAll(path: target.path)
      #expect(abs(samples.count - 16_000) <= 400, "\(name): \(samples.count) samples")
      #expect(abs(Self.frequency(Array(samples[2_000..<14_000])) - 440) < 3, "\(name)")
    }
  }

  @Test("a header that promises more audio than the file holds is read as far as it goes, and flagged")
  func lyingHeader() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("lying.wav")
    try writeWAV(url, data: bytes16([1, 2, 3, 4]), declaredDataSize: 1000)
    let reader = try AudioFileReader(path: url.path)
    #expect(try reader.read(frames: 1000).count == 4)
    let truncation = try #require(reader.truncation)
    #expect(abs(truncation.held - 4.0 / 16000) < 1e-9)
    #expect(abs(truncation.declared - 500.0 / 16000) < 1e-9)
  }

  @Test("a header with no audio after it at all is flagged too, with the length it declares")
  func headerAlone() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("header.wav")
    try writeWAV(url, data: [], declaredDataSize: 32_000)
    let reader = try AudioFileReader(path: url.path)
    #expect(try reader.read(frames: 1000).isEmpty)
    let truncation = try #require(reader.truncation)
    #expect(truncation.held == 0)
    #expect(abs(truncation.declared - 1.0) < 1e-9)
  }
}

@Suite("Resampler")
struct ResamplerTests {
  /// The frequency of a sine, from its zero crossings.
  func frequency(_ samples: [Float], rate: Double) -> Double {
    var crossings = 0
    for i in 1..<samples.count where (samples[i - 1] < 0) != (samples[i] < 0) { crossings += 1 }
    return Double(crossings) / 2 / (Double(samples.count) / rate)
  }

  @Test("keeps a tone's pitch and length across rates", arguments: [8000, 22050, 44100, 48000])
  func pitch(rate: Int) {
    let tone = (0..<rate * 2).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
    let resampler = Resampler(from: rate, to: 16000)
    var output: [Float] = []
    for start in stride(from: 0, to: tone.count, by: 1234) {
      output += resampler.process(Array(tone[start..<min(start + 1234, tone.count)]))
    }
    output += resampler.finish()
    #expect(abs(output.count - 32000) <= 2)
    let middle = Array(output[1000..<31000])
    #expect(abs(frequency(middle, rate: 16000) - 440) < 2)
    #expect(abs((middle.max() ?? 0) - 0.5) < 0.02)
  }

  @Test("removes what the new rate cannot hold")
  func antiAliasing() {
    // 10 kHz does not fit under 16 kHz's Nyquist frequency (8 kHz): it must not fold back to 6 kHz.
    let rate = 48000
    let tone = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 10000 * Double($0) / Double(rate))) }
    let resampler = Resampler(from: rate, to: 16000)
    let output = resampler.process(tone) + resampler.finish()
    let peak = output[500..<15000].map(abs).max() ?? 1
    #expect(peak < 0.01)
  }
}
