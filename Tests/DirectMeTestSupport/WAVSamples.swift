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

