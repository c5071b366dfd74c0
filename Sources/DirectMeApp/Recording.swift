import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Takes utterances from the microphone one at a time, for `directme record` and
/// `directme enroll`: the capture runs on a thread of its own, the input level goes to the
/// window's meter, and each take ends at the end of speech.
public final class UtteranceRecording: @unchecked Sendable {
  private let capture: CaptureThread
  private let channel: StageChannel
  private var meter = LevelMeter()

  public init(source: AudioSource, first: AudioInput?, channel: StageChannel, output: Output) {
    self.channel = channel
    capture = CaptureThread(source: source, first: first, channel: channel, output: output)
    capture.start()
  }

  /// What ended the capture for good, if anything did.
  public var failure: Error? { capture.fatal.value }

  /// Forgets the audio queued so far (heard while the user was reading a question).
  public func discardPending() {
    while capture.chunks.pop(timeout: 0) != nil {}
  }

  /// The next utterance, from just before speech starts to just after it ends; `nil` when
  /// no speech started within `timeout` seconds, the run was stopped, or the microphone failed.
  public func take(timeout: Double, settings: EndpointerSettings = .init()) -> [Int16]? {
    var taker = UtteranceTaker(settings: settings)
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !channel.shouldStop {
      guard let event = capture.chunks.pop(timeout: 0.1) else {
        if capture.chunks.isClosed { return nil }
        if !taker.isInSpeech && Date() > deadline { return nil }
        continue
      }
      switch event {
      case .lost:
        taker = UtteranceTaker(settings: settings)  // an interrupted take is no take
      case .chunk(let samples, _):
        if case .some(let level) = meter.add(samples) { channel.post(.level(level)) }
        if let utterance = taker.feed(samples) { return utterance }
        if !taker.isInSpeech && Date() > deadline { return nil }
      }
    }
    return taker.finish()
  }
}

/// `directme record OUT.wav`: one utterance from the microphone, saved as 16 kHz mono WAV.
public struct RecordJob: @unchecked Sendable {
  public var source: AudioSource
  public var first: AudioInput?
  public var path: String
  /// Seconds to wait for speech to start.
  public var timeout: Double
  public var output: Output

  public init(source: AudioSource, first: AudioInput?, path: String, timeout: Double, output: Output = .standard) {
    self.source = source
    self.first = first
    self.path = path
    self.timeout = timeout
    self.output = output
  }

  /// Why the recording could not be written to `path`, before anything is recorded.
  public static func problem(writing path: String, replacing: Bool) -> String? {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if !FileManager.default.isWritableFile(atPath: folder) { return "cannot write into \(folder)" }
    if FileManager.default.fileExists(atPath: path) && !replacing { return "\(path) exists (pass --force to replace it)" }
    return nil
  }

  /// The producer for `runStage`.
  public var producer: StageProducer {
    let job = UncheckedBox(self)
    return { channel in job.value.run(channel) }
  }

  func run(_ channel: StageChannel) {
    let recording = UtteranceRecording(source: source, first: first, channel: channel, output: output)
    channel.post(.prompt("Speak now: recording until you stop"))
    output.line("recording: speak now (it stops when you stop, Esc or q to cancel)")
    guard let samples = recording.take(timeout: timeout) else {
      let reason = recording.failure.map { "microphone failed: \($0)" } ?? "no speech heard within \(String(printf: "%g", timeout)) s"
      // One line, in the window and on stderr.
      channel.post(.status(channel.isClosed ? "cancelled: nothing recorded" : "nothing recorded in \(path): \(reason)"))
      channel.post(.finished(failed: true))
      return
    }
    do {
      try AudioFileWriter.write(samples: samples, to: path)
      let seconds = Double(samples.count) / 16_000
      channel.post(.prompt("Recorded \(seconds.formatted(digits: 2)) s"))
      output.line("recorded \(path) (\(seconds.formatted(digits: 2)) s)")
      if let problem = TakeCheck.problem(samples) { output.warning("\(programName): warning: \(path): \(problem)") }
      channel.post(.finished(failed: false))
    } catch {
      output.warning("\(programName): error: \(error)")
      channel.post(.finished(failed: true))
    }
  }
}

/// `directme enroll DIR`: prompts the user to say each command several times, a few carrier
/// phrases and a few other phrases; records each take with the same end-of-speech detection,
/// redoes takes that are too short, too quiet or clipped (and, at a terminal, any the user
/// wants again), and writes the WAVs and `labels.tsv` (score format, with the words said and
/// the speaker) as it goes, so an interrupted enrollment keeps what was recorded.
public struct EnrollJob: @unchecked Sendable {
  public var source: AudioSource
  public var first: AudioInput?
  public var folder: String
  public var plan: EnrollmentPlan
  public var speaker: String
  /// Seconds to wait for each take to start.
  public var timeout: Double
  /// Asks the user a question and gives the answer (`nil`: nobody to ask, keep every take
  /// that passes the checks).
  public var ask: ((String) -> String?)?
  public var output: Output

  public init(
    source: AudioSource, first: AudioInput?, folder: String, plan: EnrollmentPlan, speaker: String = "me",
    timeout: Double = 30, ask: ((String) -> String?)? = nil, output: Output = .standard
  ) {
    self.source = source
    self.first = first
    self.folder = folder
    self.plan = plan
    self.speaker = speaker
    self.timeout = timeout
    self.ask = ask
    self.output = output
  }

  /// Asks on the terminal when there is one (stdin and stderr), else nobody is asked.
  public static var terminalQuestion: ((String) -> String?)? {
    guard isatty(STDIN_FILENO) != 0 else { return nil }
    return { question in
      StandardError.write(question)
      return readLine()
    }
  }

  /// The producer for `runStage`.
  public var producer: StageProducer {
    let job = UncheckedBox(self)
    return { channel in job.value.run(channel) }
  }

  func run(_ channel: StageChannel) {
    let recording = UtteranceRecording(source: source, first: first, channel: channel, output: output)
    let folderURL = URL(fileURLWithPath: folder)
    var labels: [LabeledRecording] = []
    var failed = false
    let count = plan.prompts.count
    prompts: for (index, prompt) in plan.prompts.enumerated() {
      var attempt = 0
      while true {
        attempt += 1
        let text = "Say: \u{201C}\(prompt.text)\u{201D}  (\(index + 1) of \(count))"
        channel.post(.prompt(text))
        output.line("\(index + 1)/\(count) say: \(prompt.text)")
        guard let samples = recording.take(timeout: timeout) else {
          if channel.shouldStop { break prompts }
          if let failure = recording.failure {
            output.warning("\(programName): error: microphone failed: \(failure)")
            failed = true
            break prompts
          }
          output.warning("\(programName): no speech heard within \(String(printf: "%g", timeout)) s; skipping \"\(prompt.text)\"")
          continue prompts
        }
        if let problem = TakeCheck.problem(samples), attempt < 3 {
          channel.post(.status(problem))
          output.warning("\(programName): take \(attempt) of \"\(prompt.text)\": \(problem)")
          continue
        }
        channel.post(.status(nil))
        if let ask, let answer = ask("took \((Double(samples.count) / 16_000).formatted(digits: 2)) s; Enter keeps it, r records it again: "),
          answer.trimmed().lowercased().hasPrefix("r")
        {
          recording.discardPending()
          continue
        }
        recording.discardPending()
        let name = prompt.name + ".wav"
        do {
          try AudioFileWriter.write(samples: samples, to: folderURL.appendingPathComponent(name).path)
          labels.append(
            LabeledRecording(
              path: name, expected: prompt.expected, line: labels.count + 1,
              transcript: prompt.text.replacing(".", with: "").lowercased(), speaker: speaker))
          try LabelsFormat.format(labels).write(
            to: folderURL.appendingPathComponent(LabelsFormat.fileName), atomically: true, encoding: .utf8)
        } catch {
          output.warning("\(programName): error: \(error)")
          failed = true
          break prompts
        }
        break
      }
    }
    channel.post(.prompt(nil))
    output.line(
      "enrolled \(labels.count) of \(count) recordings in \(folder)/\(LabelsFormat.fileName)"
        + (labels.isEmpty ? "" : "; next: directme personalize \(folder)"))
    channel.post(.finished(failed: failed || labels.isEmpty))
  }
}
