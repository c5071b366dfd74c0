#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Reads an audio file (any format libsndfile reads) as 16 kHz mono 16-bit chunks of a fixed duration, converting the rate,
/// channels and encoding on the way, a block at a time.
public final class AudioFileSource {
  public static let sampleRate = 16_000
  public let reader: AudioFileReader
  public let chunkSamples: Int
  private let resampler: Resampler
  private var pending: [Int16] = []
  private var finished = false

  /// - Parameter chunkDuration: Seconds of audio per chunk (10-20 ms as from a microphone).
  public init(path: String, chunkDuration: Double = 0.010) throws {
    reader = try AudioFileReader(path: path)
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
