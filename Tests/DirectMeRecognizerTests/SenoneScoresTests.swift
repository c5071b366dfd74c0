import CPocketSphinx
import CSenoneScorer
import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite(
  "Senone scores shared between searches", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: canSpeak, "needs flite and sox (scripts/setup.sh)"))
struct SenoneScoresTests {
  /// Each text spoken by the test voices in turn, as samples.
  func spoken(_ texts: [String], tag: String) throws -> [[Int16]] {
    let folder = try TestSupport.temporaryFolder(tag)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try texts.enumerated().map { index, text in
      let file = folder.appendingPathComponent("\(index).wav")
      try TestSupport.speak(text, voice: voices[index % voices.count], to: file)
      return try TestSupport.samples(of: file)
    }
  }

  @Test("decoding an utterance's kept senone scores gives what decoding its audio gives, for every search")
  func sameReadings() throws {
    let decoder = try finalDecoder()
    #expect(decoder.canShareScores, "pocketsphinx's layout is the one directme_acmod checks for")
    // A short clip, then one far longer than the feature buffer (the case where reading
    // scores once overran pocketsphinx's frame positions), then the short one again.
    let clips = try spoken(["down", "move the ninja left. then go up. and right. up. up. down.", "right"], tag: "senscr")
    var first: Decoder.SenoneScores?
    for (index, samples) in clips.enumerated() {
      try decoder.select(search: "commands")
      let (reading, kept) = try decoder.decodeWholeKeepingScores(samples)
      let scores = try #require(kept)
      // The first dump tells the layout; the next ones are written into kept blocks.
      #expect(scores.inPooledBlock == (index > 0))
      if index == 0 { first = scores }
      for search in ["commands", "direction", "garbage"] {
        try decoder.select(search: search)
        let fromAudio = try decoder.decodeWhole(samples)
        let fromScores = try decoder.decode(scores)
        #expect(fromScores == fromAudio, "\(search)")
        if search == "commands" { #expect(reading == fromAudio) }
      }
    }
    // The same audio dumped into a kept block gives the same scores, byte for byte.
    try decoder.select(search: "commands")
    let again = try #require(try decoder.decodeWholeKeepingScores(clips[0]).1)
    #expect(again.inPooledBlock)
    #expect(try #require(again.frameScores) == (try #require(first?.frameScores)))
    // A block too small for the dump: written again the other way, the same scores. A larger
    // block kept (another decoder's, given back) must not change that: the dump fills only
    // what was asked (the test failed when other tests had given such blocks back).
    while DumpBuffers.shared.keptBytes > 0, let kept = DumpBuffers.shared.take(1) { free(kept.bytes) }
    let large = 2 << 20
    DumpBuffers.shared.give(try #require(malloc(large)).assumingMemoryBound(to: CChar.self), capacity: large)
    decoder.dumpFrameAllowance = -(clips[0].count / 160 / 2)
    let (cutReading, cut) = try decoder.decodeWholeKeepingScores(clips[0])
    let rewritten = try #require(cut)
    #expect(!rewritten.inPooledBlock)
    #expect(try #require(rewritten.frameScores) == (try #require(first?.frameScores)))
    try decoder.select(search: "commands")
    #expect(cutReading == (try decoder.decodeWhole(clips[0])))
  }

  @Test("pocketsphinx's list nodes come from DirectMe's pool, and its lists behave as sphinxbase's")
  func pooledLists() throws {
    let decoder = try finalDecoder()
    try decoder.select(search: "garbage")
    _ = try decoder.decodeWhole(try spoken(["left"], tag: "lists")[0])
    #expect(Decoder.pooledListBlocks > 0, "the FSG search's lists are built by the pool's glist_add_ptr")
    // glist.c's contract, through sphinxbase's header: newest first, reversal, count, tail,
    // a node freed from the middle, and its node used again.
    let cells = UnsafeMutablePointer<Int>.allocate(capacity: 3)
    defer { cells.deallocate() }
    var list: glist_t? = nil
    for index in 0..<3 { list = glist_add_ptr(list, cells + index) }
    #expect(glist_count(list) == 3)
    list = glist_reverse(list)
    #expect(list?.pointee.data.ptr == UnsafeMutableRawPointer(cells))
    #expect(glist_tail(list)?.pointee.data.ptr == UnsafeMutableRawPointer(cells + 2))
    let middle = list?.pointee.next
    let after = gnode_free(middle, list)
    #expect(after?.pointee.data.ptr == UnsafeMutableRawPointer(cells + 2))
    #expect(glist_count(list) == 2)
    let again = glist_add_int32(nil, -7)
    #expect(again == middle, "the node freed last is the next one handed out")
    #expect(again?.pointee.data.i == -7)
    glist_free(again)
    glist_free(list)
  }

  @Test("DirectMe's scorer gives pocketsphinx's senone scores, frame for frame")
  func ownScorer() throws {
    // Two decoders from the same start, one scored by pocketsphinx, one by DirectMe's scorer,
    // each decoding the same clips in turn: a frame's top Gaussians are sought starting from
    // an earlier frame's (the first frame of an utterance from pocketsphinx's fast-match
    // history), and when two score alike, which is kept depends on that start. One decoder
    // switching scorers between the two readings of a clip started the second from another
    // history: about 1 run in 15 found some first-frame scores of a noise clip differing.
    // DirectMe's scorer once with a helper thread scoring half the codebooks of the frames
    // scored together, once alone.
    let theirs = try finalDecoder()
    let ours = try finalDecoder()
    let alone = try finalDecoder()
    // One reading the model of another decoder of the same model (as the final pass's decoder
    // reads the streaming decoder's): the same scores.
    let sharing = try finalDecoder()
    let shared = sharing.shareModel(of: alone)
    #expect(shared.weights && shared.gaussians && sharing.sharesGaussians, "two decoders of one model share its weights and Gaussians")
    // Another model's (Debian's, the shipped one's base): its own.
    let debian = try finalDecoder(model: RecognizerConfiguration.defaultModelFolder + "/en-us")
    let notShared = debian.shareModel(of: alone)
    #expect(!notShared.weights && !notShared.gaussians, "another model's are not shared")
    theirs.scoresItself = false
    ours.scoresItself = true
    #expect(ours.scoresItself, "the shipped model is one the scorer reads")
    ours.threadsScoring = 2
    alone.threadsScoring = 1
    #expect(alone.threadsScoring == 1)
    // Read in place, transposed: `theirs` had it too, and gave the model back as it was.
    #expect(ours.scoresInPlace && !theirs.scoresInPlace)
    // The shipped model's log-additions (29 entries before they round to 0) are read with
    // byte shuffles on a processor with AVX2: the scores below check that path.
    let cpuFlags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
      .first { $0.hasPrefix("flags") }?.split(separator: " ") ?? []
    #expect(ours.readsShortAddTable == cpuFlags.contains("avx2"))
    // A helper needs the batched path (AVX2).
    #expect(ours.threadsScoring == (cpuFlags.contains("avx2") ? 2 : 1))
    for decoder in [theirs, ours, alone, sharing] { try decoder.select(search: "commands") }
    var clips = try spoken(["up", "please move the ninja down. then left.", "the brown town"], tag: "senscr-own")
    // Noise and near-silence too: every codebook's top Gaussians change from frame to frame,
    // and many score alike. Seeded, so that CI is repeatable; 40 runs with fresh noise each
    // passed.
    var random = Signal.Random(seed: 11)
    clips.append((0..<16_000).map { _ in Int16.random(in: -3000...3000, using: &random) })
    clips.append((0..<8_000).map { _ in Int16.random(in: -3...3, using: &random) })
    clips.append(clips[0])
    var scoredFrames = 0
    for samples in clips {
      let (theirReading, theirScores) = try theirs.decodeWholeKeepingScores(samples)
      let stock = try #require(theirScores?.frameScores)
      for decoder in [ours, alone, sharing] {
        let (ourReading, ourScores) = try decoder.decodeWholeKeepingScores(samples)
        #expect(ourReading == theirReading)
        let own = try #require(ourScores?.frameScores)
        #expect(own.count == stock.count)
        let differing = zip(own, stock).reduce(0) { $0 + zip($1.0, $1.1).filter { $0 != $1 }.count }
        let frames = zip(own, stock).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(
          differing == 0,
          "\(decoder.threadsScoring) threads: \(differing) of \(stock.count * (stock.first?.count ?? 0)) scores differ, in frames \(frames.prefix(10))")
      }
      scoredFrames += stock.count
    }
    // Every senone scored in a whole utterance, the frames are scored several at a time: all
    // of them, but maybe the last of each clip (alone at the start of a batch).
    #expect(ours.framesScoredTogether >= scoredFrames - clips.count && theirs.framesScoredTogether == 0)
    // The decoder read from going back to pocketsphinx's scoring first fills the sharer's own
    // Gaussians back: the same scores; and the sharer going back too gives its model back as
    // it was, which pocketsphinx scores as before.
    let (_, reference) = try theirs.decodeWholeKeepingScores(clips[0])
    alone.scoresItself = false
    #expect(!sharing.sharesGaussians)
    let (_, filledBack) = try sharing.decodeWholeKeepingScores(clips[0])
    sharing.scoresItself = false
    let (_, givenBack) = try sharing.decodeWholeKeepingScores(clips[0])
    let expected = try #require(reference?.frameScores)
    #expect(try #require(filledBack?.frameScores) == expected)
    #expect(try #require(givenBack?.frameScores) == expected)
  }

  @Test("passing over codewords under the lanes' floor keeps every codebook's top four and their order")
  func selectionFloor() throws {
    let differing = directme_senone_scorer_check_selection(200_000, 7)
    try #require(differing >= 0, "needs a processor with AVX2 (the floor is only on that path)")
    #expect(differing == 0, "\(differing) of 200,000 random codebooks' top four differ")
  }

  @Test("the streaming decoder (active senones only, live cepstral mean) hears the same with DirectMe's scorer")
  func ownScorerStreaming() throws {
    let configuration = shippedConfiguration()
    let clips = try spoken(["move the ninja left", "down. down. right.", "good morning"], tag: "senscr-streaming")
    // Two decoders from the same start (the live cepstral mean carries from one utterance to
    // the next), one scored by pocketsphinx, one by DirectMe's scorer: every partial reading
    // of every utterance the same, word times and scores included.
    var readings: [[Transcription?]] = []
    for own in [false, true] {
      let decoder = try PocketSphinxRecognizer.makeDecoder(configuration, extra: configuration.streamingDecoderOptions)
      try decoder.setGrammar(grammar, named: "directme", rules: [])
      decoder.scoresItself = own
      #expect(decoder.scoresItself == own, "the shipped model is one the scorer reads")
      var heard: [Transcription?] = []
      for samples in clips {
        try decoder.startUtterance()
        for start in stride(from: 0, to: samples.count, by: 1_600) {
          try decoder.process(Array(samples[start..<min(samples.count, start + 1_600)]))
          heard.append(decoder.bestTranscription())
        }
        try decoder.endUtterance()
        heard.append(decoder.bestTranscription())
      }
      readings.append(heard)
    }
    let differing = zip(readings[0], readings[1]).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) of \(readings[0].count) readings differ")
    #expect(readings[1].compactMap { $0 }.contains { $0.segments.contains { $0.word == "left" } })
  }

  @Test("a part of an utterance's kept scores decodes as that part of the utterance")
  func parts() throws {
    let decoder = try finalDecoder()
    // (The people's model reads all three words of this voice's "up. left. down."; since its
    // variances were held near Debian's, it reads the "up" of "left. up. down." as "then".)
    let samples = try spoken(["up. left. down."], tag: "senscr-parts")[0]
    try decoder.select(search: "commands")
    let (reading, kept) = try decoder.decodeWholeKeepingScores(samples)
    let scores = try #require(kept)
    let commands = try #require(reading).segments.filter { ["up", "down", "left", "right"].contains($0.word) }
    #expect(commands.map(\.word) == ["up", "left", "down"])
    try decoder.select(search: "direction")
    for word in commands {
      // The word and 50 ms either side.
      let frames = Int(word.start * 100) - 5..<Int(word.end * 100) + 5
      let part = try #require(scores.frames(frames))
      #expect(part.frameCount == frames.count)
      let heard = try decoder.decode(part)?.segments.first { !$0.isFiller }?.word
      #expect(heard == word.word)
    }
    // A part reaching past the end is clamped to what there is; a part of a part is not made.
    let tail = try #require(scores.frames(scores.frameCount - 10..<scores.frameCount + 50))
    #expect(tail.frameCount == 10)
    #expect(tail.frames(0..<5) == nil)
  }
}

/// The memory dumps of senone scores are written into (no model needed).
@Suite("Blocks for senone-score dumps")
struct DumpBufferTests {
  @Test("blocks for dumps are kept for reuse, the smallest that fits first, never more than the limit")
  func dumpBuffers() throws {
    let buffers = DumpBuffers()
    let small = try #require(buffers.take(1000))
    let large = try #require(buffers.take(300_000))
    #expect(small.capacity >= 1000 && large.capacity >= 300_000 && buffers.keptBytes == 0)
    buffers.give(large.bytes, capacity: large.capacity)
    buffers.give(small.bytes, capacity: small.capacity)
    #expect(buffers.keptBytes == small.capacity + large.capacity)
    // The smallest block that holds what is asked for.
    let again = try #require(buffers.take(500))
    #expect(again.bytes == small.bytes)
    let big = try #require(buffers.take(200_000))
    #expect(big.bytes == large.bytes && buffers.keptBytes == 0)
    // Beyond the limit a block given back is freed, not kept.
    let huge = try #require(buffers.take(DumpBuffers.limit))
    buffers.give(again.bytes, capacity: again.capacity)
    buffers.give(huge.bytes, capacity: huge.capacity)
    #expect(buffers.keptBytes == again.capacity)
    buffers.give(big.bytes, capacity: big.capacity)
    #expect(buffers.keptBytes == again.capacity + big.capacity)
  }

  @Test("a byte sink counts what its stream wrote, after the stream is closed, and drops what does not fit, flagged")
  func byteSink() throws {
    let bytes = UnsafeMutablePointer<CChar>.allocate(capacity: 16)
    defer { bytes.deallocate() }
    let sink = try #require(directme_byte_sink_create(bytes, 16))
    defer { directme_byte_sink_free(sink) }
    let stream = try #require(directme_byte_sink_open(sink))
    #expect(fwrite("0123456789", 1, 10, stream) == 10)
    fclose(stream)
    #expect(directme_byte_sink_count(sink) == 10 && directme_byte_sink_overflowed(sink) == 0)
    #expect(String(decoding: UnsafeRawBufferPointer(start: bytes, count: 10), as: UTF8.self) == "0123456789")
    // The write that does not fit succeeds for the writer (pocketsphinx's search would read
    // scores from NULL after a failed one); the sink keeps what it had and is flagged.
    let again = try #require(directme_byte_sink_open(sink))
    #expect(fwrite("0123456789", 1, 10, again) == 10)
    #expect(fclose(again) == 0)
    #expect(directme_byte_sink_overflowed(sink) == 1 && directme_byte_sink_count(sink) == 10)
  }
}
