#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeCore

/// Fits a mixture of Gaussians with diagonal covariances to feature vectors by expectation
/// maximization, started from k-means++ centers (for `SoundClass`'s two mixtures). The same
/// vectors and seed give the same mixture.
public struct MixtureFitter: Sendable {
  public var components = 32
  public var iterations = 60
  /// The vectors fitted on at most (a seeded sample of them when there are more).
  public var maximumVectors = 120_000
  public var seed: UInt64 = 5
  /// The smallest variance a component keeps (the vectors are standardized).
  public var varianceFloor = 1e-3

  public init() {}

  /// The mixture of `vectors` (each of `dimensions` values).
  public func fit(_ vectors: [[Double]], dimensions: Int) -> SoundClass.Mixture {
    var random = Signal.Random(seed: seed)
    var chosen = vectors
    if chosen.count > maximumVectors {
      chosen.shuffle(using: &random)
      chosen = Array(chosen.prefix(maximumVectors))
    }
    let n = chosen.count
    let k = min(components, n)
    let d = dimensions
    let x = chosen.flatMap { $0 }
    // k-means++ centers on a sample.
    var means = [Double](repeating: 0, count: k * d)
    let first = Int.random(in: 0..<n, using: &random)
    for j in 0..<d { means[j] = x[first * d + j] }
    var nearest = [Double](repeating: .infinity, count: n)
    for c in 1..<max(k, 1) {
      var total = 0.0
      for i in 0..<n {
        var distance = 0.0
        for j in 0..<d {
          let difference = x[i * d + j] - means[(c - 1) * d + j]
          distance += difference * difference
        }
        nearest[i] = min(nearest[i], distance)
        total += nearest[i]
      }
      var target = Double.random(in: 0..<max(total, 1e-300), using: &random)
      var pick = n - 1
      for i in 0..<n {
        target -= nearest[i]
        if target <= 0 {
          pick = i
          break
        }
      }
      for j in 0..<d { means[c * d + j] = x[pick * d + j] }
    }
    var variances = [Double](repeating: 1, count: k * d)
    var weights = [Double](repeating: 1 / Double(k), count: k)
    var responsibilities = [Double](repeating: 0, count: n * k)
    for _ in 0..<iterations {
      // Expectation.
      var constants = [Double](repeating: 0, count: k)
      var precisions = [Double](repeating: 0, count: k * d)
      for c in 0..<k {
        var logDeterminant = 0.0
        for j in 0..<d {
          logDeterminant += log(2 * Double.pi * variances[c * d + j])
          precisions[c * d + j] = 1 / variances[c * d + j]
        }
        constants[c] = log(max(weights[c], 1e-300)) - 0.5 * logDeterminant
      }
      for i in 0..<n {
        var top = -Double.infinity
        for c in 0..<k {
          var sum = 0.0
          for j in 0..<d {
            let difference = x[i * d + j] - means[c * d + j]
            sum += difference * difference * precisions[c * d + j]
          }
          let value = constants[c] - 0.5 * sum
          responsibilities[i * k + c] = value
          top = max(top, value)
        }
        var total = 0.0
        for c in 0..<k {
          let value = exp(responsibilities[i * k + c] - top)
          responsibilities[i * k + c] = value
          total += value
        }
        for c in 0..<k { responsibilities[i * k + c] /= total }
      }
      // Maximization.
      var counts = [Double](repeating: 1e-10, count: k)
      var sums = [Double](repeating: 0, count: k * d)
      var squares = [Double](repeating: 0, count: k * d)
      for i in 0..<n {
        for c in 0..<k {
          let r = responsibilities[i * k + c]
          guard r > 1e-8 else { continue }
          counts[c] += r
          for j in 0..<d {
            let value = x[i * d + j]
            sums[c * d + j] += r * value
            squares[c * d + j] += r * value * value
          }
        }
      }
      for c in 0..<k {
        weights[c] = counts[c] / Double(n)
        for j in 0..<d {
          let mean = sums[c * d + j] / counts[c]
          means[c * d + j] = mean
          variances[c * d + j] = max(varianceFloor, squares[c * d + j] / counts[c] - mean * mean)
        }
      }
    }
    return SoundClass.Mixture(
      weights: weights,
      means: (0..<k).map { Array(means[$0 * d..<($0 + 1) * d]) },
      variances: (0..<k).map { Array(variances[$0 * d..<($0 + 1) * d]) })
  }
}
