import DirectMeCore
import Foundation
import Testing

@Suite("Word verifier")
struct WordVerifierTests {
  /// One second of a tone at `hz`, amplitude `level` of full scale.
  static func tone(_ hz: Double, level: Double = 0.3, seconds: Double = 1) -> [Int16] {
    (0..<Int(seconds * 16000)).map { Int16(level * 32767 * sin(2 * Double.pi * hz * Double($0) / 16000)) }
  }

  /// A verifier whose hidden layer copies two features (the first and the last frame's
  /// lowest filter, standardized to themselves) and whose output says "up" for the first,
  /// "" (none) for the second.
  static func handMade(frontEnd: WordVerifier.FrontEnd = .init(filters: 2, frames: 2), weight: Double = 5) -> WordVerifier {
    let n = frontEnd.featureCount
    var first = [Double](repeating: 0, count: n)
    first[0] = 1
    var second = [Double](repeating: 0, count: n)
    second[n - 1] = 1
    return WordVerifier(
      classes: ["up", ""], weight: weight, frontEnd: frontEnd, mean: [Double](repeating: 0, count: n),
      scale: [Double](repeating: 1, count: n), hidden: [first, second], hiddenBias: [0, 0], output: [[1, 0], [0, 1]],
      outputBias: [0, 0])
  }

  @Test("the network's probabilities are its softmax over rectified hidden units")
  func probabilities() throws {
    let verifier = Self.handMade()
    #expect(verifier.problem == nil)
    let n = verifier.featureCount
    var x = [Double](repeating: 0, count: n)
    x[0] = 2
    x[n - 1] = -3  // rectified to 0
    let p = verifier.probabilities(x)
    #expect(abs(p[0] - 1 / (1 + exp(-2))) < 1e-12)
    #expect(abs(p.reduce(0, +) - 1) < 1e-12)
    // The margin moves by weight times the log-odds, the probability held within 1e-4 of 0 and 1.
    #expect(abs(verifier.verifiedMargin(10, probability: 0.5) - 10) < 1e-12)
    #expect(abs(verifier.verifiedMargin(10, probability: 0.9) - (10 + 5 * log(9))) < 1e-9)
    #expect(abs(verifier.verifiedMargin(0, probability: 0) - 5 * log(1e-4 / (1 - 1e-4))) < 1e-9)
    // Every word is weighed, or only those below `belowMargin`.
    #expect(verifier.weighs(margin: 50))
    var unsure = verifier
    unsure.belowMargin = 0
    #expect(unsure.weighs(margin: -0.5) && !unsure.weighs(margin: 0) && !unsure.weighs(margin: 12))
  }

  @Test("a file whose layers do not fit its front end names the problem")
  func problems() throws {
    var verifier = Self.handMade()
    verifier.hidden[1].removeLast()
    #expect(verifier.problem?.contains("hidden layer") == true)
    verifier = Self.handMade()
    verifier.classes = ["up", "down"]
    #expect(verifier.problem?.contains("empty class") == true)
    verifier = Self.handMade()
    verifier.scale[0] = 0
    #expect(verifier.problem?.contains("positive scales") == true)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifier-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(WordVerifier.fileName).path
    try verifier.json().write(to: URL(fileURLWithPath: path))
    #expect(throws: (any Error).self) { try WordVerifier.load(path) }
    do {
      _ = try WordVerifier.load(path)
    } catch {
      #expect("\(error)".contains(path) && "\(error)".contains("positive scales"))
    }
    #expect(try WordVerifier.load(modelFolder: folder.appendingPathComponent("none").path) == nil, "no file: no verifier")
  }

  @Test("the front end hears where a sound's energy lies and when, and the word's duration")
  func frontEnd() {
    let frontEnd = WordVerifier.FrontEnd()
    #expect(frontEnd.featureCount == 24 * 40 + 1)
    // A tone burst over 0.4-0.5 s of silence, heard over the stretch 0.3-0.6 s (0.25-0.65 s with the pad).
    let burst = { (hz: Double, level: Double) -> [Double] in
      var samples = [Int16](repeating: 0, count: 16000)
      let tone = Self.tone(hz, level: level)
      for i in 6400..<8000 { samples[i] = tone[i] }
      return frontEnd.features(samples, start: 0.3, end: 0.6)
    }
    let low = burst(300, 0.3)
    let high = burst(3000, 0.3)
    #expect(low.count == frontEnd.featureCount && low.allSatisfy { $0.isFinite })
    // In a frame of the burst (the middle of the 24), the filter holding the tone stands highest.
    let peak = { (features: [Double], frame: Int) in (0..<40).max { features[frame * 40 + $0] < features[frame * 40 + $1] }! }
    #expect(peak(high, 12) > peak(low, 12) + 10, "300 Hz peaks in filter \(peak(low, 12)), 3 kHz in \(peak(high, 12))")
    // Each filter's mean over the stretch is taken out: the burst's frames lie above 0 in its
    // filter, the silence's below.
    #expect(low[12 * 40 + peak(low, 12)] > 0 && low[peak(low, 12)] < 0)
    // The last feature is the log of the word's duration.
    #expect(abs(low.last! - log(0.3 + 1e-3)) < 1e-12)
    // A stretch at the very start or end of the audio, or shorter than a frame, still gives features.
    #expect(frontEnd.features(Self.tone(300, seconds: 0.02), start: 0, end: 0.01).count == frontEnd.featureCount)
    #expect(frontEnd.features(Self.tone(300), start: 0.98, end: 1.2).allSatisfy { $0.isFinite })
  }
}
