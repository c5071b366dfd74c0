import CPulse
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

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
    case Int32(PA_ERR_NOENTITY.rawValue) where function == "pa_stream_connect_record":
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
/// It runs PulseAudio's main loop itself, on the reading thread, only while a read waits for
/// audio: the server's packets (every 10 ms from some sources) are taken a fragment's worth at
/// a time, not each by a thread of PulseAudio's own woken for it (the simple API's threaded
/// main loop, which was most of what listening to silence cost).
///
/// `read` blocks: call it from a thread of its own, the same thread every time.
public final class Microphone {
  public static let sampleRate = 16_000
  public let device: String?
  public let fragmentDuration: Double
  /// Samples per fragment: what one read should ask for.
  public let fragmentSamples: Int
  private let mainloop: OpaquePointer
  private let context: OpaquePointer
  private var stream: OpaquePointer?
  /// Audio received and not yet read.
  private var received: [Int16] = []

  /// Connects to the PulseAudio server and opens a record stream.
  ///
  /// The corresponding C functions are `pa_context_connect` and `pa_stream_connect_record`,
  /// with `PA_STREAM_ADJUST_LATENCY`, so `fragsize` sets the latency of each read (and timing
  /// updates, for `latency`), as the simple API connects its streams.
  /// - Parameters:
  ///   - device: A source name (`nil`: the default source).
  ///   - fragmentDuration: Seconds of audio per read (30 ms by default, as wake-word engines
  ///     read 32 ms frames: each read wakes the reader; with the simple API's 10 ms fragments
  ///     listening to silence cost ~0.6 points of a core more and speech ~2, for at most 20 ms
  ///     of latency less; PulseAudio's default is about 2 s).
  public init(device: String? = nil, fragmentDuration: Double = 0.030, applicationName: String = "DirectMe") throws {
    self.device = device
    self.fragmentDuration = fragmentDuration
    fragmentSamples = max(1, Int((Double(Self.sampleRate) * fragmentDuration).rounded()))
    guard let mainloop = pa_mainloop_new() else {
      throw PulseAudioError(function: "pa_mainloop_new", code: Int32(PA_ERR_INTERNAL.rawValue), device: device)
    }
    guard let context = pa_context_new(pa_mainloop_get_api(mainloop), applicationName) else {
      pa_mainloop_free(mainloop)
      throw PulseAudioError(function: "pa_context_new", code: Int32(PA_ERR_INTERNAL.rawValue), device: device)
    }
    self.mainloop = mainloop
    self.context = context
    // From here on, deinit frees what was made if a step below throws.
    guard pa_context_connect(context, nil, PA_CONTEXT_NOFLAGS, nil) >= 0 else {
      throw PulseAudioError(function: "pa_context_connect", code: pa_context_errno(context), device: device)
    }
    while pa_context_get_state(context) != PA_CONTEXT_READY {
      try check("pa_context_connect")
      try waitForServer("pa_context_connect")
    }
    var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(Self.sampleRate), channels: 1)
    guard let stream = pa_stream_new(context, "voice commands", &spec, nil) else {
      throw PulseAudioError(function: "pa_stream_new", code: pa_context_errno(context), device: device)
    }
    self.stream = stream
    var attributes = pa_buffer_attr(
      maxlength: UInt32(Self.sampleRate * 2 * 4),  // at most 4 s queued if we fall behind
      tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32(fragmentSamples * 2))
    let flags = pa_stream_flags_t(
      PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue)
    guard pa_stream_connect_record(stream, device, &attributes, flags) >= 0 else {
      throw PulseAudioError(function: "pa_stream_connect_record", code: pa_context_errno(context), device: device)
    }
    while pa_stream_get_state(stream) != PA_STREAM_READY {
      try check("pa_stream_connect_record")
      try waitForServer("pa_stream_connect_record")
    }
  }

  deinit {
    if let stream {
      pa_stream_disconnect(stream)
      pa_stream_unref(stream)
    }
    pa_context_disconnect(context)
    pa_context_unref(context)
    pa_mainloop_free(mainloop)
  }

  /// Throws when the connection or the stream failed (the server went away, the source is
  /// unknown or was removed).
  private func check(_ function: String) throws {
    let contextState = pa_context_get_state(context)
    let streamState = stream.map { pa_stream_get_state($0) }
    if contextState == PA_CONTEXT_FAILED || contextState == PA_CONTEXT_TERMINATED
      || streamState == PA_STREAM_FAILED || streamState == PA_STREAM_TERMINATED
    {
      var code = pa_context_errno(context)
      if code == 0 { code = Int32(PA_ERR_CONNECTIONTERMINATED.rawValue) }
      throw PulseAudioError(function: function, code: code, device: device)
    }
  }

  /// Runs one round of the main loop, waiting for the server's next message.
  private func waitForServer(_ function: String) throws {
    if pa_mainloop_iterate(mainloop, 1, nil) < 0 {
      throw PulseAudioError(function: function, code: Int32(PA_ERR_CONNECTIONTERMINATED.rawValue), device: device)
    }
  }

  /// Moves what the stream holds into `received`; a hole in the stream is heard as silence.
  private func takeReceived() {
    guard let stream else { return }
    while pa_stream_readable_size(stream) > 0 {
      var data: UnsafeRawPointer?
      var bytes = 0
      guard pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 else { return }
      if let data {
        received.append(contentsOf: UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int16.self), count: bytes / 2))
      } else {
        received.append(contentsOf: repeatElement(0, count: bytes / 2))
      }
      pa_stream_drop(stream)
    }
  }

  /// When the last read returned, and whether it had to wait for the audio (we are caught up).
  private var lastRead: (end: ContinuousClock.Instant, waited: Bool)?

  /// Blocks until `count` samples have been recorded and returns them.
  ///
  /// When the last read had to wait, this one sleeps until its audio is about due (5 ms
  /// early) before asking: the server's packets that came meanwhile are then taken in one
  /// round of the main loop, rather than each waking the reader. A read that finds its audio
  /// already there (we fell behind) is followed at once by the next one, until the queue is
  /// drained.
  ///
  /// The corresponding C functions are `pa_mainloop_iterate` and `pa_stream_peek`.
  public func read(count: Int) throws -> [Int16] {
    let clock = ContinuousClock()
    if let lastRead, lastRead.waited {
      let due = lastRead.end + .microseconds(Int64(count) * 1_000_000 / Int64(Self.sampleRate) - 5_000)
      if due > clock.now { sleep(seconds: (due - clock.now).seconds) }
    }
    let asked = clock.now
    // What came while we slept (a few rounds: each takes what one poll found).
    takeArrived(rounds: 8)
    while received.count < count {
      try check("pa_stream_peek")
      try waitForServer("pa_mainloop_iterate")
      takeReceived()
    }
    let samples = Array(received.prefix(count))
    received.removeFirst(count)
    let end = clock.now
    lastRead = (end, end - asked > .milliseconds(1))
    return samples
  }

  /// Everything recorded so far that `read` has not returned, without waiting for more: at a
  /// stop, what the microphone heard before it (the server may hold several fragments when
  /// the reader fell behind).
  ///
  /// The corresponding C functions are `pa_mainloop_iterate` (not blocking) and `pa_stream_peek`.
  public func readAvailable() throws -> [Int16] {
    takeArrived(rounds: 64)
    try check("pa_stream_peek")
    defer { received.removeAll() }
    return received
  }

  /// Runs up to `rounds` rounds of the main loop without waiting, while the server has sent
  /// something, then moves what the stream holds into `received`.
  private func takeArrived(rounds: Int) {
    var round = 0
    while round < rounds, pa_mainloop_iterate(mainloop, 0, nil) > 0 { round += 1 }
    takeReceived()
  }

  /// Seconds of audio between the microphone and what `read` returns.
  ///
  /// The corresponding C function is `pa_stream_get_latency`.
  public var latency: Double {
    guard let stream else { return 0 }
    var microseconds: pa_usec_t = 0
    var negative: Int32 = 0
    guard pa_stream_get_latency(stream, &microseconds, &negative) == 0 else { return 0 }
    return (negative != 0 ? -Double(microseconds) : Double(microseconds)) / 1_000_000 + Double(received.count) / Double(Self.sampleRate)
  }
}
