import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@Suite("Voice warp")
struct VoiceWarpTests {
  /// A warp of three cepstra whose prediction is 100 c1 - 50 c2 + 10 (cents).
  static let warp = VoiceWarp(
    coefficients: [100, -50], intercept: 10, filters: 3, cepstra: 3, loudShare: 0.5, deadZone: 100, limit: 300, step: 25)

  @Test("the statistic is the mean over the loudest share of frames (by c0), without c0")
  func statistic() throws {
    // c0 = 0...9; the loudest half are frames 5...9, whose c1 is 5...9 and c2 twice that.
    let cepstra = (0..<10).map { [Float($0), Float($0), Float(2 * $0)] }
    let statistic = try #require(VoiceWarp.statistic(cepstra, count: 3, loudShare: 0.5))
    #expect(statistic == [7, 14])
    #expect(VoiceWarp.statistic(Array(cepstra.prefix(9)), count: 3, loudShare: 0.5) == nil, "fewer than 10 frames")
    #expect(VoiceWarp.statistic(cepstra.map { Array($0.prefix(2)) }, count: 3, loudShare: 0.5) == nil, "frames too short")
  }

  @Test("a voice within the dead zone is heard as it is; beyond it, warped by 2^(cents/1200), rounded and held within the limit")
  func factor() {
    let warp = Self.warp
    #expect(warp.factor(cents: 99) == 1 && warp.factor(cents: -99) == 1)
    #expect(warp.factor(cents: 300) == pow(2, 300.0 / 1200))
    #expect(warp.factor(cents: -112) == pow(2, -100.0 / 1200), "rounded to steps of 25")
    #expect(warp.factor(cents: -113) == pow(2, -125.0 / 1200))
    // c1 = 4, c2 = 0: 410 cents, held at 300.
    let high = (0..<10).map { _ in [Float(1), 4, 0] }
    #expect(warp.cents(high) == 300)
    #expect(warp.factor(high) == pow(2, 300.0 / 1200))
    // c1 = 1, c2 = 1: 60 cents, in the dead zone.
    #expect(warp.factor((0..<10).map { _ in [Float(1), 1, 1] }) == 1)
    #expect(warp.factor([]) == 1, "too short to measure")
  }

  @Test("a child's pitch in a voice not predicted below the model's people is warped by the child factor at least")
  func childVoice() {
    let warp = Self.warp
    // c1 = 2, c2 = 0: 210 cents; c1 = 1, c2 = 1: 60 (dead zone); c1 = -2, c2 = 0: -190.
    let high = (0..<10).map { _ in [Float(1), 2, 0] }
    let middle = (0..<10).map { _ in [Float(1), 1, 1] }
    let low = (0..<10).map { _ in [Float(1), -2, 0] }
    let child = VoiceWarp.childPitch
    #expect(warp.factor(middle, medianPitch: child) == VoiceWarp.childFactor)
    #expect(warp.factor(high, medianPitch: child + 50) == max(VoiceWarp.childFactor, pow(2, 200.0 / 1200)))
    #expect(warp.factor(middle, medianPitch: child - 1) == 1, "an adult's pitch")
    #expect(warp.factor(middle, medianPitch: nil) == 1, "too few voiced frames")
    #expect(warp.factor(low, medianPitch: child + 50) == pow(2, -200.0 / 1200), "formants predicted low: not a child")
    #expect(warp.factor([], medianPitch: child) == 1, "too short to measure")
    #expect(VoiceWarp.childFactor > pow(2, warp.limit / 1200), "beyond what the linear model may predict")
  }

  @Test("the child's warp is piecewise linear up to the cutoff in a whole utterance standing out from its background; other warps are inverse linear")
  func frontEndWarp() {
    let range = VoiceWarp.childPiecewiseRange
    let child = VoiceWarp.FrontEndWarp.piecewiseLinear(slope: 1 / VoiceWarp.childFactor, cutoff: VoiceWarp.childCutoff)
    #expect(VoiceWarp.frontEndWarp(forFactor: VoiceWarp.childFactor, dynamicRange: range) == child)
    #expect(VoiceWarp.frontEndWarp(forFactor: VoiceWarp.childFactor, dynamicRange: range - 0.1) == .inverseLinear(factor: VoiceWarp.childFactor), "in noise")
    #expect(
      VoiceWarp.frontEndWarp(forFactor: VoiceWarp.childFactor, dynamicRange: 60, soFar: true) == .inverseLinear(factor: VoiceWarp.childFactor),
      "an early decision's audio so far")
    #expect(VoiceWarp.frontEndWarp(forFactor: 1.19, dynamicRange: 60) == .inverseLinear(factor: 1.19), "the linear model's")
    #expect(VoiceWarp.frontEndWarp(forFactor: 0.84, dynamicRange: 60) == .inverseLinear(factor: 0.84))
    #expect(abs(child.factor - VoiceWarp.childFactor) < 1e-12 && child.cutoff == VoiceWarp.childCutoff)
    #expect(VoiceWarp.FrontEndWarp.inverseLinear(factor: 1.19).factor == 1.19 && VoiceWarp.FrontEndWarp.inverseLinear(factor: 1.19).cutoff == nil)
    #expect(VoiceWarp.childCutoff < 6800, "under the filterbank's top, where it would be the inverse linear warp again")
  }

  @Test("the median pitch of an utterance's voiced frames")
  func medianPitch() throws {
    // A 250 Hz voice-like tone (harmonics falling off) for 0.5 s between silences.
    let tone = TestSupport.harmonicTone(pitch: 250, seconds: 0.5, harmonics: 8)
    let samples = [Int16](repeating: 0, count: 4_000) + tone + [Int16](repeating: 0, count: 4_000)
    let periods = SignalEvidence.pitchPeriods(samples)
    let pitch = try #require(SignalEvidence.medianPitch(periods: periods))
    #expect(abs(pitch - 250) <= 250 * 0.05, "\(pitch) Hz")
    #expect(SignalEvidence.medianPitch(periods: [0, 0, 16, 16, 0]) == nil, "two voiced frames")
    #expect(SignalEvidence.medianPitch(periods: [20, 16, 0, 16, 25, 16], minimumFrames: 5) == 250)
  }

  @Test("fitting finds the linear model behind the examples")
  func fit() throws {
    var random = Signal.Random(seed: 3)
    let examples = (0..<200).map { _ -> (statistic: [Double], cents: Double) in
      let x = [Double.random(in: -5...5, using: &random), Double.random(in: -5...5, using: &random)]
      return (x, 40 * x[0] - 25 * x[1] + 7)
    }
    let (coefficients, intercept) = try #require(VoiceWarp.fit(examples, ridge: 1e-9))
    #expect(abs(coefficients[0] - 40) < 1e-6 && abs(coefficients[1] + 25) < 1e-6 && abs(intercept - 7) < 1e-6)
    #expect(VoiceWarp.fit(Array(examples.prefix(2))) == nil, "fewer examples than unknowns")
    #expect(VoiceWarp.fit(examples.map { ([1, 1], $0.cents) }, ridge: 0) == nil, "a statistic that never varies")
  }

  @Test("warp.json: written and read back; a broken one is one line naming the file")
  func file() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warp-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try VoiceWarp.load(modelFolder: folder.path) == nil, "no warp: voices heard as they are")
    let path = folder.appendingPathComponent(VoiceWarp.fileName)
    try Self.warp.json().write(to: path)
    #expect(try VoiceWarp.load(modelFolder: folder.path) == Self.warp)
    var wrong = Self.warp
    wrong.coefficients = [1]
    try wrong.json().write(to: path)
    #expect(throws: VoiceFileError.self) { try VoiceWarp.load(path.path) }
    try Data("{".utf8).write(to: path)
    do {
      _ = try VoiceWarp.load(path.path)
      Issue.record("a broken warp.json was read")
    } catch {
      #expect("\(error)".hasPrefix(path.path + ": not a voice warp"), "\(error)")
      #expect(!"\(error)".contains("\n"))
    }
  }
}
