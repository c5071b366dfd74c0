import Foundation

/// A word graph from the recognizer: every word it considered, where, and how well each
/// fitted. Pure data, so posteriors and alternates are computed (and tested) here.
public struct WordLattice: Hashable, Sendable {
  public struct Node: Hashable, Sendable {
    public var word: String
    /// Seconds.
    public var start: Double
    public var end: Double
    public init(word: String, start: Double, end: Double) {
      self.word = word
      self.start = start
      self.end = end
    }
  }

  public struct Link: Hashable, Sendable {
    public var from: Int
    public var to: Int
    /// Log score (natural log) of the `from` word ending here and `to` following.
    public var score: Double
    public init(from: Int, to: Int, score: Double) {
      self.from = from
      self.to = to
      self.score = score
    }
  }

  public var nodes: [Node]
  public var links: [Link]

  public init(nodes: [Node], links: [Link]) {
    self.nodes = nodes
    self.links = links
  }

  /// The posterior probability of each node: the share of all paths through the graph,
  /// weighted by their scores times `scale`, that pass through it. Scores are scaled down
  /// (as recognizers do, 1/20 or so) because acoustic frames are not independent.
  public func nodePosteriors(scale: Double) -> [Double] {
    guard !nodes.isEmpty else { return [] }
    var incoming = [[Int]](repeating: [], count: nodes.count)
    var outgoing = [[Int]](repeating: [], count: nodes.count)
    for (index, link) in links.enumerated() {
      outgoing[link.from].append(index)
      incoming[link.to].append(index)
    }
    // Links run forward in time, so start time orders the nodes.
    let order = nodes.indices.sorted { (nodes[$0].start, nodes[$0].end) < (nodes[$1].start, nodes[$1].end) }
    var forward = [Double](repeating: -.infinity, count: nodes.count)
    for node in order {
      if incoming[node].isEmpty {
        forward[node] = 0
      } else {
        forward[node] = logSum(incoming[node].map { forward[links[$0].from] + links[$0].score * scale })
      }
    }
    var backward = [Double](repeating: -.infinity, count: nodes.count)
    for node in order.reversed() {
      if outgoing[node].isEmpty {
        backward[node] = 0
      } else {
        backward[node] = logSum(outgoing[node].map { links[$0].score * scale + backward[links[$0].to] })
      }
    }
    let ends = nodes.indices.filter { outgoing[$0].isEmpty }
    let total = logSum(ends.map { forward[$0] })
    guard total.isFinite else { return [Double](repeating: 0, count: nodes.count) }
    return nodes.indices.map { min(1, max(0, exp(forward[$0] + backward[$0] - total))) }
  }

  /// For each word, how much posterior it holds at `time`: the sum over its nodes that span it.
  public func wordPosteriors(at time: Double, posteriors: [Double]) -> [String: Double] {
    var result: [String: Double] = [:]
    for (index, node) in nodes.enumerated() where node.start <= time && time < node.end {
      result[node.word, default: 0] += posteriors[index]
    }
    return result.mapValues { min(1, $0) }
  }

  /// `best` with each word's confidence set to its posterior, and the alternates: `best` with
  /// one word swapped for a competitor heard at the same time, scored by how much less likely
  /// the competitor is. At most `maximum` transcriptions in all, best first.
  public func annotate(_ best: Transcription, scale: Double, maximum: Int, isFiller: (String) -> Bool) -> [Transcription] {
    let posteriors = nodePosteriors(scale: scale)
    var annotated = best
    var candidates: [Transcription] = []
    for (index, segment) in best.segments.enumerated() where !isFiller(segment.word) {
      let middle = (segment.start + segment.end) / 2
      let shares = wordPosteriors(at: middle, posteriors: posteriors)
      let own = max(shares[segment.word] ?? 0, 1e-9)
      annotated.segments[index].confidence = own
      for (word, share) in shares where word != segment.word && !isFiller(word) && share > 1e-9 {
        var segments = best.segments
        segments[index] = WordSegment(
          word: word, start: segment.start, end: segment.end, score: segment.score, confidence: share)
        candidates.append(Transcription(segments: segments, score: best.score + min(0, log(share) - log(own))))
      }
    }
    var seen: Set<[String]> = [annotated.words]
    let alternates = candidates.sorted { $0.score > $1.score }.filter { seen.insert($0.words).inserted }
    return [annotated] + alternates.prefix(max(0, maximum - 1))
  }
}

/// log(sum(exp(values))) without overflow.
func logSum(_ values: [Double]) -> Double {
  guard let largest = values.max(), largest.isFinite else { return -.infinity }
  return largest + log(values.reduce(0) { $0 + exp($1 - largest) })
}
