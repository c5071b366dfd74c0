import Testing

@testable import DirectMeRecognizer

@Suite("The final pass's search costs")
struct SearchCostTests {
  @Test("a pass's line reads back as the costs it was written from, to the tenth of a millisecond")
  func roundTrip() throws {
    let costs = [
      SearchCost(search: "commands+scoring", decodes: 1, frames: 98, seconds: 0.00794),
      SearchCost(search: "carried_garbage", decodes: 2, frames: 140, seconds: 0.0213),
    ]
    let line = SearchCost.line(costs)
    #expect(line == "search times: commands+scoring 1x 98 frames 7.9 ms; carried_garbage 2x 140 frames 21.3 ms")
    let read = try #require(SearchCost.parse(line[...]))
    #expect(read.map(\.search) == ["commands+scoring", "carried_garbage"])
    #expect(read.map(\.decodes) == [1, 2])
    #expect(read.map(\.frames) == [98, 140])
    #expect(abs(read[0].seconds - 0.0079) < 1e-9 && abs(read[1].seconds - 0.0213) < 1e-9)
  }

  @Test("other lines, and a line of the right prefix but another shape, are not costs")
  func otherLines() {
    #expect(SearchCost.parse("directme: warning: something else"[...]) == nil)
    #expect(SearchCost.parse("search times: garbage 1 frames 3.0 ms"[...]) == nil)
    #expect(SearchCost.parse("search times: garbage 1x 61 frames three ms"[...]) == nil)
  }

  @Test("the totals add each search's decodes, frames and time over the passes, costliest first")
  func totals() {
    let passes = [
      [SearchCost(search: "commands+scoring", decodes: 1, frames: 100, seconds: 0.008), SearchCost(search: "garbage", decodes: 1, frames: 60, seconds: 0.003)],
      [SearchCost(search: "commands+scoring", decodes: 1, frames: 90, seconds: 0.007), SearchCost(search: "garbage_words", decodes: 1, frames: 90, seconds: 0.025)],
    ]
    let totals = SearchCost.totals(passes)
    #expect(totals.map(\.search) == ["garbage_words", "commands+scoring", "garbage"])
    #expect(totals[1].decodes == 2 && totals[1].frames == 190 && abs(totals[1].seconds - 0.015) < 1e-12)
    #expect(SearchCost.totals([]).isEmpty)
  }
}
