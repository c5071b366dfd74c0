import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite(
  "Fuzz: grammar loading", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"))
struct GrammarFuzzTests {
  @Test("mutated JSGF grammars load or fail with an error naming the file, never a crash")
  func mutatedGrammars() throws {
    let configuration = RecognizerConfiguration(grammar: grammar)
    let decoder = try PocketSphinxRecognizer.makeDecoder(configuration)
    let folder = try TestSupport.temporaryFolder("gramfuzz")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("fuzz.gram")
    let seeds = [
      "#JSGF V1.0;\ngrammar g;\npublic <a> = up | down | (left right)+ | [move] <b>;\n<b> = /2/ right | /0.5/ left*;\n",
      "#JSGF V1.0;\ngrammar d;\npublic <u> = (<c> | <o>)+;\n<c> = [move [the ninja]] (up | down);\n<o> = cup | town | drown;\n",
    ].map { Array($0.utf8) }
    var random = FuzzRandom(seed: 4)
    var loaded = 0
    var refused = 0
    // Loading builds and sets a search each time: a tenth of the iterations of the pure fuzzers.
    for _ in 0..<max(200, FuzzRandom.iterations / 10) {
      try Data(random.mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)])).write(to: file)
      do {
        _ = try decoder.setGrammar(file.path, named: "fuzz")
        loaded += 1
      } catch let error as ConfigurationError {
        #expect(error.file == file.path)
        #expect(!error.problem.isEmpty && !error.problem.contains("\n"), "\(error.problem)")
        refused += 1
      }
    }
    #expect(loaded > 0 && refused > 0, "the mutations reach both outcomes (loaded \(loaded), refused \(refused))")
  }
}
