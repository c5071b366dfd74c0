import DirectMeCore
import DirectMeTraining
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// `directme adapt`: adapts an acoustic model to labelled recordings through sphinxtrain,
/// with a progress bar, refusing to overwrite a model unless asked.
public struct AdaptJob {
  public var labels: [String]
  public var out: String
  public var options: AdaptationOptions
  public var force: Bool
  public var keepWork: Bool
  public var output: Output

  public init(labels: [String], out: String, options: AdaptationOptions, force: Bool, keepWork: Bool, output: Output = .standard) {
    self.labels = labels
    self.out = out
    self.options = options
    self.force = force
    self.keepWork = keepWork
    self.output = output
  }

  public func run() throws {
    let outURL = URL(fileURLWithPath: out)
    if FileManager.default.fileExists(atPath: outURL.path),
      !((try? FileManager.default.contentsOfDirectory(atPath: outURL.path))?.isEmpty ?? false), !force
    {
      throw Failure("\(out): already exists and is not empty (pass --force to replace it)")
    }
    let (recordings, problems) = try LabelledAudioReader.read(labels)
    for problem in problems { output.warning("\(programName): error: \(problem)") }
    if !problems.isEmpty { throw Failure.problems(problems.count, in: "the labels", "nothing was adapted") }
    let (items, skipped) = AdaptationItem.items(from: recordings)
    if skipped > 0 { output.warning("adapt: \(skipped) non-command recordings have no transcript (third column) and are left out") }
    guard !items.isEmpty else { throw Failure("no recordings to adapt on in \(labels.joined(separator: ", "))") }
    let work = URL(fileURLWithPath: out + ".work")
    try? FileManager.default.removeItem(at: work)
    defer { if !keepWork { try? FileManager.default.removeItem(at: work) } }
    let bar = StageProgress()
    let summary = try ModelAdapter(options: options).adapt(items, output: outURL, work: work) { progress in
      bar.update(progress.stage, progress.done, progress.total)
    }
    bar.finish()
    output.line(Self.summaryLine(summary, out: out))
  }

  /// What the adaptation did, in one line: the recordings and every kind of copy made of them.
  static func summaryLine(_ summary: AdaptationSummary, out: String) -> String {
    "adapted \(summary.baseModel)\(summary.onlyPhones.map { "'s \($0.joined(separator: ", ")) only" } ?? "") by \(summary.method.uppercased()) on \(summary.recordings) recordings "
      + "(\(String(printf: "%.1f", summary.seconds / 60)) min"
      + (summary.noisyCopies > 0
        ? ", plus \(summary.noisyCopies.counting("noisy copy", plural: "noisy copies")) each at \(summary.snr ?? "") dB" : "")
      + copies(summary.reverberantCopies, "in a reverberant room") + copies(summary.shiftedVoiceCopies, "in a shifted voice")
      + copies(summary.clippedCopies, "clipped")
      + (summary.priorWeight.map { ", prior weight \(String(printf: "%g", $0))" } ?? "")
      + ") -> \(out)"
  }

  /// ", N copies KIND" when some were made.
  private static func copies(_ count: Int?, _ kind: String) -> String {
    guard let count, count > 0 else { return "" }
    return ", \(count.counting("copy", plural: "copies")) \(kind)"
  }
}
