import Foundation

/// Converts a stream of samples from one rate to another with a windowed-sinc filter,
/// block by block (the blocks may be any size).
public struct Resampler: Sendable {
  public let inputRate: Int
  public let outputRate: Int
  private let halfWidth: Int  // input samples on each side of an output instant
  private let cutoff: Double  // of the input's Nyquist frequency
  private let table: [Float]  // the kernel, sampled `resolution` times per input sample
  private let resolution = 64
  private var buffer: [Float] = []
  private var bufferStart = 0  // absolute index of buffer[0]
  private var nextOutput = 0  // absolute index of the next output sample

  public init(from inputRate: Int, to outputRate: Int, zeroCrossings: Int = 12) {
    self.inputRate = inputRate
    self.outputRate = outputRate
    let ratio = Double(outputRate) / Double(inputRate)
    cutoff = min(1, ratio) * 0.94
    halfWidth = Int((Double(zeroCrossings) / cutoff).rounded(.up))
    var table = [Float](repeating: 0, count: halfWidth * resolution + 2)
    for index in table.indices {
      let x = Double(index) / Double(resolution)
      guard x <= Double(halfWidth) else { continue }
      let sinc = x == 0 ? 1 : sin(.pi * cutoff * x) / (.pi * cutoff * x)
      let window = 0.42 + 0.5 * cos(.pi * x / Double(halfWidth)) + 0.08 * cos(2 * .pi * x / Double(halfWidth))
      table[index] = Float(cutoff * sinc * window)
    }
    self.table = table
    // Start half a kernel early so the output is aligned with the input.
    buffer = [Float](repeating: 0, count: halfWidth)
    bufferStart = -halfWidth
  }

  public var isIdentity: Bool { inputRate == outputRate }

  /// Feeds input samples; returns the output samples they complete.
  public mutating func process(_ input: [Float]) -> [Float] {
    guard !isIdentity else { return input }
    buffer.append(contentsOf: input)
    return drain(final: false)
  }

  /// Ends the stream: returns the last output samples.
  public mutating func finish() -> [Float] {
    guard !isIdentity else { return [] }
    buffer.append(contentsOf: [Float](repeating: 0, count: halfWidth + 1))
    return drain(final: true)
  }

  private mutating func drain(final: Bool) -> [Float] {
    var output: [Float] = []
    let step = Double(inputRate) / Double(outputRate)
    let lastAvailable = bufferStart + buffer.count - 1
    // The input end (in absolute input samples) that the output may reach when finishing.
    let inputEnd = lastAvailable - halfWidth - 1
    buffer.withUnsafeBufferPointer { samples in
      table.withUnsafeBufferPointer { kernel in
        while true {
          let t = Double(nextOutput) * step
          let centre = Int(t.rounded(.down))
          if centre + halfWidth > lastAvailable { break }
          if final && t > Double(inputEnd) { break }
          var sum: Float = 0
          let first = centre - halfWidth + 1
          for k in first...(centre + halfWidth) {
            let distance = abs(t - Double(k)) * Double(resolution)
            let index = Int(distance)
            let fraction = Float(distance - Double(index))
            let weight = kernel[index] + (kernel[index + 1] - kernel[index]) * fraction
            sum += samples[k - bufferStart] * weight
          }
          output.append(sum)
          nextOutput += 1
        }
      }
    }
    // Drop input no longer needed.
    let needed = Int((Double(nextOutput) * step).rounded(.down)) - halfWidth + 1
    let drop = min(max(0, needed - bufferStart), buffer.count)
    if drop > 0 {
      buffer.removeFirst(drop)
      bufferStart += drop
    }
    return output
  }
}

extension Array where Element == Float {
  /// Samples in -1...1 as 16-bit integers, clipped.
  public var int16Samples: [Int16] {
    map { $0.isFinite ? Int16(clamping: Int((Swift.min(2, Swift.max(-2, $0)) * 32767).rounded())) : 0 }
  }
}

extension Array where Element == Int16 {
  public var floatSamples: [Float] { map { Float($0) / 32768 } }
}
