import Testing

@testable import DirectMeCore

@Suite("Digital silence")
struct DigitalSilenceTests {
  @Test("runs of exact zeros of 10 ms or more become the faintest noise, the same each time; the rest is kept")
  func filled() {
    let speech: [Int16] = (0..<400).map { Int16(truncatingIfNeeded: ($0 * 37) % 2001 - 1000) | 1 }
    let shortGap = [Int16](repeating: 0, count: 100)
    let longGap = [Int16](repeating: 0, count: 4800)
    let samples = speech + shortGap + speech + longGap + speech
    let filled = Signal.filledDigitalSilence(samples)
    #expect(filled.count == samples.count)
    #expect(Array(filled[0..<900]) == Array(samples[0..<900]), "speech and a 100-sample gap kept")
    let gap = filled[900..<5700]
    #expect(gap.allSatisfy { abs(Int($0)) <= 2 } && gap.contains { $0 != 0 }, "the long gap is noise of 2 LSB at most")
    #expect(Array(filled[5700...]) == speech)
    #expect(Signal.filledDigitalSilence(samples) == filled, "seeded")
    #expect(Signal.filledDigitalSilence([]) == [])
  }
}
