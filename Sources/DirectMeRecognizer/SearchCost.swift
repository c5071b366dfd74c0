import DirectMeSystem

/// What one search of the final pass cost: decodes, frames and seconds. With
/// `DIRECTME_SEARCH_TIMES=1` each final pass writes its searches' costs to stderr as one line
/// (`line(_:)`); `directme-bench live` reads those lines back (`parse(_:)`) and adds them up
/// (`totals(_:)`). A search whose audio was scored for it is named with a "+scoring" suffix.
public struct SearchCost: Hashable, Sendable {
  public var search: String
  public var decodes: Int
  public var frames: Int
  public var seconds: Double

  public init(search: String, decodes: Int, frames: Int, seconds: Double) {
    self.search = search
    self.decodes = decodes
    self.frames = frames
    self.seconds = seconds
  }

  /// The line's prefix.
  public static let prefix = "search times: "

  /// One final pass's costs as one line: "search times: commands+scoring 1x 98 frames 7.9 ms;
  /// garbage 1x 61 frames 3.0 ms".
  public static func line(_ costs: [SearchCost]) -> String {
    prefix
      + costs.map { "\($0.search) \($0.decodes)x \($0.frames) frames \(String(printf: "%.1f", $0.seconds * 1000)) ms" }
      .joined(separator: "; ")
  }

  /// The costs of a line `line(_:)` wrote; nil for any other line.
  public static func parse(_ line: Substring) -> [SearchCost]? {
    guard line.hasPrefix(prefix) else { return nil }
    var costs: [SearchCost] = []
    for part in line.dropFirst(prefix.count).split(separator: ";") {
      let fields = part.split(separator: " ")
      guard fields.count == 6, fields[1].hasSuffix("x"), fields[3] == "frames", fields[5] == "ms",
        let decodes = Int(fields[1].dropLast()), let frames = Int(fields[2]), let milliseconds = Double(fields[4])
      else { return nil }
      costs.append(SearchCost(search: String(fields[0]), decodes: decodes, frames: frames, seconds: milliseconds / 1000))
    }
    return costs
  }

  /// Each search's costs added up over `passes`, the costliest first.
  public static func totals(_ passes: [[SearchCost]]) -> [SearchCost] {
    var totals: [String: SearchCost] = [:]
    for cost in passes.joined() {
      totals[cost.search, default: SearchCost(search: cost.search, decodes: 0, frames: 0, seconds: 0)].add(cost)
    }
    return totals.values.sorted { ($0.seconds, $1.search) > ($1.seconds, $0.search) }
  }

  /// Adds another decode's (or pass's) cost of the same search.
  public mutating func add(_ other: SearchCost) {
    decodes += other.decodes
    frames += other.frames
    seconds += other.seconds
  }
}
