import DirectMeApp
import DirectMeAudio
import Foundation
import Testing

@Suite("A replayed file's warnings")
struct FileWarningsTests {
  /// A 16-bit mono 16 kHz WAV header declaring `declared` bytes of audio, followed by `held` bytes.
  static func wav(declared: UInt32, held: Int) -> Data {
    var bytes: [UInt8] = []
    func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    bytes += Array("RIFF".utf8)
    u32(36 + declared)
    bytes += Array("WAVEfmt ".utf8)
    u32(16)
    u16(1)
    u16(1)
    u32(16_000)
    u32(32_000)
    u16(2)
    u16(16)
    bytes += Array("data".utf8)
    u32(declared)
    bytes += [UInt8](repeating: 0, count: held)
    return Data(bytes)
  }

  @Test("a truncated file says how much its header declares and how much it holds, none included")
  func truncated() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("directme-warnings-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let half = folder.appendingPathComponent("half.wav").path
    let header = folder.appendingPathComponent("header.wav").path
    let whole = folder.appendingPathComponent("whole.wav").path
    try Self.wav(declared: 32_000, held: 16_000).write(to: URL(fileURLWithPath: half))
    try Self.wav(declared: 32_000, held: 0).write(to: URL(fileURLWithPath: header))
    try Self.wav(declared: 32_000, held: 32_000).write(to: URL(fileURLWithPath: whole))
    #expect(
      try AudioFileSource(path: half).warnings == [
        "\(half): truncated: the header declares 1.00 s of audio, the file holds 0.50 s (the part present was processed)"
      ])
    #expect(
      try AudioFileSource(path: header).warnings == ["\(header): truncated: the header declares 1.00 s of audio, the file holds none"])
    #expect(try AudioFileSource(path: whole).warnings.isEmpty)
  }
}
