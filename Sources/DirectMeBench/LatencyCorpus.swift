import DirectMeCore
import Foundation

/// A recording of spoken commands whose words' times are known, for latency measurements.
public struct TimedRecording: Sendable {
  public struct Word: Sendable, Hashable {
    public var direction: Direction
    /// Stream time (s) of the word's first and last sound.
    public var start: Double
    public var end: Double
  }

  public var id: String
  public var samples: [Int16]
  public var words: [Word]
  /// How many commands each group (spoken without a long pause) holds.
  public var expected: [Direction] { words.map(\.direction) }
}

extension CorpusBuilder {
  /// The voices the latency corpus speaks with: flite's four (espeak-ng is recognized too
  /// poorly to time anything).
  public static let latencyVoices = ["slt", "rms", "awb", "kal16"].map { Voice(engine: "flite", name: $0) }

  /// `count` recordings of 2-4 commands ("down", "move left", "go up now"), the words joined
  /// with `pause` seconds of room tone, with each command word's time known.
  public func timedSequences(count: Int, pause: ClosedRange<Double>, seed: UInt64 = 11) throws -> [TimedRecording] {
    var random = Signal.Random(seed: seed)
    let phrasings = ["%@", "%@", "%@", "move %@", "go %@"]
    var recordings: [TimedRecording] = []
    for index in 0..<count {
      let voice = Self.latencyVoices[index % Self.latencyVoices.count]
      let length = Int.random(in: 2...4, using: &random)
      var samples = Signal.roomTone(0.5, random: &random)
      var words: [TimedRecording.Word] = []
      for part in 0..<length {
        if part > 0 { samples += Signal.roomTone(Double.random(in: pause, using: &random), random: &random) }
        let direction = Direction.allCases[Int.random(in: 0..<4, using: &random)]
        let phrase = String(format: phrasings[Int.random(in: 0..<phrasings.count, using: &random)], direction.rawValue)
        let spoken = Signal.trimmed(try speak(phrase, voice: voice), margin: 0)
        // The direction is the phrase's last word: the phrase ends when it does.
        let (first, last) = Signal.speechSpan(spoken)
        let offset = Double(samples.count) / Double(Signal.rate)
        samples += spoken.map { Int16(clamping: Int($0) + Int.random(in: -3...3, using: &random)) }
        words.append(.init(direction: direction, start: offset + first, end: offset + last))
      }
      samples += Signal.roomTone(1.0, random: &random)
      recordings.append(TimedRecording(id: "sequence \(index + 1) (\(voice.label))", samples: samples, words: words))
    }
    return recordings
  }
}

extension TimedRecording {
  /// `count` recordings of 2-4 real people's command words: clips (one direction each) cut to
  /// the word and laid over room tone with `pause` seconds between them, each word's time known.
  public static func sequences(
    of clips: [(id: String, direction: Direction, samples: [Int16])], count: Int, pause: ClosedRange<Double>, seed: UInt64 = 13
  ) -> [TimedRecording] {
    guard !clips.isEmpty else { return [] }
    var random = Signal.Random(seed: seed)
    return (0..<count).map { index in
      let length = Int.random(in: 2...4, using: &random)
      var samples = Signal.roomTone(0.5, random: &random)
      var words: [Word] = []
      var ids: [String] = []
      for part in 0..<length {
        if part > 0 { samples += Signal.roomTone(Double.random(in: pause, using: &random), random: &random) }
        let clip = clips[Int.random(in: 0..<clips.count, using: &random)]
        // The word itself, 50 ms either side: a click or a breath elsewhere in the clip would
        // otherwise be taken for the word's end (and for speech going on after it).
        let (first, last) = Signal.wordFrames(clip.samples)
        let start = max(0, first * 160 - 800)
        let end = min(clip.samples.count, (last + 1) * 160 + 800)
        // Faded in and out over the room tone, so that no quieter-than-the-room gap is made.
        let spoken = Signal.faded(Array(clip.samples[start..<end]), seconds: 0.01)
        let offset = Double(samples.count) / Double(Signal.rate)
        samples += zip(spoken, Signal.roomTone(Double(spoken.count) / Double(Signal.rate), random: &random)).map {
          Int16(clamping: Int($0) + Int($1))
        }
        words.append(
          Word(
            direction: clip.direction, start: offset + Double(first * 160 - start) / Double(Signal.rate),
            end: offset + Double((last + 1) * 160 - start) / Double(Signal.rate)))
        ids.append(clip.id)
      }
      samples += Signal.roomTone(1.0, random: &random)
      return TimedRecording(id: "sequence \(index + 1) (\(ids.joined(separator: "+")))", samples: samples, words: words)
    }
  }
}

extension TimedRecording {
  /// The room noises commands are said over in `overBackground`, each `seconds` long, two
  /// recordings of each: the bench's seeded tap, bike, kitchen and pink noise, as `directme-bench
  /// noises --seconds 30` writes them.
  public static func backgrounds(seconds: Double = 30) -> [(name: String, samples: [Int16])] {
    let rooms: [Signal.Room] = [.tap, .bike, .kitchen, .pink]
    return rooms.flatMap { room in
      (0..<2).map { variant in ("\(room.rawValue)-\(variant + 1)", room.recording(variant, seconds: seconds)) }
    }
  }

  /// Commands said one at a time over a background that goes on (a running tap, a kitchen's
  /// clatter), where a pause under the endpointer's floor may never come: `count` clips' words
  /// (drawn with `random`), `gap` seconds apart from `lead` seconds on, over `background`. Each
  /// word's speech part is at -20 dBFS and the background `snr` dB under it, so nothing clips;
  /// each word ends where it falls `snr` + 5 dB under its loudest frame (what stands over the
  /// background), or 25 dB, whichever is less.
  public static func overBackground(
    of clips: [(id: String, direction: Direction, samples: [Int16])], background: (name: String, samples: [Int16]), snr: Double,
    count: Int = 6, gap: Double = 4, lead: Double = 8, random: inout Signal.Random
  ) -> TimedRecording {
    let speechPower = Double(32768 * 32768) * pow(10.0, -20.0 / 10)
    let backgroundGain = Signal.gain(background.samples, toLevel: -20 - snr)
    var mixed = background.samples.map { Double($0) * backgroundGain }
    var words: [Word] = []
    var ids: [String] = []
    for part in 0..<count where !clips.isEmpty {
      let clip = clips[Int.random(in: 0..<clips.count, using: &random)]
      let at = Int((lead + gap * Double(part)) * Double(Signal.rate))
      guard at + clip.samples.count <= mixed.count else { break }
      let power = Signal.speechPower(clip.samples)
      guard power > 0 else { continue }
      let gain = (speechPower / power).squareRoot()
      for (index, sample) in clip.samples.enumerated() { mixed[at + index] += Double(sample) * gain }
      let (first, last) = Signal.wordFrames(clip.samples, range: min(25, snr + 5))
      words.append(
        Word(
          direction: clip.direction, start: Double(at + first * 160) / Double(Signal.rate),
          end: Double(at + (last + 1) * 160) / Double(Signal.rate)))
      ids.append(clip.id)
    }
    return TimedRecording(
      id: "\(background.name) (\(ids.joined(separator: "+")))", samples: mixed.map { Int16(clamping: Int($0.rounded())) }, words: words)
  }
}

extension Signal.Room {
  /// Recording `variant` (from 0) of this noise made from `seed`, `seconds` long: the one
  /// `directme-bench noises --seed SEED` writes as `<noise>-<variant + 1>.wav`.
  public func recording(_ variant: Int, seconds: Double, seed: UInt64 = 1) -> [Int16] {
    make(seconds: seconds, seed: seed &* 1000 &+ UInt64(variant * 10 + Signal.Room.allCases.firstIndex(of: self)!))
  }
}

extension Signal {
  /// Quiet white noise, as of a room (-70 dBFS).
  public static func roomTone(_ seconds: Double, random: inout Random) -> [Int16] {
    whiteNoise(seconds, level: -70, random: &random)
  }

  /// The frames (first, last) of the word in a one-word clip: the run of frames within `range`
  /// dB of the loudest that holds the loudest, gaps of up to 150 ms bridged (a stop's closure),
  /// so that a click or a breath apart from the word is not part of it.
  public static func wordFrames(_ samples: [Int16], range: Double = 25) -> (first: Int, last: Int) {
    let energies = frameEnergies(samples)
    guard let peak = energies.max(), let loudest = energies.firstIndex(of: peak) else { return (0, 0) }
    let loud = energies.map { $0 >= peak - range }
    var first = loudest
    var last = loudest
    var gap = 0
    var index = loudest
    while index + 1 < loud.count {
      index += 1
      if loud[index] { last = index; gap = 0 } else { gap += 1; if gap > 15 { break } }
    }
    gap = 0
    index = loudest
    while index > 0 {
      index -= 1
      if loud[index] { first = index; gap = 0 } else { gap += 1; if gap > 15 { break } }
    }
    return (first, last)
  }

  /// `samples` faded in and out linearly over `seconds` at each end.
  public static func faded(_ samples: [Int16], seconds: Double) -> [Int16] {
    var result = samples
    let length = min(samples.count / 2, Int(seconds * Double(rate)))
    guard length > 0 else { return result }
    for index in 0..<length {
      let gain = Double(index) / Double(length)
      result[index] = Int16(Double(result[index]) * gain)
      result[result.count - 1 - index] = Int16(Double(result[result.count - 1 - index]) * gain)
    }
    return result
  }

  /// Seconds from the start of `samples` to its first and past its last frame within 35 dB
  /// of the loudest: where speech begins and ends.
  public static func speechSpan(_ samples: [Int16]) -> (start: Double, end: Double) {
    let frames = speechFrames(samples, range: 35)
    guard let first = frames.first, let last = frames.last else { return (0, Double(samples.count) / Double(rate)) }
    return (Double(first) * 0.01, min(Double(samples.count), Double(last + 1) * 160) / Double(rate))
  }
}

/// Latency figures: for each command word that was acted on, how long after its end.
public struct LatencyMeasurement: Sendable {
  public var latencies: [Double] = []
  public var expectedWords = 0
  public var sequences = 0
  public var exactSequences = 0
  public var extraInstructions = 0

  public init() {}

  /// Matches the instructions emitted for `recording` to its words: an instruction counts
  /// for a word when its direction is the word's and its time overlaps the word's.
  public mutating func add(_ recording: TimedRecording, utterances: [Utterance]) {
    sequences += 1
    expectedWords += recording.words.count
    let emitted = utterances.flatMap { utterance in
      utterance.interpretation.instructions.map { (instruction: $0, at: utterance.emittedAt) }
    }
    if emitted.map(\.instruction.direction) == recording.expected { exactSequences += 1 }
    var used = Set<Int>()
    for word in recording.words {
      guard
        let index = emitted.indices.first(where: { index in
          !used.contains(index) && emitted[index].instruction.direction == word.direction
            && emitted[index].instruction.end > word.start - 0.05 && emitted[index].instruction.start < word.end + 0.05
        })
      else { continue }
      used.insert(index)
      latencies.append(emitted[index].at - word.end)
    }
    extraInstructions += emitted.count - used.count
  }

  public static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let position = fraction * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(sorted.count - 1, lower + 1)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
  }
}
