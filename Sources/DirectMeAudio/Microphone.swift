import CPulseSimple
import DirectMeCore
import Foundation

/// A PulseAudio call that failed, with PulseAudio's own message.
public struct PulseAudioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C function that failed.
  public var function: String
  /// PulseAudio's error code (`PA_ERR_*`).
  public var code: Int32
  /// What went wrong and what to do about it.
  public var message: String

  public var description: String { message }

  /// Whether the server or the source went away (the microphone may come back).
  public var isConnectionLost: Bool {
    [PA_ERR_CONNECTIONREFUSED, PA_ERR_CONNECTIONTERMINATED, PA_ERR_KILLED, PA_ERR_NOENTITY, PA_ERR_IO]
      .map { Int32($0.rawValue) }.contains(code)
  }

  init(function: String, code: Int32, device: String?) {
    self.function = function
    self.code = code
    let reason = String(cString: pa_strerror(code))
    switch code {
    case Int32(PA_ERR_CONNECTIONREFUSED.rawValue), Int32(PA_ERR_INVALIDSERVER.rawValue):
      message =
        "cannot connect to PulseAudio (\(reason)): start a server with `pulseaudio --start`, or replay files with `directme replay FILE.wav`"
    case Int32(PA_ERR_NOENTITY.rawValue) where function == "pa_simple_new":
      message =
        "no such PulseAudio source '\(device ?? "default")' (\(reason)); list sources with `pactl list short sources`"
    default:
      message = "PulseAudio \(function) failed: \(reason)"
    }
  }
}

/// Records 16 kHz mono 16-bit audio from a PulseAudio source with a short fragment size,
/// so each read returns within about one fragment of the sound arriving.
///
/// `read` blocks: call it from a thread of its own.
public final class Microphone {
  public static let sampleRate = 16_000
  public let device: String?
  public let fragmentDuration: Double
  /// Samples per fragment: what one read should ask for.
  public let fragmentSamples: Int
  private let stream: OpaquePointer

  /// Connects to the PulseAudio server and opens a record stream.
  ///
  /// The corresponding C function is `pa_simple_new`. The simple API connects the stream with
  /// `PA_STREAM_ADJUST_LATENCY`, so `fragsize` sets the latency of each read.
  /// - Parameters:
  ///   - device: A source name (`nil`: the default source).
  ///   - fragmentDuration: Seconds of audio per fragment the server sends (30 ms by default,
  ///     as wake-word engines read 32 ms frames: each fragment wakes PulseAudio's thread and the
  ///     reader, and 10 ms fragments cost ~0.6 points of a core listening to silence and ~2 in
  ///     speech for at most 20 ms of latency; PulseAudio's default is about 2 s).
  public init(device: String? = nil, fragmentDuration: Double = 0.030, applicationName: String = "DirectMe") throws {
    self.device = device
    self.fragmentDuration = fragmentDuration
    fragmentSamples = max(1, Int((Double(Self.sampleRate) * fragmentDuration).rounded()))
    var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(Self.sampleRate), channels: 1)
    let fragmentBytes = UInt32(fragmentSamples * 2)
    var attributes = pa_buffer_attr(
      maxlength: UInt32(Self.sampleRate * 2 * 4),  // at most 4 s queued if we fall behind
      tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: fragmentBytes)
    var error: Int32 = 0
    guard
      let stream = pa_simple_new(
        nil, applicationName, PA_STREAM_RECORD, device, "voice commands", &spec, nil, &attributes, &error)
    else {
      throw PulseAudioError(function: "pa_simple_new", code: error, device: device)
    }
    self.stream = stream
  }

  deinit {
    pa_simple_free(stream)
  }

  /// When the last read returned, and whether it had to wait for the audio (we are caught up).
  private var lastRead: (end: ContinuousClock.Instant, waited: Bool)?

  /// Blocks until `count` samples have been recorded and returns them.
  ///
  /// When the last read had to wait, this one sleeps until its audio is about due (5 ms
  /// early) before asking: `pa_simple_read` wakes the reader, under PulseAudio's mainloop
  /// lock, for every packet the server sends (every 10 ms from a source fed in 10-ms
  /// writes), and that contention, not the decoding, was most of the CPU spent listening to
  /// silence. A read that finds its audio already there (we fell behind) is followed at once
  /// by the next one, until the queue is drained.
  ///
  /// The corresponding C function is `pa_simple_read`.
  public func read(count: Int) throws -> [Int16] {
    let clock = ContinuousClock()
    if let lastRead, lastRead.waited {
      let due = lastRead.end + .microseconds(Int64(count) * 1_000_000 / Int64(Self.sampleRate) - 5_000)
      if due > clock.now { Thread.sleep(forTimeInterval: (due - clock.now).seconds) }
    }
    var samples = [Int16](repeating: 0, count: count)
    var error: Int32 = 0
    let asked = clock.now
    let status = samples.withUnsafeMutableBytes { pa_simple_read(stream, $0.baseAddress, $0.count, &error) }
    if status < 0 { throw PulseAudioError(function: "pa_simple_read", code: error, device: device) }
    let end = clock.now
    lastRead = (end, end - asked > .milliseconds(1))
    return samples
  }

  /// Seconds of audio between the microphone and what `read` returns.
  ///
  /// The corresponding C function is `pa_simple_get_latency`.
  public var latency: Double {
    var error: Int32 = 0
    let microseconds = pa_simple_get_latency(stream, &error)
    return Double(microseconds) / 1_000_000
  }
}
