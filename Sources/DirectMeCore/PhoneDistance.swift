/// How far apart two pronunciations are, in phones.
public enum PhoneDistance {
  /// The edit distance (insertions, deletions, substitutions) between two phone sequences.
  public static func between(_ a: [String], _ b: [String]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// Whether `word` is a near-miss of `command`: one phone apart, and sharing at least two
  /// of its phones ("drown" D R AW N for "down" D AW N; "cup" K AH P for "up" AH P; not "a").
  public static func isNearMiss(_ word: [String], of command: [String]) -> Bool {
    min(word.count, command.count) >= 2 && between(word, command) == 1
  }
}
