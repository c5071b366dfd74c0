import Foundation

/// Reads a WAV file as 16 kHz mono 16-bit chunks of a fixed duration, converting the rate,
/// channels and encoding on the way, a block at a time.
public final class AudioFileSource {
  public static let sampleRate = 16_000
  public let reader: WAVReader
  public let chunkSamples: Int
  private var resampler: Resampler
  private var pending: [Int16] = []
  private var finished = false

  /// - Parameter chunkDuration: Seconds of audio per chunk (10-20 ms as from a microphone).
  public init(path: String, chunkDuration: Double = 0.010) throws {
    reader = try WAVReader(path: path)
    chunkSamples = Int(Double(Self.sampleRate) * chunkDuration)
    resampler = Resampler(from: reader.format.sampleRate, to: Self.sampleRate)
  }

  public var path: String { reader.path }
  public var format: AudioFormat { reader.format }

  /// The next chunk, `nil` at the end (the last chunk may be shorter).
  public func next() throws -> [Int16]? {
    while pending.count < chunkSamples && !finished {
      let block = try reader.read(frames: 4096)
      if block.isEmpty {
        finished = true
        pending.append(contentsOf: resampler.finish().int16Samples)
      } else {
        pending.append(contentsOf: resampler.process(block).int16Samples)
      }
    }
    guard !pending.isEmpty else { return nil }
    let count = min(chunkSamples, pending.count)
    let chunk = Array(pending.prefix(count))
    pending.removeFirst(count)
    return chunk
  }

  /// The whole file at 16 kHz (for short files).
  public static func readAll(path: String) throws -> [Int16] {
    let source = try AudioFileSource(path: path, chunkDuration: 0.25)
    var samples: [Int16] = []
    while let chunk = try source.next() { samples.append(contentsOf: chunk) }
    return samples
  }
}

/// Writes 16-bit mono PCM WAV files.
public enum WAVWriter {
  /// The bytes of a WAV file holding `samples`.
  public static func data(samples: [Int16], sampleRate: Int = 16_000) -> Data {
    var data = Data(capacity: 44 + samples.count * 2)
    func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
    func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
    data.append(contentsOf: Array("RIFF".utf8))
    append32(UInt32(36 + samples.count * 2))
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append32(16)
    append16(1)
    append16(1)
    append32(UInt32(sampleRate))
    append32(UInt32(sampleRate * 2))
    append16(2)
    append16(16)
    data.append(contentsOf: Array("data".utf8))
    append32(UInt32(samples.count * 2))
    samples.withUnsafeBufferPointer { buffer in
      for sample in buffer { append16(UInt16(bitPattern: sample)) }
    }
    return data
  }

  /// Writes `samples` to `path` atomically with the given permissions.
  public static func write(samples: [Int16], sampleRate: Int = 16_000, to path: String, permissions: Int = 0o644) throws {
    let url = URL(fileURLWithPath: path)
    try data(samples: samples, sampleRate: sampleRate).write(to: url, options: .atomic)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
  }
}
