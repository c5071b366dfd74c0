import DirectMeTestSupport
import Foundation
import Testing

/// scripts/bench-diff.py --where: a gate rule tried on a benchmark run's heard lines before it
/// is built.
struct BenchDiffTests {
  static let script = TestSupport.repositoryRoot.appendingPathComponent("scripts/bench-diff.py").path

  /// Three items as `directme-bench accuracy` writes them: an extra "up" of the babble beside
  /// the "down" said (faint, in an utterance of 0.9 s), an "up" said as faintly in one of 0.85 s,
  /// and another word read as "right" in an utterance of 1.2 s.
  static let items = [
    "condition\titem\texpected\tdirectme\tprevious\tbaseline\tdirectme heard\tbaseline heard",
    "babble\ta.wav\tdown\tup down\t-\t-\tup(m -26.0, c 0.70, run 50 ms, out 1.7 dB) down(m 75.7, c 1.00, run 100 ms, out 20.0 dB) / a (0.90 s, voiced 90 ms, range 20 dB, all voiced 300 ms, quiet voiced 30%)\t",
    "babble\tb.wav\tup\tup\t-\t-\tup(m 10.0, c 0.90, run 60 ms, out 3.0 dB) / but (0.85 s, voiced 60 ms, range 30 dB, all voiced 100 ms, quiet voiced 10%)\t",
    "other words\tc.wav\t\tright\t-\t-\tright(m 1.0, c 0.90, run 80 ms, out 2.0 dB) / go (1.20 s, voiced 80 ms, range 25 dB, all voiced 200 ms, quiet voiced 20%, warp 1.059)\t",
  ].joined(separator: "\n") + "\n"

  @Test(
    "--where refuses the taken words its expression holds for and reports each condition's gains and losses; a bad expression is one line",
    .enabled(if: TestSupport.which("python3") != nil, "needs python3"))
  func whereRule() throws {
    let folder = try TestSupport.temporaryFolder("bench-diff")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("accuracy-items.tsv")
    try Self.items.write(to: file, atomically: true, encoding: .utf8)

    let short = try TestSupport.run(["python3", Self.script, file.path, "--where", "0.8 <= seconds < 1 and out < 4"])
    #expect(short.status == 0, "\(short.stderr)")
    // The extra "up" goes (gained), so does the faint "up" said (lost); the 1.2-s "right" stays.
    #expect(short.stdout.contains("items gained 1, lost 1"), "\(short.stdout)")
    #expect(!short.stdout.contains("other words"), "\(short.stdout)")

    // The utterance's and the word's names: only the 1.2-s utterance, warped, over 1 s.
    let long = try TestSupport.run(["python3", Self.script, file.path, "--where", "seconds > 1 and warp > 1 and word == 'right'"])
    #expect(long.status == 0, "\(long.stderr)")
    #expect(long.stdout.contains("items gained 1, lost 0"), "\(long.stdout)")
    #expect(long.stdout.contains("other words"), "\(long.stdout)")

    // The other-words reading by name: "go" is the 1.2-s utterance's.
    let rival = try TestSupport.run(["python3", Self.script, file.path, "--where", "other == 'go'"])
    #expect(rival.status == 0 && rival.stdout.contains("items gained 1, lost 0"), "\(rival.stdout)")

    // A feature a word does not print (no speech likeness here) is nan: no word is refused.
    let unmeasured = try TestSupport.run(["python3", Self.script, file.path, "--where", "speech < 100"])
    #expect(unmeasured.status == 0 && unmeasured.stdout.contains("items gained 0, lost 0"), "\(unmeasured.stdout)")

    for (expression, message) in [("seconds <", "invalid syntax"), ("loudness > 1", "name 'loudness' is not defined")] {
      let bad = try TestSupport.run(["python3", Self.script, file.path, "--where", expression])
      #expect(bad.status != 0)
      #expect(bad.stdout.isEmpty)
      #expect(bad.stderr == "bench-diff: --where: \(message): \(expression)\n", "\(bad.stderr)")
    }
  }
}
