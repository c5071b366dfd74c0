import CSampleRate

/// Converts a stream of mono samples from one rate to another through libsamplerate's
/// band-limited sinc converter, block by block (the blocks may be any size).
///
/// The corresponding C functions are `src_new`, `src_process` and `src_delete`.
public final class Resampler {
  public let inputRate: Int
  public let outputRate: Int
  private let state: OpaquePointer?
  private let ratio: Double

  public init(from inputRate: Int, to outputRate: Int) {
    self.inputRate = inputRate
    self.outputRate = outputRate
    ratio = Double(outputRate) / Double(inputRate)
    if inputRate == outputRate {
      state = nil
    } else {
      var error: Int32 = 0
      state = src_new(Int32(SRC_SINC_MEDIUM_QUALITY), 1, &error)
    }
  }

  deinit {
    if let state { src_delete(state) }
  }

  public var isIdentity: Bool { inputRate == outputRate }

  /// `samples` at `inputRate` converted to `outputRate` in one go.
  public static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float] {
    let resampler = Resampler(from: inputRate, to: outputRate)
    return resampler.process(samples) + resampler.finish()
  }

  /// Feeds input samples; returns the output samples they complete.
  public func process(_ input: [Float]) -> [Float] {
    guard let state else { return input }
    return convert(state, input, end: false)
  }

  /// Ends the stream: returns the last output samples.
  public func finish() -> [Float] {
    guard let state else { return [] }
    return convert(state, [], end: true)
  }

  private func convert(_ state: OpaquePointer, _ input: [Float], end: Bool) -> [Float] {
    var output: [Float] = []
    var chunk = [Float](repeating: 0, count: Int(Double(max(input.count, 256)) * ratio) + 256)
    var consumed = 0
    while true {
      var used = 0
      var made = 0
      let status: Int32 = input.withUnsafeBufferPointer { source in
        chunk.withUnsafeMutableBufferPointer { target in
          var data = SRC_DATA()
          data.data_in = source.baseAddress.map { UnsafePointer($0 + consumed) }
          data.input_frames = Int(input.count - consumed)
          data.data_out = target.baseAddress
          data.output_frames = Int(target.count)
          data.end_of_input = end ? 1 : 0
          data.src_ratio = ratio
          let status = src_process(state, &data)
          used = Int(data.input_frames_used)
          made = Int(data.output_frames_gen)
          return status
        }
      }
      // Errors here are programming errors (a bad ratio); the converter is created valid.
      guard status == 0 else { return output }
      consumed += used
      output.append(contentsOf: chunk[0..<made])
      if made == 0 && consumed >= input.count { break }
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
