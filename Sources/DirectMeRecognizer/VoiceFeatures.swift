import CPocketSphinx
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// The voice statistic of audio (`VoiceStatistic`): the acoustic model's own front end
/// (its `feat.params`: filters, lifter) turns 16 kHz audio into cepstra.
///
/// Owns one `fe_t`. All calls must come from one thread at a time.
public final class VoiceFeatures {
  private let frontEnd: OpaquePointer
  private let config: OpaquePointer

  /// The front-end options of `feat.params` (the others are the decoder's).
  static let frontEndOptions: Set<String> = [
    "-lowerf", "-upperf", "-nfilt", "-transform", "-lifter", "-alpha", "-wlen", "-nfft", "-ncep", "-frate", "-doublebw",
    "-remove_dc", "-remove_noise", "-samprate",
  ]

  /// A front end configured like `model`'s features. The corresponding C functions are
  /// `cmd_ln_parse_r` and `fe_init_auto_r`.
  ///
  /// `overriding`: front-end options set whatever `feat.params` says (`-nfilt`, `-ncep`: a
  /// finer spectrum for `VoiceWarp`).
  public init(model: String, overriding: [String: String] = [:]) throws {
    var options = ["-samprate", "16000", "-remove_silence", "no", "-dither", "no"]
    if let params = AcousticModelFiles.path(of: "feat.params", in: model),
      let text = try? String(contentsOfFile: params, encoding: .utf8)
    {
      for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if parts.count == 2, Self.frontEndOptions.contains(parts[0]), parts[0] != "-samprate", overriding[parts[0]] == nil {
          options += parts
        }
      }
    }
    for (name, value) in overriding.sorted(by: { $0.key < $1.key }) { options += [name, value] }
    let (config, log) = SphinxLog.capturing("reading front-end options") {
      withCStrings(["directme"] + options) { argv in
        cmd_ln_parse_r(nil, fe_get_args(), Int32(argv.count), argv.baseAddress, 0)
      }
    }
    guard let config else {
      throw PocketSphinxError.from("cmd_ln_parse_r", log: log, fallback: "bad front-end options \(options) of \(model)")
    }
    let (frontEnd, initLog) = SphinxLog.capturing("making the front end of \(model)") { FrontEnds.making { fe_init_auto_r(config) } }
    guard let frontEnd else {
      cmd_ln_free_r(config)
      throw PocketSphinxError.from("fe_init_auto_r", log: initLog, fallback: "front end of \(model) failed")
    }
    self.frontEnd = frontEnd
    self.config = config
  }

  deinit {
    fe_free(frontEnd)
    cmd_ln_free_r(config)
  }

  /// The cepstra of `samples` (16 kHz), a frame every 10 ms, the same whatever was read
  /// before: the front end's noise estimate (`-remove_noise`, on by default) is started
  /// afresh for each call (`fe_start_utt` keeps it; it carried from one recording to the
  /// next, and 2,151 of the 13,179 routing references differed with the order the
  /// recordings were read in). The corresponding C functions are `fe_start_stream` and
  /// `fe_process_utt`.
  public func cepstra(_ samples: [Int16]) -> [[Float]] {
    fe_start_stream(frontEnd)
    guard !samples.isEmpty, fe_start_utt(frontEnd) == 0 else { return [] }
    let width = Int(fe_get_output_size(frontEnd))
    var block: UnsafeMutablePointer<UnsafeMutablePointer<mfcc_t>?>?
    var count: Int32 = 0
    let status = samples.withUnsafeBufferPointer { buffer in
      fe_process_utt(frontEnd, buffer.baseAddress, buffer.count, &block, &count)
    }
    defer { if let block { fe_free_2d(block) } }
    var last = [mfcc_t](repeating: 0, count: width)
    var lastCount: Int32 = 0
    fe_end_utt(frontEnd, &last, &lastCount)
    guard status == 0, let block, count > 0 else { return [] }
    return (0..<Int(count)).compactMap { frame in
      block[frame].map { row in (0..<width).map { Float(row[$0]) } }
    }
  }

  /// The voice statistic of `samples`, or nil when they are too short.
  public func statistic(_ samples: [Int16]) -> [Double]? {
    VoiceStatistic.of(cepstra(samples))
  }

  /// The routing statistic (`VoiceStatistic.routing`) of `samples`, or nil when too short.
  public func routingStatistic(_ samples: [Int16]) -> [Double]? {
    Self.routingStatistic(cepstra(samples), of: samples)
  }

  /// The routing statistic of `samples` whose cepstra are already at hand: the same numbers
  /// for the references `directme-bench routing` writes and for the utterances routed.
  public static func routingStatistic(_ cepstra: [[Float]], of samples: [Int16]) -> [Double]? {
    VoiceStatistic.routing(sounding(cepstra, of: samples))
  }

  /// `cepstra` of `samples` without the frames of digital silence (every sample of the
  /// frame's window within one step of zero). No microphone makes it; files do: a speech
  /// synthesizer pads its words with it, and words joined into a sequence may be. Its frames
  /// hold no voice, and counted in they made people's words joined by it look steady,
  /// like synthetic speech (the steadiness is part of `VoiceStatistic.routing`).
  public static func sounding(_ cepstra: [[Float]], of samples: [Int16]) -> [[Float]] {
    let shift = 160
    let window = 410  // the front end's 25.6 ms window at 16 kHz
    return cepstra.indices.compactMap { frame in
      let start = min(samples.count, frame * shift)
      let end = min(samples.count, start + window)
      return samples[start..<end].contains { $0 > 1 || $0 < -1 } ? cepstra[frame] : nil
    }
  }
}
