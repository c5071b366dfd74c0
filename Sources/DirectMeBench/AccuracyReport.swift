import DirectMeCore
import Foundation

/// The accuracy benchmark's findings: a row per condition for DirectMe and the baseline,
/// the confusion matrix, and the miss / false-alarm curve with the chosen operating point.
public struct AccuracyReport: Codable, Sendable {
  /// One condition: how each system did on it.
  public struct Row: Codable, Sendable {
    public var condition: String
    public var items: Int
    /// By system name, in `AccuracyReport.systems` order.
    public var scores: [String: ConditionScore]
  }

  public static let directMe = "DirectMe"
  public static let previous = "previous default"
  public static let baseline = "baseline"

  public var date: String
  public var settings: String
  /// The systems compared, DirectMe first.
  public var systems: [String]
  public var rows: [Row]
  /// confusion[expected][recognized] for DirectMe over every item ("-" is nothing).
  public var confusion: [String: [String: Int]]
  public var curve: [Scoring.CurvePoint]
  public var chosenThreshold: Double?
  public var seconds: Double

  public init(
    outcomes: [ItemOutcome], interpreter: Interpreter, settings: String,
    curveThresholds: [Double], seconds: Double
  ) {
    date = ISO8601DateFormatter().string(from: Date())
    self.settings = settings
    self.seconds = seconds
    var systems = [Self.directMe]
    if outcomes.contains(where: { $0.previous != nil }) { systems.append(Self.previous) }
    if outcomes.contains(where: { $0.baseline != nil }) { systems.append(Self.baseline) }
    self.systems = systems
    rows = Scoring.conditions(outcomes).map { condition in
      let subset = outcomes.filter { $0.item.condition == condition }
      var scores = [Self.directMe: ConditionScore(condition: condition, report: Scoring.report(subset, interpreter: interpreter, emitted: true))]
      let previous = Scoring.otherReport(subset, \.previous)
      if !previous.recordings.isEmpty { scores[Self.previous] = ConditionScore(condition: condition, report: previous) }
      let baseline = Scoring.otherReport(subset, \.baseline)
      if !baseline.recordings.isEmpty { scores[Self.baseline] = ConditionScore(condition: condition, report: baseline) }
      return Row(condition: condition, items: subset.count, scores: scores)
    }
    let matrix = Scoring.report(outcomes, interpreter: interpreter, emitted: true).confusion
    self.confusion = matrix.table
    let chosen = interpreter.settings.threshold
    chosenThreshold = chosen
    curve = Scoring.curve(outcomes, interpreter: interpreter, thresholds: Set(curveThresholds + [chosen]).sorted())
  }

  // MARK: Text

  public func text() -> String {
    func percent(_ value: Double?) -> String {
      value.map { String(format: "%5.1f%%", $0 * 100) } ?? "    - "
    }
    let width = max(28, rows.map(\.condition.count).max() ?? 0)
    var lines: [String] = []
    lines.append("settings: \(settings)")
    lines.append("")
    var header = "condition".padding(toLength: width, withPad: " ", startingAt: 0) + "  items"
    for system in systems { header += "  | " + system.padding(toLength: 16, withPad: " ", startingAt: 0) + " acc     IER    FA  " }
    lines.append(header)
    for row in rows {
      var line = row.condition.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: "  %5d", row.items)
      for system in systems {
        let score = row.scores[system]
        line += "  | " + String(repeating: " ", count: 16)
          + " \(percent(score?.utteranceAccuracy)) \(percent(score?.instructionErrorRate)) \(percent(score?.falseAlarmRate))"
      }
      lines.append(line)
    }
    lines.append("")
    lines.append("acc: exact direction sequence over items with a command; IER: instruction error rate;")
    lines.append("FA: items without a command that moved the ninja. previous default: DirectMe v1 (stock model,")
    lines.append("<others> grammar, threshold 40); baseline: pocketsphinx_continuous -jsgf with up | down | left | right.")
    lines.append("")
    lines += singleCommandLines()
    lines.append("")
    lines += rescueLines()
    lines.append("")
    lines.append("DirectMe's misses against false alarms as the confidence threshold moves (every condition):")
    for point in curve {
      let mark = point.threshold == chosenThreshold ? "  <- operating point" : ""
      lines.append(
        String(format: "  threshold %4.2f: misses %5.1f%%, false alarms %5.1f%%", point.threshold, point.missRate * 100, point.falseAlarmRate * 100)
          + mark)
    }
    lines.append(String(format: "\n%.0f s", seconds))
    return lines.joined(separator: "\n")
  }

  /// DirectMe's items of one command alone, right by direction, for each condition with at
  /// least `singleCommandsShown` of them: a word heard worse than the others ("up" in babble)
  /// shows here, where a condition's accuracy pools the four.
  func singleCommandLines() -> [String] {
    let width = max(28, rows.map(\.condition.count).max() ?? 0)
    var lines = ["One command alone, right, by direction (DirectMe; conditions with \(Self.singleCommandsShown) such items or more):"]
    for row in rows {
      guard let score = row.scores[Self.directMe], let line = score.singleCommandsLine,
        score.singleCommands.values.reduce(0, { $0 + $1.items }) >= Self.singleCommandsShown
      else { continue }
      lines.append("  " + row.condition.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + line)
    }
    return lines
  }

  static let singleCommandsShown = 40

  /// DirectMe's near-miss rescues: over every condition, and for each condition where one
  /// was taken, how many took a direction the item holds (right) and how many did not.
  func rescueLines() -> [String] {
    let scores = rows.compactMap { $0.scores[Self.directMe] }
    let taken = scores.reduce(0) { $0 + $1.rescues }
    let right = scores.reduce(0) { $0 + $1.rescuesRight }
    let wrong = scores.reduce(0) { $0 + $1.rescuesWrong }
    var lines = ["Near-miss rescues (a command taken from a word the other words' reading heard, \"drown\" -> down):"]
    lines.append("  every condition: \(taken) taken, \(right) right, \(wrong) wrong")
    let width = max(28, rows.map(\.condition.count).max() ?? 0)
    for score in scores where score.rescues > 0 {
      lines.append(
        "  " + score.condition.padding(toLength: width, withPad: " ", startingAt: 0)
          + "  \(score.rescues) taken, \(score.rescuesRight) right, \(score.rescuesWrong) wrong")
    }
    return lines
  }

  // MARK: JSON

  public func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  // MARK: HTML

  public func html() -> String {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    }
    func percent(_ value: Double?) -> String { value.map { String(format: "%.1f%%", $0 * 100) } ?? "–" }

    var body = "<h1>DirectMe accuracy</h1>\n<p>\(escape(date)) — \(escape(settings))</p>\n"
    body += "<h2>Per condition</h2>\n<table><tr><th>condition</th><th>items</th>"
    for system in systems { body += "<th>\(escape(system)) accuracy</th><th>IER</th><th>false alarms</th>" }
    body += "</tr>\n"
    for row in rows {
      body += "<tr><td>\(escape(row.condition))</td><td>\(row.items)</td>"
      for system in systems {
        let score = row.scores[system]
        body += "<td>\(percent(score?.utteranceAccuracy))</td><td>\(percent(score?.instructionErrorRate))</td><td>\(percent(score?.falseAlarmRate))</td>"
      }
      body += "</tr>\n"
    }
    body += "</table>\n"
    let accuracy: [(String, [Double?])] = rows.filter { $0.scores[Self.directMe]?.utteranceAccuracy != nil }.map { row in
      (row.condition, systems.map { system in row.scores[system]?.utteranceAccuracy })
    }
    let falseAlarms: [(String, [Double?])] = rows.filter { $0.scores[Self.directMe]?.falseAlarmRate != nil }.map { row in
      (row.condition, systems.map { system in row.scores[system]?.falseAlarmRate })
    }
    body += "<h2>Accuracy on commands (higher is better)</h2>\n" + barChart(accuracy)
    body += "<h2>False alarms on everything else (lower is better)</h2>\n" + barChart(falseAlarms)
    body += "<h2>Misses against false alarms</h2>\n<p>DirectMe, as the confidence threshold moves, over every condition. The ring is the operating point.</p>\n"
    body += curveChart()
    body += "<h2>Confusion (DirectMe, every item)</h2>\n<table><tr><th>expected \\ recognized</th>"
    let labels = ConfusionMatrix.labels.map { $0?.rawValue ?? "-" }
    body += labels.map { "<th>\($0)</th>" }.joined() + "</tr>\n"
    for expected in labels {
      body += "<tr><th>\(expected)</th>" + labels.map { "<td>\(confusion[expected]?[$0] ?? 0)</td>" }.joined() + "</tr>\n"
    }
    body += "</table>\n"
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><title>DirectMe accuracy</title>
      <style>
      body { font-family: sans-serif; margin: 2em; color: #222; }
      table { border-collapse: collapse; margin: 1em 0; }
      td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
      td:first-child, th:first-child { text-align: left; }
      </style></head><body>
      \(body)
      </body></html>
      """
  }

  /// Horizontal bars per condition, one per system (DirectMe darkest).
  private func barChart(_ values: [(String, [Double?])]) -> String {
    let colors = ["#2c3e50", "#e67e22", "#bdc3c7"]
    let barHeight = 10.0
    let rowHeight = Double(systems.count) * (barHeight + 1) + 8
    let labelWidth = 260.0
    let barWidth = 400.0
    let height = Double(values.count) * rowHeight + 30
    var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(labelWidth + barWidth + 80))\" height=\"\(Int(height))\" font-size=\"12\">\n"
    for (index, value) in values.enumerated() {
      let y = Double(index) * rowHeight + 5
      svg += "<text x=\"0\" y=\"\(y + 14)\">\(value.0)</text>\n"
      for (system, score) in value.1.enumerated() {
        guard let score else { continue }
        let top = y + Double(system) * (barHeight + 1)
        svg += "<rect x=\"\(labelWidth)\" y=\"\(top)\" width=\"\(score * barWidth)\" height=\"\(barHeight)\" fill=\"\(colors[system % colors.count])\"/>\n"
        svg += "<text x=\"\(labelWidth + score * barWidth + 4)\" y=\"\(top + 9)\">\(String(format: "%.1f%%", score * 100))</text>\n"
      }
    }
    let legend = systems.enumerated().map { "\(["dark", "orange", "light"][$0.offset % 3]): \($0.element)" }.joined(separator: ", ")
    svg += "<text x=\"\(labelWidth)\" y=\"\(height - 5)\">\(legend)</text>\n"
    return svg + "</svg>\n"
  }

  private func curveChart() -> String {
    let size = 360.0
    let margin = 40.0
    func x(_ value: Double) -> Double { margin + value * size }
    func y(_ value: Double) -> Double { margin + (1 - value) * size }
    var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size + 2 * margin))\" height=\"\(Int(size + 2 * margin))\" font-size=\"12\">\n"
    svg += "<rect x=\"\(margin)\" y=\"\(margin)\" width=\"\(size)\" height=\"\(size)\" fill=\"none\" stroke=\"#999\"/>\n"
    for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
      svg += "<text x=\"\(x(tick) - 8)\" y=\"\(margin + size + 15)\">\(Int(tick * 100))%</text>\n"
      svg += "<text x=\"2\" y=\"\(y(tick) + 4)\">\(Int(tick * 100))%</text>\n"
    }
    svg += "<text x=\"\(margin + size / 2 - 40)\" y=\"\(margin + size + 32)\">false alarms</text>\n"
    svg += "<text x=\"\(margin)\" y=\"\(margin - 10)\">misses</text>\n"
    let points = curve.map { "\(x($0.falseAlarmRate)),\(y($0.missRate))" }.joined(separator: " ")
    svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#2c3e50\" stroke-width=\"2\"/>\n"
    for point in curve {
      let chosen = point.threshold == chosenThreshold
      svg += "<circle cx=\"\(x(point.falseAlarmRate))\" cy=\"\(y(point.missRate))\" r=\"\(chosen ? 7 : 3)\" fill=\"\(chosen ? "none" : "#2c3e50")\" stroke=\"#c0392b\" stroke-width=\"\(chosen ? 2 : 0)\"><title>threshold \(point.threshold)</title></circle>\n"
    }
    return svg + "</svg>\n"
  }
}
