/// One scored recording: what was expected and what the pipeline gave.
public struct ScoredRecording: Hashable, Sendable, Codable {
  public var path: String
  public var expected: [Direction]
  public var recognized: [Direction]
  /// Transcripts of the utterances, for reports.
  public var transcripts: [String]
  /// Near-miss rescues taken ("drown" -> down), and how many of them were right: the
  /// direction taken is one the recording holds.
  public var rescues: Int
  public var rescuesRight: Int

  public init(
    path: String, expected: [Direction], recognized: [Direction], transcripts: [String] = [], rescues: Int = 0,
    rescuesRight: Int = 0
  ) {
    self.path = path
    self.expected = expected
    self.recognized = recognized
    self.transcripts = transcripts
    self.rescues = rescues
    self.rescuesRight = rescuesRight
  }

  /// The same, counting the rescues among `rescued` (the directions rescues took).
  public init(path: String, expected: [Direction], recognized: [Direction], transcripts: [String] = [], rescued: [Direction]) {
    self.init(
      path: path, expected: expected, recognized: recognized, transcripts: transcripts, rescues: rescued.count,
      rescuesRight: Self.rightRescues(rescued, expected: expected))
  }

  /// How many of the directions rescues took (`rescued`) are right: ones a recording that
  /// holds `expected` holds.
  public static func rightRescues(_ rescued: [Direction], expected: [Direction]) -> Int {
    rescued.count { expected.contains($0) }
  }

  public var isCommand: Bool { !expected.isEmpty }
  public var isExact: Bool { expected == recognized }
  public var editDistance: Int { Alignment(expected: expected, recognized: recognized).distance }
}

/// The edit-distance alignment of a recognized direction sequence against the expected one.
public struct Alignment: Hashable, Sendable {
  public enum Step: Hashable, Sendable {
    case match(Direction)
    case substitution(expected: Direction, recognized: Direction)
    case deletion(Direction)
    case insertion(Direction)
  }

  public let steps: [Step]

  public var distance: Int {
    steps.count { if case .match = $0 { false } else { true } }
  }

  public init(expected: [Direction], recognized: [Direction]) {
    let n = expected.count
    let m = recognized.count
    var cost = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in 0...n { cost[i][0] = i }
    for j in 0...m { cost[0][j] = j }
    if n > 0 && m > 0 {
      for i in 1...n {
        for j in 1...m {
          let substitution = cost[i - 1][j - 1] + (expected[i - 1] == recognized[j - 1] ? 0 : 1)
          cost[i][j] = min(substitution, cost[i - 1][j] + 1, cost[i][j - 1] + 1)
        }
      }
    }
    var steps: [Step] = []
    var i = n
    var j = m
    while i > 0 || j > 0 {
      if i > 0 && j > 0
        && cost[i][j] == cost[i - 1][j - 1] + (expected[i - 1] == recognized[j - 1] ? 0 : 1)
      {
        steps.append(
          expected[i - 1] == recognized[j - 1]
            ? .match(expected[i - 1])
            : .substitution(expected: expected[i - 1], recognized: recognized[j - 1]))
        i -= 1
        j -= 1
      } else if i > 0 && cost[i][j] == cost[i - 1][j] + 1 {
        steps.append(.deletion(expected[i - 1]))
        i -= 1
      } else {
        steps.append(.insertion(recognized[j - 1]))
        j -= 1
      }
    }
    self.steps = steps.reversed()
  }
}

/// Counts of expected against recognized directions; `nil` stands for "nothing" (a deleted
/// or an inserted instruction).
public struct ConfusionMatrix: Hashable, Sendable {
  public static let labels: [Direction?] = Direction.allCases + [nil]
  public private(set) var counts: [[Int]] = Array(
    repeating: Array(repeating: 0, count: Direction.allCases.count + 1), count: Direction.allCases.count + 1)

  public init() {}

  /// The counts by name, expected -> recognized -> count ("-": no command), for reports.
  public var table: [String: [String: Int]] {
    var table: [String: [String: Int]] = [:]
    for expected in Self.labels {
      var row: [String: Int] = [:]
      for recognized in Self.labels { row[recognized?.rawValue ?? "-"] = self[expected, recognized] }
      table[expected?.rawValue ?? "-"] = row
    }
    return table
  }

  static func index(_ direction: Direction?) -> Int {
    direction.map { Direction.allCases.firstIndex(of: $0)! } ?? Direction.allCases.count
  }

  public subscript(expected: Direction?, recognized: Direction?) -> Int {
    counts[Self.index(expected)][Self.index(recognized)]
  }

  public mutating func add(_ alignment: Alignment) {
    for step in alignment.steps {
      switch step {
      case .match(let d): counts[Self.index(d)][Self.index(d)] += 1
      case .substitution(let e, let r): counts[Self.index(e)][Self.index(r)] += 1
      case .deletion(let e): counts[Self.index(e)][Self.index(nil)] += 1
      case .insertion(let r): counts[Self.index(nil)][Self.index(r)] += 1
      }
    }
  }
}

/// How many recordings of one command word there were and how many came out right.
public struct WordTally: Hashable, Sendable, Codable {
  public var items = 0
  public var right = 0

  public init(items: Int = 0, right: Int = 0) {
    self.items = items
    self.right = right
  }

  public mutating func add(right isRight: Bool) {
    items += 1
    if isRight { right += 1 }
  }

  /// The share right (nil without items).
  public var accuracy: Double? { items > 0 ? Double(right) / Double(items) : nil }
}

/// Command accuracy over a set of labelled recordings.
public struct ScoreReport: Hashable, Sendable {
  public var recordings: [ScoredRecording]

  public init(recordings: [ScoredRecording]) {
    self.recordings = recordings
  }

  public var commandRecordings: [ScoredRecording] { recordings.filter(\.isCommand) }
  public var otherRecordings: [ScoredRecording] { recordings.filter { !$0.isCommand } }

  /// Recordings with a command whose recognized sequence is exactly the expected one.
  public var utteranceAccuracy: Double? {
    let commands = commandRecordings
    guard !commands.isEmpty else { return nil }
    return Double(commands.count(where: \.isExact)) / Double(commands.count)
  }

  /// Edit distance over the expected instructions, summed over the recordings with a command.
  public var instructionErrorRate: Double? {
    let commands = commandRecordings
    let expected = commands.reduce(0) { $0 + $1.expected.count }
    guard expected > 0 else { return nil }
    return Double(commands.reduce(0) { $0 + $1.editDistance }) / Double(expected)
  }

  /// Recordings without a command that moved the ninja anyway.
  public var falseAlarmRate: Double? {
    let others = otherRecordings
    guard !others.isEmpty else { return nil }
    return Double(others.count { !$0.recognized.isEmpty }) / Double(others.count)
  }

  /// Recordings whose outcome was exactly right (the sequence, or nothing for a non-command).
  public var overallAccuracy: Double? {
    guard !recordings.isEmpty else { return nil }
    return Double(recordings.count(where: \.isExact)) / Double(recordings.count)
  }

  public var rescues: Int { recordings.reduce(0) { $0 + $1.rescues } }
  public var rescuesRight: Int { recordings.reduce(0) { $0 + $1.rescuesRight } }
  /// Rescues that took a direction the recording does not hold.
  public var rescuesWrong: Int { rescues - rescuesRight }

  /// Recordings of one command alone, by its direction: how many there are and how many
  /// came out exactly right (that direction once, nothing else). A word the detector hears
  /// worse than the others shows here, where the pooled accuracy hides it.
  public var singleCommands: [Direction: WordTally] {
    var tallies: [Direction: WordTally] = [:]
    for recording in recordings where recording.expected.count == 1 {
      tallies[recording.expected[0], default: WordTally()].add(right: recording.isExact)
    }
    return tallies
  }

  /// `singleCommands` by the direction's name, as reports write them.
  public var singleCommandsByName: [String: WordTally] {
    Dictionary(uniqueKeysWithValues: singleCommands.map { ($0.key.rawValue, $0.value) })
  }

  /// `singleCommands` in a line (see `singleCommandsLine(_:)`).
  public var singleCommandsLine: String? { Self.singleCommandsLine(singleCommandsByName) }

  /// Tallies by direction name in a line, the directions in their order ("up 135/164
  /// (82.3%), down ..."); nil without any.
  public static func singleCommandsLine(_ tallies: [String: WordTally]) -> String? {
    let parts = Direction.allCases.compactMap { direction in
      tallies[direction.rawValue].flatMap { tally in
        tally.accuracy.map { "\(direction.rawValue) \(tally.right)/\(tally.items) (\(($0 * 100).formatted(digits: 1))%)" }
      }
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  public var confusion: ConfusionMatrix {
    var matrix = ConfusionMatrix()
    for recording in recordings {
      matrix.add(Alignment(expected: recording.expected, recognized: recording.recognized))
    }
    return matrix
  }

  /// The recordings furthest from right, worst first (ties in the order given).
  public func worst(_ count: Int) -> [ScoredRecording] {
    recordings.enumerated()
      .filter { !$0.element.isExact }
      .sorted { ($0.element.editDistance, -$0.offset) > ($1.element.editDistance, -$1.offset) }
      .prefix(count)
      .map(\.element)
  }
}
