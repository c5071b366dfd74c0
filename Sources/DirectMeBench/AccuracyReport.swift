import DirectMeCore
import Foundation

/// The accuracy benchmark's findings: a row per condition for DirectMe and the baseline,
/// the confusion matrix, and the miss / false-alarm curve with the chosen operating point.
public struct AccuracyReport: Codable, Sendable {
  public struct Row: Codable, Sendable {
    public var directMe: ConditionScore
    public var baseline: ConditionScore?
  }

  public var date: String
  public var settings: String
  public var rows: [Row]
  /// confusion[expected][recognized] for DirectMe over every item ("-" is nothing).
  public var confusion: [String: [String: Int]]
  public var curve: [Scoring.CurvePoint]
  public var chosenThreshold: Double?
  public var seconds: Double

  public init(
    outcomes: [ItemOutcome], interpreter: Interpreter, confidenceScale: Double, settings: String,
    curveThresholds: [Double], seconds: Double
  ) {
    date = ISO8601DateFormatter().string(from: Date())
    self.settings = settings
    self.seconds = seconds
    rows = Scoring.conditions(outcomes).map { condition in
      let subset = outcomes.filter { $0.item.condition == condition }
      let baseline = Scoring.baselineReport(subset)
      return Row(
        directMe: ConditionScore(condition: condition, report: Scoring.report(subset, interpreter: interpreter, emitted: true)),
        baseline: baseline.recordings.isEmpty ? nil : ConditionScore(condition: condition, report: baseline))
    }
    let matrix = Scoring.report(outcomes, interpreter: interpreter, emitted: true).confusion
    self.confusion = matrix.table
    // The curve is drawn on everything but the tuning half, which settings were chosen on.
    let held = outcomes.filter { $0.item.condition != CorpusBuilder.tuningHalf }
    let chosen = interpreter.settings.threshold(confidenceScale: confidenceScale)
    chosenThreshold = chosen
    curve = Scoring.curve(held, confidenceScale: confidenceScale, thresholds: Set(curveThresholds + [chosen]).sorted())
  }

  // MARK: Text

  public func text() -> String {
    func percent(_ value: Double?) -> String {
      value.map { String(format: "%5.1f%%", $0 * 100) } ?? "    - "
    }
    let width = max(28, rows.map(\.directMe.condition.count).max() ?? 0)
    var lines: [String] = []
    lines.append("settings: \(settings)")
    lines.append("")
    lines.append(
      "condition".padding(toLength: width, withPad: " ", startingAt: 0)
        + "  items   | DirectMe: accuracy  IER     false alarms | baseline: accuracy  IER     false alarms")
    for row in rows {
      let d = row.directMe
      let b = row.baseline
      lines.append(
        d.condition.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: "  %5d", d.items)
          + "   |           \(percent(d.utteranceAccuracy))  \(percent(d.instructionErrorRate))  \(percent(d.falseAlarmRate))     "
          + "|           \(percent(b?.utteranceAccuracy))  \(percent(b?.instructionErrorRate))  \(percent(b?.falseAlarmRate))")
    }
    lines.append("")
    lines.append("accuracy: exact direction sequence over items with a command; IER: instruction error rate;")
    lines.append("false alarms: items without a command that moved the ninja.")
    lines.append("")
    lines.append("misses against false alarms as the decision threshold moves (all but the tuning half);")
    lines.append("the threshold is how much better (natural log) the commands must explain an utterance")
    lines.append("than other words (below 0: the rescue margin for near-misses):")
    for point in curve {
      let mark = point.threshold == chosenThreshold ? "  <- chosen" : ""
      lines.append(
        String(format: "  threshold %6.1f: misses %5.1f%%, false alarms %5.1f%%", point.threshold, point.missRate * 100, point.falseAlarmRate * 100)
          + mark)
    }
    lines.append(String(format: "\n%.0f s", seconds))
    return lines.joined(separator: "\n")
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
    body += "<th>DirectMe accuracy</th><th>IER</th><th>false alarms</th><th>baseline accuracy</th><th>IER</th><th>false alarms</th></tr>\n"
    for row in rows {
      let d = row.directMe
      let b = row.baseline
      body += "<tr><td>\(escape(d.condition))</td><td>\(d.items)</td>"
      body += "<td>\(percent(d.utteranceAccuracy))</td><td>\(percent(d.instructionErrorRate))</td><td>\(percent(d.falseAlarmRate))</td>"
      body += "<td>\(percent(b?.utteranceAccuracy))</td><td>\(percent(b?.instructionErrorRate))</td><td>\(percent(b?.falseAlarmRate))</td></tr>\n"
    }
    body += "</table>\n"
    body += "<h2>Accuracy on commands (higher is better)</h2>\n" + barChart(rows.compactMap { row in
      row.directMe.utteranceAccuracy.map { (row.directMe.condition, $0, row.baseline?.utteranceAccuracy) }
    })
    body += "<h2>False alarms on everything else (lower is better)</h2>\n" + barChart(rows.compactMap { row in
      row.directMe.falseAlarmRate.map { (row.directMe.condition, $0, row.baseline?.falseAlarmRate) }
    })
    body += "<h2>Misses against false alarms</h2>\n<p>As the decision threshold moves, over every condition but the tuning half. The ring is the chosen operating point.</p>\n"
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

  /// Horizontal bars: DirectMe (dark) and the baseline (light) per condition.
  private func barChart(_ values: [(String, Double, Double?)]) -> String {
    let rowHeight = 26.0
    let labelWidth = 250.0
    let barWidth = 400.0
    let height = Double(values.count) * rowHeight + 30
    var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(labelWidth + barWidth + 80))\" height=\"\(Int(height))\" font-size=\"12\">\n"
    for (index, value) in values.enumerated() {
      let y = Double(index) * rowHeight + 5
      svg += "<text x=\"0\" y=\"\(y + 14)\">\(value.0)</text>\n"
      svg += "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(value.1 * barWidth)\" height=\"10\" fill=\"#2c3e50\"/>\n"
      svg += "<text x=\"\(labelWidth + value.1 * barWidth + 4)\" y=\"\(y + 9)\">\(String(format: "%.1f%%", value.1 * 100))</text>\n"
      if let baseline = value.2 {
        svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 11)\" width=\"\(baseline * barWidth)\" height=\"10\" fill=\"#bdc3c7\"/>\n"
        svg += "<text x=\"\(labelWidth + baseline * barWidth + 4)\" y=\"\(y + 20)\" fill=\"#7f8c8d\">\(String(format: "%.1f%%", baseline * 100))</text>\n"
      }
    }
    svg += "<text x=\"\(labelWidth)\" y=\"\(height - 5)\">dark: DirectMe, light: pocketsphinx_continuous with a four-word grammar</text>\n"
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
