import Testing

@testable import DirectMeApp

@Suite("personalize's warp for the enrolled voice")
struct PersonalizeTests {
  @Test("the warp with the fewest errors wins only by a clear gain; of two alike, the one nearer 1")
  func chosenWarp() {
    let tried: [(factor: Double, errors: Int)] = [(0.71, 13), (0.84, 12), (1.19, 8), (1.41, 6), (1.68, 2), (1.8, 2)]
    // 9 errors as heard: 1.68 and 1.8 make 7 fewer, and 1.68 lies nearer 1.
    #expect(PersonalizeJob.chosenWarp(asItIs: 9, tried: tried, recordings: 25) == 1.68)
    // 2 fewer is chance on 25 recordings (3 needed)...
    #expect(PersonalizeJob.chosenWarp(asItIs: 4, tried: tried, recordings: 25) == nil)
    #expect(PersonalizeJob.chosenWarp(asItIs: 5, tried: tried, recordings: 25) == 1.68)
    // ...and on 60 a tenth of them (6).
    #expect(PersonalizeJob.chosenWarp(asItIs: 7, tried: tried, recordings: 60) == nil)
    #expect(PersonalizeJob.chosenWarp(asItIs: 8, tried: tried, recordings: 60) == 1.68)
    // Down as well as up.
    #expect(PersonalizeJob.chosenWarp(asItIs: 6, tried: [(0.84, 1), (1.19, 2)], recordings: 20) == 0.84)
    #expect(PersonalizeJob.chosenWarp(asItIs: 6, tried: [], recordings: 20) == nil)
  }
}
