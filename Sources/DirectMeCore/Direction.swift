/// One of the four ways the ninja can move.
public enum Direction: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
  case up, down, left, right

  /// The move on screen, in steps: x grows to the right, y grows downwards.
  public var offset: (dx: Int, dy: Int) {
    switch self {
    case .up: (0, -1)
    case .down: (0, 1)
    case .left: (-1, 0)
    case .right: (1, 0)
    }
  }

  public static func < (lhs: Direction, rhs: Direction) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

extension Array where Element == Direction {
  /// Parses space-separated direction words ("up down left"); `nil` if one is unknown.
  public init?(parsing text: Substring) {
    var result: [Direction] = []
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
      guard let direction = Direction(rawValue: word.lowercased()) else { return nil }
      result.append(direction)
    }
    self = result
  }
}
